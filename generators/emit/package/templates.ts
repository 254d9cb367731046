import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import type Handlebars from 'handlebars';
import { readToolkitFile, requirePrecompiled, toolkitFilePath } from '../../shared/toolkit-files.js';

/**
 * How the templates compile. Output is code and markdown, not HTML: no HTML escaping; values are
 * escaped by the helpers below, and `strict` makes a misspelled variable fail the build.
 */
export const TEMPLATE_OPTIONS = { noEscape: true, strict: true } as const;

/** The templates other templates include (`{{> name}}`). */
const PARTIALS = ['event-validators'];

/**
 * Where `npm run build:tool` (`scripts/precompile.ts`) writes the templates precompiled, below
 * `generators/` in the compiled toolkit: a build then loads Handlebars' run time alone, not its compiler.
 */
export const PRECOMPILED_TEMPLATES = 'emit/package/templates.compiled.cjs';

/** What the precompiled module holds, by template name: the digest of the text compiled, and the code. */
export type PrecompiledTemplates = Record<string, { digest: string; spec: TemplateSpecification }>;
type TemplateSpecification = Parameters<typeof Handlebars.template>[0];

/** The names of the package templates (`templates/<name>.hbs`), sorted. */
export function templateNames(): string[] {
  return readdirSync(toolkitFilePath('emit/package/templates'))
    .filter((file) => file.endsWith('.hbs'))
    .map((file) => file.slice(0, -'.hbs'.length))
    .sort();
}

/** A template's text. */
export function templateSource(name: string): string {
  return readToolkitFile(`emit/package/templates/${name}.hbs`);
}

/** The digest a precompiled template is checked against its source with. */
export function templateDigest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

const require = createRequire(import.meta.url);
let environment: ((name: string, data: object) => string) | undefined;

/** Renders `templates/<name>.hbs` (see `TEMPLATE_OPTIONS`). */
export function render(name: string, data: object): string {
  environment ??= createEnvironment();
  return environment(name, data);
}

/**
 * Handlebars' run time with the helpers, and the precompiled templates: refused (`toolkit-not-built`)
 * unless compiled from the text the sources hold now, so a stale precompiled file never shapes the output.
 */
function createEnvironment(): (name: string, data: object) => string {
  const precompiled = requirePrecompiled<PrecompiledTemplates>(
    PRECOMPILED_TEMPLATES,
    'the precompiled package templates',
    (module) => isCurrent(module, templateNames(), templateSource),
  );
  const handlebars: typeof Handlebars = require('handlebars/runtime').create();
  // Every value reaching generated code goes through one of these: nothing is pasted in raw.
  handlebars.registerHelper('json', (value: unknown) => JSON.stringify(value));
  handlebars.registerHelper('comment', (value: unknown) => String(value).replaceAll('*/', '*\\/'));
  const templates = new Map<string, Handlebars.TemplateDelegate>();
  const template = (name: string): Handlebars.TemplateDelegate => {
    let found = templates.get(name);
    if (!found) {
      found = handlebars.template(precompiled[name]!.spec);
      templates.set(name, found);
    }
    return found;
  };
  for (const partial of PARTIALS) handlebars.registerPartial(partial, template(partial));
  return (name, data) => template(name)(data);
}

/** Whether `precompiled` holds exactly the templates `names`, each compiled from the text `source` gives now. */
export function isCurrent(
  precompiled: PrecompiledTemplates,
  names: readonly string[],
  source: (name: string) => string,
): boolean {
  return (
    names.length === Object.keys(precompiled).length &&
    names.every(
      (name) =>
        Object.hasOwn(precompiled, name) && precompiled[name]!.digest === templateDigest(source(name)),
    )
  );
}

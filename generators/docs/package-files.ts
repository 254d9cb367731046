import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { interfaceName } from '../load/event-key.js';
import type { Group } from '../model.js';
import type { ErrorCode } from '../shared/error-codes.js';

/**
 * What the site takes from the BUILT group packages (`eventry build` output): the precompiled validator
 * modules and run time the playground runs (copied byte for byte: the same code the npm package ships),
 * the examples and the TypeScript interfaces. Nothing is regenerated here.
 */

/** A problem that stops the site from being written, with a stable code. */
export interface DocsProblem {
  code: ErrorCode<'docs'>;
  /** The file concerned. */
  file: string;
  message: string;
}

/** One built group package, read lazily event by event. */
export interface BuiltPackage {
  name: string;
  /** `version` of its package.json, as text. */
  version: string;
  dir: string;
  /** The run time package's name (`<scope>/runtime`), which the validators import. */
  runtimeName: string;
  /** The run time's entry `runtime.js` and the modules it imports, each as the run time package ships it. */
  runtime: RuntimeModule[];
  types: string;
  /**
   * The playground's random payloads: the run time's test data modules and the group's compiled data
   * (`testing-data.js`), each as the packages ship it; absent for packages built without them.
   */
  testing?: { runtime: string; values: string; rules: string; repair: string; data: string };
}

/** The examples file of an event, as the package ships it. */
export interface Examples {
  minimal: unknown;
  full: unknown;
}

/** Reads a group's built package, or says why it cannot be used. */
export function openBuiltPackage(packagesDir: string, group: Group): BuiltPackage | DocsProblem {
  const dir = join(packagesDir, group.slug);
  const manifest = join(dir, 'package.json');
  let name: string;
  let version: string;
  try {
    const fields = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown; version?: unknown };
    name = String(fields.name);
    version = String(fields.version);
  } catch {
    return {
      code: 'docs-package-missing',
      file: manifest,
      message: `no built package for group \`${group.slug}\`; run \`eventry build\` first (or give --packages <dir>).`,
    };
  }
  try {
    return {
      name,
      version,
      dir,
      runtimeName: `${name.split('/')[0]}/runtime`,
      // The run time package beside the groups (`packages/runtime/`), shared by every group.
      runtime: readRuntimeModules(join(packagesDir, 'runtime')),
      types: readFileSync(join(dir, 'types.d.ts'), 'utf8'),
      ...readTesting(packagesDir, dir),
    };
  } catch (error) {
    return {
      code: 'docs-package-missing',
      file: dir,
      message: `the package of group \`${group.slug}\` is incomplete (${(error as Error).message}); run \`eventry build\`.`,
    };
  }
}

/** One module of the run time package: its file name in the package and its text. */
export interface RuntimeModule {
  name: string;
  text: string;
}

/**
 * `runtime.js` and every module it imports, found by following its relative imports (`./x.js`), so the
 * site ships what the validators load and no more (not the test data or the fast-check loader).
 */
function readRuntimeModules(runtimeDir: string): RuntimeModule[] {
  const modules: RuntimeModule[] = [];
  const pending = ['runtime.js'];
  const seen = new Set(pending);
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    const text = readFileSync(join(runtimeDir, name), 'utf8');
    modules.push({ name, text });
    for (const match of text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s*['"]\.\/([\w.-]+\.js)['"]/gm)) {
      if (seen.has(match[1]!)) continue;
      seen.add(match[1]!);
      pending.push(match[1]!);
    }
  }
  return modules.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The test data modules of a built group package, when it has them (see `BuiltPackage.testing`). */
function readTesting(packagesDir: string, dir: string): Pick<BuiltPackage, 'testing'> {
  try {
    return {
      testing: {
        runtime: readFileSync(join(packagesDir, 'runtime', 'testing.js'), 'utf8'),
        values: readFileSync(join(packagesDir, 'runtime', 'testing-values.js'), 'utf8'),
        rules: readFileSync(join(packagesDir, 'runtime', 'testing-rules.js'), 'utf8'),
        repair: readFileSync(join(packagesDir, 'runtime', 'testing-repair.js'), 'utf8'),
        data: readFileSync(join(dir, 'testing-data.js'), 'utf8'),
      },
    };
  } catch {
    return {};
  }
}

/**
 * Bare imports a generated validator may make, and where the site ships each (a browser resolves
 * relative URLs only, and an import map would be an inline script `script-src 'self'` forbids).
 */
export const VENDORED: ReadonlyMap<string, { asset: string; exports: readonly string[] }> = new Map([
  [
    'ajv-formats/dist/formats.js',
    { asset: 'assets/vendor/ajv-formats.js', exports: ['fullFormats', 'fastFormats', 'formatNames'] },
  ],
]);

/** A validator module as the site ships it, the vendored modules and the package's chunks it needs. */
export interface ValidatorModule {
  /** The module in the package. */
  file: string;
  text: string;
  vendored: string[];
  /** The chunk modules (`chunks/<n>.js`, by path in the package) that hold its validators. */
  chunks: string[];
  /** Whether `text` is the file's own (no import pointed elsewhere): then it may be hard-linked. */
  unchanged: boolean;
}

/**
 * The validator module of one event, as the package ships it. Its code is unchanged; only the
 * specifier of a vendored import is pointed at the site's copy (`pkg/<group>/events/` is three
 * levels below the root). Any other import is a problem.
 */
export function readValidatorModule(pkg: BuiltPackage, key: string): ValidatorModule | DocsProblem {
  return readShippedModule(pkg, `events/${key}.js`, key);
}

/** A chunk module (`chunks/<n>.js`) as the site ships it, beside the events that import it. */
export function readChunkModule(pkg: BuiltPackage, path: string): ValidatorModule | DocsProblem {
  return readShippedModule(pkg, path, path);
}

/** What an event's entry point imports the event part of the run time as (docs/decisions/0195). */
const EVENT_RUNTIME = '../event-runtime.js';

function readShippedModule(pkg: BuiltPackage, path: string, key: string): ValidatorModule | DocsProblem {
  const file = join(pkg.dir, path);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return {
      code: 'docs-package-stale',
      file,
      message: `the built package has no validator for \`${key}\`: it is older than the catalogue; run \`eventry build\`.`,
    };
  }
  const vendored: string[] = [];
  const chunks: string[] = [];
  for (const match of text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]/gm)) {
    const specifier = match[1]!;
    // The run time: by name (packages built before 0175), the package's own copy beside `events/`, or
    // the part of it an event's entry point imports (0195), which the site's copy holds too.
    if (specifier === pkg.runtimeName || specifier === '../runtime.js' || specifier === EVENT_RUNTIME)
      continue;
    const chunk = /^\.\.\/(chunks\/\d+\.js)$/.exec(specifier);
    if (chunk) {
      chunks.push(chunk[1]!);
      continue;
    }
    const shipped = VENDORED.get(specifier);
    if (!shipped) {
      return {
        code: 'docs-validator-import',
        file,
        message: `the validator imports \`${specifier}\`, which the site cannot ship to the browser.`,
      };
    }
    vendored.push(specifier);
  }
  const original = text;
  // The site keeps a copy of the run time beside each group's validators: `pkg/<group>/runtime.js`.
  text = text
    .replaceAll(`"${pkg.runtimeName}"`, `'../runtime.js'`)
    .replaceAll(`"${EVENT_RUNTIME}"`, `'../runtime.js'`);
  for (const specifier of vendored) {
    const asset = `../../../${VENDORED.get(specifier)!.asset}`;
    text = text.replaceAll(`'${specifier}'`, `'${asset}'`).replaceAll(`"${specifier}"`, `"${asset}"`);
  }
  return { file, text, vendored, chunks, unchanged: text === original };
}

/**
 * A CommonJS module of the toolkit's dependencies as an ES module for the browser: its code runs
 * unchanged inside a function given `module` and `exports`, and its named exports are re-exported.
 * Only for self-contained files (no `require`), which `vendoredModule` checks.
 */
export function vendoredModule(specifier: string): string {
  const shipped = VENDORED.get(specifier)!;
  const path = createRequire(import.meta.url).resolve(specifier);
  const source = readFileSync(path, 'utf8');
  if (/\brequire\s*\(/.test(source))
    throw new Error(`eventry: ${specifier} requires other modules; it cannot be vendored as is`);
  return [
    `// ${specifier}, wrapped as an ES module for the browser by eventry docs. Its licence: the package's LICENSE.`,
    'const cjs = { exports: {} };',
    '(function (module, exports) {',
    // Its source map is not shipped: a map comment would point devtools at a file that is not there.
    source.replace(/^\/\/# sourceMappingURL=.*$/m, ''),
    '})(cjs, cjs.exports);',
    ...shipped.exports.map((name) => `export const ${name} = cjs.exports.${name};`),
    '',
  ].join('\n');
}

/** The minimal and full examples the package ships for an event. */
export function readExamples(pkg: BuiltPackage, key: string): Examples | DocsProblem {
  const file = join(pkg.dir, 'examples', `${key}.json`);
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Examples;
    return { minimal: parsed.minimal, full: parsed.full };
  } catch {
    return {
      code: 'docs-package-stale',
      file,
      message: `the built package has no examples for \`${key}\`; run \`eventry build\`.`,
    };
  }
}

/** Interface declarations of a package's types.d.ts by interface name, indexed on first use. */
const interfacesOf = new WeakMap<BuiltPackage, Map<string, string>>();

/**
 * The event's interface declaration (with its doc comment) from the package's types.d.ts. The file is
 * split and indexed once per package: splitting it again for every event of a large group was a
 * quadratic share of a 10,000-event site build.
 */
export function interfaceText(pkg: BuiltPackage, key: string): string | undefined {
  let interfaces = interfacesOf.get(pkg);
  if (!interfaces) {
    interfaces = indexInterfaces(pkg.types);
    interfacesOf.set(pkg, interfaces);
  }
  return interfaces.get(interfaceName(key));
}

function indexInterfaces(types: string): Map<string, string> {
  const interfaces = new Map<string, string>();
  const lines = types.split('\n');
  for (let start = 0; start < lines.length; start++) {
    const match = /^export interface (\S+) /.exec(lines[start]!);
    if (!match || interfaces.has(match[1]!)) continue;
    let first = start;
    if (lines[start - 1]?.trim() === '*/') {
      while (first > 0 && !lines[first]!.startsWith('/**')) first--;
    }
    let end = start;
    while (end < lines.length && lines[end] !== '}') end++;
    interfaces.set(match[1]!, lines.slice(first, end + 1).join('\n'));
  }
  return interfaces;
}

/** Whether a value is a problem rather than what was read. */
export function isProblem(value: unknown): value is DocsProblem {
  return (
    typeof value === 'object' && value !== null && 'code' in value && 'message' in value && 'file' in value
  );
}

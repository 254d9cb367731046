import type { ErrorObject, Options, ValidateFunction } from 'ajv/dist/2020.js';
import type { CatalogueConfig } from '../model.js';
import catalogueFileSchema from '../schema/source/catalogue-file.schema.json' with { type: 'json' };
import configSchema from '../schema/source/config.schema.json' with { type: 'json' };
import { requirePrecompiled } from '../shared/toolkit-files.js';
import type { RawConfig } from './definition.js';
import type { CatalogueProblem } from './problem.js';
import { suggest } from './suggest.js';
import { fromPointer, type YamlSource } from './yaml-source.js';

let validators: { file: ValidateFunction; config: ValidateFunction<RawConfig> } | undefined;

// ajv compiles the recursive `typeName` as a function of its own, so its errors' schemaPath starts at
// `#/anyOf` and never names it: recognise them by the schema they come from instead (by its text: the
// precompiled validators hold copies of the schema objects).
const TYPE_NAME_SCHEMAS = new Set<string>(
  [catalogueFileSchema.$defs.typeName, ...catalogueFileSchema.$defs.typeName.anyOf].map((schema) =>
    JSON.stringify(schema),
  ),
);

/** How the catalogue format's schemas are compiled, at build time (`scripts/precompile.ts`) or here. */
export const LOAD_AJV_OPTIONS: Options = {
  allErrors: true,
  strict: true,
  verbose: true,
  allowUnionTypes: true,
};

/** The schemas the loader checks files against, by the name their validators are exported as. */
export const LOAD_SCHEMAS = { file: catalogueFileSchema, config: configSchema } as const;

/**
 * Where `npm run build:tool` writes the loader's validators (ajv standalone code) below `generators/` in
 * the compiled toolkit: compiling them in each run cost every command that loads a catalogue.
 */
export const PRECOMPILED_LOAD_VALIDATORS = 'schema/source/validators.cjs';

/** What to write instead, by the JSON type ajv expected. */
const TYPE_HINTS: Record<string, string> = {
  boolean: 'Write `true` or `false`, without quotes.',
  string: 'Write text; quote it if YAML would read it as a number, boolean or date.',
  object: 'Write a mapping of `key: value` entries.',
  array: 'Write a list, `[a, b]`.',
  integer: 'Write a whole number, without quotes.',
  number: 'Write a number, without quotes.',
};

function getValidators() {
  validators ??= requirePrecompiled<NonNullable<typeof validators>>(
    PRECOMPILED_LOAD_VALIDATORS,
    "the catalogue format's precompiled validators",
  );
  return validators;
}

/**
 * Checks a parsed file against the catalogue format's JSON Schema (the same one editors use) and turns
 * each ajv error into a located problem. Type names and event keys are left to the resolver, which
 * knows the shapes and reports them with a did-you-mean.
 */
export function checkFileShape(source: YamlSource, kind: 'file' | 'config'): CatalogueProblem[] {
  const validate = getValidators()[kind];
  if (validate(source.value)) return [];
  return problemsOf(source, validate);
}

/** The config file's settings when they have the schema's shape, else the problems with them. */
export function checkConfigShape(source: YamlSource): { config?: RawConfig; problems: CatalogueProblem[] } {
  const validate = getValidators().config;
  const value = source.value;
  if (validate(value)) return { config: value, problems: [] };
  return { problems: problemsOf(source, validate) };
}

/** The model's settings from a settings file that passed `checkConfigShape`: its known keys only. */
export function modelConfig(config: RawConfig): CatalogueConfig {
  return {
    title: config.title,
    version: config.version,
    scope: config.scope,
    ...(config.description ? { description: config.description } : {}),
    ...(config.compatibility ? { compatibility: config.compatibility } : {}),
    ...(config.lint ? { lint: config.lint } : {}),
    ...(config.consumers ? { consumers: config.consumers } : {}),
  };
}

/** Each ajv error of a failed check as a located problem (one per place and code). */
export function problemsOf(source: YamlSource, validate: ValidateFunction): CatalogueProblem[] {
  const problems: CatalogueProblem[] = [];
  const seen = new Set<string>();
  for (const error of validate.errors ?? []) {
    const problem = toProblem(source, error);
    if (!problem) continue;
    const id = `${problem.line}:${problem.column}:${problem.code}`;
    if (seen.has(id)) continue;
    seen.add(id);
    problems.push(problem);
  }
  return problems;
}

function toProblem(source: YamlSource, error: ErrorObject): CatalogueProblem | undefined {
  const path = fromPointer(error.instancePath);
  if (TYPE_NAME_SCHEMAS.has(JSON.stringify(error.parentSchema))) return undefined; // resolver: unknown-type / unknown-shape
  if (error.schemaPath.includes('/eventKey') && error.keyword !== 'type') return undefined; // resolver: invalid-event-key
  if (error.keyword === 'propertyNames') return undefined; // the inner error says more
  if (error.propertyName !== undefined && error.keyword === 'pattern')
    return nameProblem(source, error, path);
  const problem = KEYWORD_PROBLEMS.get(error.keyword);
  if (problem) return problem(source, error, path);
  return source.problem(
    'invalid-value',
    path,
    `${describeValue(path)} ${error.message ?? 'is invalid'}.`,
    hintFor(error),
  );
}

/** A shape or field name that breaks its pattern (ajv's error on the key, with `propertyName`). */
function nameProblem(source: YamlSource, error: ErrorObject, path: Path): CatalogueProblem {
  const name = String(error.propertyName ?? (error.params as { propertyName?: string }).propertyName);
  const what = error.schemaPath.includes('shapeName') ? 'shape name' : 'field name';
  const rule = what === 'shape name' ? 'PascalCase, like `LedgerEntry`' : 'letters, digits and `_`';
  return source.problem(
    'invalid-value',
    [...path, name],
    `\`${name}\` is not a valid ${what}.`,
    `Use ${rule}.`,
    true,
  );
}

type Path = (string | number)[];
/** The problem an ajv error of one keyword is, at `path` (none when the resolver reports it better). */
type KeywordProblem = (source: YamlSource, error: ErrorObject, path: Path) => CatalogueProblem | undefined;

/** The problems of the keywords with a message of their own; any other gets ajv's message and a hint. */
const KEYWORD_PROBLEMS = new Map<string, KeywordProblem>([
  [
    'additionalProperties',
    (source, error, path) => {
      const key = String((error.params as { additionalProperty: string }).additionalProperty);
      const allowed = Object.keys((error.parentSchema as { properties?: object }).properties ?? {});
      const guess = suggest(key, allowed);
      return source.problem(
        'unknown-key',
        [...path, key],
        `Unknown key \`${key}\`${describeParent(path)}.`,
        guess
          ? `Did you mean \`${guess}\`? Allowed: ${allowed.join(', ')}.`
          : `Allowed: ${allowed.join(', ')}.`,
        true,
      );
    },
  ],
  [
    'required',
    (source, error, path) => {
      const key = (error.params as { missingProperty: string }).missingProperty;
      return source.problem(
        'invalid-value',
        path,
        `Missing required key \`${key}\`${describeParent(path)}.`,
        `Add \`${key}:\` here.`,
      );
    },
  ],
  [
    'dependentRequired',
    (source, error) => {
      const { property, missingProperty } = error.params as { property: string; missingProperty: string };
      if (property === 'group') return undefined; // resolver: empty-group
      return source.problem(
        'invalid-value',
        [property],
        `A file with \`${property}\` also needs \`${missingProperty}\`.`,
        'Give the group a `group: {slug, title}` header.',
        true,
      );
    },
  ],
  [
    'false schema',
    (source, _error, path) =>
      source.problem(
        'invalid-value',
        path,
        `\`same_as\` takes no \`${String(path[path.length - 1])}\` beside it.`,
        'Use `extends` to take the fields of another event and add more.',
        true,
      ),
  ],
  [
    'uniqueItems',
    (source, error, path) => {
      // ajv names the later copy first: locate the problem there, and point back at the first one.
      const { i, j } = error.params as { i: number; j: number };
      const first = source.at([...path, Math.min(i, j)]);
      const value = (error.data as unknown[])[Math.max(i, j)];
      return source.problem(
        'duplicate-enum-value',
        [...path, Math.max(i, j)],
        `Enum value \`${JSON.stringify(value)}\` is listed twice; it is first listed at line ${first.line}, column ${first.column}.`,
        'List each allowed value once.',
      );
    },
  ],
  [
    'enum',
    (source, error, path) => {
      const allowed = (error.params as { allowedValues: unknown[] }).allowedValues;
      return source.problem(
        'invalid-value',
        path,
        `\`${String(error.data)}\` is not allowed${describeParent(path)}.`,
        `Use one of: ${allowed.join(', ')}.`,
      );
    },
  ],
]);

function hintFor(error: ErrorObject): string {
  if (error.keyword === 'type') {
    const expected = [(error.params as { type: string | string[] }).type].flat();
    return expected.length === 1 && TYPE_HINTS[expected[0]!]
      ? TYPE_HINTS[expected[0]!]!
      : `Write a ${expected.join(' or ')}.`;
  }
  const description = (error.parentSchema as { description?: string } | undefined)?.description;
  return description ? `Expected: ${description}` : 'See catalogue/README.md for the catalogue format.';
}

function describeParent(path: (string | number)[]): string {
  return path.length === 0 ? ' at the top level' : ` in \`${path.join('.')}\``;
}

function describeValue(path: (string | number)[]): string {
  return path.length === 0 ? 'The file' : `\`${path.join('.')}\``;
}

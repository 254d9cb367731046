import { checkExpression } from '../cel/check.js';
import type { Catalogue, Migration, MigrationStep } from '../model.js';
import { CEL_HELPERS, type CelHelper, celToJsonata, jsonataString } from './jsonata-cel.js';

export { jsonataSupport } from './jsonata-cel.js';

/**
 * A migration as one JSONata expression over the whole payload that gives the whole migrated payload:
 * what a Confluent client runs as a `JSONATA` migration rule (`@confluentinc/schemaregistry`'s
 * `JsonataExecutor` evaluates it with the message as input). The semantics are the JavaScript ones
 * (generators/migrate/compile-js.ts, decision 0160): steps in order on a copy of the payload, `cel`
 * over `message` (the payload before any step), missing parents created, a `rename` or `drop` of an
 * absent field a no-op, the rest kept. Field values are read with `$lookup`, never with a path, so an
 * array of one item stays an array (a JSONata path would give the item); why each spelling:
 * docs/decisions/0171-migrations-in-jsonata.md.
 */

/** A migration JSONata cannot express (a CEL expression outside the subset, a `from` that is no event). */
export class MigrationJsonataError extends Error {}

/** The helpers the steps call: a parent read (objects only: JSONata would map over an array) and made. */
const STEP_HELPERS = {
  get: '$get := function($o, $k) { $type($o) = "object" ? $lookup($o, $k) }',
  obj: '$obj := function($v) { $type($v) = "object" ? $v : {} }',
} as const;

type Helper = CelHelper | keyof typeof STEP_HELPERS;

/** The JSONata expression of `migration` (its `cel` expressions checked against `migration.from`). */
export function migrationJsonata(model: Catalogue, migration: Migration): string {
  const used = new Set<Helper>();
  const lines = migration.steps.flatMap((step) =>
    stepCode(model, migration, step, used).map((code) => `  $next := ${code};`),
  );
  const helpers = [...used]
    .sort()
    .map(
      (name) =>
        `  ${name in STEP_HELPERS ? STEP_HELPERS[name as keyof typeof STEP_HELPERS] : CEL_HELPERS[name as CelHelper]};`,
    );
  return ['(', ...helpers, '  $message := $;', '  $next := $;', ...lines, '  $next', ')'].join('\n');
}

/** The new value of `$next` after each part of a step. */
function stepCode(model: Catalogue, migration: Migration, step: MigrationStep, used: Set<Helper>): string[] {
  switch (step.kind) {
    case 'set': {
      const value = 'cel' in step ? celValue(model, migration, step.cel, used) : jsonValue(step.value);
      return [setIn('$next', step.field, value, used)];
    }
    case 'rename': {
      const value = getIn('$next', step.from, used);
      const moved = setIn('$rest', step.to, '$value', used);
      return [
        `($value := ${value}; $exists($value) ? ($rest := ${dropIn('$next', step.from, used)}; ${moved}) : $next)`,
      ];
    }
    case 'drop':
      return step.fields.map((field) => dropIn('$next', field, used));
  }
}

/** A constant as a JSONata literal: JSON is JSONata (an array of one item stays an array in a constructor). */
function jsonValue(value: unknown): string {
  return `(${JSON.stringify(value)})`;
}

function celValue(model: Catalogue, migration: Migration, cel: string, used: Set<Helper>): string {
  const from = model.events[migration.from];
  if (!from) throw new MigrationJsonataError(`The migration's \`from\` (${migration.from}) is not an event.`);
  const checked = checkExpression(cel, {
    variable: 'message',
    name: from.key,
    fields: from.fields,
    shapeFields: (name) => model.shapes[name]?.fields,
  });
  if (!checked.ok) {
    const problem = checked.problems[0]!;
    throw new MigrationJsonataError(`\`${cel}\` does not check against ${from.key}: ${problem.message}`);
  }
  const helpers = new Set<CelHelper>();
  const result = celToJsonata(checked.node, helpers);
  if (!result.ok) throw new MigrationJsonataError(`\`${cel}\`: ${result.reason}`);
  for (const helper of helpers) used.add(helper);
  return result.code;
}

/** The value at `path` in `base`: undefined when a step of it is absent or not an object. */
function getIn(base: string, path: readonly string[], used: Set<Helper>): string {
  if (path.length > 0) used.add('get');
  return path.reduce((code, name) => `$get(${code}, ${jsonataString(name)})`, base);
}

/** `base` with `value` at `path`, parents created; `base` is a variable, read once per level. */
function setIn(base: string, path: readonly string[], value: string, used: Set<Helper>): string {
  const [head, ...rest] = path;
  if (head === undefined) throw new MigrationJsonataError('A `set` or `rename` needs a field.');
  if (rest.length === 0) return `$merge([${base}, {${jsonataString(head)}: ${value}}])`;
  used.add('obj');
  const child = `$obj($lookup(${base}, ${jsonataString(head)}))`;
  return `$merge([${base}, {${jsonataString(head)}: ${setIn(child, rest, value, used)}}])`;
}

/**
 * `base` without the field at `path`, unchanged when it is absent: its parent rebuilt without it
 * (`$sift`, whose empty result is no object: merged into `{}`) and set back in place.
 */
function dropIn(base: string, path: readonly string[], used: Set<Helper>): string {
  const parent = path.slice(0, -1);
  const name = path.at(-1);
  if (name === undefined) throw new MigrationJsonataError('A `drop` or `rename` needs a field.');
  const key = jsonataString(name);
  const without = `$merge([{}, $sift($parent, function($v, $k) { $k != ${key} })])`;
  const rebuilt = parent.length === 0 ? without : setIn(base, parent, without, used);
  const present = `$type($parent) = "object" and $exists($lookup($parent, ${key}))`;
  return `($parent := ${getIn(base, parent, used)}; ${present} ? ${rebuilt} : ${base})`;
}

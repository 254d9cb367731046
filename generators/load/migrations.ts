import type { Field, JsonValue, Migration, MigrationStep } from '../model.js';
import type { Definition, EventDefinition, Path, ResolveContext } from './definition.js';
import { readMap } from './definition.js';
import { compareEventVersions, parseEventKey } from './event-key.js';
import { checkRequiredSet, checkStepPaths, type VersionScope } from './migration-paths.js';
import { checkSetCel, checkSetValue } from './migration-values.js';
import { suggest } from './suggest.js';

// An event version's `upgrade:` and `downgrade:` (issue 46), read into the model's `Migration` and
// checked against both versions: `from` an earlier version of the same type, every path against the
// version it reads or writes, every constant and expression against the field it sets. The semantics
// of the steps are decision 0160's.

/** Reads the fields of a definition (the resolver's memoised `fieldsOf`). */
type FieldsOf = (def: Definition) => Field[];

/** A field path as the catalogue writes it (the schema's `fieldPath`): names joined by dots. */
const FIELD_PATH = /^[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z_][A-Za-z0-9_-]*)*$/;

/**
 * `{ upgrade, downgrade }` of an event definition, each checked (problems added to `ctx`). Parts the
 * shape check refuses (a step that is not a mapping, a path that is not a dot path) are left to it.
 */
export function readMigrations(
  ctx: ResolveContext,
  def: EventDefinition,
  fields: Field[],
  fieldsOf: FieldsOf,
): { upgrade?: Migration; downgrade?: Migration } {
  const up = readMap<{ from: unknown; steps: unknown }>(def.raw.upgrade);
  const down = readMap<{ steps: unknown }>(def.raw.downgrade);
  if (down && !up) {
    ctx.problems.push(
      def.source.problem(
        'migration-downgrade-alone',
        [...def.path, 'downgrade'],
        `Event \`${def.name}\` has a \`downgrade\` without an \`upgrade\`: a downgrade goes back to the version \`upgrade.from\` names.`,
        'Add `upgrade: {from: <earlier version>, steps: [...]}`, or remove the downgrade.',
        true,
      ),
    );
  }
  if (!up || typeof up.from !== 'string') return {};
  const fromDef = checkFrom(ctx, def, up.from);
  if (!fromDef) return {};
  const shapeFields = (name: string) => {
    const shape = ctx.shapeDefs.get(name);
    return shape ? fieldsOf(shape) : undefined;
  };
  const self: VersionScope = { name: def.name, fields, shapeFields };
  const earlier: VersionScope = { name: fromDef.name, fields: fieldsOf(fromDef), shapeFields };
  const upgrade = readMigration(ctx, def, 'upgrade', up.steps, earlier, self);
  if (!down) return { upgrade };
  return { upgrade, downgrade: readMigration(ctx, def, 'downgrade', down.steps, self, earlier) };
}

/** The definition `upgrade.from` names, when it is an earlier version of the same type (else reported). */
function checkFrom(ctx: ResolveContext, def: EventDefinition, from: string): EventDefinition | undefined {
  const at = [...def.path, 'upgrade', 'from'];
  const fromDef = ctx.eventDefs.get(from);
  const self = parseEventKey(def.name);
  if (!fromDef) {
    if (ctx.incomplete) return undefined;
    const sameType = [...ctx.eventDefs.keys()].filter((key) => parseEventKey(key)?.type === self?.type);
    const guess = suggest(from, sameType.length > 0 ? sameType : ctx.eventDefs.keys());
    ctx.problems.push(
      def.source.problem(
        'unknown-event',
        at,
        `Event \`${from}\` is not defined.`,
        guess ? `Did you mean \`${guess}\`?` : 'Name an earlier version of the same event type.',
      ),
    );
    return undefined;
  }
  const other = parseEventKey(from);
  if (!self || !other) return undefined;
  const problem = (message: string, hint: string) =>
    ctx.problems.push(def.source.problem('migration-invalid-from', at, message, hint));
  if (other.type !== self.type) {
    problem(
      `\`${from}\` is a version of \`${other.type}\`, not of \`${self.type}\`: a migration goes between versions of one event type.`,
      `Name an earlier version of \`${self.type}\`.`,
    );
    return undefined;
  }
  if (compareEventVersions(other.version, self.version) >= 0) {
    problem(
      from === def.name
        ? `\`${def.name}\` cannot upgrade from itself.`
        : `\`${from}\` is not earlier than \`${def.name}\`: an upgrade reads an older version (${other.version} is not before ${self.version}).`,
      'Write the upgrade on the newer version; the way back is its `downgrade:`.',
    );
    return undefined;
  }
  return fromDef;
}

/** One direction's steps, each checked, from `source`'s payloads to `target`'s. */
function readMigration(
  ctx: ResolveContext,
  def: EventDefinition,
  key: 'upgrade' | 'downgrade',
  rawSteps: unknown,
  source: VersionScope,
  target: VersionScope,
): Migration {
  const steps: MigrationStep[] = [];
  const list = Array.isArray(rawSteps) ? (rawSteps as unknown[]) : [];
  list.forEach((entry, index) => {
    const at = [...def.path, key, 'steps', index];
    const step = readStep(ctx, def, at, entry);
    if (!step) return;
    if (!checkStepPaths(ctx, def, at, step, source, target)) return;
    if (step.kind === 'set' && 'value' in step) checkSetValue(ctx, def, at, step, target);
    if (step.kind === 'set' && 'cel' in step) checkSetCel(ctx, def, at, step, source, target);
    steps.push(step);
  });
  const migration: Migration = {
    from: source.name,
    to: target.name,
    steps,
    source: def.source.keyAt([...def.path, key]),
  };
  // A step refused above (or steps that are not a list) may be what sets a field: "no step sets it"
  // would then be a guess.
  if (Array.isArray(rawSteps) && steps.length === list.length)
    checkRequiredSet(ctx, def, [...def.path, key], migration, source, target);
  return migration;
}

/** A step as written, in the model's form; undefined when the shape check refuses it. */
function readStep(
  ctx: ResolveContext,
  def: EventDefinition,
  at: Path,
  entry: unknown,
): MigrationStep | undefined {
  const raw = readMap<{ set: unknown; rename: unknown; drop: unknown }>(entry);
  if (!raw || Object.keys(raw).length !== 1) return undefined;
  const source = def.source.at(at);
  if (raw.drop !== undefined) {
    const list = Array.isArray(raw.drop) ? (raw.drop as unknown[]) : [];
    if (list.length === 0 || !list.every(isFieldPath)) return undefined;
    return { kind: 'drop', fields: list.map(splitPath), source };
  }
  if (raw.rename !== undefined) {
    const rename = readMap<{ from: unknown; to: unknown }>(raw.rename);
    if (!rename || !isFieldPath(rename.from) || !isFieldPath(rename.to)) return undefined;
    return { kind: 'rename', from: splitPath(rename.from), to: splitPath(rename.to), source };
  }
  const set = readMap<{ field: unknown; value: unknown; cel: unknown }>(raw.set);
  if (!set || !isFieldPath(set.field)) return undefined;
  const hasValue = Object.hasOwn(set, 'value');
  const hasCel = typeof set.cel === 'string' && set.cel !== '';
  if (hasValue === hasCel) {
    ctx.problems.push(
      def.source.problem(
        'invalid-value',
        [...at, 'set'],
        hasValue
          ? `A \`set\` step gives \`value\` or \`cel\`, not both.`
          : `A \`set\` step needs a \`value\` (a constant) or a \`cel\` (an expression over \`message\`).`,
        'Write `set: {field: a.b, value: 0}` or `set: {field: a.b, cel: "message.c"}`.',
      ),
    );
    return undefined;
  }
  const field = splitPath(set.field);
  if (hasCel) return { kind: 'set', field, cel: set.cel as string, source };
  return { kind: 'set', field, value: JSON.parse(JSON.stringify(set.value ?? null)) as JsonValue, source };
}

function isFieldPath(value: unknown): value is string {
  return typeof value === 'string' && FIELD_PATH.test(value);
}

function splitPath(path: string): string[] {
  return path.split('.');
}

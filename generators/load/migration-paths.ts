import { type Field, type Migration, type MigrationStep, typeNotation } from '../model.js';
import type { EventDefinition, Path, ResolveContext } from './definition.js';
import { suggest } from './suggest.js';
import { toPointer } from './yaml-source.js';

// The field paths of a migration's steps, against the version each reads or writes (decision 0160):
// `set.field` and `rename.to` name fields of the version made, `rename.from` and `drop` fields of the
// version read; a path goes through named shapes only, never through an array or into a free object.

/** One version as a migration's paths are checked against it. */
export interface VersionScope {
  /** The event key. */
  name: string;
  fields: readonly Field[];
  /** The fields of a named shape (undefined when it is not defined, which is reported elsewhere). */
  shapeFields(name: string): readonly Field[] | undefined;
}

/** Where a path stops being one: the segment's index, and what to say. */
interface PathProblem {
  segment: number;
  code: 'migration-unknown-field' | 'migration-invalid-path';
  message: string;
  hint: string;
}

/**
 * The field a path names in `scope`, or why it names none; `undefined` when a shape on the way is not
 * defined (reported where it is named).
 */
export function resolvePath(
  scope: VersionScope,
  path: readonly string[],
): { field: Field } | PathProblem | undefined {
  let fields: readonly Field[] = scope.fields;
  for (let i = 0; i < path.length; i++) {
    const name = path[i]!;
    const field = fields.find((candidate) => candidate.name === name);
    const written = path.slice(0, i + 1).join('.');
    if (!field) {
      const guess = suggest(
        name,
        fields.map((candidate) => candidate.name),
      );
      const parent = path.slice(0, i).join('.');
      return {
        segment: i,
        code: 'migration-unknown-field',
        message: `\`${written}\` is not a field of \`${scope.name}\`${parent ? ` (\`${parent}\` has no \`${name}\`)` : ''}.`,
        hint:
          guess !== undefined
            ? `Did you mean \`${parent ? `${parent}.` : ''}${guess}\`?`
            : `Name a field of \`${scope.name}\` (a dot path through its shapes).`,
      };
    }
    if (i === path.length - 1) return { field };
    const type = field.type;
    if (type.kind === 'shape') {
      const next = scope.shapeFields(type.name);
      if (!next) return undefined;
      fields = next;
      continue;
    }
    const rest = path.join('.');
    if (type.kind === 'array') {
      return {
        segment: i,
        code: 'migration-invalid-path',
        message: `\`${rest}\` goes through \`${written}\`, an array (${typeNotation(type)}): a migration path never crosses an array.`,
        hint: `Set, rename or drop \`${written}\` as a whole.`,
      };
    }
    const what =
      type.kind === 'object'
        ? 'a free object (`object`), whose fields the catalogue does not list'
        : `${/^[aeiou]/.test(type.kind) ? 'an' : 'a'} ${type.kind}, which has no fields`;
    return {
      segment: i,
      code: 'migration-invalid-path',
      message: `\`${rest}\` goes into \`${written}\`, ${what}.`,
      hint:
        type.kind === 'object'
          ? `Set, rename or drop \`${written}\` as a whole, or give it a named shape.`
          : `Name \`${written}\` itself, or a field of a shape.`,
    };
  }
  return undefined;
}

/** The field `path` names in `scope`, reporting at `at` (a dot path written in the source) when it names none. */
function checkPath(
  ctx: ResolveContext,
  def: EventDefinition,
  at: Path,
  scope: VersionScope,
  path: readonly string[],
  role: string,
): Field | undefined {
  const found = resolvePath(scope, path);
  if (!found) return undefined;
  if ('field' in found) return found.field;
  const text = path.join('.');
  const offset = path.slice(0, found.segment).reduce((sum, name) => sum + name.length + 1, 0);
  ctx.problems.push({
    code: found.code,
    message: `${role}: ${found.message}`,
    hint: found.hint,
    ...def.source.within(at, text, offset),
    pointer: toPointer(at),
  });
  return undefined;
}

/**
 * Checks every path of a step against the version it reads (`source`) or writes (`target`); false
 * when one names no field there.
 */
export function checkStepPaths(
  ctx: ResolveContext,
  def: EventDefinition,
  at: Path,
  step: MigrationStep,
  source: VersionScope,
  target: VersionScope,
): boolean {
  const written = `(written to \`${target.name}\`)`;
  const read = `(read from \`${source.name}\`)`;
  const found: (Field | undefined)[] = [];
  switch (step.kind) {
    case 'set':
      found.push(checkPath(ctx, def, [...at, 'set', 'field'], target, step.field, `\`set\` ${written}`));
      break;
    case 'rename':
      found.push(
        checkPath(ctx, def, [...at, 'rename', 'from'], source, step.from, `\`rename.from\` ${read}`),
      );
      found.push(checkPath(ctx, def, [...at, 'rename', 'to'], target, step.to, `\`rename.to\` ${written}`));
      break;
    case 'drop':
      step.fields.forEach((path, i) => {
        found.push(checkPath(ctx, def, [...at, 'drop', i], source, path, `\`drop\` ${read}`));
      });
      break;
  }
  return found.every((field) => field !== undefined);
}

/** Whether `prefix` is `path` or one of its parents. */
function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= path.length && prefix.every((name, i) => path[i] === name);
}

/**
 * Reports each required field of the version made that the payload read cannot have: absent from the
 * version read (or dropped, or renamed away) and set by no step. Through a shape that the steps create
 * (a step writes below it), its own required fields are checked the same way. The rest (a type that
 * changed, an optional field made required) is the build's property run's.
 */
export function checkRequiredSet(
  ctx: ResolveContext,
  def: EventDefinition,
  at: Path,
  migration: Migration,
  source: VersionScope,
  target: VersionScope,
): void {
  const written: string[][] = [];
  const removed: string[][] = [];
  for (const step of migration.steps) {
    if (step.kind === 'set') written.push(step.field);
    if (step.kind === 'rename') {
      written.push(step.to);
      removed.push(step.from);
    }
    if (step.kind === 'drop') removed.push(...step.fields);
  }
  const walk = (fields: readonly Field[], prefix: string[], read: readonly Field[] | undefined): void => {
    for (const field of fields) {
      if (!field.required) continue;
      const path = [...prefix, field.name];
      if (written.some((w) => startsWith(path, w))) continue;
      const before = read?.find((candidate) => candidate.name === field.name);
      if (before && !removed.some((r) => startsWith(path, r))) continue;
      if (field.type.kind === 'shape' && written.some((w) => startsWith(w, path))) {
        const inner = target.shapeFields(field.type.name);
        if (inner) walk(inner, path, undefined);
        continue;
      }
      const dotted = path.join('.');
      const why = before ? 'the steps remove it' : `a \`${source.name}\` payload has none`;
      ctx.problems.push(
        def.source.problem(
          'migration-required-unset',
          at,
          `\`${dotted}\` is required in \`${target.name}\`, but ${why} and no step sets it.`,
          `Add a step: \`- set: {field: ${dotted}, value: ...}\` (or \`cel:\`), or a \`rename\` to it.`,
          true,
        ),
      );
    }
  };
  walk(target.fields, [], source.fields);
}

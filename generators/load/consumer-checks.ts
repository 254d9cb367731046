import semver from 'semver';
import type { Catalogue, Ownership, SourceLocation } from '../model.js';
import allowListSchema from '../schema/source/allow-list.schema.json' with { type: 'json' };
import { parseEventKey, versionAsSemver } from './event-key.js';
import { type FieldPaths, fieldPathsOf, hasFieldPath } from './field-paths.js';
import type { CatalogueProblem } from './problem.js';
import { suggest } from './suggest.js';

// Consumer declarations checked against catalogues: by the load (one catalogue), and by `eventry
// check` (the base and the change together). `consumers.ts` reads the ownership files.

/** Rule ids a team may accept: those the version gate blocks (the allow-list's). */
const ACCEPTABLE_RULES: readonly string[] = allowListSchema.$defs.entry.properties.rule.enum;

/** An event version found by its key alone (the model's event is made only when read). */
export interface VersionRef {
  key: string;
  type: string;
  version: string;
  /** The last catalogue that has it. */
  catalogue: Catalogue;
  /** Every catalogue that has it (the base and the change, for `eventry check`). */
  all: Catalogue[];
}

/**
 * The versions of each event type across `catalogues` (a key in several: the last catalogue's), from
 * the keys: an incremental load's events are made only when read, and most declarations read none.
 */
export function versionsByType(catalogues: readonly Catalogue[]): Map<string, VersionRef[]> {
  const byKey = new Map<string, VersionRef>();
  for (const catalogue of catalogues)
    for (const [type, versions] of typesOf(catalogue))
      for (const { key, version } of versions) {
        const seen = byKey.get(key);
        byKey.set(key, { key, type, version, catalogue, all: [...(seen?.all ?? []), catalogue] });
      }
  const byType = new Map<string, VersionRef[]>();
  for (const ref of byKey.values()) {
    const list = byType.get(ref.type);
    if (list) list.push(ref);
    else byType.set(ref.type, [ref]);
  }
  return byType;
}

/** Each catalogue's versions by type, once per events record (the load, the gate and the impact share it). */
const typeIndexes = new WeakMap<object, Map<string, { key: string; version: string }[]>>();

function typesOf(catalogue: Catalogue): Map<string, { key: string; version: string }[]> {
  let index = typeIndexes.get(catalogue.events);
  if (!index) {
    index = new Map();
    for (const key of Object.keys(catalogue.events)) {
      const parsed = parseEventKey(key);
      if (!parsed) continue;
      const list = index.get(parsed.type);
      if (list) list.push({ key, version: parsed.version });
      else index.set(parsed.type, [{ key, version: parsed.version }]);
    }
    typeIndexes.set(catalogue.events, index);
  }
  return index;
}

/** Whether a declared field is in a version, on any side that has it. */
function hasPath(ref: VersionRef, field: string): boolean {
  return ref.all.some((catalogue) =>
    hasFieldPath(field, fieldPathsOf(catalogue.events[ref.key]!, catalogue.shapes)),
  );
}

/** The field paths of a version (on its last side). */
function pathsOf(ref: VersionRef): FieldPaths {
  return fieldPathsOf(ref.catalogue.events[ref.key]!, ref.catalogue.shapes);
}

/** Whether a declaration's range takes in an event version. */
export function rangeMatches(range: string, version: string): boolean {
  return semver.satisfies(versionAsSemver(version), range, { includePrerelease: true });
}

function problemAt(
  location: SourceLocation,
  code: CatalogueProblem['code'],
  message: string,
  hint: string,
): CatalogueProblem {
  return { code, message, hint, file: location.file, line: location.line, column: location.column };
}

/** Every declaration's event type must exist; checked against the catalogue as it is. */
export function checkEventTypes(ownership: Ownership, catalogues: readonly Catalogue[]): CatalogueProblem[] {
  const types = versionsByType(catalogues);
  const problems: CatalogueProblem[] = [];
  for (const declaration of ownership.consumers) {
    if (types.has(declaration.event)) continue;
    const guess = suggest(declaration.event, types.keys());
    problems.push(
      problemAt(
        declaration.source,
        'unknown-event',
        `Event type \`${declaration.event}\` is not in the catalogue.`,
        guess ? `Did you mean \`${guess}\`?` : 'Name an event type without its version (`account.created`).',
      ),
    );
  }
  return problems;
}

/**
 * Checks each declaration's range and fields against the versions of `catalogues` together (the
 * catalogue; for `eventry check`, the base and the change): a range must be valid and match a
 * version, every field must exist in one of the matched versions; an acceptance must name an event
 * version and a rule the gate blocks.
 */
export function checkDeclarations(
  ownership: Ownership,
  catalogues: readonly Catalogue[],
): CatalogueProblem[] {
  const types = versionsByType(catalogues);
  const problems: CatalogueProblem[] = [];
  for (const declaration of ownership.consumers) {
    const versions = types.get(declaration.event);
    if (!versions) continue; // checkEventTypes
    if (semver.validRange(declaration.versions) === null) {
      problems.push(
        problemAt(
          declaration.versionsSource,
          'invalid-version-range',
          `\`${declaration.versions}\` is not a version range.`,
          'Write a semver range over the event\'s versions: ">=1", "1 || 2", "^2.1.0" (v2 counts as 2.0.0).',
        ),
      );
      continue;
    }
    const matched = versions.filter((event) => rangeMatches(declaration.versions, event.version));
    if (matched.length === 0) {
      const have = versions.map((event) => event.version).join(', ');
      problems.push(
        problemAt(
          declaration.versionsSource,
          'no-matching-version',
          `\`${declaration.versions}\` matches no version of \`${declaration.event}\` (it has ${have}).`,
          'Widen the range to the versions the team reads, or remove the declaration.',
        ),
      );
      continue;
    }
    (declaration.fields ?? []).forEach((field, index) => {
      if (matched.some((ref) => hasPath(ref, field))) return;
      const all = new Set(matched.flatMap((ref) => [...pathsOf(ref).paths]));
      const elsewhere = versions.find((ref) => !matched.includes(ref) && hasPath(ref, field));
      const guess = suggest(field, all);
      problems.push(
        problemAt(
          declaration.fieldSources?.[index] ?? declaration.source,
          'unknown-field',
          `Field \`${field}\` exists in none of ${matched.map((event) => `\`${event.key}\``).join(', ')}.`,
          elsewhere
            ? `\`${elsewhere.key}\` has it: widen \`versions\` if the team reads that version.`
            : guess
              ? `Did you mean \`${guess}\`?`
              : 'Name a field as a dot path (`lines[].amount`); `*` reads everything under.',
        ),
      );
    });
  }
  const keys = new Set(catalogues.flatMap((catalogue) => Object.keys(catalogue.events)));
  for (const acceptance of ownership.acceptances) {
    if (!keys.has(acceptance.event)) {
      const guess = suggest(acceptance.event, keys);
      problems.push(
        problemAt(
          acceptance.source,
          'unknown-event',
          `Event \`${acceptance.event}\` is not in the catalogue.`,
          guess ? `Did you mean \`${guess}\`?` : 'Name the event version the accepted break is in.',
        ),
      );
    }
    if (!ACCEPTABLE_RULES.includes(acceptance.rule)) {
      const guess = suggest(acceptance.rule, ACCEPTABLE_RULES);
      problems.push(
        problemAt(
          acceptance.source,
          'invalid-value',
          `\`${acceptance.rule}\` is not a breaking rule the version gate blocks.`,
          `${guess ? `Did you mean \`${guess}\`? ` : ''}Allowed: ${ACCEPTABLE_RULES.join(', ')}.`,
        ),
      );
    }
  }
  return problems;
}

import type { ValidateFunction } from 'ajv/dist/2020.js';
import semver from 'semver';
import type { Catalogue, Ownership, SourceLocation, Team } from '../model.js';
import allowListSchema from '../schema/source/allow-list.schema.json' with { type: 'json' };
import consumersSchema from '../schema/source/consumers.schema.json' with { type: 'json' };
import teamsSchema from '../schema/source/teams.schema.json' with { type: 'json' };
import { requirePrecompiled } from '../shared/toolkit-files.js';
import { problemsOf } from './check-shape.js';
import { parseEventKey } from './event-key.js';
import { type FieldPaths, fieldPathsOf, hasFieldPath } from './field-paths.js';
import type { CatalogueProblem } from './problem.js';
import type { CatalogueSourceFile } from './sources.js';
import { suggest } from './suggest.js';
import { type YamlParseOptions, YamlSource } from './yaml-source.js';

/** The file that defines every team, at the catalogue root. */
export const TEAMS_FILE = 'teams.yaml';
/** The folder of consumer declarations, one file per team. */
export const CONSUMERS_FOLDER = 'consumers/';

/** Whether a catalogue file is about who owns and reads events, not a definition of them. */
export function isOwnershipFile(path: string): boolean {
  return path === TEAMS_FILE || path.startsWith(CONSUMERS_FOLDER);
}

/** Rule ids a team may accept: those the version gate blocks (the allow-list's). */
const ACCEPTABLE_RULES: readonly string[] = allowListSchema.$defs.entry.properties.rule.enum;

let validators: { teams: ValidateFunction; consumers: ValidateFunction } | undefined;

/** The ownership files' schemas, by the name their precompiled validators are exported as. */
export const OWNERSHIP_SCHEMAS = { teams: teamsSchema, consumers: consumersSchema } as const;

/** Where `npm run build:tool` writes the ownership validators (ajv standalone code), beside the loader's. */
export const PRECOMPILED_OWNERSHIP_VALIDATORS = 'schema/source/ownership-validators.cjs';

function getValidators(): NonNullable<typeof validators> {
  validators ??= requirePrecompiled<NonNullable<typeof validators>>(
    PRECOMPILED_OWNERSHIP_VALIDATORS,
    "the ownership files' precompiled validators",
  );
  return validators;
}

interface RawTeam {
  name: string;
  contact: string;
  code_owner?: string;
}

interface RawConsumption {
  versions: string;
  reader?: 'tolerant' | 'strict';
  services?: string[];
  fields?: string[];
}

interface RawDeclarationFile {
  team: string;
  consumes: Record<string, RawConsumption>;
  accepts?: { event: string; rule: string; attr?: string; reason: string }[];
}

/** How ownership files are read and how much of them is checked against the catalogue. */
export interface OwnershipOptions extends YamlParseOptions {
  /**
   * Leave version ranges and field paths unchecked: `eventry check` checks them against the base and
   * the change together (a consumer of a field the change removes is `broken`, not a load problem).
   */
  deferVersions?: boolean;
  /** The catalogue's other files, to locate a group owner or producer naming an unknown team. */
  definitionFiles?: readonly CatalogueSourceFile[];
}

/** Ownership files parsed: each file's parse, or its YAML problems. */
export interface ParsedOwnership {
  parses: { file: CatalogueSourceFile; source?: YamlSource; problems: CatalogueProblem[] }[];
}

/**
 * Parses `teams.yaml` and `consumers/*.yaml`: before the definitions, whose load saves the parse cache
 * once with every file it was asked for.
 */
export function parseOwnershipFiles(
  files: readonly CatalogueSourceFile[],
  options: YamlParseOptions = {},
): ParsedOwnership {
  const parses: ParsedOwnership['parses'] = [];
  for (const file of files) {
    if (file.unreadable !== undefined) continue; // the catalogue's load reports it
    const { source, problems } = YamlSource.parse(file, options);
    // Checked here, with the parse: the cache remembers a text that passed, as for definition files.
    if (source && !options.cache?.shapeChecked(file.text)) {
      const validate = getValidators()[file.path === TEAMS_FILE ? 'teams' : 'consumers'];
      if (validate(source.value)) options.cache?.passedShapeCheck(file.text);
      else problems.push(...problemsOf(source, validate));
    }
    parses.push({ file, ...(source ? { source } : {}), problems });
  }
  return { parses };
}

/**
 * Checks the parsed ownership files and against the catalogue (undefined when it did not load:
 * references are then left unchecked). Group owners and producers are checked too.
 */
export function loadOwnership(
  parsed: ParsedOwnership,
  catalogue: Catalogue | undefined,
  options: OwnershipOptions = {},
): { ownership: Ownership; problems: CatalogueProblem[] } {
  const problems: CatalogueProblem[] = [];
  const ownership: Ownership = { teams: Object.create(null), consumers: [], acceptances: [] };
  const declarationSources: YamlSource[] = [];
  let teamsRead = false;
  for (const { file, source, problems: fileProblems } of parsed.parses) {
    problems.push(...fileProblems);
    const kind = file.path === TEAMS_FILE ? 'teams' : 'consumers';
    if (kind === 'teams') teamsRead = true; // a broken one is reported: its teams are unknown, not missing
    if (!source || fileProblems.length > 0) continue;
    if (kind === 'teams') {
      teamsRead = true;
      readTeams(source, ownership.teams);
    } else declarationSources.push(source);
  }
  for (const source of declarationSources) readDeclarations(source, ownership);
  if (catalogue) {
    const known = teamsRead || Object.keys(ownership.teams).length > 0;
    problems.push(
      ...checkTeams(ownership, catalogue, options.definitionFiles ?? [], declarationSources, known, options),
    );
    problems.push(...checkEventTypes(ownership, [catalogue]));
    if (!options.deferVersions) problems.push(...checkDeclarations(ownership, [catalogue]));
  }
  return { ownership, problems };
}

function readTeams(source: YamlSource, teams: Record<string, Team>): void {
  const raw = (source.value as { teams: Record<string, RawTeam> }).teams;
  for (const [id, team] of Object.entries(raw)) {
    teams[id] = {
      id,
      name: team.name,
      contact: team.contact,
      ...(team.code_owner ? { codeOwner: team.code_owner } : {}),
      source: source.keyAt(['teams', id]),
    };
  }
}

function readDeclarations(source: YamlSource, ownership: Ownership): void {
  const raw = source.value as RawDeclarationFile;
  for (const [event, consumption] of Object.entries(raw.consumes)) {
    const path = ['consumes', event];
    ownership.consumers.push({
      team: raw.team,
      event,
      versions: consumption.versions,
      reader: consumption.reader ?? 'tolerant',
      ...(consumption.services ? { services: consumption.services } : {}),
      ...(consumption.fields ? { fields: consumption.fields } : {}),
      source: source.keyAt(path),
      versionsSource: source.at([...path, 'versions']),
      ...(consumption.fields
        ? { fieldSources: consumption.fields.map((_, i) => source.at([...path, 'fields', i])) }
        : {}),
    });
  }
  (raw.accepts ?? []).forEach((entry, index) => {
    ownership.acceptances.push({
      team: raw.team,
      event: entry.event,
      rule: entry.rule,
      ...(entry.attr !== undefined ? { attr: entry.attr } : {}),
      reason: entry.reason,
      source: source.at(['accepts', index]),
    });
  });
}

/** Every team named anywhere (group owners, producers, declaration files) must be in teams.yaml. */
function checkTeams(
  ownership: Ownership,
  catalogue: Catalogue,
  files: readonly CatalogueSourceFile[],
  declarationSources: readonly YamlSource[],
  teamsRead: boolean,
  options: YamlParseOptions,
): CatalogueProblem[] {
  const problems: CatalogueProblem[] = [];
  const teams = Object.keys(ownership.teams);
  const unknown = (team: string) => !(team in ownership.teams);
  const hint = (team: string) => {
    const guess = suggest(team, teams);
    if (guess) return `Did you mean \`${guess}\`?`;
    return teamsRead
      ? `Define it in \`${TEAMS_FILE}\` (name, contact, code_owner), or name one of: ${teams.slice(0, 12).join(', ') || 'none yet'}${teams.length > 12 ? ', …' : ''}.`
      : `Define the team in \`${TEAMS_FILE}\` at the catalogue root (name, contact, code_owner).`;
  };
  const message = (team: string) => `Team \`${team}\` is not defined in \`${TEAMS_FILE}\`.`;
  // Group files are located again only when one names an unknown team (the model keeps no key positions).
  const sourceOf = (file: string) => {
    const text = files.find((candidate) => candidate.path === file);
    return text ? YamlSource.parse(text, options).source : undefined;
  };
  const groupFiles = new Map<string, YamlSource | undefined>();
  const locate = (file: string, fallback: SourceLocation) => {
    if (!groupFiles.has(file)) groupFiles.set(file, sourceOf(file));
    return groupFiles.get(file) ?? fallback;
  };
  for (const group of catalogue.groups) {
    if (group.owner === undefined || !unknown(group.owner)) continue;
    problems.push(
      at(
        locate(group.source.file, group.source),
        ['group', 'owner'],
        'unknown-team',
        message(group.owner),
        hint(group.owner),
        group.source,
      ),
    );
  }
  for (const group of catalogue.groups) {
    for (const [key, producers] of Object.entries(group.producers ?? {})) {
      producers.forEach((producer, index) => {
        if (!unknown(producer.team)) return;
        const path = ['events', key, 'producers', index, 'team'];
        problems.push(
          at(
            locate(group.source.file, group.source),
            path,
            'unknown-team',
            message(producer.team),
            hint(producer.team),
            group.source,
          ),
        );
      });
    }
  }
  for (const source of declarationSources) {
    const team = (source.value as RawDeclarationFile).team;
    if (unknown(team)) problems.push(source.problem('unknown-team', ['team'], message(team), hint(team)));
  }
  return problems;
}

function at(
  where: YamlSource | SourceLocation,
  path: (string | number)[],
  code: CatalogueProblem['code'],
  message: string,
  hint: string,
  fallback: SourceLocation,
): CatalogueProblem {
  if (where instanceof YamlSource) return where.problem(code, path, message, hint);
  return { code, message, hint, ...fallback };
}

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

/** An event version as semver: `v2` is `2.0.0`. */
export function versionAsSemver(version: string): string {
  const v = /^v(\d+)$/.exec(version);
  return v ? `${v[1]}.0.0` : version;
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
function checkEventTypes(ownership: Ownership, catalogues: readonly Catalogue[]): CatalogueProblem[] {
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

import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { Catalogue, Ownership, SourceLocation, Team } from '../model.js';
import consumersSchema from '../schema/source/consumers.schema.json' with { type: 'json' };
import teamsSchema from '../schema/source/teams.schema.json' with { type: 'json' };
import { requirePrecompiled } from '../shared/toolkit-files.js';
import { type LoadAccelerator, PLAIN_LOAD } from './accelerator.js';
import { problemsOf } from './check-shape.js';
import { checkDeclarations, checkEventTypes } from './consumer-checks.js';
import { type CatalogueProblem, unreadableProblem } from './problem.js';
import type { CatalogueSourceFile } from './sources.js';
import { suggest } from './suggest.js';
import { YamlSource } from './yaml-source.js';

/** The file that defines every team, at the catalogue root. */
export const TEAMS_FILE = 'teams.yaml';
/** The folder of consumer declarations, one file per team. */
export const CONSUMERS_FOLDER = 'consumers/';

/** Whether a catalogue file is about who owns and reads events, not a definition of them. */
export function isOwnershipFile(path: string): boolean {
  return path === TEAMS_FILE || path.startsWith(CONSUMERS_FOLDER);
}

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
export interface OwnershipOptions {
  /** How group files are parsed again to locate a problem (the plain path by default). */
  accelerator?: LoadAccelerator;
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
  accelerator: LoadAccelerator = PLAIN_LOAD,
): ParsedOwnership {
  const parses: ParsedOwnership['parses'] = [];
  for (const file of files) {
    // Reported, never skipped: a team file left out would leave the team out of the gate.
    const unread = unreadableProblem(file);
    if (unread) {
      parses.push({ file, problems: [unread] });
      continue;
    }
    const { source, problems } = accelerator.parse(file);
    // Checked here, with the parse: an accelerator may remember a text that passed, as for definitions.
    if (source) {
      const validate = getValidators()[file.path === TEAMS_FILE ? 'teams' : 'consumers'];
      problems.push(
        ...accelerator.checkShape(file, () => (validate(source.value) ? [] : problemsOf(source, validate))),
      );
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
  // A teams file with problems is reported as such: every team it should define would be reported
  // again as not defined, a consequence and no news.
  let teamsBroken = false;
  for (const { file, source, problems: fileProblems } of parsed.parses) {
    problems.push(...fileProblems);
    const kind = file.path === TEAMS_FILE ? 'teams' : 'consumers';
    if (kind === 'teams') teamsRead = true;
    if (!source || fileProblems.length > 0) {
      if (kind === 'teams') teamsBroken = true;
      continue;
    }
    if (kind === 'teams') {
      teamsRead = true;
      readTeams(source, ownership.teams);
    } else declarationSources.push(source);
  }
  for (const source of declarationSources) readDeclarations(source, ownership);
  if (catalogue) {
    const known = teamsRead || Object.keys(ownership.teams).length > 0;
    if (!teamsBroken) {
      problems.push(
        ...checkTeams(
          ownership,
          catalogue,
          options.definitionFiles ?? [],
          declarationSources,
          known,
          options.accelerator ?? PLAIN_LOAD,
        ),
      );
    }
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
  accelerator: LoadAccelerator,
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
    return text ? accelerator.parse(text).source : undefined;
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

export {
  checkDeclarations,
  rangeMatches,
  versionsByType,
} from './consumer-checks.js';

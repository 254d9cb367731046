import type { Catalogue, CatalogueConfig } from '../model.js';
import { type LoadAccelerator, PLAIN_LOAD } from './accelerator.js';
import { checkConfigShape, checkFileShape, modelConfig } from './check-shape.js';
import { isOwnershipFile, loadOwnership, parseOwnershipFiles } from './consumers.js';
import { type CatalogueProblem, CONTROL_CHARACTERS, printablePath, unreadableProblem } from './problem.js';
import { resolveCatalogue } from './resolve.js';
import { type CatalogueSourceFile, hashSources, readCatalogueSources, type SourceReader } from './sources.js';
import type { YamlSource } from './yaml-source.js';

export type { LoadAccelerator } from './accelerator.js';
export {
  CONSUMERS_FOLDER,
  checkDeclarations,
  isOwnershipFile,
  rangeMatches,
  TEAMS_FILE,
  versionsByType,
} from './consumers.js';
export { fieldPathsOf, hasFieldPath, type PathRelation, relatePaths } from './field-paths.js';
export type { CatalogueProblem } from './problem.js';
export { formatProblem, PROBLEM_CODES } from './problem.js';
export type { CatalogueSourceFile, SourceReader } from './sources.js';
export { readCatalogueSources } from './sources.js';

/** How a catalogue is read: the plain path unless an accelerator is given. */
export interface LoadOptions {
  /**
   * How files are parsed and whether an earlier model is reused (`accelerator.ts`); the plain path
   * (`PLAIN_LOAD`) when absent. The model is the same either way.
   */
  accelerator?: LoadAccelerator;
  /**
   * `defer`: leave consumer declarations' version ranges and field paths to the caller, which checks
   * them against more than this catalogue (`eventry check`: the base and the change together).
   */
  ownership?: 'check' | 'defer';
}

/** The catalogue-wide settings file, at the catalogue root. */
export const CONFIG_FILE = 'eventry.config.yaml';
/** The reviewed list of intentional breaking changes; read by `eventry check`, not a catalogue file. */
export const ALLOW_LIST_FILE = 'allow-breaking.yaml';

/** Either the model, or every problem found (never both, never a partial model). */
export type LoadResult = { ok: true; catalogue: Catalogue } | { ok: false; problems: CatalogueProblem[] };

/** Loads the catalogue in `root` into the model (`reader` replaces the disk, for tests). */
export function loadCatalogue(root: string, reader?: SourceReader, options?: LoadOptions): LoadResult {
  return loadCatalogueFromSources(readCatalogueSources(root, reader), options);
}

/**
 * Loads a catalogue from file texts (from disk, a git commit or a test). Every problem in every file
 * is collected before giving up, so an author can fix them all in one pass.
 */
export function loadCatalogueFromSources(
  files: CatalogueSourceFile[],
  options: LoadOptions = {},
): LoadResult {
  const ownershipFiles = files.filter((file) => isOwnershipFile(file.path));
  const definitionFiles =
    ownershipFiles.length > 0 ? files.filter((file) => !isOwnershipFile(file.path)) : files;
  const sortedOwnership = [...ownershipFiles].sort((a, b) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : 0,
  );
  const accelerator = options.accelerator ?? PLAIN_LOAD;
  // Parsed first: the definitions' load tells the accelerator once that every file was read.
  const parsed = ownershipFiles.length > 0 ? parseOwnershipFiles(sortedOwnership, accelerator) : undefined;
  const result = loadDefinitions(definitionFiles, accelerator);
  if (!parsed) return result;
  // Who owns and reads events is checked against the model, and kept beside it (not in its hash).
  const { ownership, problems } = loadOwnership(parsed, result.ok ? result.catalogue : undefined, {
    accelerator,
    definitionFiles,
    ...(options.ownership === 'defer' ? { deferVersions: true } : {}),
  });
  if (!result.ok) return { ok: false, problems: sortProblems([...result.problems, ...problems]) };
  if (problems.length > 0) return { ok: false, problems: sortProblems(problems) };
  return { ok: true, catalogue: { ...result.catalogue, ownership } };
}

/** Loads the definitions (groups, shapes, events) alone: every file but the ownership files. */
function loadDefinitions(files: CatalogueSourceFile[], accelerator: LoadAccelerator): LoadResult {
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const catalogueFiles = sorted.filter((file) => file.path !== ALLOW_LIST_FILE);
  const reused = accelerator.reuse(catalogueFiles);
  if (reused) return { ok: true, catalogue: reused };
  const problems: CatalogueProblem[] = [];
  let config: CatalogueConfig | undefined;
  const sources: YamlSource[] = [];

  const configFile = sorted.find((file) => file.path === CONFIG_FILE);
  if (!configFile) {
    problems.push({
      code: 'missing-config',
      message: `The catalogue has no \`${CONFIG_FILE}\`.`,
      hint: 'Create it with `title`, `version` and `scope` (the npm scope of the group packages).',
      file: CONFIG_FILE,
      line: 1,
      column: 1,
    });
  }

  // Definitions in a file that cannot be read may be what other files refer to: while one is missing,
  // "not defined" would be a guess, so those references go unchecked (one problem, not a cascade).
  let incomplete = false;
  for (const file of sorted) {
    if (file.path === ALLOW_LIST_FILE) continue;
    if (CONTROL_CHARACTERS.test(file.path)) {
      problems.push({
        code: 'invalid-file-name',
        message: `The file name \`${printablePath(file.path)}\` contains a control character.`,
        hint: 'Rename the file with letters, digits, `-`, `_` and `.` only; file names end up in generated comments.',
        file: file.path,
        line: 1,
        column: 1,
      });
    }
    const unread = unreadableProblem(file);
    if (unread) {
      problems.push(unread);
      incomplete = true;
      continue;
    }
    const parsed = accelerator.parse(file);
    problems.push(...parsed.problems);
    if (!parsed.source) {
      incomplete = true;
      continue;
    }
    if (file.path === CONFIG_FILE) {
      const checked = checkConfigShape(parsed.source);
      problems.push(...checked.problems);
      config = checked.config;
      continue;
    }
    // The check reads the parse alone, so an accelerator may skip a text it saw pass.
    const source = parsed.source;
    problems.push(...accelerator.checkShape(file, () => checkFileShape(source, 'file')));
    sources.push(source);
  }

  const resolved = resolveCatalogue(sources, { incomplete });
  problems.push(...resolved.problems);
  if (problems.length > 0 || !config) {
    // Told even so: after a broken file is fixed, the others' parses still serve.
    accelerator.loaded(catalogueFiles, undefined);
    return { ok: false, problems: sortProblems(problems) };
  }

  const catalogue: Catalogue = {
    config: modelConfig(config),
    groups: resolved.groups,
    shapes: resolved.shapes,
    events: resolved.events,
    hash: hashSources(catalogueFiles),
  };
  accelerator.loaded(catalogueFiles, catalogue);
  return { ok: true, catalogue };
}

function sortProblems(problems: CatalogueProblem[]): CatalogueProblem[] {
  return problems.sort((a, b) =>
    a.file === b.file ? a.line - b.line || a.column - b.column : a.file < b.file ? -1 : 1,
  );
}

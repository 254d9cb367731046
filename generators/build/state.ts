import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { OutputFile } from '../emit/context.js';
import { type CatalogueSourceFile, readCatalogueSources } from '../load/sources.js';
import { readIfExists } from '../shared/fs.js';
import { hashInputs, toolFingerprint } from './fingerprint.js';
import { findOrphans, ownedAreas } from './sweep.js';
import type { FileStats } from './write.js';

// The incremental build's memory and its no-op fast path. Kept free of the loader, ajv and the
// emitters: deciding "nothing to do" from hashes and file stats alone is what keeps a no-op rebuild
// in the tens of ms.

/**
 * Where the incremental build remembers what it wrote (inside the output root, git-ignored). It is
 * committed in the same transaction as the files it describes, so it never disagrees with them.
 */
export const STATE_FILE = '.eventry-build-state.json';

/**
 * What the state file records: the inputs' fingerprint, the stats of every file written, and each
 * group package's unit hash (its inputs and the toolkit), which lets an edit skip the untouched groups.
 */
export interface BuildState {
  inputHash: string;
  files: FileStats;
  units?: Record<string, string>;
}

/** What a build starts from: the catalogue read, the fingerprints, and whether the output is current. */
export interface BuildPlan {
  sources: CatalogueSourceFile[];
  /** The toolkit's fingerprint (the emit cache keys its entries with it). */
  tool: string;
  /** The fingerprint of toolkit and catalogue together, recorded in the state file. */
  inputHash: string;
  /** The state file of the last build, if any (unreadable counts as none). */
  state?: BuildState;
  /** The output is exactly what these inputs build: nothing to do. */
  upToDate: boolean;
}

/** Reads the catalogue and the last build's state, and decides whether the output is already current. */
export function planBuild(catalogueDir: string, outDir: string, force = false): BuildPlan {
  const sources = readCatalogueSources(catalogueDir);
  const tool = toolFingerprint();
  const inputHash = hashInputs(sources, tool);
  const state = readState(outDir);
  const upToDate =
    !force && state !== undefined && state.inputHash === inputHash && outputsExact(outDir, state);
  return { sources, tool, inputHash, ...(state ? { state } : {}), upToDate };
}

/** The state file to commit with a build's output, for the files it wrote. */
export function stateFile(inputHash: string, files: FileStats, units?: Record<string, string>): OutputFile {
  return {
    path: STATE_FILE,
    contents: `${JSON.stringify({ inputHash, files, ...(units ? { units } : {}) })}\n`,
  };
}

/** The recorded files are there as written, and nothing else is in the folders the build owns. */
function outputsExact(outDir: string, state: BuildState): boolean {
  if (!outputsIntact(outDir, state)) return false;
  const recorded = new Set(Object.keys(state.files));
  const areas = ownedAreas(outDir, recorded);
  const orphans = findOrphans(outDir, recorded, areas, areas);
  return orphans.files.length === 0 && orphans.emptyDirs.length === 0;
}

function outputsIntact(outDir: string, state: BuildState): boolean {
  for (const [path, expected] of Object.entries(state.files)) {
    try {
      const stat = statSync(join(outDir, path));
      if (stat.size !== expected.size || stat.mtimeMs !== expected.mtimeMs) return false;
    } catch {
      return false;
    }
  }
  return true;
}

function readState(outDir: string): BuildState | undefined {
  const text = readIfExists(join(outDir, STATE_FILE));
  if (!text) return undefined;
  try {
    return JSON.parse(text) as BuildState;
  } catch {
    return undefined;
  }
}

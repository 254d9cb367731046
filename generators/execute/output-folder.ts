import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readIfExists } from '../shared/fs.js';
import { checkOutputFolder, markOutputFolder, type OutputFolderProblem } from '../shared/output-folder.js';
import { projectRoot } from './fingerprint.js';
import { GENERATED_MARK } from './sweep.js';

/**
 * The file at the root of a build's output that says eventry owns it: produced by every build (so
 * committed with its first output and recorded in its state), git-ignored. A folder without it is
 * written only when it is empty, or when it is an output from before the marker (see
 * `isEarlierOutput`), such as a fresh clone's `packages/`.
 */
export const OUTPUT_MARKER = '.eventry-output';

const MARKER_TEXT =
  'This folder is written by `eventry build`: it sweeps the files its builds recorded here. ' +
  'Keep your own files elsewhere.\n';

/**
 * Whether a build may write `outDir` (`given`: as the user named it) for the catalogue in
 * `catalogueDir`: undefined when it may, else the problem (`out-unsafe`, `out-not-owned`). Reads only.
 */
export function checkBuildOutput(
  given: string,
  outDir: string,
  catalogueDir: string,
  cwd?: string,
): OutputFolderProblem | undefined {
  return checkOutputFolder({
    ...(cwd ? { cwd } : {}),
    given,
    dir: outDir,
    option: '--out',
    marker: OUTPUT_MARKER,
    sources: [catalogueDir],
    roots: [projectRoot(catalogueDir)],
    owns: isEarlierOutput,
  });
}

/** The marker as a file every build produces: committed with the build's first output, then kept. */
export function outputMarkerFile(): { path: string; contents: string } {
  return { path: OUTPUT_MARKER, contents: MARKER_TEXT };
}

/** Marks `outDir` as a build's output when it lacks the marker (an output from before markers). */
export function markBuildOutput(outDir: string): void {
  markOutputFolder(outDir, OUTPUT_MARKER, MARKER_TEXT);
}

/**
 * An output eventry wrote before it marked its folders: nothing in it but its own files (`.eventry-*`),
 * the packages' `node_modules`, and package folders whose package.json carries the generated note.
 * On a fresh clone `packages/` is exactly that: the committed package.json files, and CHANGELOG.md.
 */
function isEarlierOutput(dir: string): boolean {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.eventry-')) continue;
    if (!entry.isDirectory()) return false;
    if (entry.name === 'node_modules') continue;
    if (!generatedPackage(join(dir, entry.name))) return false;
  }
  return true;
}

function generatedPackage(dir: string): boolean {
  try {
    return readIfExists(join(dir, 'package.json'))?.includes(GENERATED_MARK) === true;
  } catch {
    // A folder named package.json, or one that cannot be read: not a package eventry generated.
    return false;
  }
}

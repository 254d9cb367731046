import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { exportRegistry } from '../serve/export/index.js';
import { EXPORT_MARKER } from '../serve/export/write.js';
import { buildServedState } from '../serve/served-state.js';
import { EXIT, type ExitStatus } from '../shared/exit-codes.js';
import { checkOutputFolder } from '../shared/output-folder.js';
import { repoRoot, resolveCommit } from '../sources/git.js';
import type { Container } from './container.js';
import { openHistory } from './history.js';
import { usageError } from './usage-error.js';

/** Options of `eventry registry export`. */
export interface RegistryExportOptions {
  out: string;
  catalogue?: string;
  /** `--no-cache`: load every release from git, write no cache. */
  cache?: boolean;
}

/**
 * `eventry registry export --out DIR`: the registry `eventry serve` answers, as a static release under
 * `DIR/releases/<id>/`, and `DIR/current.json` (and the `current` link) pointing at it. Prints one line
 * saying which release, how many routes and bytes, and whether it was already there.
 */
export async function runRegistryExport(options: RegistryExportOptions, io: Container): Promise<ExitStatus> {
  const command = 'registry export';
  const catalogue = options.catalogue ?? 'catalogue';
  const dir = resolve(io.cwd, options.out);
  const problem = checkOutputFolder({
    given: options.out,
    dir,
    option: '--out',
    marker: EXPORT_MARKER,
    sources: [resolve(io.cwd, catalogue)],
    roots: [repoRoot(io) ?? io.cwd],
    cwd: io.cwd,
  });
  if (problem) return usageError(io, command, `error ${problem.code}: ${problem.message}`);
  if (statSync(dir, { throwIfNoEntry: false })?.isDirectory() === false) {
    return usageError(
      io,
      command,
      `--out ${options.out} is not a folder (give a new folder or an earlier export).`,
    );
  }
  const history = openHistory(io, command, catalogue, options.cache !== false);
  if (typeof history === 'number') return history;
  const served = buildServedState(history, resolveCommit(io, 'HEAD'));
  let summary: ReturnType<typeof exportRegistry>;
  try {
    summary = exportRegistry(served, dir);
  } catch (error) {
    io.stderr.write(
      `eventry: error write-failed: ${(error as Error).message}; the current release is unchanged.\n`,
    );
    return EXIT.problems;
  }
  const { id, path, written, routes, bytes } = summary;
  io.stdout.write(
    `eventry: ${written ? 'exported' : 'already exported'} release ${id} (${routes} routes, ${bytes} bytes) in ${options.out}/${path}; current.json points at it.\n`,
  );
  return EXIT.ok;
}

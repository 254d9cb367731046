import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openLoader } from '../execute/fast/loader.js';
import { projectRoot } from '../execute/fingerprint.js';
import type { LoadAccelerator } from '../load/accelerator.js';
import { CONFIG_FILE, formatProblem } from '../load/index.js';
import { checkCompatibilityOverrides } from '../schema-registry/config-check.js';
import { type History, loadHistory } from '../schema-registry/history.js';
import { EXIT, type ExitStatus } from '../shared/exit-codes.js';
import { readUserFile } from '../shared/read-user-file.js';
import { repoRoot } from '../sources/git.js';
import type { Container } from './container.js';
import { usageError } from './usage-error.js';

/** The history's accelerator: its releases share most files, each parsed once. */
export const memoLoad = (): LoadAccelerator => openLoader({ memo: true });

/**
 * The release history of the catalogue, or the exit code after printing why not: 2 when there is no
 * catalogue folder (a usage error of `command`) or the clone is shallow (`shallow-history`, unless
 * `allowShallow`: the history would be short), 1 with its located problems when the working catalogue
 * does not load or git fails.
 */
export function openHistory(
  io: Container,
  command: string,
  catalogue: string,
  cache: boolean,
  { allowShallow = false }: { allowShallow?: boolean } = {},
): History | ExitStatus {
  const { cwd } = io;
  if (!statSync(resolve(cwd, catalogue), { throwIfNoEntry: false })?.isDirectory())
    return usageError(io, command, `no catalogue folder at ${catalogue} (give one with --catalogue <dir>).`);
  // The cache belongs to the catalogue's repository (or project), never to the folder the command runs in.
  const folder = resolve(cwd, catalogue);
  const top = repoRoot({ cwd: folder, env: io.env }) ?? projectRoot(folder);
  const result = loadHistory({
    cwd,
    env: io.env,
    catalogue,
    accelerator: memoLoad,
    allowShallow,
    ...(cache ? { cacheDir: join(top, '.eventry', 'registry') } : {}),
  });
  if (!result.ok) {
    if (result.reason === 'problems') {
      io.stderr.write(`eventry: the catalogue in ${resolve(cwd, catalogue)} does not load:\n`);
      for (const problem of result.problems) io.stderr.write(`${formatProblem(problem, result.root)}\n`);
    } else if (result.reason === 'shallow') {
      // As `check` says it: a usage error, since fetching the history is the fix.
      return usageError(io, command, `error shallow-history: ${result.message}`);
    } else {
      io.stderr.write(`eventry: ${result.message}\n`);
    }
    return EXIT.problems;
  }
  for (const warning of result.history.warnings) io.stderr.write(`eventry: ${warning}\n`);
  const subjects = new Set(result.history.points.flatMap((point) => [...point.schemas.keys()]));
  // Read as the load read it (it loaded, so it is a file inside the catalogue): only to locate problems.
  const config = readUserFile(resolve(cwd, catalogue), CONFIG_FILE);
  const configText = config.ok ? config.text : '';
  const problems = checkCompatibilityOverrides(result.history.current, configText, subjects);
  if (problems.length > 0) {
    for (const problem of problems) io.stderr.write(`${formatProblem(problem, catalogue)}\n`);
    return EXIT.problems;
  }
  return result.history;
}

import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { FastLoad } from '../execute/fast/load/index.js';
import { CONFIG_FILE, formatProblem } from '../load/index.js';
import { checkCompatibilityOverrides } from '../schema-registry/config-check.js';
import { type History, loadHistory } from '../schema-registry/history.js';
import { EXIT_USAGE } from '../shared/exit-codes.js';
import { repoRoot } from '../sources/git.js';

/** The history's accelerator: its releases share most files, each parsed once. */
export const memoLoad = (): FastLoad => new FastLoad({ memo: true });

/**
 * The release history of the catalogue, or the exit code after printing why not: 2 when there is no
 * catalogue folder, 1 with its located problems when the working catalogue does not load.
 */
export function openHistory(cwd: string, catalogue: string, cache: boolean): History | number {
  if (!statSync(resolve(cwd, catalogue), { throwIfNoEntry: false })?.isDirectory()) {
    process.stderr.write(`eventry: no catalogue folder at ${catalogue} (give one with --catalogue <dir>).\n`);
    return EXIT_USAGE;
  }
  const top = repoRoot(cwd) ?? cwd;
  const result = loadHistory({
    cwd,
    catalogue,
    accelerator: memoLoad,
    ...(cache ? { cacheDir: join(top, '.eventry', 'registry') } : {}),
  });
  if (!result.ok) {
    if ('problems' in result) {
      process.stderr.write(`eventry: the catalogue in ${resolve(cwd, catalogue)} does not load:\n`);
      for (const problem of result.problems) process.stderr.write(`${formatProblem(problem, result.root)}\n`);
    } else {
      process.stderr.write(`eventry: ${result.message}\n`);
    }
    return 1;
  }
  for (const warning of result.history.warnings) process.stderr.write(`eventry: ${warning}\n`);
  const subjects = new Set(result.history.points.flatMap((point) => [...point.schemas.keys()]));
  const configText = readFileSync(join(resolve(cwd, catalogue), CONFIG_FILE), 'utf8');
  const problems = checkCompatibilityOverrides(result.history.current, configText, subjects);
  if (problems.length > 0) {
    for (const problem of problems) process.stderr.write(`${formatProblem(problem, catalogue)}\n`);
    return 1;
  }
  return result.history;
}

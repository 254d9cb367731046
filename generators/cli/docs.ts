import { statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { generateSite } from '../docs/site.js';
import { writeSiteAtomically } from '../docs/write-site.js';
import { formatProblem } from '../load/index.js';
import { loadHistory } from '../registry/history.js';
import { repoRoot } from '../sources/git.js';
import { EXIT_USAGE } from './exit-codes.js';

/** Options of `eventry docs`. */
export interface DocsCommandOptions {
  catalogue?: string;
  /** The site folder. */
  out?: string;
  /** Where `eventry build` wrote the group packages. */
  packages?: string;
  /** `--no-cache`: load every release from git, write no cache. */
  cache?: boolean;
  cwd?: string;
}

/**
 * `eventry docs`: writes the static docs portal. Exit 0 written; 1 when the catalogue does not load or
 * the built packages are missing or stale (each problem printed with its code and file, nothing
 * written); 2 on a usage error.
 */
export async function runDocs(options: DocsCommandOptions = {}): Promise<number> {
  const started = performance.now();
  const cwd = options.cwd ?? process.cwd();
  const catalogue = options.catalogue ?? 'catalogue';
  const out = options.out ?? join('.eventry', 'site');
  if (!statSync(resolve(cwd, catalogue), { throwIfNoEntry: false })?.isDirectory()) {
    process.stderr.write(`eventry: no catalogue folder at ${catalogue} (give one with --catalogue <dir>).\n`);
    return EXIT_USAGE;
  }
  const outStat = statSync(resolve(cwd, out), { throwIfNoEntry: false });
  if (outStat && !outStat.isDirectory()) {
    process.stderr.write(`eventry docs: --out ${out} is not a directory.\n`);
    return EXIT_USAGE;
  }
  const top = repoRoot(cwd) ?? cwd;
  const loaded = loadHistory({
    cwd,
    catalogue,
    ...(options.cache !== false ? { cacheDir: join(top, '.eventry', 'registry') } : {}),
  });
  if (!loaded.ok) {
    if ('problems' in loaded) {
      process.stderr.write(`eventry: the catalogue in ${resolve(cwd, catalogue)} does not load:\n`);
      for (const problem of loaded.problems) process.stderr.write(`${formatProblem(problem, loaded.root)}\n`);
    } else {
      process.stderr.write(`eventry: ${loaded.message}\n`);
    }
    return 1;
  }
  for (const warning of loaded.history.warnings) process.stderr.write(`eventry: ${warning}\n`);
  const result = await writeSiteAtomically(resolve(cwd, out), (emit) =>
    generateSite(
      {
        catalogue: loaded.history.current,
        history: loaded.history,
        packagesDir: resolve(cwd, options.packages ?? 'packages'),
      },
      emit,
    ),
  );
  if ('code' in result) {
    process.stderr.write(`eventry docs: ${result.message} [${result.code}]\n`);
    return EXIT_USAGE;
  }
  if (!result.ok) {
    for (const problem of result.problems) {
      process.stderr.write(
        `${relative(cwd, problem.file) || problem.file}: ${problem.message} [${problem.code}]\n`,
      );
    }
    process.stderr.write('eventry docs: nothing written.\n');
    return 1;
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stdout.write(
    `eventry: wrote the docs site into ${out}: ${result.pages} pages, ${result.files} assets (${seconds} s).\n`,
  );
  return 0;
}

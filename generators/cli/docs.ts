import { statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { generateSite } from '../docs/site.js';
import { checkSiteFolder, writeSiteAtomically } from '../docs/write-site.js';
import { lockOutput } from '../execute/lock.js';
import { whileReadingOutput } from '../execute/write.js';
import { EXIT, type ExitStatus } from '../shared/exit-codes.js';
import type { Container } from './container.js';
import { openHistory } from './history.js';
import { usageError } from './usage-error.js';

/** Options of `eventry docs`. */
export interface DocsCommandOptions {
  catalogue?: string;
  /** The site folder. */
  out?: string;
  /** Where `eventry build` wrote the group packages. */
  packages?: string;
  /** `--no-cache`: load every release from git, write no cache. */
  cache?: boolean;
}

/**
 * `eventry docs`: writes the static docs portal. Exit 0 written; 1 when the catalogue does not load or
 * the built packages are missing or stale (each problem printed with its code and file, nothing
 * written); 2 on a usage error.
 */
export async function runDocs(options: DocsCommandOptions, io: Container): Promise<ExitStatus> {
  const started = performance.now();
  const { cwd } = io;
  const catalogue = options.catalogue ?? 'catalogue';
  const out = options.out ?? join('.eventry', 'site');
  const outStat = statSync(resolve(cwd, out), { throwIfNoEntry: false });
  if (outStat && !outStat.isDirectory()) {
    return usageError(io, 'docs', `--out ${out} is not a directory.`);
  }
  const claim = { given: out, sources: [resolve(cwd, catalogue)], roots: [cwd], cwd };
  const refused = checkSiteFolder(resolve(cwd, out), claim);
  if (refused) {
    io.stderr.write(`eventry docs: ${refused.message} [${refused.code}]\n`);
    return EXIT.usage;
  }
  const history = openHistory(io, 'docs', catalogue, options.cache !== false);
  if (typeof history === 'number') return history;
  const packagesDir = resolve(cwd, options.packages ?? 'packages');
  // One docs run at a time replaces a site (two would swap it under each other): a lock beside it,
  // since the site folder itself is replaced whole.
  const target = resolve(cwd, out);
  const siteLock = await lockOutput(join(dirname(target), `.${basename(target)}.lock`), (pid) =>
    io.stderr.write(`eventry docs: waiting for another docs run (process ${pid}) writing ${out} …\n`),
  );
  let result: Awaited<ReturnType<typeof writeSite>>;
  // The site copies the packages' files: read as a reader of that output, never while a build commits.
  const writeSite = () =>
    whileReadingOutput(
      packagesDir,
      () =>
        writeSiteAtomically(
          target,
          (emit) => generateSite({ catalogue: history.current, history, packagesDir }, emit),
          claim,
        ),
      (pid) =>
        io.stderr.write(
          `eventry docs: waiting for a build (process ${pid}) writing ${options.packages ?? 'packages'} …\n`,
        ),
    );
  try {
    result = await writeSite();
  } finally {
    siteLock.release();
  }
  if ('code' in result) {
    io.stderr.write(`eventry docs: ${result.message} [${result.code}]\n`);
    return EXIT.usage;
  }
  if (!result.ok) {
    for (const problem of result.problems) {
      io.stderr.write(
        `${relative(cwd, problem.file) || problem.file}: ${problem.message} [${problem.code}]\n`,
      );
    }
    io.stderr.write('eventry docs: nothing written.\n');
    return EXIT.problems;
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  io.stdout.write(
    `eventry: wrote the docs site into ${out}: ${result.pages} pages, ${result.files} assets (${seconds} s).\n`,
  );
  return EXIT.ok;
}

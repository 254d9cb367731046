import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { fastExecutor } from '../execute/fast/index.js';
import { runExecutor } from '../execute/run.js';
import { EXIT, type ExitStatus } from '../shared/exit-codes.js';
import { type Container, type Printer, printerOf } from './container.js';

/** Options of `eventry build`. */
export interface BuildOptions {
  catalogue: string;
  out: string;
  force?: boolean;
  /** commander's `--no-cache`: false turns the build's cache (source hashes, document entries) and the parse cache off. */
  cache?: boolean;
}

/**
 * `eventry build`: parses the options and prints what happened. The build itself is the fast
 * executor's (`execute/fast/`), run by `runExecutor` under the output's lock; its plan decides
 * "nothing to do" before the loader, ajv or any emitter is imported.
 */
export async function runBuild(
  options: BuildOptions,
  io: Container,
  console: Printer = printerOf(io),
): Promise<ExitStatus> {
  const started = performance.now();
  const executor = fastExecutor({ cache: options.cache !== false, ...buildThreads(io.env) });
  const result = await runExecutor(
    executor,
    {
      catalogueDir: resolve(io.cwd, options.catalogue),
      outDir: resolve(io.cwd, options.out),
      outGiven: options.out,
      cwd: io.cwd,
      ...(options.force ? { force: true } : {}),
      onReaders: (readers) =>
        console.error(`eventry: waiting for ${readers} command(s) reading ${options.out} to finish …`),
    },
    {
      onLockWait: (pid) =>
        console.error(`eventry: waiting for another build (process ${pid}) writing ${options.out} …`),
      onRecovered: (how) =>
        console.log(
          how === 'rolled-forward'
            ? 'eventry: finished moving in the output of an interrupted build.'
            : 'eventry: discarded the staged files of an interrupted build.',
        ),
    },
  );
  return printOutcome(result, options, io, console, started);
}

/** What a build ended with, as `runExecutor` gives it. */
type BuildOutcome = Awaited<ReturnType<typeof runExecutor>>;

/** Prints how the build ended and gives its exit status. */
async function printOutcome(
  result: BuildOutcome,
  options: BuildOptions,
  io: Container,
  console: Printer,
  started: number,
): Promise<ExitStatus> {
  switch (result.kind) {
    case 'no-catalogue':
      console.error(
        `eventry: no catalogue folder at ${options.catalogue} (give one with --catalogue <dir>).`,
      );
      return EXIT.usage;
    case 'out-not-a-folder':
      console.error(`eventry: --out ${options.out} is not a directory (give the packages folder).`);
      return EXIT.usage;
    case 'out-refused':
      console.error(`eventry: error ${result.problem.code}: ${result.problem.message}`);
      return EXIT.usage;
    case 'lock-failed':
      console.error(
        `eventry: build failed: error write-failed: cannot write ${options.out} (${result.code}${WRITE_HINTS.get(result.code) ?? ''}).`,
      );
      return EXIT.problems;
    case 'up-to-date':
      console.log(
        `eventry: nothing to do: catalogue unchanged, ${result.fileCount} files up to date (${ms(started)}).`,
      );
      return EXIT.ok;
    case 'problems': {
      const { formatProblem } = await import('../load/index.js');
      for (const problem of result.problems) console.error(formatProblem(problem, options.catalogue));
      console.error(
        `eventry: build failed: ${result.problems.length} problem(s) in the catalogue; nothing was written.`,
      );
      return EXIT.problems;
    }
    case 'write-failed': {
      const { path, code } = result.failure;
      console.error(
        `eventry: build failed: error write-failed: cannot write ${path} (${code}${WRITE_HINTS.get(code) ?? ''}).`,
      );
      console.error('eventry: nothing was written.');
      return EXIT.problems;
    }
    case 'emitter-failed': {
      const { emitter, error } = result;
      console.error(
        `eventry: build failed in emitter ${emitter}: ${error instanceof Error ? (io.env.EVENTRY_DEBUG ? error.stack : error.message) : String(error)}`,
      );
      console.error('eventry: nothing was written.');
      return EXIT.problems;
    }
    case 'built':
      return printBuilt(result, options, io, console, started);
  }
}

/** A build that wrote: what it wrote, then the lint's one-line summary. */
async function printBuilt(
  result: Extract<BuildOutcome, { kind: 'built' }>,
  options: BuildOptions,
  io: Container,
  console: Printer,
  started: number,
): Promise<ExitStatus> {
  const { written, unchanged, removed } = result.report;
  const events = Object.keys(result.catalogue.events).length;
  console.log(
    `eventry: built ${events} events in ${result.catalogue.groups.length} groups: ${written.length} files written, ` +
      `${unchanged} unchanged, ${removed.length} removed (${ms(started)}).`,
  );
  // Only after a real build: the no-op path stays free of the loader and the lint.
  const { lintSummaryLine } = await import('../lint/gate.js');
  const { ruleDataProbe } = await import('./rule-data.js');
  const { ruleData } = await ruleDataProbe(result.catalogue);
  const dir = resolve(io.cwd, options.catalogue);
  console.log(lintSummaryLine(result.catalogue, dir, result.sources, ruleData));
  return EXIT.ok;
}

/** Why a file could not be written, for the codes an author can cause. */
const WRITE_HINTS = new Map([
  ['ENAMETOOLONG', ': the file name is too long for the file system; shorten the event key'],
  ['EACCES', ': permission denied'],
  ['ENOSPC', ': no space left on the device'],
  ['EISDIR', ': a folder stands where the build writes this file; move it away'],
]);

/**
 * Threads for a build's emitters: one per core (this thread mostly stages files meanwhile), when
 * enough events are to be generated (the fast executor decides: an edit uses none).
 * `EVENTRY_BUILD_THREADS=<n>` sets the count and uses them for any number of events (0: everything on
 * this thread; 1: the documents on the thread, the rest here), for tests and measurements.
 */
function buildThreads(env: Container['env']): { threads: number; anySize?: boolean } {
  const given = Number.parseInt(env.EVENTRY_BUILD_THREADS ?? '', 10);
  const forced = Number.isInteger(given) && given >= 0;
  return forced ? { threads: given, anySize: true } : { threads: availableParallelism() };
}

function ms(started: number): string {
  return `${Math.round(performance.now() - started)} ms`;
}

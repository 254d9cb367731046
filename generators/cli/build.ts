import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { lockOutput, type OutputLock } from '../execute/lock.js';
import { checkBuildOutput, markBuildOutput } from '../execute/output-folder.js';
import { planBuild, stampFolders } from '../execute/state.js';
import { type BuildState, isRecorded, sealState, stateFile } from '../execute/state-file.js';
import { recoverOutput } from '../execute/write.js';
import { EXIT, type ExitStatus } from '../shared/exit-codes.js';
import { type Container, type Printer, printerOf } from './container.js';

/** Options of `eventry build`. */
export interface BuildOptions {
  catalogue: string;
  out: string;
  force?: boolean;
  /** commander's `--no-cache`: false turns the per-group output cache and the parse cache off. */
  cache?: boolean;
}

/**
 * `eventry build`: checks the arguments and prints what happened. The build itself is `build/`; its
 * fast path (`planBuild`) decides "nothing to do" before the loader, ajv or any emitter is imported.
 */
export async function runBuild(
  options: BuildOptions,
  io: Container,
  print: Printer = printerOf(io),
): Promise<ExitStatus> {
  const started = performance.now();
  const outDir = resolve(io.cwd, options.out);
  const catalogueDir = resolve(io.cwd, options.catalogue);
  if (!statSync(catalogueDir, { throwIfNoEntry: false })?.isDirectory()) {
    print.error(`eventry: no catalogue folder at ${options.catalogue} (give one with --catalogue <dir>).`);
    return EXIT.usage;
  }
  const outStat = statSync(outDir, { throwIfNoEntry: false });
  if (outStat && !outStat.isDirectory()) {
    print.error(`eventry: --out ${options.out} is not a directory (give the packages folder).`);
    return EXIT.usage;
  }
  const refused = checkBuildOutput(options.out, outDir, catalogueDir, io.cwd);
  if (refused) {
    print.error(`eventry: error ${refused.code}: ${refused.message}`);
    return EXIT.usage;
  }
  let lock: OutputLock;
  try {
    lock = await lockOutput(outDir, (pid) =>
      print.error(`eventry: waiting for another build (process ${pid}) writing ${options.out} …`),
    );
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
    print.error(
      `eventry: build failed: error write-failed: cannot write ${options.out} (${code}${WRITE_HINTS.get(code) ?? ''}).`,
    );
    return EXIT.problems;
  }
  try {
    return await buildLocked(options, io.env, print, started, outDir, catalogueDir);
  } finally {
    lock.release();
  }
}

/** `runBuild` once it holds the output's lock. */
async function buildLocked(
  options: BuildOptions,
  env: Container['env'],
  print: Printer,
  started: number,
  outDir: string,
  catalogueDir: string,
): Promise<ExitStatus> {
  const recovered = recoverOutput(outDir);
  if (recovered === 'rolled-forward')
    print.log('eventry: finished moving in the output of an interrupted build.');
  if (recovered === 'rolled-back') print.log('eventry: discarded the staged files of an interrupted build.');
  const plan = planBuild(catalogueDir, outDir, options.force);
  if (plan.upToDate) {
    markBuildOutput(outDir);
    print.log(
      `eventry: nothing to do: catalogue unchanged, ${plan.fileCount} files up to date (${ms(started)}).`,
    );
    return EXIT.ok;
  }

  const { buildCatalogue } = await import('../execute/build.js');
  const { formatProblem } = await import('../load/index.js');
  const { FastLoad, ModelSnapshot, ParseCache } = await import('../execute/fast/load/index.js');
  const { createDiskCache, projectCacheDir } = await import('../execute/emit-cache.js');
  const cacheDir = options.cache === false ? undefined : projectCacheDir(catalogueDir);
  const cache = cacheDir ? createDiskCache(cacheDir, plan.tool) : undefined;
  // The state this build commits, kept for the folder record (`stampFolders`) rather than read back.
  let sealed: { state: BuildState; keptBelow: ReadonlySet<string> } | undefined;
  const result = await buildCatalogue(plan.sources, outDir, {
    previousAreas: plan.state ? [...plan.state.areas.keys()] : [],
    ...(plan.state ? { previousFiles: isRecorded(plan.state) } : {}),
    onReaders: (readers) =>
      print.error(`eventry: waiting for ${readers} command(s) reading ${options.out} to finish …`),
    seal: (files, units, keptBelow) => {
      const state = sealState(plan.inputHash, files, units, plan.state, keptBelow);
      sealed = { state, keptBelow };
      // Another catalogue or toolkit: the state differs from the one in the output, unread.
      return { ...stateFile(state), changed: plan.state?.inputHash !== plan.inputHash };
    },
    tool: plan.tool,
    ...(plan.state && !options.force ? { state: plan.state } : {}),
    ...(cache ? { cache } : {}),
    load: {
      accelerator: new FastLoad(
        cacheDir
          ? { cache: new ParseCache(cacheDir, plan.tool), snapshot: new ModelSnapshot(cacheDir, plan.tool) }
          : {},
      ),
    },
    workers: buildThreads(cacheDir, env),
    ...(plan.untouchedAreas ? { untouchedAreas: plan.untouchedAreas } : {}),
  });
  if (!result.ok) {
    if ('problems' in result) {
      for (const problem of result.problems) print.error(formatProblem(problem, options.catalogue));
      print.error(
        `eventry: build failed: ${result.problems.length} problem(s) in the catalogue; nothing was written.`,
      );
    } else if ('writeError' in result) {
      const { path, code } = result.writeError;
      print.error(
        `eventry: build failed: error write-failed: cannot write ${path} (${code}${WRITE_HINTS.get(code) ?? ''}).`,
      );
      print.error('eventry: nothing was written.');
    } else {
      const { emitter, error } = result.emitterError;
      print.error(
        `eventry: build failed in emitter ${emitter}: ${error instanceof Error ? (env.EVENTRY_DEBUG ? error.stack : error.message) : String(error)}`,
      );
      print.error('eventry: nothing was written.');
    }
    return EXIT.problems;
  }
  if (sealed) {
    const { folderTimes, unchanged } = plan;
    const { touched } = result.report;
    const known =
      folderTimes && unchanged ? { folderTimes, unchanged, touched, keptBelow: sealed.keptBelow } : undefined;
    stampFolders(outDir, plan.foldersRecord, sealed.state, plan.digests, known);
  }
  const { written, unchanged, removed } = result.report;
  const events = Object.keys(result.catalogue.events).length;
  print.log(
    `eventry: built ${events} events in ${result.catalogue.groups.length} groups: ${written.length} files written, ` +
      `${unchanged} unchanged, ${removed.length} removed (${ms(started)}).`,
  );
  // Only after a real build: the no-op path above stays free of the loader and the lint.
  const { lintSummaryLine } = await import('../lint/gate.js');
  print.log(lintSummaryLine(result.catalogue, catalogueDir));
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
 * enough events are to be generated (see `buildCatalogue`: an edit uses none).
 * `EVENTRY_BUILD_THREADS=<n>` sets the count and uses them for any number of events (0: everything on
 * this thread; 1: the documents on the thread, the rest here), for tests and measurements.
 */
function buildThreads(
  cacheDir: string | undefined,
  env: Container['env'],
): {
  threads: number;
  cacheDir?: string;
  minEvents?: number;
} {
  const given = Number.parseInt(env.EVENTRY_BUILD_THREADS ?? '', 10);
  const forced = Number.isInteger(given) && given >= 0;
  return {
    threads: forced ? given : availableParallelism(),
    ...(cacheDir ? { cacheDir } : {}),
    ...(forced ? { minEvents: 0 } : {}),
  };
}

function ms(started: number): string {
  return `${Math.round(performance.now() - started)} ms`;
}

import { resolve } from 'node:path';
import { formatGate, formatGateLines, type GateFormat, gateTally } from '../check/report.js';
import { runGate } from '../check/run.js';
import type { GateRun, GateVerdict } from '../check/verdict.js';
import { rootedPath } from '../diff/report/report.js';
import { openLoader } from '../execute/fast/loader.js';
import { type CatalogueProblem, formatProblem } from '../load/index.js';
import { describeBase } from '../release/base.js';
import { EXIT, type ExitStatus } from '../shared/exit-codes.js';
import type { SourceOptions } from '../sources/source.js';
import type { Container } from './container.js';
import { ruleDataProbe } from './rule-data.js';
import { usageError } from './usage-error.js';

/** Options of `eventry check`. */
export interface CheckCommandOptions {
  /**
   * Git ref (or catalogue directory) of the last accepted state: `main`, a release tag. Without it:
   * `EVENTRY_BASE`, else the last release (see `resolveGateBase`).
   */
  base?: string;
  catalogue?: string;
  format?: GateFormat;
}

/** The command line `.ci/run` runs: the gate against `EVENTRY_BASE` or the last release (see `resolveGateBase`). */
export const CI_CHECK_COMMAND = 'node dist/scripts/eventry.js check';

/**
 * `eventry check [--base REF]`: the version policy gate (`check/run.ts`). Exit 1 when an existing
 * event version changed in a breaking way that the allow-list does not name, when an allow-list entry
 * matches nothing or outlived a whole release, or when the catalogue does not load; 0 otherwise; 2 on
 * a usage error, and when the base cannot be seen (a shallow clone, a ref that names no commit, a base
 * that does not load).
 */
export async function runCheck(options: CheckCommandOptions, io: Container): Promise<ExitStatus> {
  const { cwd } = io;
  const catalogueDir = options.catalogue ?? 'catalogue';
  // The catalogue and its base share most files: each file both hold alike is parsed once, and most
  // were parsed by the last `eventry build` already (its parse cache, in the project's .eventry/cache/).
  // Only read, and only when there is one: a CI run starts without it, and storing would only cost it.
  const sourceOptions: SourceOptions = {
    cwd,
    env: io.env,
    catalogue: catalogueDir,
    load: {
      accelerator: openLoader({ memo: true, readCacheOf: [resolve(cwd, catalogueDir)] }),
      ownership: 'defer',
    },
  };
  const fromEnv = io.env.EVENTRY_BASE?.trim();
  const base =
    options.base !== undefined
      ? { spec: options.base, from: '--base' as const }
      : fromEnv
        ? { spec: fromEnv, from: 'EVENTRY_BASE' as const }
        : undefined;
  const format = options.format ?? 'text';
  const lintFormat = format === 'github' ? 'github' : 'text';
  const run = await runGate({
    source: sourceOptions,
    ...(base ? { base } : {}),
    format: lintFormat,
    ruleData: async (catalogue) => (await ruleDataProbe(catalogue)).ruleData,
  });
  return printGate(run, format, io);
}

/** Prints the gate's result and returns the exit status. */
function printGate(run: GateRun, format: GateFormat, io: Container): ExitStatus {
  const out = (text: string) => io.stdout.write(text);
  // Under json and markdown stdout holds one document; the base is in it, or the error is on stderr.
  const baseLine = (base: GateVerdict['base']) => {
    if (format === 'text' || format === 'github') out(`eventry check: base ${describeBase(base)}.\n`);
  };
  switch (run.kind) {
    case 'usage':
      return usageError(io, 'check', run.message);
    case 'catalogue-problems':
      printProblems(run.problems, run.root, format, io);
      if (format === 'text' || format === 'github')
        out(`eventry check: the catalogue has ${run.problems.length} problem(s).\n`);
      return EXIT.problems;
    case 'allow-list-problems':
      printProblems(run.problems, run.root, format, io);
      return EXIT.problems;
    case 'base-problem':
      io.stderr.write(`eventry check: error ${run.code}: ${run.message}\n`);
      return EXIT.usage;
    case 'base-unseen':
      if (run.base) baseLine(run.base);
      io.stderr.write(`eventry check: error ${run.code}: ${run.message}\n    fix: ${run.hint}\n`);
      return EXIT.usage;
    case 'base-does-not-load':
      baseLine(run.base);
      io.stderr.write(
        `eventry check: error base-does-not-load: the catalogue at the base ${describeBase(run.base)} has ${run.problems} problem(s), so the gate cannot compare with it.\n` +
          '    fix: name a base whose catalogue loads with --base or EVENTRY_BASE (`eventry diff <base> catalogue` shows its problems).\n',
      );
      return EXIT.usage;
    case 'gated':
      baseLine(run.base);
      return printVerdict(run, format, io);
  }
}

/** Prints the findings, whom they break, the lint and the summary line. */
function printVerdict(run: GateVerdict, format: GateFormat, io: Container): ExitStatus {
  if (run.consumers.kind === 'declaration-problems') {
    io.stdout.write(formatGateLines(run, format));
    printProblems(run.consumers.problems, run.root, format, io);
    return EXIT.problems;
  }
  io.stdout.write(formatGate(run, format));
  return gateTally(run).passed ? EXIT.ok : EXIT.problems;
}

/** Catalogue problems in the format asked for: a machine format stays machine-readable. */
function printProblems(
  problems: readonly CatalogueProblem[],
  root: string,
  format: GateFormat,
  io: Container,
): void {
  if (format === 'json') {
    const listed = problems.map((problem) => ({ ...problem, file: rootedPath(root, problem.file) }));
    io.stdout.write(`${JSON.stringify({ verdict: 'failed', problems: listed }, null, 2)}\n`);
    return;
  }
  const lines = problems.map((problem) => formatProblem(problem, root));
  io.stdout.write(
    format === 'markdown'
      ? `## eventry check: failed\n\n\`\`\`\n${lines.join('\n')}\n\`\`\`\n`
      : `${lines.join('\n')}\n`,
  );
}

import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { openLoader } from '../execute/fast/loader.js';
import { readBaseline, writeBaseline } from '../lint/baseline.js';
import { resolveLintConfig } from '../lint/config.js';
import { type LintResult, lintCatalogue } from '../lint/lint.js';
import { formatGithub } from '../lint/report/github.js';
import { formatJson } from '../lint/report/json.js';
import { formatProblems, type LintProblem, printable } from '../lint/report/problems.js';
import { formatSarif } from '../lint/report/sarif.js';
import { countsText, formatText, sourcePath } from '../lint/report/text.js';
import { LINT_RULES } from '../lint/rules/index.js';
import {
  type CatalogueProblem,
  type CatalogueSourceFile,
  loadCatalogueFromSources,
  readCatalogueSources,
} from '../load/index.js';
import { EXIT, type ExitStatus } from '../shared/exit-codes.js';
import type { Container } from './container.js';
import { ruleDataProbe } from './rule-data.js';
import { usageError } from './usage-error.js';

/** Options of `eventry lint`. */
export interface LintCommandOptions {
  catalogue?: string;
  format?: 'text' | 'json' | 'sarif' | 'github';
  /** Fail (exit 1) when there are more new warnings than this. */
  maxWarnings?: number;
  writeBaseline?: boolean;
  /** commander's `--no-baseline`: false reports every finding as new. */
  baseline?: boolean;
  listRules?: boolean;
}

/**
 * `eventry lint`: the rule pack over the catalogue. Exit 1 on a new error, on more new warnings than
 * `--max-warnings`, or when the catalogue or its `lint:` settings have problems; 2 on a usage error.
 */
export async function runLint(options: LintCommandOptions, io: Container): Promise<ExitStatus> {
  const out = (text: string): boolean => io.stdout.write(text);
  if (options.listRules) {
    for (const rule of LINT_RULES) out(`${rule.id} (${rule.severity}): ${rule.description}\n`);
    return EXIT.ok;
  }
  const { cwd } = io;
  const root = options.catalogue ?? 'catalogue';
  const dir = resolve(cwd, root);
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
    return usageError(io, 'lint', `no catalogue folder at \`${root}\` (give one with --catalogue <dir>).`);
  }
  const format = options.format ?? 'text';
  const refuse = (problems: LintProblem[], what: string): ExitStatus => {
    out(formatProblems(problems, format, root, `eventry lint: ${what}; nothing was linted.`));
    return EXIT.problems;
  };
  let files: CatalogueSourceFile[];
  try {
    files = readCatalogueSources(dir);
  } catch (error) {
    io.stderr.write(
      `eventry lint: cannot read the catalogue folder \`${printable(root)}\` (${(error as NodeJS.ErrnoException).code ?? 'error'}).\n`,
    );
    return EXIT.usage;
  }
  const loaded = loadCatalogueFromSources(files, { accelerator: openLoader({ readCacheOf: [dir] }) });
  if (!loaded.ok)
    return refuse(
      loaded.problems.map(fromCatalogueProblem),
      `the catalogue has ${loaded.problems.length} problem(s)`,
    );
  const configText = files.find((file) => file.path === 'eventry.config.yaml')?.text;
  const config = resolveLintConfig(loaded.catalogue.config.lint, configText);
  if (config.problems.length > 0)
    return refuse(config.problems, `${config.problems.length} problem(s) in the lint settings`);
  const baselineShown = sourcePath(root, { file: config.baseline, line: 0, column: 0 });
  const ruleData = await ruleDataProbe(loaded.catalogue);
  if (options.writeBaseline) {
    const result = lintCatalogue(loaded.catalogue, { files, config, ...ruleData });
    const refused = writeBaseline(dir, config.baseline, result.findings);
    if (refused) {
      io.stderr.write(`eventry lint: not writing the baseline: ${baselineShown} ${refused}.\n`);
      return EXIT.problems;
    }
    // A note, not an outcome a machine reads: on stderr under a machine format.
    (format === 'text' ? io.stdout : io.stderr).write(
      `eventry lint: recorded ${result.findings.length} finding(s) (${countsText(result)}) in ${baselineShown}.\n`,
    );
    return EXIT.ok;
  }
  const read =
    options.baseline === false
      ? { ok: true as const, baseline: undefined }
      : readBaseline(dir, config.baseline);
  if (!read.ok) {
    const location = { file: config.baseline, line: 1, column: 1 };
    const hint = read.hint ?? 'Write it again with `eventry lint --write-baseline`.';
    return refuse(
      [{ code: 'invalid-lint-baseline', message: `The baseline ${read.message}.`, hint, location }],
      'the baseline cannot be used',
    );
  }
  const result = lintCatalogue(loaded.catalogue, {
    files,
    config,
    ...ruleData,
    ...(read.baseline ? { baseline: read.baseline } : {}),
  });
  const failed = failedBy(result, options.maxWarnings);
  if (format === 'json') out(formatJson(result, root));
  else if (format === 'sarif') out(formatSarif(result, root));
  else {
    out(format === 'github' ? formatGithub(result, root) : formatText(result, root));
    out(`${summaryLine(result, failed)}\n`);
  }
  return failed ? EXIT.problems : EXIT.ok;
}

/** Why the lint fails, or undefined when it passes. */
function failedBy(result: LintResult, maxWarnings: number | undefined): string | undefined {
  if (result.counts.error > 0) return 'errors';
  if (maxWarnings !== undefined && result.counts.warning > maxWarnings)
    return `more than ${maxWarnings} warning(s)`;
  return undefined;
}

/** `eventry lint: 0 errors, 3 warnings, 0 infos (12 in the baseline, 1 suppressed): passed.` */
function summaryLine(result: LintResult, failed: string | undefined): string {
  const notes = [
    ...(result.baselined.length > 0 ? [`${result.baselined.length} in the baseline`] : []),
    ...(result.fixed > 0
      ? [`${result.fixed} baseline entr${result.fixed === 1 ? 'y' : 'ies'} fixed: run --write-baseline`]
      : []),
    ...(result.suppressed > 0 ? [`${result.suppressed} suppressed`] : []),
    ...(result.ignored > 0 ? [`${result.ignored} ignored by path`] : []),
  ];
  return `eventry lint: ${countsText(result)}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}: ${failed ? `failed (${failed})` : 'passed'}.`;
}

/** A catalogue problem as the lint reports it (its places relative to the catalogue, as findings). */
function fromCatalogueProblem(problem: CatalogueProblem): LintProblem {
  return {
    code: problem.code,
    message: problem.message,
    ...(problem.hint ? { hint: problem.hint } : {}),
    location: { file: problem.file, line: problem.line, column: problem.column },
  };
}

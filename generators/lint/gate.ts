import { type CatalogueSourceFile, readCatalogueSources } from '../load/index.js';
import type { Catalogue } from '../model.js';
import { readBaseline } from './baseline.js';
import { resolveLintConfig } from './config.js';
import { type LintResult, lintCatalogue } from './lint.js';
import { formatGithub } from './report/github.js';
import { countsText, formatText, sourcePath } from './report/text.js';
import type { RuleDataProbe } from './rule.js';

/** What `eventry check` prints of the lint, and whether it fails the gate. */
export interface LintGate {
  output: string;
  failed: boolean;
  result?: LintResult;
}

/**
 * The lint as a step of the gate: new findings (not in the baseline) printed, new errors failing, as
 * do problems with the `lint:` settings or the baseline file. `dir` is the catalogue folder, `root`
 * how the user named it; `files` its sources when the caller has read them already; `ruleData` the
 * test data's probe of the data rules (`LintOptions.ruleData`).
 */
export function lintForGate(
  catalogue: Catalogue,
  dir: string,
  root: string,
  format: 'text' | 'github',
  files?: readonly CatalogueSourceFile[],
  ruleData?: RuleDataProbe,
): LintGate {
  const run = runLint(catalogue, dir, root, files ?? readCatalogueSources(dir), ruleData);
  if (!run.ok)
    return {
      output: `${run.problems.join('')}eventry check: lint: the lint settings have problems: failed.\n`,
      failed: true,
    };
  const { result } = run;
  const failed = result.counts.error > 0;
  const findings = format === 'github' ? formatGithub(result, root) : formatText(result, root);
  const recorded = result.baselined.length > 0 ? `, ${result.baselined.length} in the baseline` : '';
  return {
    output: `${findings}eventry check: lint: ${countsText(result)} new${recorded}: ${failed ? 'failed' : 'passed'}.\n`,
    failed,
    result,
  };
}

/**
 * The one line `eventry build` prints after building: how many new findings the lint has, or why it
 * could not tell (the build itself never fails on them). `files`: the catalogue's sources, when read.
 */
export function lintSummaryLine(
  catalogue: Catalogue,
  dir: string,
  files?: readonly CatalogueSourceFile[],
  ruleData?: RuleDataProbe,
): string {
  // The gate's lint without its report: the line counts the findings, it does not print them.
  const run = runLint(catalogue, dir, '', files ?? readCatalogueSources(dir), ruleData);
  if (!run.ok) return 'eventry: lint: the lint settings have problems (run `eventry lint`).';
  const { findings, baselined } = run.result;
  const recorded = baselined.length > 0 ? `, ${baselined.length} in the baseline` : '';
  return `eventry: lint: ${countsText(run.result)}${recorded}${findings.length > 0 ? ' (run `eventry lint` for details)' : ''}.`;
}

/** The lint with the catalogue's settings and baseline, or the problems with them (lines, `root`-relative). */
function runLint(
  catalogue: Catalogue,
  dir: string,
  root: string,
  files: readonly CatalogueSourceFile[],
  ruleData: RuleDataProbe | undefined,
): { ok: true; result: LintResult } | { ok: false; problems: string[] } {
  const configText = files.find((file) => file.path === 'eventry.config.yaml')?.text;
  const config = resolveLintConfig(catalogue.config.lint, configText);
  const problems = config.problems.map(
    (problem) =>
      `${sourcePath(root, problem.location)}:${problem.location.line}:${problem.location.column}: error ${problem.code}: ${problem.message}\n    hint: ${problem.hint}\n`,
  );
  const read = readBaseline(dir, config.baseline);
  if (!read.ok)
    problems.push(
      `${sourcePath(root, { file: config.baseline, line: 1, column: 1 })}:1:1: error invalid-lint-baseline: The baseline ${read.message}.\n${read.hint ? `    hint: ${read.hint}\n` : ''}`,
    );
  if (problems.length > 0) return { ok: false, problems };
  const baseline = read.ok ? read.baseline : undefined;
  const options = { files, config, ...(baseline ? { baseline } : {}), ...(ruleData ? { ruleData } : {}) };
  return { ok: true, result: lintCatalogue(catalogue, options) };
}

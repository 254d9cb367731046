import type { CatalogueSourceFile } from '../load/index.js';
import type { Catalogue, LintSeverity } from '../model.js';
import { type Baseline, baselineKey } from './baseline.js';
import { indexCatalogue } from './catalogue-index.js';
import { type LintConfigProblem, type ResolvedLintConfig, resolveLintConfig } from './config.js';
import {
  FINDING_SEVERITIES,
  type FindingSeverity,
  type LintFinding,
  type LintRule,
  type RuleDataProbe,
  type RuleDataVerdict,
} from './rule.js';
import { LINT_RULES } from './rules/index.js';
import { applySuppressions } from './suppress.js';

/** What a lint reads besides the model. */
export interface LintOptions {
  /** The catalogue's files, for inline suppressions and to locate `lint:` settings. */
  files?: readonly CatalogueSourceFile[];
  /** The recorded findings: reported apart, never failing. */
  baseline?: Baseline;
  /** Settings to use instead of the catalogue's `lint:` (tests). */
  config?: ResolvedLintConfig;
  /**
   * Runs the packages' test data over the data rules, for `rule-unsatisfiable` and `rule-unbreakable`
   * (the CLI passes `probeRuleData`); without it those rules judge from the expressions alone.
   */
  ruleData?: RuleDataProbe;
}

/** The outcome of a lint. */
export interface LintResult {
  /** New findings (not in the baseline), in source order. */
  findings: LintFinding[];
  /** Findings the baseline records. */
  baselined: LintFinding[];
  /** How many an inline comment suppressed, and how many `lint.ignore` dropped. */
  suppressed: number;
  ignored: number;
  /** Baseline entries no finding matches any more (fixed since). */
  fixed: number;
  /** Problems with the `lint:` settings: the lint did not run as configured. */
  configProblems: LintConfigProblem[];
  /** How many new findings of each severity. */
  counts: Record<FindingSeverity, number>;
}

/** Runs every rule that is not off over the catalogue, then applies ignores, suppressions and the baseline. */
export function lintCatalogue(catalogue: Catalogue, options: LintOptions = {}): LintResult {
  const configText = options.files?.find((file) => file.path === 'eventry.config.yaml')?.text;
  const config = options.config ?? resolveLintConfig(catalogue.config.lint, configText);
  let verdicts: readonly RuleDataVerdict[] | undefined;
  const ctx = {
    catalogue,
    index: indexCatalogue(catalogue),
    pattern: (rule: LintRule) => config.pattern(rule),
    ruleData: () => {
      verdicts ??= options.ruleData?.(catalogue) ?? [];
      return verdicts;
    },
  };
  const all: LintFinding[] = [];
  const active = new Set<string>();
  let ignored = 0;
  for (const rule of LINT_RULES) {
    const severity: LintSeverity = config.severity(rule);
    if (severity === 'off') continue;
    active.add(rule.id);
    for (const report of rule.check(ctx)) {
      if (config.ignored(rule.id, report.location.file)) {
        ignored++;
        continue;
      }
      all.push({ ...report, rule: rule.id, severity, hint: rule.hint });
    }
  }
  const { kept, suppressed, problems } = applySuppressions(all, options.files ?? [], active);
  const findings: LintFinding[] = [];
  const baselined: LintFinding[] = [];
  const matched = new Set<string>();
  for (const finding of sortBySource([...kept, ...problems])) {
    const key = baselineKey(finding);
    if (options.baseline?.has(key)) {
      baselined.push(finding);
      matched.add(key);
    } else findings.push(finding);
  }
  const counts = Object.fromEntries(FINDING_SEVERITIES.map((severity) => [severity, 0])) as Record<
    FindingSeverity,
    number
  >;
  for (const finding of findings) counts[finding.severity]++;
  return {
    findings,
    baselined,
    suppressed,
    ignored,
    fixed: options.baseline ? options.baseline.size - matched.size : 0,
    configProblems: config.problems,
    counts,
  };
}

/** Source order: file, line, column, then rule id and subject. Files are ranked once, not compared per pair. */
function sortBySource(findings: LintFinding[]): LintFinding[] {
  const files = [...new Set(findings.map((finding) => finding.location.file))].sort();
  const rank = new Map(files.map((file, i) => [file, i]));
  const keyed = findings.map((finding) => ({ finding, file: rank.get(finding.location.file)! }));
  keyed.sort((a, b) => {
    const x = a.finding;
    const y = b.finding;
    return (
      a.file - b.file ||
      x.location.line - y.location.line ||
      x.location.column - y.location.column ||
      (x.rule < y.rule ? -1 : x.rule > y.rule ? 1 : 0) ||
      (x.subject < y.subject ? -1 : x.subject > y.subject ? 1 : 0)
    );
  });
  return keyed.map((entry) => entry.finding);
}

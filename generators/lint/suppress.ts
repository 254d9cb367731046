import type { CatalogueSourceFile } from '../load/index.js';
import { unknownRule } from './config.js';
import type { LintFinding } from './rule.js';
import { LINT_RULES_BY_ID } from './rules/index.js';

/** `# eventry-lint-disable-next-line <rule-id>[, <rule-id>] -- reason` */
const SUPPRESSION = /^\s*#\s*eventry-lint-disable-next-line\b(.*)$/;

/** One inline suppression: the rules it names on the line it covers. */
interface Suppression {
  file: string;
  /** The comment's own line. */
  line: number;
  column: number;
  /** The line it covers: the next one that is neither blank nor a comment. */
  target: number;
  rules: string[];
  used: Set<string>;
}

/** The codes of what the suppression comments themselves get wrong (not rules: they cannot be turned off). */
export const SUPPRESSION_CODES = [
  'suppression-without-reason',
  'unknown-lint-rule',
  'unused-suppression',
] as const;

/**
 * Drops the findings an inline comment suppresses, and reports the comments that are wrong: without a
 * reason (such a comment suppresses nothing), naming no rule or an unknown one, or suppressing nothing.
 */
export function applySuppressions(
  findings: LintFinding[],
  files: readonly CatalogueSourceFile[],
  /** Rules that ran: a suppression of a rule turned off is not unused. */
  active: ReadonlySet<string>,
): { kept: LintFinding[]; suppressed: number; problems: LintFinding[] } {
  const problems: LintFinding[] = [];
  // Every comment indexed once by the line and rule it covers: linear in the lines and the findings
  // (a scan per comment or per finding was quadratic: 60,000 comment lines took minutes).
  const byLine = new Map<string, Suppression[]>();
  const byLineRule = new Map<string, Suppression>();
  for (const file of files) {
    if (!file.text.includes('eventry-lint-disable')) continue;
    const lines = file.text.split(/\r?\n/);
    const targets = coveredLines(lines);
    for (const [i, text] of lines.entries()) {
      if (!text.includes('eventry-lint-disable')) continue;
      const match = SUPPRESSION.exec(text);
      if (!match) continue;
      const location = { file: file.path, line: i + 1, column: text.indexOf('#') + 1 };
      const rules = parseComment(match[1]!, location, problems);
      if (!rules) continue;
      const suppression: Suppression = { ...location, target: targets[i]!, rules, used: new Set() };
      const key = `${file.path}\0${suppression.target}`;
      const list = byLine.get(key);
      if (list) list.push(suppression);
      else byLine.set(key, [suppression]);
      for (const rule of rules)
        if (!byLineRule.has(`${key}\0${rule}`)) byLineRule.set(`${key}\0${rule}`, suppression);
    }
  }
  if (byLine.size === 0) return { kept: findings, suppressed: 0, problems };
  const kept: LintFinding[] = [];
  for (const finding of findings) {
    const by = byLineRule.get(`${finding.location.file}\0${finding.location.line}\0${finding.rule}`);
    if (by) by.used.add(finding.rule);
    else kept.push(finding);
  }
  for (const suppressions of byLine.values()) {
    for (const suppression of suppressions) {
      for (const rule of suppression.rules) {
        if (suppression.used.has(rule) || !active.has(rule)) continue;
        problems.push({
          rule: 'unused-suppression',
          severity: 'warning',
          message: `The suppression of \`${rule}\` matches no finding on line ${suppression.target}.`,
          hint: 'Delete it (the finding is gone), or move it above the line the finding is reported at.',
          location: { file: suppression.file, line: suppression.line, column: suppression.column },
          subject: `suppression ${suppression.file}:${suppression.line} ${rule}`,
        });
      }
    }
  }
  return { kept, suppressed: findings.length - kept.length, problems };
}

/**
 * For each line, the 1-based line a suppression written there covers: the next one that is neither
 * blank nor a comment. One pass from the end, so a run of comment lines costs its length once.
 */
function coveredLines(lines: readonly string[]): number[] {
  const targets = new Array<number>(lines.length);
  let next = lines.length + 1;
  for (let i = lines.length - 1; i >= 0; i--) {
    targets[i] = next;
    if (!/^\s*(#.*)?$/.test(lines[i]!)) next = i + 1;
  }
  return targets;
}

/**
 * The known rules a suppression comment names (`rest`: what follows the marker), or undefined when it
 * suppresses nothing; what is wrong with it goes to `problems`.
 */
function parseComment(
  rest: string,
  location: { file: string; line: number; column: number },
  problems: LintFinding[],
): string[] | undefined {
  const [list = '', reason] = rest.split(/\s--(?:\s|$)/, 2);
  const rules = list.split(/[\s,]+/).filter(Boolean);
  const where = `suppression ${location.file}:${location.line}`;
  if (!reason?.trim() || rules.length === 0) {
    problems.push({
      rule: 'suppression-without-reason',
      severity: 'error',
      message: rules.length === 0 ? 'The suppression names no rule.' : 'The suppression gives no reason.',
      hint: 'Write `# eventry-lint-disable-next-line <rule-id> -- why this is right here`.',
      location,
      subject: where,
    });
    return undefined;
  }
  return rules.filter((rule) => {
    if (LINT_RULES_BY_ID.has(rule)) return true;
    const problem = unknownRule(rule, location);
    problems.push({
      rule: problem.code,
      severity: 'error',
      message: problem.message,
      hint: problem.hint,
      location,
      subject: `${where} ${rule}`,
    });
    return false;
  });
}

import type { LintResult } from '../lint.js';
import type { LintFinding } from '../rule.js';
import { fingerprint, sourcePath } from './text.js';

/** One finding as JSON: flat, with the file as the user named the catalogue. */
function findingJson(finding: LintFinding, root: string) {
  return {
    rule: finding.rule,
    severity: finding.severity,
    file: sourcePath(root, finding.location),
    line: finding.location.line,
    column: finding.location.column,
    subject: finding.subject,
    message: finding.message,
    hint: finding.hint,
    fingerprint: fingerprint(finding),
  };
}

/** The lint result as one JSON document: new findings, baselined ones, and the counts. */
export function formatJson(result: LintResult, root: string): string {
  return `${JSON.stringify(
    {
      findings: result.findings.map((finding) => findingJson(finding, root)),
      baselined: result.baselined.map((finding) => findingJson(finding, root)),
      summary: {
        ...result.counts,
        baselined: result.baselined.length,
        suppressed: result.suppressed,
        ignored: result.ignored,
        fixed: result.fixed,
      },
    },
    null,
    2,
  )}\n`;
}

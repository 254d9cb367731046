import { escapeData, escapeProperty } from '../../diff/report/github.js';
import type { LintResult } from '../lint.js';
import type { FindingSeverity } from '../rule.js';
import { sourcePath } from './text.js';

const LEVEL: Record<FindingSeverity, 'error' | 'warning' | 'notice'> = {
  error: 'error',
  warning: 'warning',
  info: 'notice',
};

/** GitHub Actions workflow commands: one annotation per new finding, on its catalogue line. */
export function formatGithub(result: LintResult, root: string): string {
  return result.findings
    .map((finding) => {
      const properties = [
        `file=${escapeProperty(sourcePath(root, finding.location))}`,
        `line=${finding.location.line}`,
        `col=${finding.location.column}`,
        `title=${escapeProperty(`${finding.rule}`)}`,
      ];
      return `::${LEVEL[finding.severity]} ${properties.join(',')}::${escapeData(`${finding.message}\n${finding.hint}`)}\n`;
    })
    .join('');
}

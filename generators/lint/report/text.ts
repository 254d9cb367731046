import { createHash } from 'node:crypto';
import { printablePath } from '../../load/problem.js';
import type { SourceLocation } from '../../model.js';
import type { LintResult } from '../lint.js';
import type { LintFinding } from '../rule.js';

/** A catalogue location as the user named the catalogue: `catalogue/groups/account.yaml`. */
export function sourcePath(root: string, location: SourceLocation): string {
  const file = printablePath(location.file);
  return root && root !== '.' ? `${root.replace(/\/$/, '')}/${file}` : file;
}

/** `file:line:column: warning rule: message` and the hint, as catalogue problems print. */
function textLine(finding: LintFinding, root: string): string {
  const { line, column } = finding.location;
  // Names in a message come from the catalogue: their control characters are escaped, so a field
  // called `\u001b[2J` cannot clear the terminal or forge a line.
  return `${sourcePath(root, finding.location)}:${line}:${column}: ${finding.severity} ${finding.rule}: ${printablePath(finding.message)}\n    hint: ${printablePath(finding.hint)}`;
}

/** `3 errors, 12 warnings, 0 infos` */
export function countsText(result: Pick<LintResult, 'counts'>): string {
  const { error, warning, info } = result.counts;
  return `${error} error${error === 1 ? '' : 's'}, ${warning} warning${warning === 1 ? '' : 's'}, ${info} info${info === 1 ? '' : 's'}`;
}

/** The new findings, each on a line with its hint below (the CLI prints the summary). */
export function formatText(result: LintResult, root: string): string {
  return result.findings.map((finding) => `${textLine(finding, root)}\n`).join('');
}

/** A stable fingerprint of a finding (rule and subject), for SARIF and JSON consumers that track findings. */
export function fingerprint(finding: Pick<LintFinding, 'rule' | 'subject'>): string {
  return createHash('sha256').update(`${finding.rule}\0${finding.subject}`).digest('hex').slice(0, 32);
}

import { readIfExists, writeAtomically } from '../shared/fs.js';
import type { LintFinding } from './rule.js';

/** The note every baseline starts with: also how `--write-baseline` knows a file is its own. */
const BASELINE_NOTE =
  'eventry lint baseline: findings recorded when the rule pack was adopted: counted, not reported, never failing. Written by `eventry lint --write-baseline`; do not edit.';

/** A recorded finding: rule and subject, stable across edits that move lines or reword messages. */
export interface BaselineEntry {
  rule: string;
  subject: string;
}

/** The recorded findings, as a set of `rule subject` keys. */
export type Baseline = ReadonlySet<string>;

/** The key a finding is recorded under. */
export const baselineKey = (finding: Pick<LintFinding, 'rule' | 'subject'>): string =>
  `${finding.rule}\0${finding.subject}`;

/** A baseline read from disk, or why it cannot be used. */
export type BaselineRead = { ok: true; baseline: Baseline | undefined } | { ok: false; message: string };

/** Reads a baseline file; absent is no baseline, anything not written by `--write-baseline` is a problem. */
export function readBaseline(path: string): BaselineRead {
  const text = readIfExists(path);
  if (text === undefined) return { ok: true, baseline: undefined };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `is not JSON (${(error as Error).message})` };
  }
  const findings = (parsed as { findings?: unknown } | null)?.findings;
  if (
    !Array.isArray(findings) ||
    findings.some((entry) => typeof entry?.rule !== 'string' || typeof entry?.subject !== 'string')
  )
    return { ok: false, message: 'is not a lint baseline (`findings`: a list of `{rule, subject}`)' };
  return { ok: true, baseline: new Set((findings as BaselineEntry[]).map(baselineKey)) };
}

/**
 * Writes the baseline of `findings`, atomically. Refuses (returns why) to replace a file that is not
 * a baseline this command wrote.
 */
export function writeBaseline(path: string, findings: readonly LintFinding[]): string | undefined {
  const existing = readIfExists(path);
  if (existing !== undefined && !isOwnBaseline(existing))
    return 'exists and was not written by `eventry lint --write-baseline`; move it away or name another file in lint.baseline';
  const entries = [
    ...new Map(
      findings.map((finding) => [baselineKey(finding), { rule: finding.rule, subject: finding.subject }]),
    ).values(),
  ].sort((a, b) =>
    a.rule === b.rule
      ? a.subject < b.subject
        ? -1
        : a.subject > b.subject
          ? 1
          : 0
      : a.rule < b.rule
        ? -1
        : 1,
  );
  writeAtomically(path, `${JSON.stringify({ note: BASELINE_NOTE, findings: entries }, null, 2)}\n`);
  return undefined;
}

/** Whether a file is a baseline this command wrote: JSON whose `note` starts as every baseline's does. */
function isOwnBaseline(text: string): boolean {
  try {
    const note = (JSON.parse(text) as { note?: unknown } | null)?.note;
    return (
      typeof note === 'string' && note.startsWith(BASELINE_NOTE.slice(0, BASELINE_NOTE.indexOf(':') + 1))
    );
  } catch {
    return false;
  }
}

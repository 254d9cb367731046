import { resolve } from 'node:path';
import { writeAtomically } from '../shared/fs.js';
import { readUserFile } from '../shared/read-user-file.js';
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

/** A baseline read from disk, or why it cannot be used (`hint`: what to do, when not to write it again). */
export type BaselineRead =
  | { ok: true; baseline: Baseline | undefined }
  | { ok: false; message: string; hint?: string };

/** What to do about a baseline file that is not read. */
const REFUSED_HINT =
  'Name a regular file inside the catalogue folder in lint.baseline (the default is lint-baseline.json).';

/**
 * Reads the baseline file `path` (relative to the catalogue folder `root`); absent is no baseline,
 * anything not written by `--write-baseline` is a problem. Read as every user file is: inside the
 * catalogue, a regular file, bounded; a message never quotes the file.
 */
export function readBaseline(root: string, path: string): BaselineRead {
  const read = readUserFile(root, path);
  if (!read.ok && read.absent) return { ok: true, baseline: undefined };
  if (!read.ok) return { ok: false, message: `cannot be read: ${read.reason}`, hint: REFUSED_HINT };
  const text = read.text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // The parser's message quotes the text: the file may not be a baseline at all.
    return { ok: false, message: 'is not JSON' };
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
export function writeBaseline(
  root: string,
  path: string,
  findings: readonly LintFinding[],
): string | undefined {
  const existing = readUserFile(root, path);
  if (!existing.ok && !existing.absent) return `is not written: ${existing.reason}`;
  if (existing.ok && !isOwnBaseline(existing.text))
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
  writeAtomically(
    resolve(root, path),
    `${JSON.stringify({ note: BASELINE_NOTE, findings: entries }, null, 2)}\n`,
  );
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

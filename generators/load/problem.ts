import { type ErrorCode, meaningsOf } from '../shared/error-codes.js';

/** A problem found in the catalogue source: data, not an exception, so all of them can be reported at once. */
export interface CatalogueProblem {
  /** Stable machine-readable code, kebab-case (`unknown-shape`, `composition-cycle`, ...). */
  code: ProblemCode;
  /** What is wrong, one sentence. */
  message: string;
  /** What to do about it (a did-you-mean, the allowed values, ...). */
  hint?: string;
  /** Path relative to the catalogue root, `/`-separated. */
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
  /** JSON Pointer into the file's YAML document, when the problem is at a node. */
  pointer?: string;
  /** Other places the message names (`file:line:column`, file relative to the catalogue root, as `file`). */
  related?: { file: string; line: number; column: number }[];
}

/** Every code the loader can report, with its meaning: the `load` area of the error-code registry. */
export const PROBLEM_CODES = meaningsOf('load');

/** A code the loader can report; stable, never reused. */
export type ProblemCode = ErrorCode<'load'>;

/** Formats a problem the way compilers do: `file:line:column: code: message (hint)`. */
export function formatProblem(problem: CatalogueProblem, root = ''): string {
  const prefix = root ? `${root.replace(/\/$/, '')}/` : '';
  const where = `${prefix}${printablePath(problem.file)}:${problem.line}:${problem.column}`;
  // The places a message names are relative to the same root as the problem's own.
  let message = problem.message;
  for (const at of prefix ? (problem.related ?? []) : []) {
    const place = `${at.file}:${at.line}:${at.column}`;
    message = message.replaceAll(place, `${prefix}${place}`);
  }
  return `${where}: error ${problem.code}: ${message}${problem.hint ? `\n    hint: ${problem.hint}` : ''}`;
}

/** A path with its control characters escaped (`\n`, `\u0007`), so a hostile file name cannot forge output lines. */
export function printablePath(path: string): string {
  return path.replace(new RegExp(CONTROL_CHARACTERS.source, 'g'), (char) => {
    const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
    return named[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

/** C0 and C1 controls and the Unicode line separators: characters that must never reach output as they are. */
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

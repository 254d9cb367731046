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

/**
 * The problem for a catalogue file that was not read (`unreadable` set by the reader): a link out of
 * the catalogue, a FIFO or device, a file too large, a folder named like a file. Undefined when it was
 * read. Every reader of catalogue files reports it: a file left out silently changes what is checked.
 */
export function unreadableProblem(file: {
  path: string;
  unreadable?: string;
  outside?: true;
  unreadableAt?: { line: number; column: number };
}): CatalogueProblem | undefined {
  if (file.unreadable === undefined) return undefined;
  const at = { file: file.path, line: file.unreadableAt?.line ?? 1, column: file.unreadableAt?.column ?? 1 };
  return file.outside
    ? {
        code: 'symlink-outside-catalogue',
        message: `\`${printablePath(file.path)}\` is a symbolic link to a file outside the catalogue folder; it was not read.`,
        hint: 'Copy the file into the catalogue folder, or link to a file inside it.',
        ...at,
      }
    : {
        code: 'unreadable-file',
        message: `\`${printablePath(file.path)}\` cannot be read: ${file.unreadable}.`,
        hint: file.unreadableAt
          ? 'Save it as UTF-8: the byte here is not UTF-8 (a file saved as Latin-1 or UTF-16?).'
          : 'Make it a readable YAML file, or move it out of the catalogue folder.',
        ...at,
      };
}

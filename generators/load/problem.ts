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

/** Every code the loader can report; stable, never reused. */
export const PROBLEM_CODES = {
  'yaml-syntax': 'The file is not valid YAML.',
  'duplicate-key': 'The same key appears twice in one YAML mapping.',
  'unknown-key': 'A key the catalogue format does not define.',
  'invalid-value':
    'A value of the wrong kind (a number where text is expected, a missing required key, ...).',
  'unknown-type': 'A field type that is neither a built-in type nor a named shape.',
  'unknown-shape': 'A reference to a named shape that is not defined.',
  'unknown-event': 'A reference to an event key that is not defined.',
  'composition-cycle': '`same_as` / `extends` references that loop back on themselves.',
  'field-type-conflict': 'A field inherited through `extends` redefined with another type.',
  'duplicate-event': 'The same event key defined twice (in one file or in two).',
  'duplicate-shape': 'The same named shape defined twice.',
  'duplicate-group': 'Two files declare the same group slug.',
  'invalid-event-key': 'An event key that is not `<event_type>-<version>` with version vN or semver.',
  'empty-group': 'A group with no events.',
  'invalid-format': '`format` or `enum` on a field whose type cannot carry it.',
  'missing-config': 'The catalogue has no readable `eventry.config.yaml`.',
  'yaml-tab': 'A tab used as indentation (YAML indents with spaces only).',
  'unresolved-alias': 'A YAML alias (`*name`) with no anchor (`&name`) before it.',
  'too-many-aliases': 'YAML aliases that would expand too many times (an alias bomb).',
  'too-deep': 'YAML nested deeper than any catalogue file needs.',
  'unreadable-file': 'An entry of the catalogue folder that cannot be read as a file.',
  'symlink-outside-catalogue': 'A symbolic link in the catalogue folder to a file outside it (never read).',
  'invalid-file-name': 'A catalogue file name with a control character in it.',
  'reserved-name': 'A name the generated code cannot use (`__proto__`, a group called `catalogue`, ...).',
  'name-too-long': 'An event key or group slug too long to become a file name.',
  'type-name-collision': 'Two definitions that would become the same TypeScript name.',
  'array-too-deep': 'An array type nested deeper than the generated code supports.',
  'duplicate-enum-value': 'The same value listed twice in one `enum`.',
  'unknown-team': 'A reference to a team that `teams.yaml` does not define.',
  'invalid-version-range': 'A consumer declaration whose `versions` is not a semver range.',
  'no-matching-version': 'A consumer declaration whose version range matches no version of the event.',
  'unknown-field': 'A field path a consumer reads that exists in none of the versions it declares.',
} as const;

export type ProblemCode = keyof typeof PROBLEM_CODES;

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

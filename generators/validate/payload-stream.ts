import { resolve } from 'node:path';
import type { ErrorBody, ValidateOptions, ValidationResult } from '../runtime/runtime.js';
import { describeJsonError } from '../shared/parse-error.js';
import { type BufferedOutput, nextBatch } from './buffered-output.js';
import type { GroupPackages, GroupValidate } from './group-packages.js';
import { decodeUtf8, formatBytes, type Line, readFileLimited, readFileLines } from './lines.js';

/** The outcome of one payload: the platform's error body flattened, or a problem with the input itself. */
export type PayloadOutcome =
  | { valid: true }
  | { valid: false; code: ErrorBody['code']; detail: string; errors: ErrorBody['errors'] }
  | { valid: false; code: string; detail: string; errors: [] };

/** One payload file's result: its outcome, or why it could not be read. */
export type FileResult =
  | { kind: 'checked'; file: string; outcome: PayloadOutcome }
  | { kind: 'unreadable'; file: string; reason: string; outcome: PayloadOutcome };

/** One NDJSON line's result (`event` when the line named one). */
export interface LineResult {
  line: number;
  event?: string;
  outcome: PayloadOutcome;
}

/** How payloads are validated and where their results go. */
export interface StreamOptions<Result> {
  validate: ValidateOptions;
  /** The largest line or file accepted, in bytes. */
  maxBytes: number;
  /** Where the text `format` gives for each result is buffered. */
  output: BufferedOutput;
  /** The text written for a result ('' for none). */
  format: (result: Result) => string;
}

/** The end of a stream of payloads. */
export type StreamResult =
  | { kind: 'done'; count: number; invalid: number; unreadable: number }
  /** The input stopped with an I/O error (what was read was validated and written). */
  | { kind: 'unreadable'; reason: string };

/**
 * Validates JSON files (paths relative to `cwd`) as payloads of one event, one result per file in
 * order; a file that cannot be read counts as unreadable and the run goes on.
 */
export async function validateFiles(
  cwd: string,
  files: readonly string[],
  key: string,
  validate: GroupValidate,
  options: StreamOptions<FileResult>,
): Promise<StreamResult> {
  let invalid = 0;
  let unreadable = 0;
  for (const file of files) {
    let bytes: Buffer;
    try {
      bytes = await readFileLimited(resolve(cwd, file), options.maxBytes);
    } catch (error) {
      const reason = readError(error);
      unreadable++;
      const outcome = failure('unreadable_file', `The file cannot be read: ${reason}.`);
      options.output.write(options.format({ kind: 'unreadable', file, reason, outcome }));
      continue;
    }
    const text = decodeUtf8(bytes);
    const outcome =
      text === undefined
        ? failure('invalid_encoding', 'The file is not UTF-8 text.')
        : validateText(text, (payload) => validate(key, payload, options.validate));
    if (!outcome.valid) invalid++;
    options.output.write(options.format({ kind: 'checked', file, outcome }));
    await options.output.flushIfFull();
  }
  return { kind: 'done', count: files.length, invalid, unreadable };
}

/**
 * Validates an NDJSON file (`-`: stdin), `{"event": KEY, "payload": {...}}` per line (blank lines skipped), with
 * the group packages, in constant memory. Results wait in the output only while more input is at
 * hand: when the next chunk is not there by the end of this turn of the event loop, the input is idle
 * and what is done is written now, so a live pipe sees each result at once and a file is still
 * written in large blocks.
 */
export async function validateNdjson(
  source: { cwd: string; path: string; stdin: AsyncIterable<Buffer | string> },
  packages: GroupPackages,
  options: StreamOptions<LineResult>,
): Promise<StreamResult> {
  const { output } = options;
  const path = source.path === '-' ? '-' : resolve(source.cwd, source.path);
  const batches = readFileLines(path, options.maxBytes, source.stdin);
  let count = 0;
  let invalid = 0;
  for (;;) {
    let next: IteratorResult<Line[]>;
    try {
      next = await nextBatch(batches, output);
    } catch (error) {
      return { kind: 'unreadable', reason: readError(error) };
    }
    if (next.done) break;
    for (const line of next.value) {
      if ('text' in line && line.text.trim() === '') continue;
      count++;
      const { event, outcome } =
        'text' in line
          ? await validateLine(line.text, packages, options.validate)
          : { event: undefined, outcome: lineProblem(line.problem, options.maxBytes) };
      if (!outcome.valid) invalid++;
      output.write(options.format({ line: line.number, ...(event === undefined ? {} : { event }), outcome }));
      await output.flushIfFull();
    }
  }
  return { kind: 'done', count, invalid, unreadable: 0 };
}

function lineProblem(problem: 'too_long' | 'invalid_encoding', maxBytes: number): PayloadOutcome {
  return problem === 'too_long'
    ? failure(
        'invalid_line',
        `The line is longer than ${formatBytes(maxBytes)} (--max-bytes); it was skipped.`,
      )
    : failure('invalid_encoding', 'The line is not UTF-8 text.');
}

/** A read error as a sentence: the system's code and message, never a stack. */
function readError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EISDIR') return 'it is a directory';
  return error instanceof Error ? error.message : String(error);
}

async function validateLine(
  line: string,
  packages: GroupPackages,
  options: ValidateOptions,
): Promise<{ event?: string; outcome: PayloadOutcome }> {
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch (error) {
    return { outcome: failure('invalid_json', `The line is not JSON: ${describeJsonError(error)}.`) };
  }
  if (
    record === null ||
    typeof record !== 'object' ||
    typeof (record as { event?: unknown }).event !== 'string'
  ) {
    return {
      outcome: failure('invalid_line', 'The line must be an object `{"event": KEY, "payload": {...}}`.'),
    };
  }
  const { event, payload } = record as { event: string; payload?: unknown };
  const validate = packages.loadedValidatorFor(event) ?? (await packages.validatorFor(event));
  if (!validate) {
    return {
      event,
      outcome: failure(
        'unknown_event',
        `No event \`${event}\` in the group packages.${packages.suggest(event)}`,
      ),
    };
  }
  return { event, outcome: flatten(validate(event, payload, options)) };
}

function validateText(text: string, validate: (payload: unknown) => ValidationResult): PayloadOutcome {
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch (error) {
    return failure('invalid_json', `The file is not JSON: ${describeJsonError(error)}.`);
  }
  return flatten(validate(payload));
}

function flatten(result: ValidationResult): PayloadOutcome {
  if (result.valid) return { valid: true };
  const { code, detail, errors } = result.error;
  return { valid: false, code, detail, errors };
}

function failure(code: string, detail: string): PayloadOutcome {
  return { valid: false, code, detail, errors: [] };
}

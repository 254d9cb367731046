import { MigrationFailed, NotAnObject } from '../migrate/convert.js';
import type { ErrorBody, ValidationResult } from '../runtime/runtime.js';
import { describeJsonError } from '../shared/parse-error.js';
import { type BufferedOutput, nextBatch } from './buffered-output.js';
import { formatBytes, type Line, readFileLines } from './lines.js';

// `eventry upcast KEY < ndjson`: a stream of payloads of one event version converted line by line by the
// catalogue's migrations, in constant memory. The command parses and prints (generators/cli/upcast.ts);
// reading, checking and converting each line is here, beside `eventry validate`'s stream.

/** A line that gave no payload: where, the stable code, what, and the validator's errors (`--validate`). */
export interface UpcastLineProblem {
  line: number;
  code: string;
  detail: string;
  errors: ErrorBody['errors'];
}

/** What the stream runs on each line, and where its results go. */
export interface UpcastStreamOptions {
  /** The conversion (`Converter.convert`): throws `NotAnObject` or `MigrationFailed` on a payload it cannot convert. */
  convert: (payload: unknown) => unknown;
  /** With `--validate`: each payload is checked as one of the version it comes from before it is converted. */
  validate?: (payload: unknown) => ValidationResult;
  /** The largest line read, in bytes. */
  maxBytes: number;
  /** Where each converted payload's line goes (stdout). */
  output: BufferedOutput;
  /** Told of each line that gave no payload (the CLI prints it on stderr, at once). */
  problem: (problem: UpcastLineProblem) => void;
}

/** The end of the stream: how many payload lines, how many gave none; or the input's I/O error. */
export type UpcastStreamResult =
  | { kind: 'done'; count: number; failed: number }
  | { kind: 'unreadable'; reason: string };

/**
 * Converts the NDJSON payloads of `input`, one per line (blank lines skipped), writing one converted
 * payload per line to `output`, in order. A line that is not JSON, not valid (with `validate`) or not
 * convertible is told to `problem` and gives no output line; the stream goes on. Results wait in the
 * output only while more input is at hand, so a live pipe sees each converted line at once.
 */
export async function upcastNdjson(
  input: AsyncIterable<Buffer | string>,
  options: UpcastStreamOptions,
): Promise<UpcastStreamResult> {
  const { output } = options;
  const batches = readFileLines('-', options.maxBytes, input);
  let count = 0;
  let failed = 0;
  for (;;) {
    let next: IteratorResult<Line[]>;
    try {
      next = await nextBatch(batches, output);
    } catch (error) {
      return { kind: 'unreadable', reason: error instanceof Error ? error.message : String(error) };
    }
    if (next.done) break;
    for (const line of next.value) {
      if ('text' in line && line.text.trim() === '') continue;
      count++;
      const result = upcastLine(line, options);
      if (typeof result === 'string') output.write(`${result}\n`);
      else {
        failed++;
        options.problem(result);
      }
      await output.flushIfFull();
    }
  }
  return { kind: 'done', count, failed };
}

/** One line converted: the converted payload's JSON, or why there is none. */
function upcastLine(line: Line, options: UpcastStreamOptions): string | UpcastLineProblem {
  const problem = (code: string, detail: string, errors: ErrorBody['errors'] = []) => ({
    line: line.number,
    code,
    detail,
    errors,
  });
  if (!('text' in line)) {
    return line.problem === 'too_long'
      ? problem('invalid_line', `The line is longer than ${formatBytes(options.maxBytes)} (--max-bytes).`)
      : problem('invalid_encoding', 'The line is not UTF-8 text.');
  }
  let payload: unknown;
  try {
    payload = JSON.parse(line.text);
  } catch (error) {
    return problem('invalid_json', `The line is not JSON: ${describeJsonError(error)}.`);
  }
  const verdict = options.validate?.(payload);
  if (verdict && !verdict.valid)
    return problem(verdict.error.code, verdict.error.detail, verdict.error.errors);
  try {
    return JSON.stringify(options.convert(payload));
  } catch (error) {
    if (error instanceof NotAnObject) return problem('migration_failed', 'The line is not a JSON object.');
    if (error instanceof MigrationFailed) return problem('migration_failed', `${capital(error.message)}.`);
    throw error;
  }
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

import { once } from 'node:events';
import { resolve } from 'node:path';
import { whileReadingOutput } from '../execute/write.js';
import type { ErrorBody, ValidateOptions, ValidationResult } from '../runtime/runtime.js';
import { EXIT_USAGE } from '../shared/exit-codes.js';
import { describeJsonError } from '../shared/parse-error.js';
import { GroupPackages, type GroupValidate, PackageLoadError } from '../validate/group-packages.js';
import {
  DEFAULT_MAX_BYTES,
  decodeUtf8,
  formatBytes,
  type Line,
  readFileLimited,
  readFileLines,
} from './lines.js';

/** Options of `eventry validate`. */
export interface ValidateCommandOptions {
  ndjson?: string;
  mode?: 'strict' | 'tolerant';
  format?: 'json' | 'text';
  out?: string;
  /** The largest line (`--ndjson`) or file accepted, in bytes. */
  maxBytes?: number;
}

/** The outcome of one payload, as printed: the platform's body flattened beside where it came from. */
type Outcome =
  | { valid: true }
  | { valid: false; code: ErrorBody['code']; detail: string; errors: ErrorBody['errors'] }
  | { valid: false; code: string; detail: string; errors: [] };

const EXIT_INVALID = 1;

/**
 * `eventry validate KEY FILE...` and `eventry validate --ndjson FILE|-`: validates payloads with the
 * built group packages (the same run time and generated validators consumers get). Exit 0 when all
 * are valid, 1 when any is not, 2 on a usage or I/O error.
 */
export async function runValidate(
  key: string | undefined,
  files: string[],
  options: ValidateCommandOptions,
): Promise<number> {
  const usage = (message: string): number => {
    process.stderr.write(`eventry validate: ${message}\nRun \`eventry validate --help\` for usage.\n`);
    return EXIT_USAGE;
  };
  if (options.ndjson !== undefined && key !== undefined) {
    return usage('give either --ndjson FILE or an event KEY with JSON files, not both.');
  }
  if (options.ndjson === undefined && (key === undefined || files.length === 0)) {
    return usage('give an event KEY and one or more JSON FILEs, or --ndjson FILE (`-` for stdin).');
  }
  const outDir = resolve(options.out ?? 'packages');
  // Listed, and each package imported, as a reader of the output: never while a build commits there.
  const packages = await whileReadingOutput(
    outDir,
    () => new GroupPackages(outDir, (read) => whileReadingOutput(outDir, read)),
    (pid) =>
      process.stderr.write(`eventry validate: waiting for a build (process ${pid}) writing ${outDir} …\n`),
  );
  if (packages.size === 0) {
    process.stderr.write(
      `eventry validate: no group packages in \`${outDir}\`: run \`npm run build\` first (or pass --out).\n`,
    );
    return EXIT_USAGE;
  }
  const validateOptions: ValidateOptions = { mode: options.mode ?? 'strict' };
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const style = new Style(Boolean(process.stdout.isTTY) && !process.env.NO_COLOR);
  const output = new Output();
  try {
    if (options.ndjson !== undefined) {
      return await validateNdjson(
        options.ndjson,
        packages,
        validateOptions,
        options.format ?? 'json',
        maxBytes,
        output,
        style,
      );
    }
    const validate = await packages.validatorFor(key!);
    if (!validate) return usage(`no event \`${key}\` in the group packages.${packages.suggest(key!)}`);
    return await validateFiles(
      key!,
      files,
      validate,
      validateOptions,
      options.format ?? 'text',
      maxBytes,
      output,
      style,
    );
  } catch (error) {
    if (!(error instanceof PackageLoadError)) throw error;
    await output.flush();
    process.stderr.write(`eventry validate: ${error.message}\n`);
    return EXIT_USAGE;
  } finally {
    await output.flush();
  }
}

async function validateFiles(
  key: string,
  files: string[],
  validate: GroupValidate,
  options: ValidateOptions,
  format: 'json' | 'text',
  maxBytes: number,
  output: Output,
  style: Style,
): Promise<number> {
  let invalid = 0;
  let unreadable = 0;
  for (const file of files) {
    let bytes: Buffer;
    try {
      bytes = await readFileLimited(file, maxBytes);
    } catch (error) {
      const reason = readError(error);
      process.stderr.write(`eventry validate: cannot read ${file}: ${reason}\n`);
      unreadable++;
      if (format === 'json') {
        output.write(
          `${JSON.stringify({ file, event: key, ...failure('unreadable_file', `The file cannot be read: ${reason}.`) })}\n`,
        );
      }
      continue;
    }
    const text = decodeUtf8(bytes);
    const outcome =
      text === undefined
        ? failure('invalid_encoding', 'The file is not UTF-8 text.')
        : validateText(text, (payload) => validate(key, payload, options));
    if (!outcome.valid) invalid++;
    if (format === 'json') output.write(`${JSON.stringify({ file, event: key, ...outcome })}\n`);
    else output.write(describe(file, outcome, style));
    await output.flushIfFull();
  }
  if (format === 'text' && files.length > 1) {
    output.write(summary(files.length, invalid, 'files', style, unreadable));
  }
  return unreadable > 0 ? EXIT_USAGE : invalid > 0 ? EXIT_INVALID : 0;
}

async function validateNdjson(
  source: string,
  packages: GroupPackages,
  options: ValidateOptions,
  format: 'json' | 'text',
  maxBytes: number,
  output: Output,
  style: Style,
): Promise<number> {
  const batches = readFileLines(source, maxBytes);
  let count = 0;
  let invalid = 0;
  for (;;) {
    let next: IteratorResult<Line[]>;
    try {
      const ready = batches.next();
      // Results wait in the buffer only while more input is at hand: when the next chunk is not
      // there by the end of this turn of the event loop, the input is idle and what is done is shown
      // now, so a live pipe sees each result at once and a file is still written in large blocks.
      if (output.holding && (await Promise.race([ready, nextTurn()])) === IDLE) await output.flush();
      next = await ready;
    } catch (error) {
      await output.flush();
      process.stderr.write(
        `eventry validate: cannot read ${source === '-' ? 'stdin' : source}: ${readError(error)}\n`,
      );
      return EXIT_USAGE;
    }
    if (next.done) break;
    for (const line of next.value) {
      if ('text' in line && line.text.trim() === '') continue;
      count++;
      const { event, outcome } =
        'text' in line
          ? await validateLine(line.text, packages, options)
          : { event: undefined, outcome: lineProblem(line.problem, maxBytes) };
      if (!outcome.valid) invalid++;
      if (format === 'json') {
        output.write(
          `${JSON.stringify({ line: line.number, ...(event === undefined ? {} : { event }), ...outcome })}\n`,
        );
      } else if (!outcome.valid) {
        output.write(
          describe(`line ${line.number}${event === undefined ? '' : ` (${event})`}`, outcome, style),
        );
      }
      await output.flushIfFull();
    }
  }
  if (format === 'text') output.write(summary(count, invalid, 'lines', style));
  return invalid > 0 ? EXIT_INVALID : 0;
}

const IDLE = Symbol('idle');
const nextTurn = (): Promise<typeof IDLE> => new Promise((done) => setImmediate(done, IDLE));

function lineProblem(problem: 'too_long' | 'invalid_encoding', maxBytes: number): Outcome {
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
): Promise<{ event?: string; outcome: Outcome }> {
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

function validateText(text: string, validate: (payload: unknown) => ValidationResult): Outcome {
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch (error) {
    return failure('invalid_json', `The file is not JSON: ${describeJsonError(error)}.`);
  }
  return flatten(validate(payload));
}

function flatten(result: ValidationResult): Outcome {
  if (result.valid) return { valid: true };
  const { code, detail, errors } = result.error;
  return { valid: false, code, detail, errors };
}

function failure(code: string, detail: string): Outcome {
  return { valid: false, code, detail, errors: [] };
}

function describe(what: string, outcome: Outcome, style: Style): string {
  if (outcome.valid) return `${what}: ${style.green('valid')}\n`;
  const items = outcome.errors.map(
    (item) =>
      `  ${item.attr === '' ? '(payload)' : item.attr}: ${item.detail} ${style.dim(`[${item.code}]`)}\n`,
  );
  return `${what}: ${style.red('invalid')}: ${outcome.detail} ${style.dim(`[${outcome.code}]`)}\n${items.join('')}`;
}

function summary(count: number, invalid: number, what: string, style: Style, unreadable = 0): string {
  const text =
    `${count} ${what}: ${count - invalid - unreadable} valid, ${invalid} invalid` +
    (unreadable > 0 ? `, ${unreadable} unreadable` : '');
  return `${invalid + unreadable > 0 ? style.red(text) : style.green(text)}\n`;
}

/**
 * Buffered stdout that honours back-pressure, so a multi-GB stream runs in constant memory. The
 * caller flushes whenever its input is idle, so results are not held back while it waits.
 */
class Output {
  private buffer = '';

  write(text: string): void {
    this.buffer += text;
  }

  get holding(): boolean {
    return this.buffer !== '';
  }

  async flushIfFull(): Promise<void> {
    if (this.buffer.length >= 65_536) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.buffer === '') return;
    const text = this.buffer;
    this.buffer = '';
    if (!process.stdout.write(text)) await once(process.stdout, 'drain');
  }
}

/** ANSI colours, only on a terminal and when `NO_COLOR` is unset. */
class Style {
  constructor(private readonly enabled: boolean) {}
  red = (text: string): string => this.paint(31, text);
  green = (text: string): string => this.paint(32, text);
  dim = (text: string): string => this.paint(2, text);
  private paint(code: number, text: string): string {
    return this.enabled ? `\u001b[${code}m${text}\u001b[0m` : text;
  }
}

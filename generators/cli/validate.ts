import { resolve } from 'node:path';
import { whileReadingOutput } from '../execute/write.js';
import type { ValidateOptions } from '../runtime/runtime.js';
import { EXIT, type ExitStatus } from '../shared/exit-codes.js';
import { BufferedOutput } from '../validate/buffered-output.js';
import { GroupPackages, PackageLoadError } from '../validate/group-packages.js';
import { DEFAULT_MAX_BYTES } from '../validate/lines.js';
import {
  type FileResult,
  type LineResult,
  type PayloadOutcome,
  type StreamResult,
  validateFiles,
  validateNdjson,
} from '../validate/payload-stream.js';
import type { Container } from './container.js';
import { usageError } from './usage-error.js';

/** Options of `eventry validate`. */
export interface ValidateCommandOptions {
  ndjson?: string;
  mode?: 'strict' | 'tolerant';
  format?: 'json' | 'text';
  out?: string;
  /** The largest line (`--ndjson`) or file accepted, in bytes. */
  maxBytes?: number;
}

/**
 * `eventry validate KEY FILE...` and `eventry validate --ndjson FILE|-`: validates payloads with the
 * built group packages (the same run time and generated validators consumers get). Exit 0 when all
 * are valid, 1 when any is not, 2 on a usage or I/O error.
 */
export async function runValidate(
  key: string | undefined,
  files: string[],
  options: ValidateCommandOptions,
  io: Container,
): Promise<ExitStatus> {
  const usage = (message: string): ExitStatus => usageError(io, 'validate', message);
  if (options.ndjson !== undefined && key !== undefined) {
    return usage('give either --ndjson FILE or an event KEY with JSON files, not both.');
  }
  if (options.ndjson === undefined && (key === undefined || files.length === 0)) {
    return usage('give an event KEY and one or more JSON FILEs, or --ndjson FILE (`-` for stdin).');
  }
  const outDir = resolve(io.cwd, options.out ?? 'packages');
  // Listed, and each package imported, as a reader of the output: never while a build commits there.
  const packages = await whileReadingOutput(
    outDir,
    () => new GroupPackages(outDir, (read) => whileReadingOutput(outDir, read)),
    (pid) => io.stderr.write(`eventry validate: waiting for a build (process ${pid}) writing ${outDir} …\n`),
  );
  if (packages.size === 0) {
    io.stderr.write(
      `eventry validate: no group packages in \`${outDir}\`: run \`npm run build\` first (or pass --out).\n`,
    );
    return EXIT.usage;
  }
  const validate: ValidateOptions = { mode: options.mode ?? 'strict' };
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const style = new Style(Boolean(io.stdout.isTTY) && !io.env.NO_COLOR);
  const output = new BufferedOutput(io.stdout);
  try {
    if (options.ndjson !== undefined) {
      const format = options.format ?? 'json';
      const result = await validateNdjson({ cwd: io.cwd, path: options.ndjson, stdin: io.stdin }, packages, {
        validate,
        maxBytes,
        output,
        format: (line) => lineText(line, format, style),
      });
      if (result.kind === 'unreadable') {
        await output.flush();
        io.stderr.write(
          `eventry validate: cannot read ${options.ndjson === '-' ? 'stdin' : options.ndjson}: ${result.reason}\n`,
        );
        return EXIT.usage;
      }
      if (format === 'text') output.write(summary(result.count, result.invalid, 'lines', style));
      return statusOf(result);
    }
    const validator = await packages.validatorFor(key!);
    if (!validator) return usage(`no event \`${key}\` in the group packages.${packages.suggest(key!)}`);
    const format = options.format ?? 'text';
    const result = await validateFiles(io.cwd, files, key!, validator, {
      validate,
      maxBytes,
      output,
      format: (file) => {
        if (file.kind === 'unreadable')
          io.stderr.write(`eventry validate: cannot read ${file.file}: ${file.reason}\n`);
        return fileText(file, key!, format, style);
      },
    });
    if (format === 'text' && files.length > 1 && result.kind === 'done')
      output.write(summary(files.length, result.invalid, 'files', style, result.unreadable));
    return statusOf(result);
  } catch (error) {
    if (!(error instanceof PackageLoadError)) throw error;
    await output.flush();
    io.stderr.write(`eventry validate: ${error.message}\n`);
    return EXIT.usage;
  } finally {
    await output.flush();
  }
}

/** 2 when a file could not be read, 1 when a payload is invalid, else 0. */
function statusOf(result: StreamResult): ExitStatus {
  if (result.kind === 'unreadable' || result.unreadable > 0) return EXIT.usage;
  return result.invalid > 0 ? EXIT.problems : EXIT.ok;
}

/** A file's result as printed: a JSON line, or a text verdict (an unreadable file is on stderr only). */
function fileText(result: FileResult, key: string, format: 'json' | 'text', style: Style): string {
  if (format === 'json') return `${JSON.stringify({ file: result.file, event: key, ...result.outcome })}\n`;
  return result.kind === 'unreadable' ? '' : describe(result.file, result.outcome, style);
}

/** A line's result as printed: every line as JSON, or the invalid ones as text. */
function lineText(result: LineResult, format: 'json' | 'text', style: Style): string {
  const { line, event, outcome } = result;
  if (format === 'json')
    return `${JSON.stringify({ line, ...(event === undefined ? {} : { event }), ...outcome })}\n`;
  if (outcome.valid) return '';
  return describe(`line ${line}${event === undefined ? '' : ` (${event})`}`, outcome, style);
}

function describe(what: string, outcome: PayloadOutcome, style: Style): string {
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

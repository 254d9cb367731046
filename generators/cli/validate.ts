import { once } from 'node:events';
import { createReadStream, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { suggest } from '../load/suggest.js';
import type { ErrorBody, ValidateOptions, ValidationResult } from '../runtime/runtime.js';
import { EXIT_USAGE } from './main.js';

/** Options of `eventry validate`. */
export interface ValidateCommandOptions {
  ndjson?: string;
  mode?: 'strict' | 'tolerant';
  format?: 'json' | 'text';
  out?: string;
}

/** The outcome of one payload, as printed: the platform's body flattened beside where it came from. */
type Outcome =
  | { valid: true }
  | { valid: false; code: ErrorBody['code']; detail: string; errors: ErrorBody['errors'] }
  | { valid: false; code: string; detail: string; errors: [] };

type GroupValidate = (key: string, payload: unknown, options?: ValidateOptions) => ValidationResult;

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
  const packages = new GroupPackages(outDir);
  if (packages.size === 0) {
    process.stderr.write(
      `eventry validate: no group packages in \`${outDir}\`: run \`npm run build\` first (or pass --out).\n`,
    );
    return EXIT_USAGE;
  }
  const validateOptions: ValidateOptions = { mode: options.mode ?? 'strict' };
  const style = new Style(Boolean(process.stdout.isTTY) && !process.env.NO_COLOR);
  const output = new Output();
  try {
    if (options.ndjson !== undefined) {
      return await validateNdjson(
        options.ndjson,
        packages,
        validateOptions,
        options.format ?? 'json',
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
      output,
      style,
    );
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
  output: Output,
  style: Style,
): Promise<number> {
  let invalid = 0;
  let ioError = false;
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      process.stderr.write(`eventry validate: cannot read ${file}: ${(error as Error).message}\n`);
      ioError = true;
      continue;
    }
    const outcome = validateText(text, (payload) => validate(key, payload, options));
    if (!outcome.valid) invalid++;
    if (format === 'json') await output.write(`${JSON.stringify({ file, event: key, ...outcome })}\n`);
    else await output.write(describe(file, outcome, style));
  }
  if (format === 'text' && files.length > 1) {
    await output.write(summary(files.length, invalid, 'files', style));
  }
  return ioError ? EXIT_USAGE : invalid > 0 ? EXIT_INVALID : 0;
}

async function validateNdjson(
  source: string,
  packages: GroupPackages,
  options: ValidateOptions,
  format: 'json' | 'text',
  output: Output,
  style: Style,
): Promise<number> {
  const input = source === '-' ? process.stdin : createReadStream(source);
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let count = 0;
  let invalid = 0;
  let lineNumber = 0;
  try {
    for await (const line of lines) {
      lineNumber++;
      if (line.trim() === '') continue;
      count++;
      const { event, outcome } = await validateLine(line, packages, options);
      if (!outcome.valid) invalid++;
      if (format === 'json') {
        await output.write(
          `${JSON.stringify({ line: lineNumber, ...(event === undefined ? {} : { event }), ...outcome })}\n`,
        );
      } else if (!outcome.valid) {
        await output.write(
          describe(`line ${lineNumber}${event === undefined ? '' : ` (${event})`}`, outcome, style),
        );
      }
    }
  } catch (error) {
    await output.flush();
    process.stderr.write(
      `eventry validate: cannot read ${source === '-' ? 'stdin' : source}: ${(error as Error).message}\n`,
    );
    return EXIT_USAGE;
  }
  if (format === 'text') await output.write(summary(count, invalid, 'lines', style));
  return invalid > 0 ? EXIT_INVALID : 0;
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
    return { outcome: failure('invalid_json', `The line is not JSON: ${(error as Error).message}.`) };
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
  const validate = await packages.validatorFor(event);
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
    return failure('invalid_json', `The file is not JSON: ${(error as Error).message}.`);
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

function summary(count: number, invalid: number, what: string, style: Style): string {
  const text = `${count} ${what}: ${count - invalid} valid, ${invalid} invalid`;
  return `${invalid > 0 ? style.red(text) : style.green(text)}\n`;
}

/** The built group packages below the output root, by event key; each is imported on first use. */
class GroupPackages {
  private readonly slugByKey = new Map<string, string>();
  private readonly loaded = new Map<string, Promise<GroupValidate>>();

  constructor(private readonly outDir: string) {
    let slugs: string[];
    try {
      slugs = readdirSync(outDir, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort();
    } catch {
      return;
    }
    for (const slug of slugs) {
      let names: string[];
      try {
        names = readdirSync(join(outDir, slug, 'events'));
      } catch {
        continue;
      }
      for (const name of names)
        if (name.endsWith('.js')) this.slugByKey.set(name.slice(0, -'.js'.length), slug);
    }
  }

  get size(): number {
    return this.slugByKey.size;
  }

  async validatorFor(key: string): Promise<GroupValidate | undefined> {
    const slug = this.slugByKey.get(key);
    if (slug === undefined) return undefined;
    let group = this.loaded.get(slug);
    if (!group) {
      const url = pathToFileURL(join(this.outDir, slug, 'index.js')).href;
      group = import(url).then((module: { validate: GroupValidate }) => module.validate);
      this.loaded.set(slug, group);
    }
    return group;
  }

  suggest(key: string): string {
    const guess = suggest(key, this.slugByKey.keys());
    return guess === undefined ? '' : ` Did you mean \`${guess}\`?`;
  }
}

/** Buffered stdout that honours back-pressure, so a multi-GB stream runs in constant memory. */
class Output {
  private buffer = '';

  async write(text: string): Promise<void> {
    this.buffer += text;
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

import { once } from 'node:events';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { suggest } from '../load/suggest.js';
import type { FakeVariant, TestingApi } from '../runtime/testing.js';
import { EXIT_USAGE } from './exit-codes.js';

/** Options of `eventry fake`. */
export interface FakeCommandOptions {
  count?: number;
  seed?: string;
  variant?: FakeVariant;
  invalid?: boolean;
  out?: string;
}

/**
 * `eventry fake KEY`: NDJSON payloads of one event from its built group package's `testing` entry point,
 * one `{"event": KEY, "payload": ...}` per line (what `eventry validate --ndjson` reads). Payload `i` is
 * drawn with the seed `<seed>/<i>` (default seed `0`), so a run is repeatable. `--invalid` writes the
 * payloads with one known problem each, with `problem` and the promised `error` item on the line.
 */
export async function runFake(key: string, options: FakeCommandOptions): Promise<number> {
  const usage = (message: string): number => {
    process.stderr.write(`eventry fake: ${message}\nRun \`eventry fake --help\` for usage.\n`);
    return EXIT_USAGE;
  };
  const outDir = resolve(options.out ?? 'packages');
  const slugs = eventSlugs(outDir);
  if (slugs.size === 0)
    return usage(`no group packages in \`${outDir}\`: run \`npm run build\` first (or pass --out).`);
  const slug = slugs.get(key);
  if (slug === undefined) {
    const guess = suggest(key, slugs.keys());
    return usage(
      `no event \`${key}\` in the group packages.${guess === undefined ? '' : ` Did you mean \`${guess}\`?`}`,
    );
  }
  const path = join(outDir, slug, 'testing.js');
  if (!existsSync(path))
    return usage(
      `the group package \`${slug}\` has no testing entry point: rebuild it with \`npm run build\`.`,
    );
  let testing: TestingApi<Record<string, unknown>>;
  try {
    testing = await import(pathToFileURL(path).href);
  } catch (error) {
    return usage(`cannot load \`${path}\`: ${error instanceof Error ? error.message : String(error)}`);
  }
  const seed = options.seed ?? '0';
  const lines: string[] = [];
  if (options.invalid) {
    const payloads = testing.invalid(key, { seed });
    for (const one of payloads.slice(0, options.count ?? payloads.length))
      lines.push(
        JSON.stringify({ event: key, problem: one.problem, error: one.error, payload: one.payload }),
      );
  } else {
    const variant = options.variant ?? 'random';
    for (let i = 0; i < (options.count ?? 1); i++)
      lines.push(
        JSON.stringify({ event: key, payload: testing.fake(key, { seed: `${seed}/${i}`, variant }) }),
      );
  }
  await write(lines);
  return 0;
}

/** Each event key of the built group packages, with its group's folder. */
function eventSlugs(outDir: string): Map<string, string> {
  const slugs = new Map<string, string>();
  let folders: string[];
  try {
    folders = readdirSync(outDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
  } catch {
    return slugs;
  }
  for (const slug of folders) {
    let names: string[] = [];
    try {
      names = readdirSync(join(outDir, slug, 'events'));
    } catch {}
    for (const name of names) if (name.endsWith('.js')) slugs.set(name.slice(0, -'.js'.length), slug);
  }
  return slugs;
}

/** Writes the lines to stdout in blocks, waiting whenever it is full (a million lines in constant memory). */
async function write(lines: string[]): Promise<void> {
  for (let start = 0; start < lines.length; start += 1000) {
    const block = `${lines.slice(start, start + 1000).join('\n')}\n`;
    if (!process.stdout.write(block)) await once(process.stdout, 'drain');
  }
}

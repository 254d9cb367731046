import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { suggest } from '../load/suggest.js';
import type { TestingApi } from '../runtime/testing.js';
import type { ErrorCode } from '../shared/error-codes.js';

/** Why an event's testing entry point cannot be loaded, with a stable code. */
export interface TestingEntryProblem {
  code: ErrorCode<'fake'>;
  message: string;
}

/** A built group package's `testing` entry point (fake, arbitrary, invalid payloads). */
export type TestingEntry = TestingApi<Record<string, unknown>>;

/**
 * The `testing` entry point of the built group package below `outDir` that holds `key`: what
 * `eventry fake` and the MCP server's `fake_payload` draw payloads from. Packages are found by their
 * `events/<key>.js` files, so only what the build wrote is offered.
 */
export async function loadTestingEntry(
  outDir: string,
  key: string,
): Promise<{ ok: true; testing: TestingEntry } | { ok: false; problem: TestingEntryProblem }> {
  const slugs = eventSlugs(outDir);
  if (slugs.size === 0)
    return { ok: false, problem: { code: 'no-packages', message: `no group packages in \`${outDir}\`` } };
  const slug = slugs.get(key);
  if (slug === undefined) {
    const guess = suggest(key, slugs.keys());
    const hint = guess === undefined ? '' : ` Did you mean \`${guess}\`?`;
    return {
      ok: false,
      problem: { code: 'unknown-event', message: `no event \`${key}\` in the group packages.${hint}` },
    };
  }
  const path = join(outDir, slug, 'testing.js');
  if (!existsSync(path))
    return {
      ok: false,
      problem: {
        code: 'no-testing-entry',
        message: `the group package \`${slug}\` has no testing entry point: rebuild it with \`npm run build\`.`,
      },
    };
  try {
    return { ok: true, testing: (await import(pathToFileURL(path).href)) as TestingEntry };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, problem: { code: 'cannot-load', message: `cannot load \`${path}\`: ${reason}` } };
  }
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

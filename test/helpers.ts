import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCatalogue } from '../generators/load/index.js';
import type { Catalogue } from '../generators/model.js';

/** The repository root. */
export const REPO = fileURLToPath(new URL('..', import.meta.url));

/** A fixture catalogue's folder, e.g. `fixturePath('small')`. */
export function fixturePath(name: string): string {
  return join(REPO, 'test', 'fixtures', name, 'catalogue');
}

/** Loads a catalogue that must be valid; fails the test with its problems otherwise. */
export function loadValid(dir: string): Catalogue {
  const result = loadCatalogue(dir);
  if (!result.ok)
    throw new Error(`expected a valid catalogue in ${dir}: ${JSON.stringify(result.problems, null, 2)}`);
  return result.catalogue;
}

/** A fresh temporary folder. */
export function tempDir(prefix = 'eventry-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Runs the compiled CLI (`npm run build:tool` first) and returns its exit code and output. */
export function runCli(args: string[], options: { cwd?: string; input?: string } = {}) {
  const result = spawnSync(process.execPath, [join(REPO, 'dist/scripts/eventry.js'), ...args], {
    cwd: options.cwd ?? REPO,
    input: options.input,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

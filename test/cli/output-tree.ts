import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compiledToolkitPath, REPO } from '../helpers.js';

/** Every file below `dir` (dot-files included), `/`-separated path to contents. */
export function readTree(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = join(entry.parentPath, entry.name);
    files.set(
      full
        .slice(dir.length + 1)
        .split('\\')
        .join('/'),
      readFileSync(full).toString('base64'),
    );
  }
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** The folders below `dir` that have nothing in them. */
export function emptyFolders(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((full) => readdirSync(full).length === 0)
    .map((full) => full.slice(dir.length + 1));
}

/**
 * A tree as a plain object without the build state's contents (it records mtimes), for `toEqual`: its
 * main file as '(state)', the files of its folder (named by their digests) as one '(state)' entry.
 */
export function comparable(tree: Map<string, string>): Record<string, string> {
  const plain: Record<string, string> = Object.create(null);
  for (const [path, contents] of tree) {
    if (path.startsWith('.eventry-build-state/')) plain['.eventry-build-state/'] = '(state)';
    else plain[path] = path === '.eventry-build-state.json' ? '(state)' : contents;
  }
  return plain;
}

/** Runs the compiled CLI without blocking; resolves with its exit status or the signal that ended it. */
export function eventryAsync(
  args: string[],
  options: {
    env?: Record<string, string>;
    killAfterMs?: number;
    /** Told what the command printed on stderr so far, each time it prints more. */
    onStderr?: (stderr: string) => void;
  } = {},
): Promise<{ status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [compiledToolkitPath('scripts/eventry.js'), ...args], {
      cwd: REPO,
      env: { ...process.env, NO_COLOR: '1', ...options.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      options.onStderr?.(stderr);
    });
    const timer =
      options.killAfterMs === undefined
        ? undefined
        : setTimeout(() => child.kill('SIGKILL'), options.killAfterMs);
    child.on('error', fail);
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      done({ status, signal, stdout, stderr });
    });
  });
}

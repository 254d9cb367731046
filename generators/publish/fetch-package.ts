import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type NpmResult, npmErrorText, packedTarball, packSpecArgs } from './npm.js';
import { readTarball } from './pack.js';

/** A published package's files, fetched from its registry. */
export interface FetchedPackage {
  /** `name@version` as npm resolved the spec (a range or tag becomes one version). */
  id: string;
  files: Map<string, string>;
}

/**
 * Downloads a published package with `npm pack <spec>` and reads its files, without installing it.
 * npm resolves the spec and the registry from the user's configuration (`@scope:registry` in an
 * `.npmrc` of `cwd` or the home folder), with its own credentials. Synchronous because diff sources
 * are; the registry must therefore be another process (it always is, outside tests).
 */
export function fetchPackageFiles(
  spec: string,
  cwd: string,
  /** Extra npm flags (`--registry=…`) on top of the user's configuration. */
  flags: readonly string[] = [],
): FetchedPackage | { error: string } {
  const dir = mkdtempSync(join(tmpdir(), 'eventry-npm-source-'));
  try {
    const started = performance.now();
    const child = spawnSync(
      process.platform === 'win32' ? 'npm.cmd' : 'npm',
      [...packSpecArgs(spec, dir), ...flags],
      {
        cwd,
        encoding: 'utf8',
        shell: process.platform === 'win32',
        env: { ...process.env, npm_config_update_notifier: 'false' },
      },
    );
    const result: NpmResult = {
      code: child.status ?? 1,
      stdout: child.stdout ?? '',
      stderr: child.stderr ?? String(child.error ?? ''),
      ms: performance.now() - started,
    };
    const packed = packedTarball(result);
    if (result.code !== 0 || !packed?.filename)
      return { error: npmErrorText(result) || `npm pack ${spec} failed` };
    const files = new Map<string, string>();
    for (const [path, contents] of readTarball(join(dir, packed.filename)))
      files.set(path, contents.toString('utf8'));
    return { id: packed.id ?? spec, files };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

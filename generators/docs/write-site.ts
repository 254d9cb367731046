import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { SiteSink } from './site.js';

/** The file that marks a folder as a site eventry wrote, so replacing it never deletes anything else. */
export const SITE_MARKER = '.eventry-site';

/** Why a site folder cannot be written. */
export interface SiteFolderProblem {
  code: 'docs-out-not-site';
  message: string;
}

/**
 * Writes a site atomically: into a staging folder beside `outDir`, then swapped in, so a reader never
 * sees half a site and a failed run leaves the previous one. An existing `outDir` is replaced only when
 * it is empty or eventry wrote it (it holds SITE_MARKER).
 */
export function writeSiteAtomically<T extends { ok: boolean }>(
  outDir: string,
  generate: (emit: SiteSink) => T,
): T | SiteFolderProblem {
  const target = resolve(outDir);
  if (existsSync(target) && readdirSync(target).length > 0 && !existsSync(join(target, SITE_MARKER))) {
    return {
      code: 'docs-out-not-site',
      message: `${outDir} exists and is not a site eventry wrote (no ${SITE_MARKER}); give an empty or new folder.`,
    };
  }
  mkdirSync(dirname(target), { recursive: true });
  const staging = join(dirname(target), `.${basename(target)}.staging-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  const made = new Set<string>();
  try {
    const result = generate((path, content) => {
      const file = join(staging, path);
      const folder = dirname(file);
      if (!made.has(folder)) {
        mkdirSync(folder, { recursive: true });
        made.add(folder);
      }
      writeFileSync(file, content);
    });
    if (!result.ok) {
      rmSync(staging, { recursive: true, force: true });
      return result;
    }
    writeFileSync(
      join(staging, SITE_MARKER),
      'Written by `eventry docs`; the whole folder is replaced on the next run.\n',
    );
    const old = `${staging}.old`;
    if (existsSync(target)) renameSync(target, old);
    renameSync(staging, target);
    rmSync(old, { recursive: true, force: true });
    return result;
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
}

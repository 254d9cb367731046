import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
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
 * Files written at once: the writes run on libuv's thread pool while the next pages render, and the
 * generator waits when this many are in flight (bounded memory).
 */
const IN_FLIGHT = 64;

/**
 * Writes a site atomically: into a staging folder beside `outDir`, then swapped in, so a reader never
 * sees half a site and a failed run leaves the previous one. An existing `outDir` is replaced only when
 * it is empty or eventry wrote it (it holds SITE_MARKER).
 */
export async function writeSiteAtomically<T extends { ok: boolean }>(
  outDir: string,
  generate: (emit: SiteSink) => Promise<T> | T,
): Promise<T | SiteFolderProblem> {
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
  const folders = new Map<string, Promise<unknown>>();
  const pending = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;
  const emit: SiteSink = async (path, content) => {
    const file = join(staging, path);
    const folder = dirname(file);
    let ready = folders.get(folder);
    if (!ready) {
      ready = mkdir(folder, { recursive: true });
      folders.set(folder, ready);
    }
    const task: Promise<void> = ready
      .then(() => writeFile(file, content))
      .catch((error: unknown) => {
        failure ??= { error };
      })
      .finally(() => pending.delete(task));
    pending.add(task);
    if (pending.size >= IN_FLIGHT) await Promise.race(pending);
  };
  try {
    const result = await generate(emit);
    await Promise.all(pending);
    if (failure) throw failure.error;
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
    await Promise.allSettled(pending);
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
}

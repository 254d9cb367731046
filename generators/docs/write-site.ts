import { existsSync, mkdirSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { checkOutputFolder } from '../shared/output-folder.js';
import type { SiteContent, SiteSink } from './site.js';

/** The file that marks a folder as a site eventry wrote, so replacing it never deletes anything else. */
export const SITE_MARKER = '.eventry-site';

/** Why a site folder cannot be written: someone else's folder, or a place no output may go. */
export interface SiteFolderProblem {
  code: 'docs-out-not-site' | 'out-unsafe';
  message: string;
}

/** Where a site may not go: how the user named the folder, and the folders of their sources. */
export interface SiteClaim {
  given: string;
  sources: readonly string[];
  roots?: readonly string[];
  /** The working folder messages name folders relative to (default: the process's). */
  cwd?: string;
}

/**
 * The writer thread: it creates folders and writes files (on libuv's thread pool, several at once), batch
 * by batch, and acknowledges each batch. Writing from the main thread (one open/write/close round trip
 * per file through fs/promises, 21,000 files for 10,000 events) cost the main thread as much as
 * rendering the pages; now it costs one message per batch. Plain CommonJS run with `eval`: the toolkit
 * runs from TypeScript sources under vitest, and a worker cannot load a .ts file.
 */
const WRITER_SOURCE = `
const { copyFile, link, mkdir, writeFile } = require('node:fs/promises');
const { dirname, join } = require('node:path');
const { parentPort, workerData } = require('node:worker_threads');
const folders = new Map();
let failed = false;
const write = async (path, content) => {
  const file = join(workerData.staging, path);
  const folder = dirname(file);
  let ready = folders.get(folder);
  if (!ready) {
    ready = mkdir(folder, { recursive: true });
    folders.set(folder, ready);
  }
  await ready;
  if (typeof content !== 'string') return writeFile(file, content);
  // A hard link costs one call and no data; a file system without them (or another device) gets a copy.
  await link(content, file).catch(() => copyFile(content, file));
};
parentPort.on('message', async ({ files, data }) => {
  // After a failure the rest is only acknowledged: the staging folder is dropped anyway.
  if (!failed) {
    const bytes = Buffer.from(data);
    const results = await Promise.allSettled(
      files.map(([path, start, end, copyOf]) => write(path, copyOf ?? bytes.subarray(start, end))),
    );
    const rejected = results.find((result) => result.status === 'rejected');
    if (rejected && !failed) {
      failed = true;
      const error = rejected.reason;
      parentPort.postMessage({ error: { message: error.message, code: error.code, path: error.path, syscall: error.syscall } });
    }
  }
  parentPort.postMessage({ done: files.length });
});
`;

/** Files per message to the writer thread. */
const BATCH_FILES = 128;
/** Batches sent and not yet written: the generator waits beyond this (bounded memory). */
const BATCHES_IN_FLIGHT = 3;

/** A writer thread over a staging folder, and the sink that feeds it. */
interface Writer {
  emit: SiteSink;
  /** Resolves when everything emitted is written; rejects with the first write error. */
  finish(): Promise<void>;
  /** Stops the thread (after finish, or to give up). */
  close(): Promise<void>;
}

function startWriter(staging: string): Writer {
  const worker = new Worker(WRITER_SOURCE, { eval: true, workerData: { staging } });
  let batch: [string, SiteContent][] = [];
  let inFlight = 0;
  let failure: Error | undefined;
  const waiting: (() => void)[] = [];
  const wake = () => {
    for (const resolve of waiting.splice(0)) resolve();
  };
  worker.on('message', (message: { done?: number; error?: { message: string } }) => {
    if (message.error) failure ??= Object.assign(new Error(message.error.message), message.error);
    if (message.done !== undefined) inFlight--;
    wake();
  });
  let closing = false;
  const lost = (error: Error) => {
    failure ??= error;
    wake();
  };
  worker.on('error', lost);
  worker.on('exit', () => {
    if (!closing) lost(new Error('eventry docs: the site writer thread stopped before the site was written'));
  });
  // A batch travels as one transferred buffer of UTF-8 bytes and the files' offsets into it: copying
  // thousands of page strings through postMessage's structured clone cost the main thread more than
  // encoding them.
  const send = () => {
    if (batch.length === 0) return;
    // Room for the worst case (3 UTF-8 bytes per UTF-16 unit) instead of measuring every string first.
    let room = 0;
    for (const [, content] of batch) {
      if (typeof content === 'string') room += content.length * 3;
      else if (content instanceof Uint8Array) room += content.length;
    }
    const data = Buffer.from(new ArrayBuffer(room));
    let at = 0;
    const files = batch.map(([path, content]) => {
      const start = at;
      if (typeof content === 'string') at += data.write(content, at);
      else if (content instanceof Uint8Array) {
        data.set(content, at);
        at += content.length;
      } else return [path, 0, 0, content.copyOf];
      return [path, start, at];
    });
    worker.postMessage({ files, data: data.buffer }, [data.buffer]);
    batch = [];
    inFlight++;
  };
  const until = async (ready: () => boolean) => {
    while (!ready() && !failure) await new Promise<void>((resolve) => waiting.push(resolve));
  };
  return {
    emit: (path, content) => {
      batch.push([path, content]);
      if (batch.length < BATCH_FILES) return;
      send();
      if (inFlight >= BATCHES_IN_FLIGHT) return until(() => inFlight < BATCHES_IN_FLIGHT);
    },
    finish: async () => {
      send();
      await until(() => inFlight === 0);
      if (failure) throw failure;
    },
    close: async () => {
      closing = true;
      await worker.terminate();
    },
  };
}

/** Whether a site may be written into `outDir`: undefined when it may (see `checkOutputFolder`). Reads only. */
export function checkSiteFolder(outDir: string, claim: SiteClaim): SiteFolderProblem | undefined {
  const target = resolve(outDir);
  const refused = checkOutputFolder({ ...claim, dir: target, option: '--out', marker: SITE_MARKER });
  if (!refused) return undefined;
  // A named folder of someone else's is reported as such first, whatever else is wrong with the place.
  const foreign =
    claim.given.trim() !== '' &&
    existsSync(target) &&
    readdirSync(target).length > 0 &&
    !existsSync(join(target, SITE_MARKER));
  if (refused.code === 'out-unsafe' && !foreign) return { code: 'out-unsafe', message: refused.message };
  return {
    code: 'docs-out-not-site',
    message: `${outDir} exists and is not a site eventry wrote (no ${SITE_MARKER}); give an empty or new folder.`,
  };
}

/**
 * Writes a site atomically: into a staging folder beside `outDir`, then swapped in, so a reader never
 * sees half a site and a failed run leaves the previous one. An existing `outDir` is replaced only when
 * it is empty or eventry wrote it (it holds SITE_MARKER).
 */
export async function writeSiteAtomically<T extends { ok: boolean }>(
  outDir: string,
  generate: (emit: SiteSink) => Promise<T> | T,
  claim: SiteClaim = { given: outDir, sources: [] },
): Promise<T | SiteFolderProblem> {
  const target = resolve(outDir);
  const refused = checkSiteFolder(outDir, claim);
  if (refused) return refused;
  mkdirSync(dirname(target), { recursive: true });
  const staging = join(dirname(target), `.${basename(target)}.staging-${process.pid}`);
  await rm(staging, { recursive: true, force: true });
  const writer = startWriter(staging);
  let result: T;
  try {
    result = await generate(writer.emit);
    await writer.finish();
  } catch (error) {
    await writer.close();
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  await writer.close();
  if (!result.ok) {
    await rm(staging, { recursive: true, force: true });
    return result;
  }
  mkdirSync(staging, { recursive: true });
  writeFileSync(
    join(staging, SITE_MARKER),
    'Written by `eventry docs`; the whole folder is replaced on the next run.\n',
  );
  const old = `${staging}.old`;
  if (existsSync(target)) renameSync(target, old);
  renameSync(staging, target);
  // Asynchronous, so the 31,000 unlinks of a replaced 10k site run on libuv's pool side by side: the
  // synchronous walk took 4× as long (27 s against 6 s on the shared machine).
  await rm(old, { recursive: true, force: true });
  return result;
}

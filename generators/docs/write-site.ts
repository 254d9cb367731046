import { existsSync, mkdirSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { ErrorCode } from '../shared/error-codes.js';
import { checkOutputFolder } from '../shared/output-folder.js';
import { startWorker } from '../shared/worker.js';
import type { SiteContent, SiteSink } from './site-context.js';
import type {
  SiteWriteFailure,
  SiteWriterBatch,
  SiteWriterData,
  SiteWriterFile,
  SiteWriterReply,
} from './site-writer-worker.js';

/** The file that marks a folder as a site eventry wrote, so replacing it never deletes anything else. */
export const SITE_MARKER = '.eventry-site';

/** Why a site folder cannot be written: someone else's folder, or a place no output may go. */
export interface SiteFolderProblem {
  code: Extract<ErrorCode<'output'>, 'docs-out-not-site' | 'out-unsafe'>;
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

/** Files per message to the writer thread. */
const BATCH_FILES = 128;
/** Batches sent and not yet written: the generator waits beyond this (bounded memory). */
const BATCHES_IN_FLIGHT = 3;

/** Why a site could not be written: a file the file system refused (the previous site is kept). */
export interface SiteWriteProblem {
  code: 'write-failed';
  message: string;
}

/** Thrown when the writer thread stops before the site is written: a bug, not the user's input. */
export class SiteWriterStopped extends Error {
  readonly code = 'site-writer-stopped';
}

/** A writer thread over a staging folder, and the sink that feeds it. */
interface Writer {
  emit: SiteSink;
  /** Resolves when everything emitted is written, with the first file the file system refused if any. */
  finish(): Promise<SiteWriteFailure | undefined>;
  /** Stops the thread (after finish, or to give up). */
  close(): Promise<void>;
}

function startWriter(staging: string): Writer {
  const worker = startWorker('docs/site-writer-worker', { workerData: { staging } satisfies SiteWriterData });
  let batch: [string, SiteContent][] = [];
  let inFlight = 0;
  let refused: SiteWriteFailure | undefined;
  let stopped: SiteWriterStopped | undefined;
  const waiting: (() => void)[] = [];
  const wake = () => {
    for (const resolve of waiting.splice(0)) resolve();
  };
  worker.on('message', (message: SiteWriterReply) => {
    if ('failed' in message) refused ??= message.failed;
    else inFlight--;
    wake();
  });
  let closing = false;
  const lost = (why: string) => {
    stopped ??= new SiteWriterStopped(
      `eventry docs: the site writer thread stopped before the site was written (${why}) [site-writer-stopped]`,
    );
    wake();
  };
  worker.on('error', (error) => lost(error.message));
  worker.on('exit', (code) => {
    if (!closing) lost(`exit code ${code}`);
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
    const files = batch.map(([path, content]): SiteWriterFile => {
      const start = at;
      if (typeof content === 'string') at += data.write(content, at);
      else if (content instanceof Uint8Array) {
        data.set(content, at);
        at += content.length;
      } else return [path, 0, 0, content.copyOf];
      return [path, start, at];
    });
    worker.postMessage({ files, data: data.buffer } satisfies SiteWriterBatch, [data.buffer]);
    batch = [];
    inFlight++;
  };
  const until = async (ready: () => boolean) => {
    while (!ready() && !refused && !stopped) await new Promise<void>((resolve) => waiting.push(resolve));
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
      if (stopped) throw stopped;
      return refused;
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
 * it is empty or eventry wrote it (it holds SITE_MARKER). A file the file system refuses is a
 * `write-failed` problem; a writer thread that stops mid-way throws `SiteWriterStopped` (a bug).
 */
export async function writeSiteAtomically<T extends { ok: boolean }>(
  outDir: string,
  generate: (emit: SiteSink) => Promise<T> | T,
  claim: SiteClaim = { given: outDir, sources: [] },
): Promise<T | SiteFolderProblem | SiteWriteProblem> {
  const target = resolve(outDir);
  const refused = checkSiteFolder(outDir, claim);
  if (refused) return refused;
  mkdirSync(dirname(target), { recursive: true });
  const staging = join(dirname(target), `.${basename(target)}.staging-${process.pid}`);
  await rm(staging, { recursive: true, force: true });
  const writer = startWriter(staging);
  let result: T;
  let failure: SiteWriteFailure | undefined;
  try {
    result = await generate(writer.emit);
    failure = await writer.finish();
  } catch (error) {
    await writer.close();
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  await writer.close();
  if (failure || !result.ok) await rm(staging, { recursive: true, force: true });
  if (failure) {
    return {
      code: 'write-failed',
      message: `cannot write ${failure.path} into ${claim.given} (${failure.code}); the previous site is left as it was.`,
    };
  }
  if (!result.ok) return result;
  mkdirSync(staging, { recursive: true });
  writeFileSync(
    join(staging, SITE_MARKER),
    'Written by `eventry docs`; the whole folder is replaced on the next run.\n',
  );
  const old = `${staging}.old`;
  if (existsSync(target)) renameSync(target, old);
  renameSync(staging, target);
  // Asynchronous, so the unlinks of a replaced site run on libuv's pool side by side (see
  // docs/decisions/0063).
  await rm(old, { recursive: true, force: true });
  return result;
}

import { copyFile, link, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';

/** What the site writer thread starts with: the staging folder every emitted path is below. */
export interface SiteWriterData {
  staging: string;
}

/** A file of a batch: its bytes as offsets into the batch's buffer, or a file to link or copy. */
export type SiteWriterFile = [path: string, start: number, end: number, copyOf?: string];

/** One batch to write: the files, and one transferred buffer holding their UTF-8 bytes. */
export interface SiteWriterBatch {
  files: SiteWriterFile[];
  data: ArrayBuffer;
}

/** Why a file could not be written: its path in the site and the file system's error code. */
export interface SiteWriteFailure {
  path: string;
  code: string;
  message: string;
}

/** What the thread answers: every batch acknowledged, the first failure reported once before its ack. */
export type SiteWriterReply = { done: number } | { failed: SiteWriteFailure };

/**
 * The writer thread's loop: creates folders and writes files (on libuv's thread pool, several at once),
 * batch by batch, and acknowledges each batch, so the main thread pays one message per batch.
 */
function serveBatches(port: NonNullable<typeof parentPort>, { staging }: SiteWriterData): void {
  const folders = new Map<string, Promise<unknown>>();
  let failed = false;
  const write = async (path: string, content: Uint8Array | string): Promise<void> => {
    const file = join(staging, path);
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
  const reply = (message: SiteWriterReply) => port.postMessage(message);
  port.on('message', async ({ files, data }: SiteWriterBatch) => {
    // After a failure the rest is only acknowledged: the staging folder is dropped anyway.
    if (!failed) {
      const bytes = Buffer.from(data);
      const results = await Promise.allSettled(
        files.map(([path, start, end, copyOf]) =>
          write(path, copyOf ?? bytes.subarray(start, end)).catch((error: NodeJS.ErrnoException) => {
            throw { path, code: error.code ?? 'EIO', message: error.message } satisfies SiteWriteFailure;
          }),
        ),
      );
      const rejected = results.find((result) => result.status === 'rejected');
      if (rejected && !failed) {
        failed = true;
        reply({ failed: rejected.reason as SiteWriteFailure });
      }
    }
    reply({ done: files.length });
  });
}

if (!isMainThread && parentPort) serveBatches(parentPort, workerData as SiteWriterData);

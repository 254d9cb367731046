import {
  closeSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  writeSync,
  writevSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileStamp, inside } from '../shared/fs.js';
import {
  type OutputSink,
  type StagedFile,
  type StagingTarget,
  WriteFailure,
  type WriterFile,
} from './commit-types.js';
import { crashPoint, FLUSH_EVERY_BYTES, flushInBackground } from './durable.js';
import { folderMemo, folderOf, inOutput, outputPath, settleSunk } from './output-compare.js';

// Staging from another thread of a build: its files, and the large documents it streams (`openStagedSink`). (split from write.ts, the writer).

/**
 * Stages `files` below `target.staging` from a build thread: each file that differs from the output is
 * written (synchronously; the build's own thread fsyncs it, see `Staging.addStaged`) and reported with
 * its size and time, each unchanged one is reported without. `state` carries the folders made and
 * seen between calls. A file the file system refuses throws a `WriteFailure`; the caller discards the
 * staging folder.
 */
export function stageOnThread(
  target: StagingTarget,
  files: readonly WriterFile[],
  state: { exists?: (dir: string) => boolean; made?: Set<string> },
): StagedFile[] {
  state.exists ??= folderMemo(target.root);
  state.made ??= new Set<string>();
  const { exists, made } = state;
  const half = Math.ceil(files.length / 2);
  let path = '';
  try {
    return files.map((file, index) => {
      path = inside(target.root, file.path);
      if (file.sunk) {
        const stats = settleSunk(target, file, exists);
        return stats ? { path: file.path, stats } : { path: file.path };
      }
      const dir = folderOf(file.path);
      if (inOutput(target.root, file, exists) !== false) return { path: file.path };
      path = inside(target.staging, file.path);
      if (!made.has(dir)) mkdirSync(inside(target.staging, dir), { recursive: true });
      made.add(dir);
      const fd = openSync(path, 'w');
      try {
        if (file.pieces) writevSync(fd, file.pieces as Uint8Array[]);
        else writeSync(fd, file.contents);
        const { size, mtimeMs } = fstatSync(fd);
        if (index + 1 === half) crashPoint('staging-half');
        return { path: file.path, stats: { size, mtimeMs } };
      } finally {
        closeSync(fd);
      }
    });
  } catch (error) {
    const failure = error as NodeJS.ErrnoException;
    if (typeof failure.code !== 'string') throw error;
    throw new WriteFailure(outputPath(failure.path ?? path, target), failure.code, error);
  }
}

/**
 * A file of the staging folder an emitter writes piece by piece (`EmitContext.openSink`): made empty
 * now, each piece appended as it comes, through one descriptor until `close`. A failure names the
 * output path, as staging a file does.
 */
export function openStagedSink(target: StagingTarget, path: string): OutputSink {
  const file = join(target.staging, path);
  const guarded = <T>(work: () => T): T => {
    try {
      return work();
    } catch (error) {
      const failure = error as NodeJS.ErrnoException;
      if (typeof failure.code !== 'string') throw error;
      throw new WriteFailure(outputPath(failure.path ?? file, target), failure.code, error);
    }
  };
  let fd: number | undefined = guarded(() => {
    mkdirSync(dirname(file), { recursive: true });
    return openSync(file, 'w');
  });
  // Where the next bytes go: the end of what is written (after a `truncate`, its new end).
  let position = 0;
  // Where the last flush to disk was started (see `FLUSH_EVERY_BYTES`).
  let flushedAt = 0;
  const current = (): number => {
    if (fd === undefined) throw new Error(`eventry: ${path} is written after its sink was closed`);
    return fd;
  };
  return {
    write: (bytes) =>
      guarded(() => {
        const at = current();
        for (let done = 0; done < bytes.length; ) {
          done += writeSync(at, bytes, done, bytes.length - done, position + done);
        }
        position += bytes.length;
        if (process.platform === 'linux' && position - flushedAt >= FLUSH_EVERY_BYTES) {
          flushedAt = position;
          flushInBackground(file);
        }
      }),
    truncate: (length) =>
      guarded(() => {
        ftruncateSync(current(), length);
        position = length;
      }),
    read: () => guarded(() => readFileSync(file)),
    close: () => {
      if (fd === undefined) return undefined;
      const closing = fd;
      fd = undefined;
      return guarded(() => {
        try {
          return fileStamp(closing);
        } finally {
          closeSync(closing);
        }
      });
    },
  };
}

import { createHash, type Hash } from 'node:crypto';
import type { WriterFile } from '../commit-types.js';
import type { ExistingFile, FastContext, OutputSink } from './emit-context.js';
import { EntryIds, type FileIndex, isFirst, type OldFile, rankOf, sameId } from './entry-index.js';

/** How much text a writer gathers before turning it into bytes: pieces of about this size are written. */
const PIECE_BYTES = 1 << 20;

/**
 * The buffers bytes pass through on their way to a sink, reused by every writer (each piece is written
 * before the next is made): a fresh buffer per megabyte costs its page faults, more than the copy.
 */
const CHUNK = Buffer.allocUnsafeSlow(PIECE_BYTES);
const ENCODED = Buffer.allocUnsafeSlow(2 * PIECE_BYTES);

/**
 * One document file's bytes as they are written, in pieces of about a megabyte (no string of the whole
 * file is ever made), with the digest of what was written; into the build's staging folder as they
 * come when the context has a sink for it, else kept. It copies the entries it can from the same file
 * as the last build wrote it, when the output still holds those bytes (by their digest): entries
 * copied one after another are one run of the old file, written as it is.
 */
export class Writer {
  private readonly pieces: Uint8Array[] = [];
  /** Text, and runs of the old file, not yet written. */
  private pending: (string | Run)[] = [];
  private pendingBytes = 0;
  /** Bytes written so far (flushed, pending and in the run). */
  private length = 0;
  private hash = createHash('sha256');
  private digest: string | undefined;
  /** The index of what is written (see `FileIndex`), sized for the old file's entries. */
  private readonly entries: EntryIds;
  private readonly sink: OutputSink | undefined;
  private readonly old: OldFile | undefined;
  /** The old file's bytes from `start` to `end` are next, not yet pending. */
  private run: Run | undefined;
  private whole = false;
  private marked: { length: number; pieces: number; hash: Hash } | undefined;
  /** The written file's stamp once closed, when known (see `FileIndex.stamp`). */
  private stamp: string | undefined;
  constructor(
    readonly path = '',
    context?: FastContext,
    last?: FileIndex,
  ) {
    this.sink = context?.openSink?.(path);
    this.entries = new EntryIds(last ? last.spans.length / 2 : 0);
    if (!last || !context) return;
    const existing = context.openExisting
      ? context.openExisting(path)
      : inMemory(Buffer.from(context.readExisting(path) ?? ''));
    if (existing === undefined) return;
    try {
      // The file the index describes: by its stamp, which a rename into the output keeps, else by
      // its bytes (a file left as it was because the build found it the same, or written by a sink
      // that cannot tell its stamp).
      if (
        existing.size > 0 &&
        ((last.stamp !== undefined && last.stamp === existing.stamp) ||
          digestOfFile(existing) === last.digest)
      ) {
        this.old = { file: existing, index: last, cursor: 0 };
      }
    } finally {
      if (this.old === undefined) existing.close();
    }
  }
  push(text: string): void {
    this.endRun();
    this.add(text, Buffer.byteLength(text));
  }
  /**
   * Writes the entry whose id is `place`, `what0`, `what1` (see `EntryIds`; the first of its map:
   * `first`) as the last build wrote it, if the old file has it.
   */
  copy(place: number, what0: number, what1: number, first: boolean): boolean {
    const old = this.old;
    if (!old) return false;
    const { ids, spans } = old.index;
    let rank: number | undefined = old.cursor;
    const count = spans.length / 2;
    if (rank >= count || !sameId(old, rank, place, what0, what1, first)) {
      // The same entry built from a changed part of the model (its id differs in the digest only)
      // stands where its old text was: no need to look further (an edit of one group would otherwise
      // index every id of the file for its few changed entries).
      if (rank < count && ids[3 * rank] === place && isFirst(old, rank) === first) {
        old.cursor++;
        return false;
      }
      rank = rankOf(old, place, what0, what1, first);
      if (rank === undefined) {
        // An entry built anew most likely stands where its old text was.
        old.cursor++;
        return false;
      }
    }
    old.cursor = rank + 1;
    const start = spans[2 * rank]!;
    const end = spans[2 * rank + 1]!;
    // The old id, the same text.
    this.entries.add(place, what0, what1, first, this.length, this.length + end - start);
    this.length += end - start;
    if (this.run?.end === start) this.run.end = end;
    else {
      this.endRun();
      this.run = { start, end };
    }
    return true;
  }
  /** Writes the entry `place`, `what0`, `what1`, recording where it is for the next build. */
  entry(place: number, what0: number, what1: number, first: boolean, text: string): void {
    const start = this.length;
    this.push(text);
    this.entries.add(place, what0, what1, first, start, this.length);
  }
  /** Remembers how much is written, for `rewind`. */
  mark(): void {
    this.flush();
    this.marked = { length: this.length, pieces: this.pieces.length, hash: this.hash.copy() };
  }
  /**
   * Forgets what was written since `mark` (the document is then written whole, and nothing of this
   * file can be copied by the next build).
   */
  rewind(): void {
    const { length, pieces, hash } = this.marked!;
    this.pending = [];
    this.pendingBytes = 0;
    this.run = undefined;
    this.pieces.length = pieces;
    this.length = length;
    this.hash = hash;
    this.sink?.truncate(length);
    this.entries.clear();
    this.whole = true;
  }
  /** The file: in the staging folder already, or its bytes in pieces; whether the output holds it, when known. */
  file(): WriterFile {
    const digest = this.finish();
    const { pieces, sink } = this;
    const same = this.old !== undefined && digest === this.old.index.digest;
    // Where the file will be: the output keeps the old one when the two are the same, else the
    // staged one is moved there.
    const written = sink?.close?.();
    this.stamp = same ? this.old!.file.stamp : written;
    this.old?.file.close();
    let contents: string | undefined;
    // The text only for a reader that asks for it (the build writes the pieces, or has the file).
    const file: WriterFile = {
      path: this.path,
      ...(sink ? { sunk: true as const } : { pieces }),
      get contents() {
        contents ??= (sink ? sink.read() : Buffer.concat(pieces)).toString('utf8');
        return contents;
      },
    };
    if (this.old) file.inOutput = same ? 'same' : 'different';
    return file;
  }
  /** Lets go of the files after a failure (the build discards what was staged). */
  discard(): void {
    try {
      this.sink?.close?.();
    } catch {
      // The failure being reported matters, not this one.
    }
    try {
      this.old?.file.close();
    } catch {
      // As above.
    }
  }
  text(): string {
    this.flush();
    return Buffer.concat(this.pieces).toString('utf8');
  }
  /** What the next build needs to copy entries from this file; nothing when the document was written whole. */
  index(): FileIndex | undefined {
    if (this.whole) return undefined;
    return {
      digest: this.finish(),
      ...this.entries.index(),
      ...(this.stamp === undefined ? {} : { stamp: this.stamp }),
    };
  }
  private finish(): string {
    this.flush();
    this.digest ??= this.hash.digest('base64');
    return this.digest;
  }
  private add(part: string | Run, bytes: number): void {
    this.pending.push(part);
    this.pendingBytes += bytes;
    this.length += typeof part === 'string' ? bytes : 0;
    if (this.pendingBytes >= PIECE_BYTES) this.flush();
  }
  private endRun(): void {
    const run = this.run;
    if (!run) return;
    this.run = undefined;
    // Its length is counted already (`copy`).
    this.add(run, run.end - run.start);
  }
  /**
   * Writes what is pending: the text between two runs of the old file as one piece, each run read
   * from the old file a chunk at a time.
   */
  private flush(): void {
    this.endRun();
    // Text is encoded straight into the reused buffer, part after part: joining the parts into one
    // string first made it fresh memory each time (see docs/decisions/0006).
    let encoded = 0;
    const writeText = () => {
      if (encoded === 0) return;
      this.out(ENCODED.subarray(0, encoded), true);
      encoded = 0;
    };
    for (const part of this.pending) {
      if (typeof part === 'string') {
        const bytes = Buffer.byteLength(part);
        if (encoded + bytes > ENCODED.length) writeText();
        // One huge entry is written on its own.
        if (bytes > ENCODED.length) this.out(Buffer.from(part), false);
        else encoded += ENCODED.write(part, encoded);
        continue;
      }
      writeText();
      const old = this.old!.file;
      for (let at = part.start; at < part.end; ) {
        const read = old.read(CHUNK.subarray(0, Math.min(CHUNK.length, part.end - at)), at);
        if (read === 0) throw new Error(`eventry: ${this.path} in the output changed while it was read`);
        this.out(CHUNK.subarray(0, read), true);
        at += read;
      }
    }
    writeText();
    this.pending = [];
    this.pendingBytes = 0;
  }
  /** One piece of the file, in order; `reused`: its buffer is written over next, so it is copied when kept. */
  private out(piece: Uint8Array, reused: boolean): void {
    this.hash.update(piece);
    if (this.sink) this.sink.write(piece);
    else this.pieces.push(reused ? Buffer.from(piece) : piece);
  }
}

/** A span of the old file's bytes, to be copied as it is. */
interface Run {
  start: number;
  end: number;
}

/** Bytes in memory as an `ExistingFile` (a context that can only read whole texts). */
function inMemory(bytes: Buffer): ExistingFile {
  return {
    size: bytes.length,
    stamp: undefined,
    read: (into, position) => bytes.copy(into, 0, position, Math.min(bytes.length, position + into.length)),
    close: () => {},
  };
}

/** The digest of a file's bytes, read a chunk at a time. */
function digestOfFile(file: ExistingFile): string {
  const hash = createHash('sha256');
  for (let at = 0; at < file.size; ) {
    const read = file.read(CHUNK, at);
    if (read === 0) break;
    hash.update(CHUNK.subarray(0, read));
    at += read;
  }
  return hash.digest('base64');
}

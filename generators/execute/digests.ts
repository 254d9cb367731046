import { createHash } from 'node:crypto';
import { readFileSync, type Stats, statSync } from 'node:fs';

// A no-op build must know that nothing it depends on changed (the catalogue's files, the toolkit's
// code) without reading them all again, which was a third of a large no-op (see docs/decisions/0003).
// Each file's digest is remembered with its stat, and
// reused while the stat is the same, as git's index does. A file written in the same moment as it was
// read (its times within `RACY_MS` of the read) could change again without its stat changing: its
// digest is not remembered, so it is read every time until it is old enough.

/** By file key: the file's stat as `ino:size:mtime:ctime`, and the sha256 of its bytes. */
export type DigestMemo = Record<string, readonly [stamp: string, digest: string]>;

/** Times closer than this to the read are not trusted (FAT's 2-second times are the coarsest). */
const RACY_MS = 2000;

/** A file's stat as one comparable string. */
function stampOf(stat: Stats): string {
  return `${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`;
}

/** The sha256 of some bytes or text, hex. */
export function digestOf(contents: string | Uint8Array): string {
  return createHash('sha256').update(contents).digest('hex');
}

/** Digests of files, reused from a memo while a file's stat is unchanged; records the next memo. */
export class FileDigests {
  /** The memo to keep for the next run: every file digested here whose times are not racy. */
  readonly next: DigestMemo = Object.create(null);
  private readonly memo: DigestMemo;
  /** Files read (not taken from the memo): the tests' window on the memo's working. */
  read = 0;

  constructor(
    memo: DigestMemo | undefined,
    private readonly now = Date.now(),
  ) {
    this.memo = memo ?? Object.create(null);
  }

  /** The digest of the file at `path`, remembered under `key`; throws what `statSync` or reading throws. */
  digest(key: string, path: string): string {
    const stat = statSync(path);
    const stamp = stampOf(stat);
    const known = this.memo[key];
    // Read after the stat: a change between the two leaves the stamp older than the digest, so the
    // next run reads the file again (never the reverse).
    const digest = known?.[0] === stamp ? known[1] : this.readDigest(path);
    if (this.now - stat.mtimeMs > RACY_MS && this.now - stat.ctimeMs > RACY_MS)
      this.next[key] = [stamp, digest];
    return digest;
  }

  private readDigest(path: string): string {
    this.read++;
    return digestOf(readFileSync(path));
  }
}

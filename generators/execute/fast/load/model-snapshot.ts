import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { Group } from '../../../model.js';
import { writeAtomically } from '../../../shared/fs.js';

// What the last load found, kept between builds (in the project's `.eventry/cache/`) with the digests
// of the files it was loaded from, so that an edit of a few files resolves only what they define and
// what builds on it (`incremental.ts`). Of each event it keeps the name, the file, what it builds on
// and its `modelDigest`, not the event: one the build reads is resolved again from its file.

/** The snapshot's file in the cache folder. */
export const MODEL_SNAPSHOT_FILE = 'model.v8';
/** Names this layout; a file with any other (an older toolkit's, another program's) is ignored. */
const FORMAT = 'eventry-model-snapshot/1';
/** The file starts with the sha256 of the rest, so a damaged or truncated file is never read as a model. */
const CHECKSUM_BYTES = 32;

/** A loaded model as the snapshot keeps it. */
export interface StoredModel {
  /** The catalogue's files (the allow-list aside), sorted by path, and the sha256 (base64) of each text. */
  files: string[];
  digests: string[];
  groups: Group[];
  /** The shapes, in model order (few: parsed whole when the snapshot is used). */
  shapesJson: string;
  shapeNames: string[];
  /** Per shape, the index in `files` of the file that defines it. */
  shapeFiles: Int32Array;
  /** Per shape, what it builds on (`extends`) as a `baseName`, or ''. */
  shapeBases: string[];
  eventKeys: string[];
  eventFiles: Int32Array;
  /** Per event, its `modelDigest`: the sha256 (base64) of its JSON text. */
  eventDigests: string[];
  /** Per event, what it builds on (`same_as`, `extends`) and migrates from, as `eventBase` gives it. */
  eventBases: string[];
}

/** How a definition names what it builds on, across the two name spaces. */
export function baseName(kind: 'event' | 'shape', name: string): string {
  return `${kind}\0${name}`;
}

type SnapshotFile = StoredModel & { format: string; tool: string };

/**
 * The snapshot file of one cache folder, for one toolkit fingerprint: another toolkit's is not read,
 * so a changed loader never reuses an old model. A file that cannot be read or written only costs the
 * full load.
 */
export class ModelSnapshot {
  constructor(
    private readonly dir: string,
    private readonly tool: string,
  ) {}

  /** The stored model; undefined when there is none that fits. */
  read(): StoredModel | undefined {
    try {
      const bytes = readFileSync(join(this.dir, MODEL_SNAPSHOT_FILE));
      const payload = bytes.subarray(CHECKSUM_BYTES);
      const checksum = createHash('sha256').update(payload).digest();
      if (bytes.length < CHECKSUM_BYTES || !checksum.equals(bytes.subarray(0, CHECKSUM_BYTES)))
        return undefined;
      const { format, tool, ...stored } = deserialize(payload) as SnapshotFile;
      return format === FORMAT && tool === this.tool ? stored : undefined;
    } catch {
      return undefined;
    }
  }

  /** Replaces the snapshot with `stored` (atomically: a concurrent build reads one whole file). */
  write(stored: StoredModel): void {
    const payload = serialize({ format: FORMAT, tool: this.tool, ...stored } satisfies SnapshotFile);
    try {
      writeAtomically(
        join(this.dir, MODEL_SNAPSHOT_FILE),
        Buffer.concat([createHash('sha256').update(payload).digest(), payload]),
      );
    } catch {
      // Only the next edit's speed depends on it.
    }
  }
}

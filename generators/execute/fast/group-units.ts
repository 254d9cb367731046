import { createHash } from 'node:crypto';
import { checkGroupSlug, emitGroupPackage } from '../../emit/package/index.js';
import {
  emitPackageJson,
  groupSourceHash,
  groupUsesFormats,
  packageJsonPath,
  versionOf,
} from '../../emit/package/package-json.js';
import { RUNTIME_VERSION } from '../../emit/package/runtime-package.js';
import type { Catalogue, Group } from '../../model.js';
import { entryDigest, modelDigest } from '../../model-digest.js';
import type { WriterFile } from '../commit-types.js';
import { type EmitCache, type FastContext, SOURCE_HASHES_UNIT } from './emit-context.js';

/**
 * `emitGroupPackages`, made faster: a group's source hash is taken from the last build's (kept in
 * `context.cache`) when its inputs are unchanged.
 */
export async function emitGroupPackagesFast(model: Catalogue, context: FastContext): Promise<WriterFile[]> {
  const files: WriterFile[] = [];
  for (const unit of groupPackageUnits(model, context))
    files.push(unit.packageJson(), ...(await unit.files()));
  return files;
}

/** One group's package, to be generated on demand (a build writes each as it goes). */
export interface GroupPackageUnit {
  slug: string;
  /** Covers every input of `files()` but the toolkit (see `groupUnitKey`). */
  key: string;
  /** Where `packageJson` goes. */
  packageJsonPath: string;
  /**
   * Made afresh whenever the package is generated: it carries forward the version `eventry version`
   * keeps in the output (a build that keeps the package keeps its package.json, as it is in the output).
   */
  packageJson(): WriterFile;
  /** The package's other files, generated. */
  files(): Promise<WriterFile[]>;
}

/**
 * The group packages `emitGroupPackages` writes, one unit per group (or per group of `only`), nothing
 * generated yet.
 */
export function groupPackageUnits(
  model: Catalogue,
  context: FastContext,
  only?: ReadonlySet<string>,
): GroupPackageUnit[] {
  const hashes = new SourceHashes(model, context);
  const units = model.groups
    .filter((group) => only === undefined || only.has(group.slug))
    .map((group) => groupPackageUnit(model, context, group, hashes));
  // A memo of some groups only would make the next build recompute the others.
  if (only === undefined) hashes.keep();
  return units;
}

function groupPackageUnit(
  model: Catalogue,
  context: FastContext,
  group: Group,
  hashes: SourceHashes,
): GroupPackageUnit {
  checkGroupSlug(group);
  const { sourceHash, usesFormats } = hashes.of(group);
  const key = groupUnitKey(model, group, sourceHash);
  return {
    slug: group.slug,
    key,
    packageJsonPath: packageJsonPath(group.slug),
    packageJson: () => {
      const existing = context.readExisting(packageJsonPath(group.slug));
      const file: WriterFile = emitPackageJson(model, group, versionOf(existing), {
        sourceHash,
        usesFormats,
      });
      // Read here already: the writer need not read it again to know whether it changed.
      file.inOutput = existing === file.contents ? 'same' : 'different';
      return file;
    },
    files: () => emitGroupPackage(model, group, usesFormats),
  };
}

interface SourceHash {
  /** Digest of what `sourceHash` and `usesFormats` are computed from: the group's events and every shape. */
  inputs: string;
  sourceHash: string;
  usesFormats: boolean;
}

/**
 * Each group's `groupSourceHash` and `groupUsesFormats`, taken from the last build's when the group's
 * events and the shapes are as they were (computing them all was a large part of an edit: see
 * docs/decisions/0004): the group's own events by their model digest, the shapes all together.
 */
class SourceHashes {
  private readonly last: Map<string, SourceHash> | undefined;
  private readonly next = new Map<string, SourceHash>();
  private shapes: string | undefined;
  constructor(
    private readonly model: Catalogue,
    private readonly context: FastContext,
  ) {
    const cache = context.cache;
    // Recalled once per cache until the next `keep`: a build's thread makes one `SourceHashes` per
    // group it generates, and reading the whole map for each showed in a large build (docs/decisions/0004).
    let kept = cache ? RECALLED.get(cache) : undefined;
    if (cache && kept === undefined) {
      kept = cache.recall?.(SOURCE_HASHES_UNIT) ?? null;
      RECALLED.set(cache, kept);
    }
    this.last = kept instanceof Map ? (kept as Map<string, SourceHash>) : undefined;
  }
  of(group: Group): SourceHash {
    const memo = this.context.cache?.keep !== undefined;
    this.shapes ??= memo ? shapesDigest(this.model) : '';
    const inputs = memo ? groupInputs(this.model, group, this.shapes) : '';
    const last = this.last?.get(group.slug);
    const hash =
      memo &&
      last?.inputs === inputs &&
      typeof last.sourceHash === 'string' &&
      typeof last.usesFormats === 'boolean'
        ? last
        : {
            inputs,
            sourceHash: groupSourceHash(this.model, group),
            usesFormats: groupUsesFormats(this.model, group),
          };
    this.next.set(group.slug, hash);
    return hash;
  }
  keep(): void {
    const cache = this.context.cache;
    if (!cache?.keep) return;
    cache.keep(SOURCE_HASHES_UNIT, this.next);
    // The next `SourceHashes` on this cache recalls what it holds now.
    RECALLED.delete(cache);
  }
}

/** What `SourceHashes` recalled from each cache since it last kept there (null: nothing). */
const RECALLED = new WeakMap<EmitCache, unknown>();

/** `shapesDigest` of each model (every group's inputs start from it). */
const SHAPES_DIGESTS = new WeakMap<Catalogue, string>();

function shapesDigest(model: Catalogue): string {
  let digest = SHAPES_DIGESTS.get(model);
  if (digest === undefined) {
    const hash = createHash('sha256');
    for (const name of Object.keys(model.shapes))
      hash.update(`${name}\0${modelDigest(model.shapes[name]!)}\0`);
    digest = hash.digest('base64');
    SHAPES_DIGESTS.set(model, digest);
  }
  return digest;
}

function groupInputs(model: Catalogue, group: Group, shapes: string): string {
  const hash = createHash('sha256').update(shapes);
  for (const key of group.events) {
    hash.update(`${key}\0${entryDigest(model.events, key)}\0`);
    // A migration's code reads the versions it comes from, in whatever group (decision 0160); an event
    // without one hashes as it always has.
    for (const from of migrationSources(model, key))
      hash.update(`<${from}\0${entryDigest(model.events, from)}\0`);
  }
  return hash.digest('base64');
}

/** The versions an event's upgrades read, back along the chain (`v3` from `v2` from `v1`). */
function migrationSources(model: Catalogue, key: string): string[] {
  const found: string[] = [];
  for (let from = model.events[key]?.upgrade?.from; from !== undefined && !found.includes(from); ) {
    if (model.events[from] === undefined) break;
    found.push(from);
    from = model.events[from]!.upgrade?.from;
  }
  return found;
}

/**
 * Everything a group's generated files depend on: its events' schemas (which embed their shapes,
 * titles, descriptions and source file), the group's and the catalogue's names and the run time version
 * the package depends on. The templates are the toolkit fingerprint's part: the build hashes the key
 * with it (`execute/fingerprint.ts` hashes the source folder they are read from).
 */
function groupUnitKey(model: Catalogue, group: Group, sourceHash: string): string {
  return JSON.stringify({
    sourceHash,
    group: { slug: group.slug, title: group.title, description: group.description, file: group.source.file },
    events: group.events,
    scope: model.config.scope,
    title: model.config.title,
    runtime: RUNTIME_VERSION,
  });
}

import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { list } from 'tar';
import { type NpmOptions, type NpmRunner, npmErrorText, parseNpmJson, runNpm } from './npm.js';

/** A package folder as `npm pack` would publish it (nothing is written). */
export interface PackedPackage {
  dir: string;
  name: string;
  version: string;
  /** `sha512-...` of the tarball npm would upload; npm packs deterministically (fixed mtimes, sorted). */
  integrity: string;
  shasum: string;
  /** Tarball bytes. */
  size: number;
  /** Sum of the file sizes. */
  unpackedSize: number;
  /** Paths inside the package, as npm lists them. */
  files: string[];
  /** `eventry.sourceHash` of the package.json: the hash of the group's catalogue content it was built from. */
  sourceHash?: string;
  /** `eventry.catalogueHash`, when the package records the whole catalogue's hash too. */
  catalogueHash?: string;
  /** `eventry.runtime`: the run time package every group depends on (published first). */
  runtime?: boolean;
}

interface NpmPackJson {
  name: string;
  version: string;
  integrity: string;
  shasum: string;
  size: number;
  unpackedSize: number;
  files: { path: string }[];
}

/**
 * `npm pack --dry-run --json` of package folders, in one npm run (npm takes many folders at once):
 * what would be published, with each tarball's integrity. Results are in the order of `dirs`.
 */
export async function packLocal(
  dirs: string[],
  npm: NpmRunner = runNpm,
  options: NpmOptions = {},
): Promise<PackedPackage[]> {
  if (dirs.length === 0) return [];
  // Absolute paths: npm reads a bare `a/b` as a GitHub shorthand.
  const result = await npm(
    ['pack', '--dry-run', '--json', '--ignore-scripts', ...dirs.map((dir) => resolve(dir))],
    options,
  );
  const { value } = parseNpmJson(result);
  const packed = Array.isArray(value) ? (value as NpmPackJson[]) : [];
  if (result.code !== 0 || packed.length !== dirs.length) {
    throw new Error(`npm pack failed for ${dirs.join(', ')}: ${npmErrorText(result) || result.stderr}`);
  }
  return dirs.map((dir, i) => {
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      name: string;
      eventry?: { sourceHash?: string; catalogueHash?: string; runtime?: boolean };
    };
    const pack = packed[i]!;
    if (pack.name !== manifest.name || !pack.integrity) {
      throw new Error(`npm pack reported ${pack.name} for ${dir}, whose package.json names ${manifest.name}`);
    }
    return {
      dir: resolve(dir),
      name: pack.name,
      version: pack.version,
      integrity: pack.integrity,
      shasum: pack.shasum,
      size: pack.size,
      unpackedSize: pack.unpackedSize,
      files: pack.files.map((file) => file.path).sort(),
      ...(manifest.eventry?.sourceHash ? { sourceHash: manifest.eventry.sourceHash } : {}),
      ...(manifest.eventry?.catalogueHash ? { catalogueHash: manifest.eventry.catalogueHash } : {}),
      ...(manifest.eventry?.runtime === true ? { runtime: true } : {}),
    };
  });
}

/** Every file of an npm tarball, by path inside the package (the `package/` prefix removed). */
export function readTarball(file: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  list({
    file,
    sync: true,
    onReadEntry: (entry) => {
      if (entry.type !== 'File') return;
      const chunks: Buffer[] = [];
      entry.on('data', (chunk: Buffer) => chunks.push(chunk));
      entry.on('end', () => files.set(entry.path.replace(/^[^/]+\//, ''), Buffer.concat(chunks)));
    },
  });
  return files;
}

/**
 * The files whose contents differ between a local package and a published tarball: changed, added or
 * gone. Empty means the same content, even when the tarball bytes differ (another npm or zlib may
 * compress the same files differently).
 */
export function compareContents(local: PackedPackage, published: Map<string, Buffer>): string[] {
  const differing = new Set<string>();
  for (const path of local.files) {
    const theirs = published.get(path);
    if (!theirs?.equals(readFileSync(join(local.dir, path)))) differing.add(path);
  }
  const ours = new Set(local.files);
  for (const path of published.keys()) if (!ours.has(path)) differing.add(path);
  return [...differing].sort();
}

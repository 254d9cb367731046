import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { EmitCache, OutputFile } from '../emit/context.js';
import { EMITTERS } from '../emit/index.js';
import { emitGroupPackages, groupPackageUnits } from '../emit/package/index.js';
import { type CatalogueProblem, type CatalogueSourceFile, loadCatalogueFromSources } from '../load/index.js';
import type { Catalogue } from '../model.js';
import { readIfExists } from '../shared/fs.js';
import type { BuildState } from './state.js';
import { type FileStats, startStaging, WriteFailure, type WriteReport } from './write.js';

/** The outcome of a build: the problems that stopped it, or what it wrote. */
export type BuildResult =
  | { ok: false; problems: CatalogueProblem[] }
  | { ok: false; emitterError: { emitter: string; error: unknown } }
  | { ok: false; writeError: WriteFailure }
  | { ok: true; catalogue: Catalogue; report: WriteReport };

/** Options of `buildCatalogue`. */
export interface BuildCatalogueOptions {
  /** Files the last build produced: their folders are eventry's even if this build produces none there. */
  previous?: readonly string[];
  /** Memo of generated group packages across builds. */
  cache?: EmitCache;
  /**
   * The last build's state and the toolkit fingerprint: a group package whose inputs hash as recorded
   * and whose files are in the output as recorded is neither generated nor read back (only its
   * package.json, which carries the kept version, is made afresh).
   */
  state?: BuildState;
  tool?: string;
  /** Builds the state file from the committed files' stats and each group package's unit hash. */
  seal?: (stats: FileStats, units: Record<string, string>) => OutputFile;
}
/** Runs every emitter on the model; nothing is written. */
export async function emitAll(
  catalogue: Catalogue,
  outDir: string,
  cache?: EmitCache,
): Promise<OutputFile[] | { emitter: string; error: unknown }> {
  const context = {
    readExisting: (path: string) => readIfExists(join(outDir, path)),
    ...(cache ? { cache } : {}),
  };
  const files: OutputFile[] = [];
  for (const emitter of EMITTERS) {
    try {
      files.push(...(await emitter.emit(catalogue, context)));
    } catch (error) {
      return { emitter: emitter.name, error };
    }
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : 1));
}

/**
 * Loads, emits and commits. Nothing in the output changes unless the whole catalogue loads, every
 * emitter succeeds and every file could be staged; the switch itself is atomic (see write.ts). Each
 * group package is staged as it is generated, so memory does not grow with the output's size.
 */
export async function buildCatalogue(
  sources: CatalogueSourceFile[],
  outDir: string,
  options: BuildCatalogueOptions = {},
): Promise<BuildResult> {
  const loaded = loadCatalogueFromSources(sources);
  if (!loaded.ok) return loaded;
  const { catalogue } = loaded;
  const context = {
    readExisting: (path: string) => readIfExists(join(outDir, path)),
    ...(options.cache ? { cache: options.cache } : {}),
  };
  const staging = startStaging(outDir);
  const units: Record<string, string> = Object.create(null);
  const recorded = options.state && options.tool ? filesByArea(options.state) : undefined;
  let current = '';
  try {
    for (const emitter of EMITTERS) {
      current = emitter.name;
      if (emitter.emit !== emitGroupPackages) {
        await staging.add(await emitter.emit(catalogue, context));
        continue;
      }
      for (const unit of groupPackageUnits(catalogue, context)) {
        const hash = createHash('sha256').update(`${options.tool}\0${unit.key}`).digest('hex');
        units[unit.slug] = hash;
        const kept =
          recorded && options.state!.units?.[unit.slug] === hash ? recorded.get(unit.slug) : undefined;
        const packageJson = unit.packageJson.path;
        if (kept && kept.length > 0 && intact(outDir, options.state!, kept)) {
          staging.keep(kept.filter((path) => path !== packageJson));
          await staging.add([unit.packageJson]);
        } else {
          await staging.add([unit.packageJson, ...(await unit.files())]);
        }
      }
    }
  } catch (error) {
    if (error instanceof WriteFailure) return { ok: false, writeError: error };
    staging.abort();
    return { ok: false, emitterError: { emitter: current, error } };
  }
  try {
    const report = await staging.commit({
      ...(options.previous ? { previous: options.previous } : {}),
      ...(options.seal ? { seal: (stats: FileStats) => options.seal!(stats, sortedUnits(units)) } : {}),
    });
    return { ok: true, catalogue, report };
  } catch (error) {
    if (error instanceof WriteFailure) return { ok: false, writeError: error };
    throw error;
  }
}

/** The recorded output files by top-level folder (a group package's slug). */
function filesByArea(state: BuildState): Map<string, string[]> {
  const areas = new Map<string, string[]>();
  for (const path of Object.keys(state.files)) {
    const slash = path.indexOf('/');
    if (slash <= 0) continue;
    const area = path.slice(0, slash);
    const list = areas.get(area);
    if (list) list.push(path);
    else areas.set(area, [path]);
  }
  return areas;
}

/** Whether each of `paths` is in the output with the size and mtime the state recorded. */
function intact(outDir: string, state: BuildState, paths: readonly string[]): boolean {
  return paths.every((path) => {
    const stat = statSync(join(outDir, path), { throwIfNoEntry: false });
    const expected = state.files[path]!;
    return stat !== undefined && stat.size === expected.size && stat.mtimeMs === expected.mtimeMs;
  });
}

function sortedUnits(units: Record<string, string>): Record<string, string> {
  const sorted: Record<string, string> = Object.create(null);
  for (const slug of Object.keys(units).sort()) sorted[slug] = units[slug]!;
  return sorted;
}

import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { emitJsonSchemasOf, jsonSchemaPath } from '../../emit/json-schema.js';
import { type CatalogueSourceFile, loadCatalogueFromSources } from '../../load/index.js';
import type { Catalogue } from '../../model.js';
import { entryDigest, knownDigests, modelDigest } from '../../model-digest.js';
import { inside, openIfExists, readIfExists } from '../../shared/fs.js';
import type { BuildResult } from '../executor.js';
import { fileSystemSyncer } from '../file-system-sync.js';
import { outputMarkerFile } from '../output-folder.js';
import { openStagedSink } from '../stage-on-thread.js';
import {
  type FileStat,
  type FileStats,
  type Staging,
  startStaging,
  WriteFailure,
  type WriterFile,
} from '../write.js';
import type { BuildCatalogueOptions } from './build-options.js';
import type { FastContext } from './emit-context.js';
import {
  DOCUMENT_EMITTERS,
  likelyEdit,
  openPool,
  POOL_MIN_EVENTS,
  prestartPool,
  runTasks,
  TaskFailure,
  type TaskResult,
} from './emit-lanes.js';
import type { EmitTask } from './emit-pool.js';
import { fastEmitters } from './emitters.js';
import { type GroupPackageUnit, groupPackageUnits } from './group-units.js';
import { type BuildState, STATE_DIR } from './state-file.js';
import { packCatalogue } from './transfer.js';

/** The outcome of a build (never `up-to-date`: deciding that is the fast executor's plan). */
export type { BuildResult } from '../executor.js';

/** Options of `buildCatalogue`. */
export type { BuildCatalogueOptions } from './build-options.js';
/**
 * Loads, emits and commits. Nothing in the output changes unless the whole catalogue loads, every
 * emitter succeeds and every file could be staged; the switch itself is atomic (see write.ts). Each
 * group package is staged as it is generated, so memory does not grow with the output's size. With
 * `workers`, the emitters and the group packages to generate run on a pool of threads (see
 * emit-pool.ts); the output is the same byte for byte, and it is staged here, one batch at a time.
 */
export async function buildCatalogue(
  sources: CatalogueSourceFile[],
  outDir: string,
  options: BuildCatalogueOptions = {},
): Promise<BuildResult> {
  // The shell that syncs a bulk build's staged files, forked while the process is small (see
  // `FileSystemSyncer`). An edit stages too few files to use it (`makeDurable`), and its fork would
  // cost more than the edit saves (decision 0001). A rebuild that turns out to be bulk starts it at
  // its first sync.
  if (!likelyEdit(options)) fileSystemSyncer().start();
  let pool = prestartPool(sources, outDir, options);
  const emitters = fastEmitters(options.off ?? new Set());
  const loaded = loadCatalogueFromSources(sources, options.load);
  if (!loaded.ok) {
    await pool?.close();
    return { kind: 'problems', problems: loaded.problems };
  }
  const { catalogue } = loaded;
  const staging = startStaging(outDir);
  const context: FastContext = {
    readExisting: (path: string) => readIfExists(join(outDir, path)),
    openExisting: (path: string) => openIfExists(join(outDir, path)),
    // The catalogue documents go to the staging folder as they are made, never held whole.
    openSink: (path: string) => openStagedSink(staging.target, path),
    ...(options.cache ? { cache: options.cache } : {}),
  };
  const units: Record<string, string> = Object.create(null);
  const state = options.state && options.tool ? options.state : undefined;
  // Folders untouched since the last build: their per-event files need no stat (see state.ts).
  const untouched = state ? options.untouchedAreas : undefined;
  const tasks: EmitTask[] = [];
  const generated = new Map<string, GroupPackageUnit>();
  // The groups to generate whose units are taken once the tasks run (see the group packages below).
  const later = new Set<string>();
  // The package.json of every group generated (made afresh), staged in one batch while the tasks run.
  // With them, the output folder's marker: the folder is eventry's from the first commit on.
  const packageJsons: WriterFile[] = [outputMarkerFile()];
  // The events whose catalogue schema this build writes when it keeps the others (`keepJsonSchemas`).
  let schemasOf: string[] | undefined;
  /**
   * Each group's unit: its hash recorded, and the group kept as the last build left it when its hash and
   * files are as recorded, else generated (a task, and its package.json made here).
   */
  const takeUnits = (): void => {
    for (const unit of groupPackageUnits(catalogue, context)) {
      const hash = createHash('sha256').update(`${options.tool}\0${unit.key}`).digest('hex');
      units[unit.slug] = hash;
      if (later.has(unit.slug)) {
        generated.set(unit.slug, unit);
        packageJsons.push(unit.packageJson());
        continue;
      }
      const area = state?.units?.[unit.slug] === hash ? state.areas.get(unit.slug) : undefined;
      const recorded = area?.top[unit.packageJsonPath] !== undefined ? area : undefined;
      // In folders untouched since the last build only the files at the package's top are stat'ed, as
      // the no-op check does (state.ts): the per-event files below are trusted to their folders, and
      // kept without being listed (`keepBelow`). Elsewhere every recorded file is stat'ed.
      const whole = recorded && !untouched?.has(unit.slug) ? recorded.files() : undefined;
      if (recorded && !whole && intact(outDir, recorded.top)) {
        staging.keep(Object.keys(recorded.top), recorded.top);
        staging.keepBelow(unit.slug, recorded.belowCount);
      } else if (whole && intact(outDir, whole)) {
        staging.keep(Object.keys(whole), whole);
      } else {
        generated.set(unit.slug, unit);
        tasks.push({ kind: 'group', slug: unit.slug });
        packageJsons.push(unit.packageJson());
      }
    }
  };
  try {
    for (const emitter of emitters) {
      if (emitter.name === 'json-schema') {
        const only = keepJsonSchemas(catalogue, state, untouched, options.tool, units, staging);
        if (only === undefined) tasks.push({ kind: 'emitter', name: emitter.name });
        else if (only.length > 0) schemasOf = only;
        continue;
      }
      if (emitter.name !== 'group-packages') {
        tasks.push({ kind: 'emitter', name: emitter.name });
        continue;
      }
      // No state: every group is generated. With a pool of several threads (all of them started before
      // the load, `prestartPool`) the groups are theirs, and their unit hashes and package.json files
      // are made here while the threads generate (`takeUnits` below), not before: the source hash of
      // each group builds its events' schemas, which would leave the threads idle meanwhile.
      if (state === undefined && pool !== undefined && pool.size > 1) {
        for (const group of catalogue.groups) {
          tasks.push({ kind: 'group', slug: group.slug });
          later.add(group.slug);
        }
        continue;
      }
      takeUnits();
    }
    if (schemasOf) await staging.add(emitJsonSchemasOf(catalogue, schemasOf));
    const minEvents = options.workers?.minEvents ?? POOL_MIN_EVENTS;
    // The work to spread: each event of a group to generate, and each event again for the catalogue
    // documents, which every build that gets this far writes (an edit of one group still writes
    // them, beside that group).
    const documentEvents = Object.keys(catalogue.events).length;
    let groupEvents = 0;
    for (const group of catalogue.groups) {
      if (generated.has(group.slug) || later.has(group.slug)) groupEvents += group.events.length;
    }
    // An edit (few groups to generate) of a catalogue built before with the cache writes its documents
    // here too: they copy every entry the edit left alone (document-text.ts), cheaper than shipping the
    // model to a thread (an incremental load has not even made most events). Generating the edit's
    // groups on a thread meanwhile was slower still (decision 0001): the thread's start and heap
    // cost more than the one group it took off this one.
    const fewGroups = groupEvents < minEvents / 2;
    const documentsCopy =
      state !== undefined && context.cache?.recall !== undefined && !options.off?.has('document-copy');
    const threads =
      options.workers && documentEvents + groupEvents >= minEvents && !(fewGroups && documentsCopy)
        ? options.workers.threads
        : 0;
    if (threads > 0) {
      const packed = packCatalogue(catalogue);
      pool ??= openPool(1, outDir, options, packed.bytes);
      // The digests the group units computed, so that the documents' thread does not compute them again;
      // the staging target, so that each thread stages its own files.
      pool.provide(packed, { digests: knownDigests(catalogue), staging: staging.target });
      // A thread for the groups too when there are enough of them to pay for its start; a few groups
      // (an edit) are generated here, while the documents are written on the pool's thread.
      if (!fewGroups) pool.grow(threads);
    } else {
      await pool?.close();
      pool = undefined;
    }
    const onPool = pool;
    // With one thread (few groups, and documents that cannot copy), it writes the two documents, the
    // longest tasks, and this thread the rest meanwhile; the pool's tasks go first, so that this
    // thread's own work does not hold them back.
    const shared = pool !== undefined && pool.size > 1;
    // Groups left for later run here unless the pool takes them all: their units are needed now.
    if (later.size > 0 && !shared) takeUnits();
    const toPool = (task: EmitTask) =>
      onPool !== undefined && (shared || (task.kind === 'emitter' && DOCUMENT_EMITTERS.has(task.name)));
    tasks.sort((a, b) => Number(toPool(b)) - Number(toPool(a)));
    // On a thread, a task's files are staged there: only their paths and stats come back here.
    const run = async (task: EmitTask): Promise<TaskResult> => {
      if (toPool(task)) return { staged: await onPool!.stage(task) };
      const files =
        task.kind === 'group'
          ? await generated.get(task.slug)!.files()
          : await emitters.find((emitter) => emitter.name === task.name)!.emit(catalogue, context);
      return { files };
    };
    const stage = async (result: TaskResult) =>
      'staged' in result ? staging.addStaged(result.staged) : staging.add(result.files);
    // Two tasks per thread in flight: a thread never waits while this one stages the last result (and
    // one more for the tasks run here). The catalogue-wide tasks run on the first thread only: each gets
    // a lane of its own, or they took every lane at the start and the other threads had no group to
    // take.
    const firstThreadOnly = shared ? tasks.filter((task) => task.kind !== 'group').length : 0;
    const lanes = pool ? 2 * pool.size + (shared ? 0 : 1) + firstThreadOnly : 1;
    await runTasks(tasks, run, stage, lanes, async () => {
      if (later.size > 0 && shared) takeUnits();
      await staging.add(packageJsons);
    });
  } catch (error) {
    // No thread may still be writing into the staging folder when it is discarded.
    await pool?.close();
    staging.abort();
    if (error instanceof WriteFailure) return { kind: 'write-failed', failure: error };
    const failed = error instanceof TaskFailure ? error : undefined;
    const task = failed?.task;
    return {
      kind: 'emitter-failed',
      emitter: task?.kind === 'emitter' ? task.name : 'group-packages',
      error: failed ? failed.cause : error,
    };
  } finally {
    await pool?.close();
  }
  try {
    const report = await staging.commit({
      ...(options.previousAreas ? { previousAreas: options.previousAreas } : {}),
      ...(options.previousFiles ? { previousFiles: options.previousFiles } : {}),
      ...(options.onReaders ? { onReaders: options.onReaders } : {}),
      ...(options.seal
        ? {
            seal: (stats: ReadonlyMap<string, FileStat>, keptBelow: ReadonlySet<string>) =>
              options.seal!(stats, sortedUnits(units), keptBelow),
            sealFolder: STATE_DIR,
          }
        : {}),
      ...(untouched ? { settle: settleable(state!, untouched) } : {}),
    });
    return { kind: 'built', catalogue, report };
  } catch (error) {
    if (error instanceof WriteFailure) return { kind: 'write-failed', failure: error };
    throw error;
  }
}

/**
 * Keeps the catalogue schemas (`catalogue/schemas/<key>.json`) whose inputs are as the last build
 * recorded, and records every event's in `units`: what a schema is built from is its event and the
 * shapes it inlines (all shapes digested together, as the group packages' source hashes do), and the
 * toolkit. As for a kept group's per-event files, a schema is trusted to its folder: only in a
 * `catalogue` folder untouched since the last build (no file made, removed or renamed in it), with the
 * recorded stats. Returns the events whose schema the build must write, or undefined for all of them.
 */
function keepJsonSchemas(
  model: Catalogue,
  state: BuildState | undefined,
  untouched: ReadonlySet<string> | undefined,
  tool: string | undefined,
  units: Record<string, string>,
  staging: Staging,
): string[] | undefined {
  if (tool === undefined) return undefined;
  // A schema depends on its event, the shapes and the toolkit: its unit is the event's digest after one
  // digest of the other two, not one hash of all three per event (see docs/decisions/0004).
  const common = createHash('sha256')
    .update(`${tool}\0schema\0${modelDigest(model.shapes)}`)
    .digest('base64')
    .slice(0, 16);
  const area = untouched?.has('catalogue') ? state?.areas.get('catalogue') : undefined;
  const keys = Object.keys(model.events);
  // Recorded short, as `schema:<key>` (no group slug has a colon) and 132 bits of the event's digest:
  // 10,000 of them are most of the state file an edit reads and writes.
  const unitOf = (key: string) => `schema:${key}`;
  let unchanged = area !== undefined && keys.length > 0;
  for (const key of keys) {
    const hash = `${common}${entryDigest(model.events, key).slice(0, 22)}`;
    units[unitOf(key)] = hash;
    if (state?.units?.[unitOf(key)] !== hash) unchanged = false;
  }
  // Every schema as recorded, and nothing else below the folder's top (which is untouched): the
  // folder is kept whole, and the stats of its 10,000 schemas are not even read.
  if (unchanged && area!.belowCount === keys.length) {
    staging.keepBelow('catalogue', keys.length);
    return [];
  }
  const recorded = area?.below();
  const only: string[] = [];
  const kept: string[] = [];
  for (const key of keys) {
    const path = jsonSchemaPath(key);
    if (recorded?.[path] !== undefined && state?.units?.[unitOf(key)] === units[unitOf(key)]) kept.push(path);
    else only.push(key);
  }
  if (kept.length === 0) return undefined;
  staging.keep(kept, recorded);
  return only;
}

/**
 * The recorded folders with files below their top, none of whose folders changed since the last build:
 * those the commit may find produced exactly as recorded (`CommitOptions.settle`).
 */
function settleable(
  state: BuildState,
  untouched: ReadonlySet<string>,
): Map<string, (files: FileStats) => boolean> {
  const settle = new Map<string, (files: FileStats) => boolean>();
  for (const [name, area] of state.areas) {
    if (untouched.has(name) && area.belowCount > 0) settle.set(name, (files) => area.isBelow(files));
  }
  return settle;
}

/** Whether each of `files` (one group package's) is in the output with the size and time recorded. */
function intact(outDir: string, files: FileStats): boolean {
  for (const path in files) {
    const expected = files[path]!;
    // Not joined (see docs/decisions/0061): an edit checks thousands of files.
    const stat = statSync(inside(outDir, path), { throwIfNoEntry: false });
    if (stat === undefined || stat.size !== expected.size || stat.mtimeMs !== expected.mtimeMs) return false;
  }
  return true;
}

function sortedUnits(units: Record<string, string>): Record<string, string> {
  const sorted: Record<string, string> = Object.create(null);
  for (const slug of Object.keys(units).sort()) sorted[slug] = units[slug]!;
  return sorted;
}

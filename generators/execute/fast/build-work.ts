import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { jsonSchemaPath } from '../../emit/json-schema.js';
import type { Catalogue } from '../../model.js';
import { entryDigest, modelDigest } from '../../model-digest.js';
import { inside } from '../../shared/fs.js';
import type { WriterFile } from '../commit-types.js';
import { outputMarkerFile } from '../output-folder.js';
import type { FileStats, Staging } from '../write.js';
import type { FastContext } from './emit-context.js';
import type { EmitPool, EmitTask } from './emit-pool.js';
import type { NamedFastEmitter } from './emitters.js';
import { type GroupPackageUnit, groupPackageUnits } from './group-units.js';
import type { BuildState } from './state-file.js';

// What a fast build has to do, decided before anything runs (split from build.ts): which emitters
// and group packages become tasks, which group packages and schemas are kept as the output has them.

/** The tasks of one build, and what it keeps and records besides. */
export class BuildWork {
  /** Each group's unit hash (and each event schema's), for the build state. */
  readonly units: Record<string, string> = Object.create(null);
  readonly tasks: EmitTask[] = [];
  /** The group packages to generate, by slug. */
  readonly generated = new Map<string, GroupPackageUnit>();
  /** The groups to generate whose units are taken once the tasks run (see `plan`). */
  readonly later = new Set<string>();
  /**
   * The package.json of every group generated (made afresh), staged in one batch while the tasks run.
   * With them, the output folder's marker: the folder is eventry's from the first commit on.
   */
  readonly packageJsons: WriterFile[] = [outputMarkerFile()];
  /** The events whose catalogue schema this build writes when it keeps the others (`keepJsonSchemas`). */
  schemasOf: string[] | undefined;

  constructor(
    private readonly catalogue: Catalogue,
    private readonly context: FastContext,
    private readonly staging: Staging,
    private readonly outDir: string,
    private readonly tool: string | undefined,
    /** The last build's state, when this build may keep what it recorded. */
    readonly state: BuildState | undefined,
    /** Folders untouched since the last build: their per-event files need no stat (see state.ts). */
    readonly untouched: ReadonlySet<string> | undefined,
  ) {}

  /** Turns `emitters` into tasks, keeping what the output holds as recorded. */
  plan(emitters: readonly NamedFastEmitter[], pool: EmitPool | undefined): void {
    const { catalogue, state } = this;
    for (const emitter of emitters) {
      if (emitter.name === 'json-schema') {
        const only = keepJsonSchemas(catalogue, state, this.untouched, this.tool, this.units, this.staging);
        if (only === undefined) this.tasks.push({ kind: 'emitter', name: emitter.name });
        else if (only.length > 0) this.schemasOf = only;
        continue;
      }
      if (emitter.name !== 'group-packages') {
        this.tasks.push({ kind: 'emitter', name: emitter.name });
        continue;
      }
      // No state: every group is generated. With a pool of several threads (all of them started before
      // the load, `prestartPool`) the groups are theirs, and their unit hashes and package.json files
      // are made while the threads generate (`takeUnits`, later), not before: the source hash of
      // each group builds its events' schemas, which would leave the threads idle meanwhile.
      if (state === undefined && pool !== undefined && pool.size > 1) {
        for (const group of catalogue.groups) {
          this.tasks.push({ kind: 'group', slug: group.slug });
          this.later.add(group.slug);
        }
        continue;
      }
      this.takeUnits();
    }
  }

  /** The events of the groups this build generates. */
  groupEvents(): number {
    let count = 0;
    for (const group of this.catalogue.groups) {
      if (this.generated.has(group.slug) || this.later.has(group.slug)) count += group.events.length;
    }
    return count;
  }

  /**
   * Each group's unit: its hash recorded, and the group kept as the last build left it when its hash and
   * files are as recorded, else generated (a task, and its package.json made here).
   */
  takeUnits(): void {
    const { state, staging } = this;
    for (const unit of groupPackageUnits(this.catalogue, this.context)) {
      const hash = createHash('sha256').update(`${this.tool}\0${unit.key}`).digest('hex');
      this.units[unit.slug] = hash;
      if (this.later.has(unit.slug)) {
        this.generated.set(unit.slug, unit);
        this.packageJsons.push(unit.packageJson());
        continue;
      }
      const area = state?.units?.[unit.slug] === hash ? state.areas.get(unit.slug) : undefined;
      const recorded = area?.top[unit.packageJsonPath] !== undefined ? area : undefined;
      // In folders untouched since the last build only the files at the package's top are stat'ed, as
      // the no-op check does (state.ts): the per-event files below are trusted to their folders, and
      // kept without being listed (`keepBelow`). Elsewhere every recorded file is stat'ed.
      const whole = recorded && !this.untouched?.has(unit.slug) ? recorded.files() : undefined;
      if (recorded && !whole && intact(this.outDir, recorded.top)) {
        staging.keep(Object.keys(recorded.top), recorded.top);
        staging.keepBelow(unit.slug, recorded.belowCount);
      } else if (whole && intact(this.outDir, whole)) {
        staging.keep(Object.keys(whole), whole);
      } else {
        this.generated.set(unit.slug, unit);
        this.tasks.push({ kind: 'group', slug: unit.slug });
        this.packageJsons.push(unit.packageJson());
      }
    }
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

import { checkConfigShape, checkFileShape, modelConfig } from '../../../load/check-shape.js';
import { collectFile, type Definitions } from '../../../load/collect.js';
import { createFieldResolver } from '../../../load/compose.js';
import type { Definition, DefinitionLookup, ResolveContext } from '../../../load/definition.js';
import type { CatalogueProblem } from '../../../load/problem.js';
import { resolveDefinitions } from '../../../load/resolve.js';
import { type CatalogueSourceFile, hashSources } from '../../../load/sources.js';
import type { ParsedFile } from '../../../load/yaml-source.js';
import type { Catalogue, CatalogueConfig, EventVersion, Group, Shape } from '../../../model.js';
import { modelDigest, rememberDigest } from '../../../model-digest.js';
import { baseName, type StoredModel } from './model-snapshot.js';
import { textDigest } from './text-digest.js';

// An edit of a few files of a large catalogue, loaded from what the last load found (`model-snapshot.ts`)
// instead of from every file: the changed files are parsed and checked, and only what they define and
// what builds on it (`same_as`, `extends`, a migration's `from`, followed back to the end) is resolved
// at once. Every other event is as the last load made it: its digest is known, and its object is
// resolved again from its file in one pass, every file through the parse cache. The result is the plain
// model a full load makes, object for object (`incremental.test.ts` holds the two side by side): no
// entry is made when read, so no reader of the model does I/O (see docs/decisions/0101).
// Anything this does not handle (a file added, removed or renamed, a definition added, removed, renamed
// or moved, the settings file changed, a problem anywhere) goes to the full load, which reports every
// problem.

/**
 * How the incremental load parses a file: `parse` without the parse cache (reading its file costs
 * every file's entry), `cached` through it (worth it past `CACHE_AFTER_FILES` files).
 */
export interface IncrementalParse {
  parse(file: CatalogueSourceFile): ParsedFile;
  cached(file: CatalogueSourceFile): ParsedFile;
}

/** Past this share of the files changed, the full load is about as fast and simpler. */
const MAX_CHANGED_SHARE = 0.25;

/** Unchanged files parsed without the parse cache: reading its file costs every file's entry. */
const CACHE_AFTER_FILES = 64;

/**
 * The model of `files` (sorted by path, the allow-list aside) from `stored`, and the snapshot to keep
 * next; undefined when the full load must do it (see the top of this file).
 */
export function loadFromSnapshot(
  files: readonly CatalogueSourceFile[],
  configFile: string,
  stored: StoredModel,
  parsing: IncrementalParse,
): { catalogue: Catalogue; next: StoredModel } | undefined {
  if (files.length !== stored.files.length) return undefined;
  const digests: string[] = [];
  const changed: number[] = [];
  for (let i = 0; i < files.length; i++) {
    const file = files[i]!;
    if (file.path !== stored.files[i] || file.unreadable !== undefined) return undefined;
    const digest = textDigest(file.text);
    digests.push(digest);
    if (digest !== stored.digests[i]) changed.push(i);
  }
  const configAt = stored.files.indexOf(configFile);
  if (!fewChanged(changed, files.length, configAt)) return undefined;
  // The settings, from their unchanged file (a few lines): the snapshot keeps no user-keyed maps.
  const config = readConfig(parsing.parse(files[configAt]!));
  if (config === undefined) return undefined;
  const reloaded = reloadChanged(files, changed, stored, parsing);
  if (!reloaded) return undefined;
  const { groups, resolved } = reloaded;
  const merged = mergeEvents(stored, reloaded);
  if (!merged) return undefined;
  const { events, eventDigests, eventBases } = merged;

  const storedShapes = JSON.parse(stored.shapesJson) as Shape[];
  const shapes: Record<string, Shape> = Object.create(null);
  for (const shape of storedShapes) shapes[shape.name] = resolved.shapes[shape.name] ?? shape;
  const catalogue: Catalogue = {
    config,
    groups,
    shapes,
    events,
    hash: hashSources(files),
  };
  return {
    catalogue,
    next: {
      files: files.map((file) => file.path),
      digests,
      groups,
      shapesJson: JSON.stringify(Object.values(shapes)),
      shapeNames: stored.shapeNames,
      shapeFiles: stored.shapeFiles,
      shapeBases: Object.values(shapes).map(shapeBase),
      eventKeys: stored.eventKeys,
      eventFiles: stored.eventFiles,
      eventDigests,
      eventBases,
    },
  };
}

/** Whether few enough files changed for an incremental load, the settings file (at `configAt`) not one. */
export function fewChanged(changed: readonly number[], files: number, configAt: number): boolean {
  return changed.length <= files * MAX_CHANGED_SHARE && configAt !== -1 && !changed.includes(configAt);
}

/** What an incremental load reads of the last load: its files, and which file defined what. */
export interface LastLoad {
  readonly files: readonly string[];
  readonly groups: readonly Group[];
  readonly shapeNames: readonly string[];
  /** Per shape, the index in `files` of the file that defines it. */
  readonly shapeFiles: Int32Array;
  /** Per shape, what it builds on (`extends`) as a `baseName`, or ''. */
  readonly shapeBases: readonly string[];
  readonly eventKeys: readonly string[];
  readonly eventFiles: Int32Array;
  /** Per event, what it builds on (`same_as`, `extends`) and migrates from, as in `eventBase`. */
  readonly eventBases: readonly string[];
}

/** What `reloadChanged` made: the changed files' definitions resolved again, and a way to the rest. */
export interface Reloaded {
  /** The last load's groups, a changed file's group as that file now defines it. */
  groups: Group[];
  resolved: { shapes: Record<string, Shape>; events: Record<string, EventVersion> };
  /**
   * Unchanged events resolved again from their files, in one pass with every file through the parse
   * cache; undefined when one does not resolve as it did (then the full load must do it).
   */
  resolveRest: (keys: readonly string[]) => Record<string, EventVersion> | undefined;
}

/**
 * The changed files (at `changed` in `files`) parsed and checked, and what they define resolved again
 * with whatever builds on it; an unchanged file is read only when one of its definitions is needed.
 * Undefined when the full load must do it: a changed file with a problem, or one that defines other
 * names than it did.
 */
export function reloadChanged(
  files: readonly CatalogueSourceFile[],
  changed: readonly number[],
  last: LastLoad,
  parsing: IncrementalParse,
): Reloaded | undefined {
  const problems: CatalogueProblem[] = [];
  const defs: Definitions = { groups: new Map(), shapeDefs: new Map(), eventDefs: new Map() };
  const changedPaths = new Set<string>();
  for (const i of changed) {
    const parsed = parsing.parse(files[i]!);
    if (!parsed.source || parsed.problems.length > 0) return undefined;
    if (checkFileShape(parsed.source, 'file').length > 0) return undefined;
    collectFile(parsed.source, defs, problems);
    changedPaths.add(files[i]!.path);
  }
  if (problems.length > 0 || !sameNames(last, changed, defs)) return undefined;

  // What to resolve again: the changed files' definitions, then whatever builds on one of them.
  const affected = new Set<string>();
  for (const def of defs.shapeDefs.values()) affected.add(baseName('shape', def.name));
  for (const def of defs.eventDefs.values()) affected.add(baseName('event', def.name));
  addDependents(last, affected);

  const reader = definitionReader(files, changed, last, parsing, defs, problems);
  const resolve = (events: readonly string[], shapes: readonly string[] = []) =>
    resolveDefinitions(
      reader.ctx,
      shapes.map((name) => reader.ctx.shapeDefs.get(name)!),
      events.map((key) => reader.ctx.eventDefs.get(key)!),
      reader.fieldsOf,
    );
  const resolved = resolve(
    last.eventKeys.filter((key) => affected.has(baseName('event', key))),
    last.shapeNames.filter((name) => affected.has(baseName('shape', name))),
  );
  if (problems.length > 0 || reader.unexpected()) return undefined;
  // The unchanged events: each file was loaded cleanly last time and is unchanged, and nothing they
  // build on changed, so they resolve as they did then.
  const resolveRest = (keys: readonly string[]): Record<string, EventVersion> | undefined => {
    reader.readingAll();
    const made = resolve(keys).events;
    const clean = problems.length === 0 && !reader.unexpected();
    return clean && keys.every((key) => made[key] !== undefined) ? made : undefined;
  };
  const groups = last.groups.map((group) =>
    changedPaths.has(group.source.file) ? (defs.groups.get(group.slug) ?? group) : group,
  );
  return { groups, resolved, resolveRest };
}

/**
 * Definitions looked up by name for `resolveDefinitions`: those of the changed files (in `defs`
 * already), and an unchanged file's read when one of its definitions is first needed.
 */
function definitionReader(
  files: readonly CatalogueSourceFile[],
  changed: readonly number[],
  last: LastLoad,
  parsing: IncrementalParse,
  defs: Definitions,
  problems: CatalogueProblem[],
): {
  ctx: ResolveContext;
  fieldsOf: ReturnType<typeof createFieldResolver>;
  unexpected: () => boolean;
  readingAll: () => void;
} {
  const read = new Set<number>(changed);
  let unexpected = false;
  // Set when every unchanged event is to be resolved: then most files will be read.
  let readingAll = false;
  const readFile = (i: number) => {
    if (read.has(i)) return;
    read.add(i);
    // A few files are parsed; past them (a load that reads many unchanged events) the parse cache
    // pays for reading its file.
    const cached = readingAll || read.size - changed.length > CACHE_AFTER_FILES;
    const parsed = cached ? parsing.cached(files[i]!) : parsing.parse(files[i]!);
    if (!parsed.source || parsed.problems.length > 0) unexpected = true;
    else collectFile(parsed.source, defs, problems);
  };
  const lookup = <D extends Definition>(
    found: ReadonlyMap<string, D>,
    index: ReadonlyMap<string, number>,
    fileOf: Int32Array,
  ): DefinitionLookup<D> => ({
    get(name) {
      const known = found.get(name);
      if (known !== undefined) return known;
      const at = index.get(name);
      if (at === undefined) return undefined;
      readFile(fileOf[at]!);
      return found.get(name);
    },
    has: (name) => index.has(name),
    keys: () => index.keys(),
  });
  const ctx: ResolveContext = {
    shapeDefs: lookup(defs.shapeDefs, indexOf(last.shapeNames), last.shapeFiles),
    eventDefs: lookup(defs.eventDefs, indexOf(last.eventKeys), last.eventFiles),
    problems,
    incomplete: false,
  };
  return {
    ctx,
    fieldsOf: createFieldResolver(ctx),
    unexpected: () => unexpected,
    readingAll: () => {
      readingAll = true;
    },
  };
}

/** The snapshot of a model a full load made from `files` (sorted, the allow-list aside). */
export function snapshotOf(model: Catalogue, files: readonly CatalogueSourceFile[]): StoredModel {
  const fileIndex = indexOf(files.map((file) => file.path));
  const shapes = Object.values(model.shapes);
  const eventKeys = Object.keys(model.events);
  const eventFiles = new Int32Array(eventKeys.length);
  const eventDigests: string[] = [];
  const eventBases: string[] = [];
  eventKeys.forEach((key, i) => {
    const event = model.events[key]!;
    // What the build's `modelDigest` computes; remembered, so that it is not computed again.
    const digest = modelDigest(event);
    eventFiles[i] = fileIndex.get(event.source.file) ?? -1;
    eventDigests.push(digest);
    eventBases.push(eventBase(event));
  });
  return {
    files: files.map((file) => file.path),
    digests: files.map((file) => textDigest(file.text)),
    groups: model.groups,
    shapesJson: JSON.stringify(shapes),
    shapeNames: shapes.map((shape) => shape.name),
    shapeFiles: Int32Array.from(shapes, (shape) => fileIndex.get(shape.source.file) ?? -1),
    shapeBases: shapes.map(shapeBase),
    eventKeys,
    eventFiles,
    eventDigests,
    eventBases,
  };
}

/** The settings from their file, or undefined when they do not load cleanly (then the full load says why). */
function readConfig(parsed: ParsedFile): CatalogueConfig | undefined {
  if (!parsed.source || parsed.problems.length > 0) return undefined;
  const checked = checkConfigShape(parsed.source);
  return checked.problems.length > 0 || !checked.config ? undefined : modelConfig(checked.config);
}

/**
 * Whether each changed file defines the shapes, the group and the events it defined, in the same order:
 * then every name lookup, duplicate and type-name check comes out as in the last load.
 */
function sameNames(stored: LastLoad, changed: readonly number[], defs: Definitions): boolean {
  for (const i of changed) {
    const path = stored.files[i]!;
    const shapes = stored.shapeNames.filter((_, at) => stored.shapeFiles[at] === i);
    const found = [...defs.shapeDefs.values()]
      .filter((def) => def.source.file === path)
      .map((def) => def.name);
    if (!sameList(shapes, found)) return false;
    const group = stored.groups.find((candidate) => candidate.source.file === path);
    const foundGroup = [...defs.groups.values()].find((candidate) => candidate.source.file === path);
    if (group?.slug !== foundGroup?.slug) return false;
    const events = stored.eventKeys.filter((_, at) => stored.eventFiles[at] === i);
    if (!sameList(events, foundGroup?.events ?? [])) return false;
  }
  return true;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}

/** Adds to `affected` every definition that builds on one in it, directly or through others. */
function addDependents(stored: LastLoad, affected: Set<string>): void {
  const dependents = new Map<string, string[]>();
  const note = (bases: string, name: string) => {
    if (bases === '') return;
    for (const base of bases.split(BASES_SEPARATOR)) {
      const list = dependents.get(base);
      if (list) list.push(name);
      else dependents.set(base, [name]);
    }
  };
  stored.shapeNames.forEach((name, i) => {
    note(stored.shapeBases[i]!, baseName('shape', name));
  });
  stored.eventKeys.forEach((key, i) => {
    note(stored.eventBases[i]!, baseName('event', key));
  });
  const pending = [...affected];
  while (pending.length > 0) {
    for (const dependent of dependents.get(pending.pop()!) ?? []) {
      if (affected.has(dependent)) continue;
      affected.add(dependent);
      pending.push(dependent);
    }
  }
}

/**
 * The events record, plain: those resolved again, and the others resolved in one pass (`resolveRest`)
 * with the digests they had; and the snapshot's columns for them. Undefined when one of the others
 * does not resolve as it did.
 */
function mergeEvents(
  stored: StoredModel,
  { resolved, resolveRest }: Reloaded,
): { events: Record<string, EventVersion>; eventDigests: string[]; eventBases: string[] } | undefined {
  const rest = stored.eventKeys.filter((key) => resolved.events[key] === undefined);
  const made = rest.length > 0 ? resolveRest(rest) : {};
  if (made === undefined) return undefined;
  const events: Record<string, EventVersion> = Object.create(null);
  const eventDigests: string[] = [];
  const eventBases: string[] = [];
  stored.eventKeys.forEach((key, i) => {
    const again = resolved.events[key];
    if (again !== undefined) {
      events[key] = again;
      eventDigests.push(modelDigest(again));
      eventBases.push(eventBase(again));
      return;
    }
    const event = made[key]!;
    // Resolved from an unchanged file as the last load did: its digest is the one it had.
    rememberDigest(event, stored.eventDigests[i]!);
    events[key] = event;
    eventDigests.push(stored.eventDigests[i]!);
    eventBases.push(stored.eventBases[i]!);
  });
  return { events, eventDigests, eventBases };
}

/**
 * What an event builds on (`same_as`, `extends`) and the version its migrations read (`upgrade.from`:
 * they are checked against its fields), each a `baseName`, joined by `BASES_SEPARATOR`; or ''.
 */
export function eventBase(event: EventVersion): string {
  const composition = event.composition;
  const bases: string[] = [];
  if (composition.kind === 'same_as') bases.push(baseName('event', composition.of));
  if (composition.kind === 'extends') bases.push(baseName(composition.ofKind, composition.of));
  if (event.upgrade !== undefined) bases.push(baseName('event', event.upgrade.from));
  return bases.join(BASES_SEPARATOR);
}

/** Between the bases of one event in `eventBase` (no name has a line break). */
const BASES_SEPARATOR = '\n';

/** What a shape builds on (`extends`) as a `baseName`, or ''. */
export function shapeBase(shape: Shape): string {
  return shape.extends === undefined ? '' : baseName('shape', shape.extends);
}

/** Each name's index in `names`. */
export function indexOf(names: readonly string[]): Map<string, number> {
  return new Map(names.map((name, i) => [name, i]));
}

import type { CatalogueSourceFile } from '../../../load/sources.js';
import { hashSources } from '../../../load/sources.js';
import type { Catalogue, EventVersion, Shape } from '../../../model.js';
import {
  eventBase,
  fewChanged,
  type IncrementalParse,
  indexOf,
  type LastLoad,
  reloadChanged,
  shapeBase,
} from './incremental.js';

// The other side of a diff, loaded beside the first: what the files that differ define is resolved
// again with what builds on it (`incremental.ts`), and every other definition is the first's object.

/**
 * The model of `files` (sorted by path, the allow-list aside) from the model of another catalogue that
 * differs from it in a few files (`base`, loaded whole from `base.files`, sorted so too): the other side
 * of a diff. What the changed files define, and what builds on it, is resolved again; every other
 * definition is the base's own object, as a full load would make it. Undefined when the full load must
 * do it (see the top of `incremental.ts`).
 */
export function loadBeside(
  files: readonly CatalogueSourceFile[],
  configFile: string,
  base: { readonly files: readonly CatalogueSourceFile[]; readonly catalogue: Catalogue },
  parsing: IncrementalParse,
): Catalogue | undefined {
  if (files.length !== base.files.length) return undefined;
  const changed: number[] = [];
  for (let i = 0; i < files.length; i++) {
    const file = files[i]!;
    const before = base.files[i]!;
    if (file.path !== before.path || file.unreadable !== undefined || before.unreadable !== undefined)
      return undefined;
    if (file.text !== before.text) changed.push(i);
  }
  if (
    !fewChanged(
      changed,
      files.length,
      files.findIndex((file) => file.path === configFile),
    )
  )
    return undefined;
  const model = base.catalogue;
  const last = lastLoadOf(model, base.files);
  if (!last) return undefined;
  const reloaded = reloadChanged(files, changed, last, parsing);
  if (!reloaded) return undefined;
  const { groups, resolved } = reloaded;
  const shapes: Record<string, Shape> = Object.create(null);
  for (const name of last.shapeNames) shapes[name] = resolved.shapes[name] ?? model.shapes[name]!;
  const events: Record<string, EventVersion> = Object.create(null);
  for (const key of last.eventKeys) events[key] = resolved.events[key] ?? model.events[key]!;
  return { config: model.config, groups, shapes, events, hash: hashSources(files) };
}

/** The columns of a model loaded whole from `files`; undefined if a definition names no such file. */
function lastLoadOf(model: Catalogue, files: readonly CatalogueSourceFile[]): LastLoad | undefined {
  const fileIndex = indexOf(files.map((file) => file.path));
  const shapes = Object.values(model.shapes);
  const eventKeys = Object.keys(model.events);
  const shapeFiles = Int32Array.from(shapes, (shape) => fileIndex.get(shape.source.file) ?? -1);
  const eventFiles = Int32Array.from(eventKeys, (key) => fileIndex.get(model.events[key]!.source.file) ?? -1);
  if (shapeFiles.includes(-1) || eventFiles.includes(-1)) return undefined;
  return {
    files: files.map((file) => file.path),
    groups: model.groups,
    shapeNames: shapes.map((shape) => shape.name),
    shapeFiles,
    shapeBases: shapes.map(shapeBase),
    eventKeys,
    eventFiles,
    eventBases: eventKeys.map((key) => eventBase(model.events[key]!)),
  };
}

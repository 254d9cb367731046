import type { Catalogue } from '../model.js';
import { directorySource } from './folder.js';
import { gitSource } from './git.js';
import { npmSource } from './npm-package.js';
import { openApiSource } from './openapi.js';
import {
  type ResolvedSource,
  type SourceKind,
  type SourceOptions,
  type SourceResult,
  unknownSpec,
} from './source.js';

export type { ResolvedSource, SourceOptions, SourceResult } from './source.js';

// The catalogue inputs `diff`, `check` and `version` compare: a git ref (`git.ts`), a folder
// (`folder.ts`), an OpenAPI document (`openapi.ts`), a published npm package (`npm-package.ts`). This
// file is the dispatcher that picks the kind for a spec.

/**
 * The part of a catalogue that holds only the given groups (their events; shapes stay, they are looked
 * up by name). When one side of a diff covers only some groups (a published package covers one), the
 * other side is compared on those groups alone: the rest is not "added", it is simply elsewhere.
 */
export function restrictToGroups(catalogue: Catalogue, slugs: readonly string[]): Catalogue {
  const keep = new Set(slugs);
  return {
    ...catalogue,
    groups: catalogue.groups.filter((group) => keep.has(group.slug)),
    events: Object.fromEntries(Object.entries(catalogue.events).filter(([, event]) => keep.has(event.group))),
  };
}

/** Both sides of a diff on the groups they both cover (unchanged when neither is restricted). */
export function alignSources<T extends Pick<ResolvedSource, 'catalogue' | 'groups'>>(
  before: T,
  after: T,
): [T, T] {
  const slugs = before.groups ?? after.groups;
  if (!slugs) return [before, after];
  const only = after.groups ? slugs.filter((slug) => after.groups!.includes(slug)) : slugs;
  return [
    { ...before, catalogue: restrictToGroups(before.catalogue, only) },
    { ...after, catalogue: restrictToGroups(after.catalogue, only) },
  ];
}

/** The kinds, in the order they are tried: explicit prefixes first, then paths, then git refs. */
const SOURCE_KINDS: readonly SourceKind[] = [npmSource, directorySource, openApiSource, gitSource];

/** Resolves OLD or NEW: `npm:…`, a directory, an OpenAPI document, or a git ref, in that order. */
export function resolveSource(spec: string, options: SourceOptions): SourceResult {
  const kind = SOURCE_KINDS.find((candidate) => candidate.claims(spec, options));
  if (!kind) return { ok: false, reason: 'usage', message: unknownSpec(spec) };
  return kind.resolve(spec, options);
}

/**
 * Resolves OLD and NEW one after the other, with the same load options: the caller's accelerator
 * (`LoadOptions.accelerator`) sees both loads, so it may parse a file both sides hold alike once and
 * start NEW from OLD's model.
 */
export function resolveSourcePair(
  old: string,
  now: string,
  options: SourceOptions,
): [SourceResult, SourceResult] {
  return [resolveSource(old, options), resolveSource(now, options)];
}

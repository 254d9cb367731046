import type { Catalogue, Migration } from '../model.js';

// Which migrations take a payload of one event version to another (issue 46): the upgrades and
// downgrades the model declares, as edges between versions of one event type. Read by the surfaces that
// convert a payload for the user (the CLI's `upcast`, the MCP tool) or name a conversion (the gate);
// see docs/decisions/0185.

/** One migration step between two versions, as an edge: an `upgrade` or a `downgrade`. */
export interface MigrationEdge {
  direction: 'upgrade' | 'downgrade';
  migration: Migration;
}

/** Every migration the model declares, by the key its payloads come from. */
function edgesFrom(model: Catalogue, upgradesOnly: boolean): Map<string, MigrationEdge[]> {
  const edges = new Map<string, MigrationEdge[]>();
  const add = (edge: MigrationEdge) => {
    const list = edges.get(edge.migration.from);
    if (list) list.push(edge);
    else edges.set(edge.migration.from, [edge]);
  };
  for (const key of Object.keys(model.events).sort()) {
    const event = model.events[key];
    if (event?.upgrade) add({ direction: 'upgrade', migration: event.upgrade });
    if (event?.downgrade && !upgradesOnly) add({ direction: 'downgrade', migration: event.downgrade });
  }
  return edges;
}

/**
 * The migrations, in order, that take a payload of `from` to one of `to` (upgrades and downgrades, the
 * fewest steps between versions); `[]` when they are the same key; undefined when the model declares
 * no way between them.
 */
export function migrationPath(model: Catalogue, from: string, to: string): MigrationEdge[] | undefined {
  if (from === to) return [];
  const edges = edgesFrom(model, false);
  const reached = new Map<string, MigrationEdge[]>([[from, []]]);
  const queue = [from];
  for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
    for (const edge of edges.get(key) ?? []) {
      const next = edge.migration.to;
      if (reached.has(next)) continue;
      const path = [...(reached.get(key) ?? []), edge];
      if (next === to) return path;
      reached.set(next, path);
      queue.push(next);
    }
  }
  return undefined;
}

/** `v2` before `v10`, `1.2.0` before `1.10.0`: the order of versions of one event type. */
function byVersion(model: Catalogue): (a: string, b: string) => number {
  const version = (key: string) => model.events[key]?.version ?? key;
  return (a, b) => version(a).localeCompare(version(b), 'en', { numeric: true });
}

/**
 * The newest version a payload of `from` reaches by upgrades alone (chained across versions), the
 * default target of `upcast`; undefined when no version upgrades from it.
 */
export function upcastTarget(model: Catalogue, from: string): string | undefined {
  const edges = edgesFrom(model, true);
  const reached = new Set<string>();
  const queue = [from];
  for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
    for (const edge of edges.get(key) ?? []) {
      const next = edge.migration.to;
      if (next === from || reached.has(next)) continue;
      reached.add(next);
      queue.push(next);
    }
  }
  return [...reached].sort(byVersion(model)).at(-1);
}

import type { EventVersion, FieldType, Shape } from '../model.js';

/** Every dot path of an event version's payload, as consumers name them (`lines[].amount`). */
export interface FieldPaths {
  paths: ReadonlySet<string>;
  /** Paths of free objects (`object`), under which any key may appear; `''` for an open (partial) event. */
  open: readonly string[];
}

const memo = new WeakMap<EventVersion, FieldPaths>();

/** The field paths of `event`, its named shapes expanded (a shape that contains itself is walked once). */
export function fieldPathsOf(event: EventVersion, shapes: Readonly<Record<string, Shape>>): FieldPaths {
  let found = memo.get(event);
  if (found) return found;
  const paths = new Set<string>();
  const open: string[] = event.partial !== undefined ? [''] : [];
  const walk = (fields: EventVersion['fields'], prefix: string, stack: readonly string[]): void => {
    for (const field of fields) {
      let path = prefix ? `${prefix}.${field.name}` : field.name;
      paths.add(path);
      let type: FieldType = field.type;
      while (type.kind === 'array') {
        path += '[]';
        paths.add(path);
        type = type.items;
      }
      if (type.kind === 'object') open.push(path);
      if (type.kind === 'shape' && !stack.includes(type.name)) {
        const shape = shapes[type.name];
        if (shape) walk(shape.fields, path, [...stack, type.name]);
      }
    }
  };
  walk(event.fields, '', []);
  found = { paths, open };
  memo.set(event, found);
  return found;
}

/** Whether a declared path (`lines[].amount`, `meta.*`, `*`) names something of the payload. */
export function hasFieldPath(declared: string, fields: FieldPaths): boolean {
  if (declared === '*') return true;
  const path = declared.endsWith('.*') ? declared.slice(0, -2) : declared;
  if (fields.paths.has(path)) return true;
  return fields.open.some((prefix) => prefix === '' || path.startsWith(`${prefix}.`));
}

/** How a path a consumer reads relates to a path a change is at (see `relatePaths`). */
export type PathRelation = 'same' | 'inside-changed' | 'covers-changed' | 'wildcard' | 'none';

/**
 * How a declared path relates to a changed one: the same field; inside it (`lines[].amount` when
 * `lines` changed); covering it without naming it (`lines` when `lines[].amount` changed); through a
 * wildcard (`lines.*`, `*`); or unrelated.
 */
export function relatePaths(declared: string, changed: string): PathRelation {
  if (declared === '*') return 'wildcard';
  const wildcard = declared.endsWith('.*');
  const path = wildcard ? declared.slice(0, -2) : declared;
  const bare = (text: string) => text.replace(/\[\]/g, '');
  if (!wildcard && path === changed) return 'same';
  if (path === changed || isUnder(path, changed, bare)) return 'inside-changed';
  if (isUnder(changed, path, bare)) return wildcard ? 'wildcard' : 'covers-changed';
  return 'none';
}

function isUnder(path: string, ancestor: string, bare: (text: string) => string): boolean {
  if (bare(path) === bare(ancestor)) return path !== ancestor;
  return path.startsWith(`${ancestor}.`) || path.startsWith(`${ancestor}[]`);
}

import { _, type Code, type Name } from 'ajv/dist/compile/codegen/index.js';

/**
 * Where a value is in the payload, as the generated code builds its dot path (the platform's `attr`,
 * each part led by a `.`): the function's `instancePath`, then for each array the value is inside
 * the fixed text before the index and the index variable, then fixed text. Keys are quoted at build
 * time as the run time's `toDotPath` quotes them.
 */
export interface Path {
  base: Name;
  index: { before: string; i: Name }[];
  suffix: string;
  /** What the last part is: none (the function's own value), a key or an array index. */
  last: 'root' | 'key' | 'index';
  /** Whether `base` is the payload itself (`""`): in the event's own function, never in a shape's. */
  atPayload: boolean;
}

/** The path of a function's own value; `atPayload` in the event's own function (see `Path`). */
export function rootPath(base: Name, atPayload = false): Path {
  return { base, index: [], suffix: '', last: 'root', atPayload };
}

/** The path of field `name` of the object at `path`. */
export function keyPath(path: Path, name: string): Path {
  return { ...path, suffix: `${path.suffix}.${fixedKey(name)}`, last: 'key' };
}

/** The path of the item at index `i` of the array at `path`. */
export function indexPath(path: Path, i: Name): Path {
  return { ...path, index: [...path.index, { before: path.suffix, i }], suffix: '', last: 'index' };
}

/** The code that builds the path's text. */
export function pathExpression(path: Path): Code {
  let code: Code = path.base;
  for (const { before, i } of path.index) code = _`${code}+${`${before}.`}+${i}`;
  return path.suffix === '' ? code : _`${code}+${path.suffix}`;
}

/**
 * A path's two parts for the run's methods, with `more` (a literal) after it: the function's own
 * `instancePath` and the rest as one literal; a path through an array index is all in the first.
 */
export function pathParts(path: Path, more: string): { prefix: Code; suffix: string } {
  if (path.index.length === 0) return { prefix: path.base, suffix: path.suffix + more };
  const whole = pathExpression({ ...path, suffix: path.suffix + more });
  return { prefix: whole, suffix: '' };
}

/**
 * The dot path (`attr`) of `path` with `more` after it, when it is known as the code is written: a path
 * from the payload itself through no array index. Its error's item is then a literal.
 */
export function fixedAttr(path: Path, more: string): string | undefined {
  return path.atPayload && path.index.length === 0 ? (path.suffix + more).slice(1) : undefined;
}

/** One key of a dot path, quoted when it would otherwise read as something else (as `toDotPath` does). */
function fixedKey(name: string): string {
  return name === '' || name.includes('.') || name.startsWith('"') ? JSON.stringify(name) : name;
}

/** A missing field's key: as `fixedKey`, and an all-digit name quoted (the run time's `joinPath`). */
export function missingKey(name: string): string {
  return /^\d+$/.test(name) ? JSON.stringify(name) : fixedKey(name);
}

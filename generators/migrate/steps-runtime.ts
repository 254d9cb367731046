/**
 * The helpers compiled migrations call (their source text is put once at the top of a module, as the CEL
 * helpers are): plain functions over JSON values, with no imports, so that `toString()` gives code that
 * runs as it is in a package, a browser or `new Function`. The semantics are decision 0160's.
 */

/** A deep copy of a JSON value: objects and arrays are new, own keys only (`__proto__` kept as a key). */
function migCopy(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(migCopy);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) migPut(copy, key, migCopy((value as Record<string, unknown>)[key]));
  return copy;
}

/** Sets an own key, `__proto__` included, without touching the prototype. */
function migPut(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** Whether `value` is a plain JSON object (not an array, not null). */
function migIsObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The object at `path` in `root`, each missing (or non-object) one on the way made `{}`. */
function migParent(root: Record<string, unknown>, path: readonly string[]): Record<string, unknown> {
  let at = root;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i]!;
    const next = Object.hasOwn(at, key) ? at[key] : undefined;
    if (migIsObject(next)) at = next;
    else {
      const made: Record<string, unknown> = {};
      migPut(at, key, made);
      at = made;
    }
  }
  return at;
}

/** The object holding the last key of `path`, or undefined when a field on the way is absent. */
function migFind(root: unknown, path: readonly string[]): Record<string, unknown> | undefined {
  let at = root;
  for (let i = 0; i < path.length - 1; i++) {
    if (!migIsObject(at) || !Object.hasOwn(at, path[i]!)) return undefined;
    at = at[path[i]!];
  }
  return migIsObject(at) && Object.hasOwn(at, path[path.length - 1]!) ? at : undefined;
}

/** `set`: the field at `path` becomes `value`, parents created. */
function migSet(root: Record<string, unknown>, path: readonly string[], value: unknown): void {
  migPut(migParent(root, path), path[path.length - 1]!, value);
}

/** `rename`: a present `from` moves to `to` (parents created); an absent one changes nothing. */
function migRename(root: Record<string, unknown>, from: readonly string[], to: readonly string[]): void {
  const holder = migFind(root, from);
  if (holder === undefined) return;
  const key = from[from.length - 1]!;
  const value = holder[key];
  delete holder[key];
  migSet(root, to, value);
}

/** `drop`: the field at `path` is removed when present. */
function migDrop(root: Record<string, unknown>, path: readonly string[]): void {
  const holder = migFind(root, path);
  if (holder !== undefined) delete holder[path[path.length - 1]!];
}

/**
 * A CEL value as JSON: an int (BigInt) becomes a number, a timestamp (`[seconds, nanos]`) its RFC 3339
 * text, lists and objects are copied (the result never shares a value with the input payload).
 */
function migJson(value: unknown, kind: string): unknown {
  if (typeof value === 'bigint') {
    const number = Number(value);
    if (!Number.isSafeInteger(number)) throw new RangeError('int out of the range a JSON number holds');
    return number;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) throw new RangeError(`${value} is not JSON`);
  if (kind === 'timestamp' && Array.isArray(value)) {
    const [seconds, nanos] = value as [number, number];
    const text = new Date(seconds * 1000).toISOString().slice(0, 19);
    const fraction = nanos === 0 ? '' : `.${String(nanos).padStart(9, '0').replace(/0+$/, '')}`;
    return `${text}${fraction}Z`;
  }
  if (Array.isArray(value))
    return value.map((item) => migJson(item, kind === 'list-timestamp' ? 'timestamp' : ''));
  return migCopy(value);
}

/** The helpers, in the order their source is written (each may call those before it). */
export const MIGRATION_HELPERS = [
  migCopy,
  migPut,
  migIsObject,
  migParent,
  migFind,
  migSet,
  migRename,
  migDrop,
  migJson,
] as const;

/** The source text of every helper, for a module of compiled migrations. */
export function migrationHelperSource(): string {
  return MIGRATION_HELPERS.map((helper) => helper.toString()).join('\n');
}

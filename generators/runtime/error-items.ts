import { suggest } from './suggest.js';
import type { AjvError, ErrorItem, Failure } from './types.js';

/**
 * Maps ajv errors (all-errors run of the strict schema) to the platform's error items: what a payload's
 * validation lists, but without the cap on their number.
 */
export function toErrorItems(
  ajvErrors: readonly AjvError[],
  payload: unknown,
  tolerant: boolean,
): ErrorItem[] {
  const items: ErrorItem[] = [];
  for (const error of ajvErrors) {
    const keyword = error.keyword;
    if (keyword === 'additionalProperties' && tolerant) continue;
    // A value of the wrong type also fails its enum: that is one problem, already reported.
    if (keyword === 'enum' && hasTypeError(ajvErrors, error.instancePath)) continue;
    items.push(toErrorItem(error, payload, toDotPath(error.instancePath)));
  }
  return items;
}

/**
 * One platform item from an ajv error at `path` (the platform's dot path of its `instancePath`). The
 * generated all-errors code gives each error its value (`data`) and, for a `type` error, whether it is an
 * array item (`item`); errors without them (ajv at run time) are looked up in `payload`.
 */
export function toErrorItem(error: AjvError, payload: unknown, path: string): ErrorItem {
  switch (error.keyword) {
    case 'required':
      return requiredItem(joinPath(path, error.params.missingProperty));
    case 'additionalProperties':
      return unknownItem(joinPath(path, error.params.additionalProperty));
    case 'type': {
      if ('data' in error) return typeItem(path, error.params.type, error.data, error.item ?? false);
      const found = valueAt(payload, error.instancePath);
      if (found === undefined) {
        return {
          detail: `${subject(path)} must be ${typeName(error.params.type)}.`,
          code: 'invalid_type',
          attr: path,
        };
      }
      const item = found.value === null && isArrayItem(payload, error.instancePath);
      return typeItem(path, error.params.type, found.value, item);
    }
    case 'format': {
      const format = error.params.format;
      return {
        detail: `${subject(path)} must be ${FORMATS[format] ?? `in format \`${format}\``}.`,
        code: 'invalid_format',
        attr: path,
      };
    }
    case 'enum':
      return {
        detail: `${subject(path)} must be one of ${error.params.allowedValues.map((v: unknown) => JSON.stringify(v)).join(', ')}.`,
        code: 'invalid_value',
        attr: path,
      };
    default:
      return {
        detail: `${subject(path)} is not valid (${error.keyword}).`,
        code: 'invalid_value',
        attr: path,
      };
  }
}

function hasTypeError(ajvErrors: readonly AjvError[], instancePath: string): boolean {
  for (const error of ajvErrors) {
    if (error.keyword === 'type' && error.instancePath === instancePath) return true;
  }
  return false;
}

/**
 * An ajv instance path (JSON Pointer) as the platform's dot path: `/a/0/b~1c` -> `a.0.b/c`. A key that
 * is empty, contains a `.` or starts with `"` is written as a JSON string (`meta."a.b"`, `""`), so the
 * path stays unambiguous; numeric parts are array indexes.
 */
export function toDotPath(pointer: string): string {
  if (pointer === '') return '';
  if (!NEEDS_CARE.test(pointer)) {
    // A top-level field, the most common case, needs no replacement.
    return pointer.indexOf('/', 1) === -1 ? pointer.slice(1) : pointer.slice(1).replaceAll('/', '.');
  }
  return pointerParts(pointer).map(attrPart).join('.');
}

/** What a pointer needs beyond `/` -> `.`: escapes, dots, quotes, empty keys. */
const NEEDS_CARE = /[~."]|\/\/|\/$/;

/** One key of a dot path, quoted when it would otherwise read as something else. */
function attrPart(key: string): string {
  return key === '' || key.includes('.') || key.startsWith('"') ? JSON.stringify(key) : key;
}

function pointerParts(pointer: string): string[] {
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
}

const FORMATS: Record<string, string> = {
  date: 'a date (YYYY-MM-DD)',
  'date-time': 'a date-time (ISO 8601, e.g. 2024-01-31T12:00:00Z)',
};

const TYPES: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
};

/** The platform's body for a key that is not an event of the package, with the likely intended key. */
export function unknownEvent(packageName: string, key: unknown, eventKeys: readonly string[]): Failure {
  const guess = typeof key === 'string' ? suggest(key, eventKeys) : undefined;
  return {
    valid: false,
    error: {
      detail: `\`${describeKey(key)}\` is not an event of ${packageName}.${guess === undefined ? '' : ` Did you mean \`${guess}\`?`}`,
      code: 'unknown_event',
      errors: [],
    },
  };
}

/** The item of a payload whose reading threw (a getter, a proxy). */
export function unreadable(error: unknown): ErrorItem {
  let reason: string;
  try {
    reason = error instanceof Error ? `${error.name}: ${error.message}` : typeof error;
  } catch {
    reason = 'unknown error';
  }
  return { detail: `The payload could not be read (${reason}).`, code: 'unreadable_payload', attr: '' };
}

/** An event key as a message names it: a key that is not a string is told by its type. */
export function describeKey(key: unknown): string {
  return typeof key === 'string' ? key : `(a ${typeof key})`;
}

/** A field's dot path below `path`; an all-digit field name is quoted, as it is a key, not an index. */
export function joinPath(path: string, name: string): string {
  const part = isPlainKey(name) ? name : JSON.stringify(name);
  return path === '' ? part : `${path}.${part}`;
}

/**
 * Whether a field name stands in a dot path as it is: not empty, not all digits, no `.`, no leading
 * `"` (unknown fields are named by the payload: most start with a letter, so the digit test is rare).
 */
function isPlainKey(name: string): boolean {
  const first = name.charCodeAt(0);
  if (first >= 48 && first <= 57) return !ALL_DIGITS.test(name) && !name.includes('.');
  return first !== 34 && name.length !== 0 && !name.includes('.');
}

const ALL_DIGITS = /^\d+$/;

function subject(path: string): string {
  return path === '' ? 'The payload' : `\`${path}\``;
}

/** How many texts a memo keeps: few are ever made (by type, by kind of value), but no input grows it past this. */
const MEMO_LIMIT = 4096;

/** The item of a missing required field at `attr`. */
export function requiredItem(attr: string): ErrorItem {
  return { detail: `\`${attr}\` is required but missing.`, code: 'required', attr };
}

/** The item of an undocumented field at `attr`. */
export function unknownItem(attr: string): ErrorItem {
  return {
    detail: `\`${attr}\` is not a documented field; only documented fields may be sent.`,
    code: 'unknown_field',
    attr,
  };
}

function typeName(type: string): string {
  return TYPES[type] ?? type;
}

/** The item of a value of the wrong type at `attr` (`item`: the value is an array item). */
export function typeItem(attr: string, type: string, value: unknown, item: boolean): ErrorItem {
  return typeItemOf(attr, type, foundValue(attr !== '', value, item));
}

/** The item of a value of the wrong type at `attr`, of the kind `found` (see `foundValue`). */
export function typeItemOf(attr: string, type: string, found: string): ErrorItem {
  return { detail: subject(attr) + typeText(found, type), code: 'invalid_type', attr };
}

/**
 * What a type error found: the kind of value, with a null field or item apart from a null payload
 * (each has its own advice; see `typeText`).
 */
export function foundValue(field: boolean, value: unknown, item: boolean): string {
  return value === null && field ? (item ? 'null item' : 'null field') : describeValue(value);
}

/** What a type error's detail says after its subject, by wanted type, then by value: a few dozen texts. */
const TYPE_TEXTS = new Map<string, Map<string, string>>();

function typeText(found: string, type: string): string {
  let texts = TYPE_TEXTS.get(type);
  if (texts === undefined) {
    texts = new Map();
    if (TYPE_TEXTS.size < MEMO_LIMIT) TYPE_TEXTS.set(type, texts);
  }
  let text = texts.get(found);
  if (text === undefined) {
    const want = typeName(type);
    text =
      found === 'null item'
        ? ` must be ${want}, not null; an array holds no null items.`
        : found === 'null field'
          ? // The run time does not know whether the field is required, so the advice covers both cases.
            ` must be ${want}, not null; null is never a value here: a required field needs ${want}, an optional field with no value is left out.`
          : ` must be ${want}, not ${found}.`;
    if (texts.size < MEMO_LIMIT) texts.set(found, text);
  }
  return text;
}

/** The value at a JSON Pointer, read defensively (the failure path only): undefined when unreadable. */
function valueAt(payload: unknown, pointer: string): { value: unknown } | undefined {
  if (pointer === '') return { value: payload };
  try {
    // biome-ignore lint/suspicious/noExplicitAny: a payload is read by any key; a throwing getter is caught.
    let value: any = payload;
    if (pointer.includes('~')) {
      for (const part of pointerParts(pointer)) value = value[part];
      return { value };
    }
    let start = 1;
    for (let end = pointer.indexOf('/', 1); end !== -1; end = pointer.indexOf('/', start)) {
      value = value[pointer.slice(start, end)];
      start = end + 1;
    }
    return { value: value[pointer.slice(start)] };
  } catch {
    return undefined;
  }
}

/** Whether the value at `pointer` is an item of an array (its parent is one). */
function isArrayItem(payload: unknown, pointer: string): boolean {
  const parent = valueAt(payload, pointer.slice(0, pointer.lastIndexOf('/')));
  return parent !== undefined && Array.isArray(parent.value);
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'number':
      if (Number.isInteger(value)) return 'an integer';
      return Number.isFinite(value) ? 'a number with a fraction' : String(value);
    case 'string':
      return 'a string';
    case 'boolean':
      return 'a boolean';
    case 'bigint':
      return 'a BigInt';
    case 'undefined':
      return 'undefined';
    case 'object':
      return 'an object';
    default:
      return `a ${typeof value}`;
  }
}

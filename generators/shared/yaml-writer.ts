import { stringify } from 'yaml';

// A direct writer for the part of YAML the catalogue documents use, giving yaml's own
// `stringify(value, { lineWidth: 0 })` text: block maps and sequences, `{}` and `[]`, plain keys,
// and scalars as yaml writes them when they are a map's value. yaml builds a node per value before
// writing, which costs a large build seconds (see docs/decisions/0062). Whatever it is
// not sure of (a key yaml would quote, a string yaml writes over several lines, a sequence directly
// in a sequence) makes it give up, and the caller asks yaml itself. `yaml-chunks.test.ts` compares it
// with yaml on every document eventry writes and on generated ones.

/** How every YAML document is written: no folding of long lines. */
export const YAML_OPTIONS = { lineWidth: 0 } as const;

/** Thrown (and caught by `writeYamlPair`) where yaml's own writer must decide. */
const GIVE_UP = Symbol('give up');

/** Keys yaml writes plain: a letter, `$` or `_` first, then no indicator yaml would quote for. */
const PLAIN_KEY = /^[A-Za-z$_][A-Za-z0-9_.$/-]*$/;

/** Strings yaml writes plain as a value: a letter first, single spaces, no indicator or quote (a backtick is an indicator only as the first character). */
const PLAIN_VALUE = /^[A-Za-z](?:[A-Za-z0-9_.,()/`-]| (?=[A-Za-z0-9_.,()/`-]))*$/;

/**
 * A JSON pointer reference (`#/components/schemas/<key>`) or an npm scoped package name
 * (`@platform-events/account`): `#` starts a comment and `@` is reserved, so yaml writes them
 * double-quoted, and with none of these characters there is nothing inside to escape.
 */
const POINTER_VALUE = /^(?:#\/|@)[A-Za-z0-9_./~-]*$/;

/** Words yaml reads as another type when plain (the core schema's null and booleans). */
const RESERVED = /^(?:null|Null|NULL|true|True|TRUE|false|False|FALSE)$/;

/** yaml's text for a scalar as a map value, by type and value (many repeat: descriptions, types). */
const scalars = new Map<string, string>();

/**
 * `key: value` as yaml writes that one-entry map, each line indented by `indent`; undefined when the
 * pair needs yaml's own writer.
 */
export function writeYamlPair(key: string, value: unknown, indent: string): string | undefined {
  const out: string[] = [];
  try {
    writeEntry(key, value, indent, out);
  } catch (error) {
    if (error === GIVE_UP) return undefined;
    throw error;
  }
  return out.join('');
}

/**
 * `key:` as yaml writes the key of a block map entry, or undefined when yaml's own writer must decide
 * (a key it would quote).
 */
export function yamlKey(key: string): string | undefined {
  return PLAIN_KEY.test(key) && !RESERVED.test(key) && key.length <= 1000 ? `${key}:` : undefined;
}

function writeEntry(key: string, value: unknown, indent: string, out: string[]): void {
  const head = yamlKey(key);
  if (head === undefined) throw GIVE_UP;
  out.push(indent, head);
  writeValue(value, indent, out);
}

/** Writes what follows `key:` or `- `: ` scalar`, ` {}`, or a block on the next lines. */
function writeValue(value: unknown, indent: string, out: string[]): void {
  if (Array.isArray(value)) {
    if (value.length === 0) {
      out.push(' []\n');
      return;
    }
    out.push('\n');
    const inner = `${indent}  `;
    for (const item of value) writeItem(item, inner, out);
    return;
  }
  if (value !== null && typeof value === 'object') {
    const keys = mapKeys(value);
    if (keys.length === 0) {
      out.push(' {}\n');
      return;
    }
    out.push('\n');
    const inner = `${indent}  `;
    for (const key of keys) writeEntry(key, (value as Record<string, unknown>)[key], inner, out);
    return;
  }
  out.push(' ', scalar(value), '\n');
}

/** A sequence item at `indent`: `- scalar`, or a map whose first entry shares the dash's line. */
function writeItem(item: unknown, indent: string, out: string[]): void {
  if (Array.isArray(item)) throw GIVE_UP;
  if (item !== null && typeof item === 'object') {
    const keys = mapKeys(item);
    if (keys.length === 0) {
      out.push(indent, '- {}\n');
      return;
    }
    const inner = `${indent}  `;
    const first: string[] = [];
    writeEntry(keys[0]!, (item as Record<string, unknown>)[keys[0]!], inner, first);
    // The first entry goes right after the dash: its own indent gives way to `- `.
    first[0] = `${indent}- `;
    out.push(...first);
    for (const key of keys.slice(1)) writeEntry(key, (item as Record<string, unknown>)[key], inner, out);
    return;
  }
  out.push(indent, '- ', scalar(item), '\n');
}

/** The keys of a plain object (one of another class, yaml may write differently: give up). */
function mapKeys(value: object): string[] {
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) throw GIVE_UP;
  return Object.keys(value);
}

/** yaml's one-line text for a scalar as a map value (it is the same after `- `); give up otherwise. */
function scalar(value: unknown): string {
  if (value === null) return 'null';
  if (value === true) return 'true';
  if (value === false) return 'false';
  if (typeof value === 'string' && PLAIN_VALUE.test(value) && !RESERVED.test(value)) return value;
  if (typeof value === 'string' && POINTER_VALUE.test(value)) return `"${value}"`;
  if (typeof value === 'number' && Number.isSafeInteger(value) && !Object.is(value, -0)) return String(value);
  if (typeof value !== 'string' && typeof value !== 'number') throw GIVE_UP;
  const id = `${typeof value}:${value}`;
  let text = scalars.get(id);
  if (text === undefined) {
    const pair = stringify({ a: value }, YAML_OPTIONS);
    if (!pair.startsWith('a: ') || pair.indexOf('\n') !== pair.length - 1) throw GIVE_UP;
    text = pair.slice(3, -1);
    if (scalars.size > 100_000) scalars.clear();
    scalars.set(id, text);
  }
  return text;
}

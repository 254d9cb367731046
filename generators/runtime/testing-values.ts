/**
 * The values of the run time's test data (`testing.ts`): a seeded generator that gives the same numbers
 * on every engine, platform dates, and field-name-aware strings; and the types of the data the build
 * compiles for it. No dependencies at run time (types only).
 */
import type { ErrorItemCode } from './types.js';

/** A field's type, as the build compiles it: `s`tring, `i`nteger, `n`umber, `b`oolean, free `o`bject, `a`rray, shape `r`eference. */
export type TypeSpec =
  | { t: 's'; f?: 'date' | 'date-time'; e?: readonly (string | number)[]; h?: string }
  | { t: 'i' | 'n'; e?: readonly (string | number)[] }
  | { t: 'b' | 'o' }
  | { t: 'a'; i: TypeSpec }
  | { t: 'r'; n: string };
/** A field: name, required (1) or not (0), type. */
export type FieldSpec = readonly [name: string, required: 0 | 1, type: TypeSpec];
/**
 * A rule: its name (`Shape.rule` for a shape's), its message, and the attr of the items it gives (`[]`
 * for any array index), by which test data tells the validator's `rule_violated` items apart; and the
 * fields it reads (`fieldsRead`, over the payload: `lines[].qty`, `tags[]`), which `fake` mends first.
 */
export type RuleSpec = readonly [name: string, message: string, attr: string, reads?: readonly string[]];
/**
 * The data of a group's `testing-data.js`: each event's fields (`o`: a partial event, open; `r`: its
 * rules; `k`: the literals its rules hold) and the shapes.
 */
export interface TestingData {
  events: Record<
    string,
    { f: readonly FieldSpec[]; o?: 1; r?: readonly RuleSpec[]; k?: readonly (string | number)[] }
  >;
  shapes: Record<string, readonly FieldSpec[]>;
}

/** The one problem an `invalid` payload carries. */
export type InvalidProblem =
  | 'missing_required'
  | 'wrong_type'
  | 'outside_enum'
  | 'bad_date'
  | 'undocumented_field'
  | 'null'
  | 'rule_violated';
/** A payload with exactly one known problem, and the error item the validator returns for it (strict mode). */
export interface InvalidPayload {
  problem: InvalidProblem;
  description: string;
  payload: unknown;
  error: { code: ErrorItemCode; attr: string };
}
/** The fast-check module (`import * as fc from 'fast-check'`). */
export type FastCheck = typeof import('fast-check');

/** mulberry32: integer arithmetic only, so the same seed gives the same numbers on every engine. */
export class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed | 0;
  }
  /** A uint32. */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = Math.imul(this.state ^ (this.state >>> 15), 1 | this.state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (t ^ (t >>> 14)) >>> 0;
  }
  /** An integer in [0, n). */
  below(n: number): number {
    return Math.floor((this.next() / 4294967296) * n);
  }
  pick<T>(values: readonly T[]): T {
    return values[this.below(values.length)]!;
  }
}

/** FNV-1a of a string's UTF-16 units. */
export function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** One of `values`. */
export function pick<T>(random: Random, values: readonly T[]): T {
  return random.pick(values);
}

/** Integers and numbers a handler may get wrong (the random variant draws them sometimes). */
export const INTEGER_EDGES = [
  0,
  -1,
  2147483647,
  -2147483648,
  Number.MAX_SAFE_INTEGER,
  Number.MIN_SAFE_INTEGER,
];
/** See `INTEGER_EDGES`. */
export const NUMBER_EDGES = [0, -0.5, 0.1, 1e21, -123456.789];
/** Words of generic strings and free objects. */
export const WORDS = [
  'alpha',
  'meter',
  'tariff',
  'ledger',
  'supply',
  'amber',
  'north',
  'river',
  'solar',
  'grid',
];
const FIRST = ['Ada', 'Grace', 'Alan', 'Zoë', 'Omar', 'Priya', 'Chen', 'Siobhán', 'Kwame', 'Ingrid'];
const LAST = ['Lovelace', 'Hopper', 'Turing', "O'Neill", 'Okafor', 'Patel', 'Nakamura', 'Smith', 'Ångström'];
/** Strings a handler may get wrong: empty, blank, non-ASCII, multi-line, quotes. */
export const EDGE_TEXTS = ['', ' ', 'Zoë Ångström — 東京 🚀', 'line one\nline two', '"quoted" \\ back'];

/** A string for a field without format or hint: a few words, or (random variant, sometimes) an edge case. */
export function text(random: Random, edgy: boolean): string {
  if (edgy) return random.below(3) === 0 ? 'x'.repeat(300) : random.pick(EDGE_TEXTS);
  const words = Array.from({ length: 1 + random.below(3) }, () => random.pick(WORDS));
  return words.join(' ');
}

/** Days from 1970-01-01 to a civil date (Howard Hinnant's algorithm: integers only). */
function civil(days: number): string {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return `${year}-${two(month)}-${two(day)}`;
}

function two(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** 2000-01-01 and 2035-12-31, in days since 1970-01-01. */
const FIRST_DAY = 10957;
const DAYS = 13149;

/** A platform date (`YYYY-MM-DD`) or date-time (ISO 8601, UTC `Z`, or an offset in the random variant). */
export function formatted(format: 'date' | 'date-time', random: Random, varied: boolean): string {
  const date = civil(FIRST_DAY + random.below(DAYS));
  if (format === 'date') return date;
  const seconds = random.below(86400);
  const time = `${two(Math.floor(seconds / 3600))}:${two(Math.floor(seconds / 60) % 60)}:${two(seconds % 60)}`;
  if (!varied) return `${date}T${time}Z`;
  return `${date}T${time}${random.pick(['Z', '.123Z', '+01:00', '-05:30', '.5+00:00'])}`;
}

/** The texts of each format: ajv's, a real calendar date (a rule's literal may give a field its value). */
const FORMATS = {
  date: /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/,
  'date-time':
    /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/,
};

/** Whether `text` is a valid `format` (a day past its month's end is not). */
export function fitsFormat(format: 'date' | 'date-time', text: string): boolean {
  const match = FORMATS[format].exec(text);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31);
}

const HEX = '0123456789abcdef';
function digits(random: Random, count: number, alphabet = '0123456789'): string {
  let out = '';
  for (let i = 0; i < count; i++) out += alphabet[random.below(alphabet.length)];
  return out;
}

/** The values of the field-name hints (the build picks a hint from the field's name, `HINT_RULES` in generators/emit/package/testing.ts). */
const HINTS: Record<string, (random: Random) => string> = {
  email: (r) =>
    `${r
      .pick(FIRST)
      .toLowerCase()
      .replace(/[^a-z]/g, '')}.${r
      .pick(LAST)
      .toLowerCase()
      .replace(/[^a-z]/g, '')}@example.com`,
  'date-time': (r) => formatted('date-time', r, false),
  date: (r) => formatted('date', r, false),
  uuid: (r) =>
    `${digits(r, 8, HEX)}-${digits(r, 4, HEX)}-4${digits(r, 3, HEX)}-${'89ab'[r.below(4)]}${digits(r, 3, HEX)}-${digits(r, 12, HEX)}`,
  url: (r) => `https://example.com/${r.pick(WORDS)}/${digits(r, 4)}`,
  phone: (r) => `+447700900${digits(r, 3)}`,
  postcode: (r) =>
    `${r.pick(['SW1A', 'M1', 'EH8', 'B33', 'CF10'])} ${digits(r, 1)}${digits(r, 2, 'ABDEFGHJLNPQRSTUWXYZ')}`,
  currency: (r) => r.pick(['GBP', 'EUR', 'USD']),
  country: (r) => r.pick(['GB', 'IE', 'FR', 'DE', 'ES']),
  'first-name': (r) => r.pick(FIRST),
  'last-name': (r) => r.pick(LAST),
  name: (r) => `${r.pick(FIRST)} ${r.pick(LAST)}`,
  'account-number': (r) => `A-${digits(r, 8, '0123456789ABCDEF')}`,
  mprn: (r) => `${1 + r.below(9)}${digits(r, 9)}`,
  mpan: (r) => `${1 + r.below(9)}${digits(r, 12)}`,
  code: (r) => digits(r, 2 + r.below(5), 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789'),
  reference: (r) => `${r.pick(['REF', 'INV', 'JS', 'LS'])}-${digits(r, 6)}`,
  sentence: (r) =>
    `${r.pick(FIRST)} ${r.pick(['asked about', 'updated', 'reported'])} the ${r.pick(WORDS)} ${r.pick(WORDS)}.`,
};

/** A value of the kind `hint` names (a plain string for a hint this run time does not know). */
export function hinted(hint: string, random: Random): string {
  const make = HINTS[hint];
  return make === undefined ? text(random, false) : make(random);
}

/**
 * CEL's semantics where JavaScript's differ, as `@bufbuild/cel` 0.3.0 (the Confluent client's evaluator)
 * implements them. Each `cel*` function is self-contained: compiled rules carry the source of those they
 * call (`helperSource`), so a group package runs them without any CEL library. A CEL error is a thrown
 * exception; the rule's verdict turns it into "kept", as the client does (docs/decisions/0126).
 */

/** int64 arithmetic: a result outside int64 is an error, never a wrapped or rounded value. */
function celInt(value: bigint): bigint {
  if (value > 9223372036854775807n || value < -9223372036854775808n) throw new RangeError('int overflow');
  return value;
}

/** int division: truncates toward zero; by zero, or the one overflowing quotient, is an error. */
function celDiv(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new RangeError('divide by zero');
  if (a === -9223372036854775808n && b === -1n) throw new RangeError('int overflow');
  return a / b;
}

/** int modulus: the sign of the dividend; by zero is an error. */
function celMod(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new RangeError('modulus by zero');
  return a % b;
}

/** `size` of a string: code points, not UTF-16 units. */
function celSize(text: string): bigint {
  let size = 0;
  for (const _ of text) size++;
  return BigInt(size);
}

/** `a && b`, where either side may fail: false wins over an error, on either side. */
function celAnd(a: () => boolean, b: () => boolean): boolean {
  let failure: unknown;
  try {
    if (a() === false) return false;
  } catch (error) {
    failure = error ?? new Error('error');
  }
  if (b() === false) return false;
  if (failure !== undefined) throw failure;
  return true;
}

/** `a || b`, where either side may fail: true wins over an error, on either side. */
function celOr(a: () => boolean, b: () => boolean): boolean {
  let failure: unknown;
  try {
    if (a() === true) return true;
  } catch (error) {
    failure = error ?? new Error('error');
  }
  if (b() === true) return true;
  if (failure !== undefined) throw failure;
  return false;
}

/** `all` whose condition may fail: a false item wins over an error. */
function celAll<T>(items: readonly T[], test: (item: T) => boolean): boolean {
  let failure: unknown;
  for (const item of items) {
    try {
      if (test(item) === false) return false;
    } catch (error) {
      failure = error ?? new Error('error');
    }
  }
  if (failure !== undefined) throw failure;
  return true;
}

/** `exists` whose condition may fail: a true item wins over an error. */
function celExists<T>(items: readonly T[], test: (item: T) => boolean): boolean {
  let failure: unknown;
  for (const item of items) {
    try {
      if (test(item) === true) return true;
    } catch (error) {
      failure = error ?? new Error('error');
    }
  }
  if (failure !== undefined) throw failure;
  return false;
}

/** `exists_one`: exactly one item passes (an error in any is the result). */
function celExistsOne<T>(items: readonly T[], test: (item: T) => boolean): boolean {
  let count = 0;
  for (const item of items) if (test(item)) count++;
  return count === 1;
}

/** `x in list` for numbers: CEL compares int and double as numbers. */
function celIn(value: unknown, items: readonly unknown[]): boolean {
  // biome-ignore lint/suspicious/noDoubleEquals: int (bigint) and double (number) compare as numbers.
  for (const item of items) if (item == value) return true;
  return false;
}

/**
 * `timestamp(text)` as protobuf's JSON reading of a Timestamp does it (its RFC 3339 pattern, then
 * `Date.parse`, whose field ranges are checked here as V8 checks them, and the years 1..9999):
 * [milliseconds of the whole seconds, nanoseconds]. Read character by character: a regular expression
 * and `Date.parse` cost several times more (docs/decisions/0126).
 */
function celTimestamp(text: string): [number, number] {
  const n = text.length;
  let at = 0;
  const num = (count: number): number => {
    let value = 0;
    for (let end = at + count; at < end; at++) {
      const digit = text.charCodeAt(at) - 48;
      if (!(digit >= 0 && digit <= 9)) throw new RangeError('invalid RFC 3339 string');
      value = value * 10 + digit;
    }
    return value;
  };
  const sep = (char: string): void => {
    if (text[at++] !== char) throw new RangeError('invalid RFC 3339 string');
  };
  const year = num(4);
  sep('-');
  const month = num(2);
  sep('-');
  const day = num(2);
  sep('T');
  const hour = num(2);
  sep(':');
  const minute = num(2);
  sep(':');
  const second = num(2);
  let nanos = 0;
  if (text[at] === '.') {
    at++;
    const start = at;
    while (at < n && at - start < 10 && text.charCodeAt(at) >= 48 && text.charCodeAt(at) <= 57) at++;
    const digits = at - start;
    if (digits === 0 || digits > 9) throw new RangeError('invalid RFC 3339 string');
    at = start;
    nanos = num(digits) * 10 ** (9 - digits);
  }
  let offset = 0;
  if (text[at] === 'Z' && at + 1 === n) at++;
  else if ((text[at] === '+' || text[at] === '-') && at + 6 === n) {
    const sign = text[at++] === '+' ? 1 : -1;
    const offsetHours = num(2);
    sep(':');
    const offsetMinutes = num(2);
    if (offsetHours > 23 || offsetMinutes > 59) throw new RangeError('invalid RFC 3339 string');
    offset = sign * (offsetHours * 60 + offsetMinutes) * 60000;
  } else throw new RangeError('invalid RFC 3339 string');
  if (at !== n) throw new RangeError('invalid RFC 3339 string');
  const fields = month >= 1 && month <= 12 && day >= 1 && day <= 31 && minute <= 59 && second <= 59;
  if (!fields || hour > 24 || (hour === 24 && (minute > 0 || second > 0)))
    throw new RangeError('invalid RFC 3339 string');
  // Date.UTC reads years 0..99 as 1900..1999: those are computed 400 years (one Gregorian cycle) on.
  const early = year < 100 ? 12622780800000 : 0;
  const ms = Date.UTC(year < 100 ? year + 400 : year, month - 1, day, hour, minute, second) - early - offset;
  if (ms < -62135596800000 || ms > 253402300799000) throw new RangeError('timestamp out of range');
  return [ms, nanos];
}

/** Orders two timestamps (`celTimestamp`): negative, zero or positive. */
function celCompareTimestamps(a: [number, number], b: [number, number]): number {
  return a[0] === b[0] ? a[1] - b[1] : a[0] < b[0] ? -1 : 1;
}

/** `lowerAscii`: A-Z only. */
function celLowerAscii(text: string): string {
  return text.replace(/[A-Z]+/g, (part) => part.toLowerCase());
}

/** `upperAscii`: a-z only. */
function celUpperAscii(text: string): string {
  return text.replace(/[a-z]+/g, (part) => part.toUpperCase());
}

/** `trim`: the Unicode white space the strings extension lists. */
function celTrim(text: string): string {
  return text.replace(
    /^[\u0020\u0009-\u000d\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\u0020\u0009-\u000d\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g,
    '',
  );
}

/** `charAt`: the unit at an index; the length itself gives "". */
function celCharAt(text: string, index: bigint): string {
  const i = Number(index);
  if (i < 0 || i > text.length) throw new RangeError(`index ${i} out of bounds`);
  return text.charAt(i);
}

/** `indexOf`, with an optional start. */
function celIndexOf(text: string, part: string, start?: bigint): bigint {
  if (start === undefined) return BigInt(text.indexOf(part));
  const i = Number(start);
  if (i < 0 || i >= text.length) throw new RangeError(`index ${i} out of bounds`);
  return BigInt(text.indexOf(part, i));
}

/** `lastIndexOf`, with an optional start. */
function celLastIndexOf(text: string, part: string, start?: bigint): bigint {
  if (start === undefined) return BigInt(text.lastIndexOf(part));
  const i = Number(start);
  if (i < 0 || i >= text.length) throw new RangeError(`index ${i} out of bounds`);
  return BigInt(text.lastIndexOf(part, i));
}

/** `replace`: the first `count` occurrences (all by default), left to right, never inside a replacement. */
function celReplace(text: string, part: string, by: string, count?: bigint): string {
  let left = count === undefined ? text.length : Number(count);
  let result = text;
  let index = result.indexOf(part, 0);
  while (left > 0 && index !== -1) {
    result = result.substring(0, index) + by + result.substring(index + part.length);
    left--;
    index = result.indexOf(part, index + by.length);
  }
  return result;
}

/** `split`, with an optional count (as JavaScript's limit; 1 gives the text whole). */
function celSplit(text: string, separator: string, count?: bigint): string[] {
  const n = count === undefined ? undefined : Number(count);
  return n === 1 ? [text] : text.split(separator, n);
}

/** `substring(start[, end])` in UTF-16 units; out of range, or start after end, is an error. */
function celSubstring(text: string, start: bigint, end?: bigint): string {
  const i = Number(start);
  if (i < 0 || i > text.length) throw new RangeError(`index ${i} out of bounds`);
  if (end === undefined) return text.substring(i);
  const j = Number(end);
  if (j < 0 || j > text.length) throw new RangeError(`index ${j} out of bounds`);
  if (i > j) throw new RangeError('start > end');
  return text.substring(i, j);
}

/** `join`, with an optional separator. */
function celJoin(items: readonly string[], separator?: string): string {
  return items.join(separator ?? '');
}

/** `list[index]`: out of range is an error. */
function celIndex<T>(items: readonly T[], index: bigint): T {
  const i = Number(index);
  if (i < 0 || i >= items.length) throw new RangeError(`index ${i} out of range`);
  return items[i] as T;
}

/** A rule's verdict where evaluating it may fail: broken only when it is false; an error lets it pass. */
function celBroken(rule: () => boolean): boolean {
  try {
    return rule() === false;
  } catch {
    return false;
  }
}

/** The helpers compiled rules may call, by name. */
const HELPERS = {
  celInt,
  celDiv,
  celMod,
  celSize,
  celAnd,
  celOr,
  celAll,
  celExists,
  celExistsOne,
  celIn,
  celTimestamp,
  celCompareTimestamps,
  celLowerAscii,
  celUpperAscii,
  celTrim,
  celCharAt,
  celIndexOf,
  celLastIndexOf,
  celReplace,
  celSplit,
  celSubstring,
  celJoin,
  celIndex,
  celBroken,
} as const;

/** A helper's name. */
export type HelperName = keyof typeof HELPERS;

/** The JavaScript source of the helpers named, in a stable order, for a compiled rule's module. */
export function helperSource(names: Iterable<HelperName>): string {
  const wanted = new Set(names);
  return (Object.keys(HELPERS) as HelperName[])
    .filter((name) => wanted.has(name))
    .map((name) => HELPERS[name].toString())
    .join('\n');
}

/** A timestamp literal's value, or undefined when `timestamp()` would fail on it. */
export function parseTimestamp(text: string): [number, number] | undefined {
  try {
    return celTimestamp(text);
  } catch {
    return undefined;
  }
}

/** RE2 syntax JavaScript reads otherwise, which `@bufbuild/cel` refuses at run time. */
const NOT_RE2 = [
  /\\[1-9]/,
  /\\k<.>/,
  /\(\?=/,
  /\(\?!/,
  /\(\?<=/,
  /\(\?<!/,
  /\\c[A-Z]/,
  /\\u[0-9a-fA-F]{4}/,
  /\\0(?!\d)/,
  /\[\\b.*\]/,
];

/**
 * The JavaScript regular expression `matches` runs for an RE2 pattern, as `@bufbuild/cel` makes it
 * (leading `(?ims)` flags become JavaScript flags), or why the pattern cannot be compiled.
 */
export function matchesPattern(pattern: string): { source: string; flags: string } | string {
  if (NOT_RE2.some((re) => re.test(pattern))) {
    return `\`${pattern}\` uses syntax RE2 does not have (back-references, look-around, \\u, \\c, \\0).`;
  }
  let flags = '';
  let source = pattern;
  const lead = /^\(\?(?<flags>[ims-]+)\)/.exec(pattern);
  if (lead) {
    for (const flag of lead.groups?.flags ?? '') {
      if (flag === '-') break;
      flags += flag;
    }
    source = pattern.slice(lead[0].length);
  }
  try {
    new RegExp(source, flags);
  } catch (error) {
    return `\`${pattern}\` is not a pattern JavaScript can run: ${(error as Error).message}.`;
  }
  return { source, flags };
}

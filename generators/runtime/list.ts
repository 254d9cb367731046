import {
  foundValue,
  joinPath,
  requiredItem,
  toErrorItem,
  typeItemOf,
  unknownItem,
  unreadable,
} from './error-items.js';
import { readMaxErrors } from './options.js';
import { COUNT_BOUND, failure, SITE_KEY_LIMIT, tooMany } from './run.js';
import type { ErrorItem, ItemMakers, Place, ValidateOptions, ValidationResult } from './types.js';

/**
 * The error protocol of code generated for 1.7.0 on (docs/decisions/0191): the generated code makes each
 * error's platform item where it finds the error, and lists it itself, in an array it starts at the
 * payload's first error (`add`); the array is the result's `errors` as it is. A place whose dot path
 * is known when the code is generated writes its item as a literal; any other calls the run time's
 * maker for its kind (`ItemMakers`), which makes a fresh item from texts made once per place and lists it. Nothing
 * outlives a call but those texts: no run object, nothing to reset, so a payload getter may validate
 * another payload.
 *
 * Bounds, as before: `options.maxErrors` (read once a payload has failed) items are listed and the rest
 * counted in a last item, up to `max(maxErrors + 1, COUNT_BOUND)` problems, where the walk stops.
 */

/**
 * The walk's stop at the count bound, or at options the caller got wrong (its error is thrown to the
 * caller once the walk has unwound). Only this run time copy throws it and catches it (`caught`).
 */
export class Stopped {
  constructor(
    readonly items: ErrorItem[],
    readonly found: number,
    readonly optionError: unknown = undefined,
  ) {}
}

/** Lists one more item; small, so that V8 inlines it into every place that reports an error. */
export function add(
  items: ErrorItem[] | undefined,
  options: ValidateOptions | undefined,
  item: ErrorItem,
): ErrorItem[] {
  // Under the bound, whatever `maxErrors` says: the items past it are dropped at the end (`failedWith`).
  return items === undefined
    ? [item]
    : items.length < COUNT_BOUND - 1
      ? listed(items, item)
      : addPast(items, options, item);
}

function listed(items: ErrorItem[], item: ErrorItem): ErrorItem[] {
  items.push(item);
  return items;
}

/** The count bound reached: `maxErrors` decides whether the walk stops, or lists on (a bound over it). */
function addPast(items: ErrorItem[], options: ValidateOptions | undefined, item: ErrorItem): ErrorItem[] {
  let max: number;
  try {
    max = readMaxErrors(options);
  } catch (optionError) {
    throw new Stopped(items, items.length + 1, optionError);
  }
  const found = items.length + 1;
  if (found >= Math.max(max + 1, COUNT_BOUND)) throw new Stopped(items, found);
  return listed(items, item);
}

/**
 * The end of an event's walk that listed `items` (the generated entry's `failedWith`). The common case,
 * a count within `maxErrors` whose summary the event made already, is the result written here, small
 * enough that V8 inlines it into the entry within its budget for the caller (docs/decisions/0197); any
 * other goes the long way.
 */
export function resultOf(
  key: string,
  summaries: string[],
): (items: ErrorItem[], options: ValidateOptions | undefined) => ValidationResult {
  return (items, options) => {
    const found = items.length;
    return found < summaries.length && found <= readMaxErrors(options)
      ? { valid: false, error: { detail: summaries[found]!, code: 'event_failed_validation', errors: items } }
      : failedWith(key, summaries, items, options);
  };
}

/**
 * The platform's body for the items a walk listed: the first `maxErrors` of them, the rest counted in a
 * last item. `stoppedAt` is the number of problems when the walk stopped at the bound (then "at least").
 * An option the caller got wrong is thrown here, after the walk.
 */
export function failedWith(
  key: string,
  summaries: string[],
  items: ErrorItem[],
  options: ValidateOptions | undefined,
  stoppedAt?: number,
): ValidationResult {
  const max = readMaxErrors(options);
  const found = stoppedAt ?? items.length;
  if (found <= max) return failure(key, items, found, summaries);
  const listed = items.length > max ? items.slice(0, max) : items;
  listed.push(tooMany(found - max, stoppedAt !== undefined, max));
  return failure(key, listed, stoppedAt === undefined ? found : `at least ${found}`, summaries);
}

/** The end of a walk that met an exception: the bound, a caller's option, or a payload that cannot be read. */
export function caughtBy(
  key: string,
  summaries: string[],
  error: unknown,
  options: ValidateOptions | undefined,
): ValidationResult {
  if (!(error instanceof Stopped)) return failure(key, [unreadable(error)], 1);
  if (error.optionError !== undefined) throw error.optionError;
  return failedWith(key, summaries, error.items, options, error.found);
}

interface KeyTexts {
  key: string;
  item: ErrorItem;
}
interface TypeTexts {
  /** The kind of value the item was made for (`tagOf`). */
  tag: string;
  item: ErrorItem;
}

/**
 * The item makers of one event's code, from its places (see `Place`). Each maker's common case, a
 * place at a fixed path that made its texts already, is a lookup and a copy (`missingAt` and the
 * like); a new item's texts are made out of line.
 */
export function itemMakers(places: readonly Place[]): ItemMakers {
  // Per place: a missing field's item, an undocumented key's, a wrong type's by kind of value. Each
  // maker is a call V8 inlines, to a function it may leave out of line: the code of a small event,
  // inlined into its caller, leaves little of V8's budget for the makers (docs/decisions/0197).
  const sites: Sites = [];
  return {
    missing: (run, options, site, prefix) => add(run, options, missingAt(sites, places, site, prefix)),
    undocumented: (run, options, site, prefix, key) =>
      add(run, options, undocumentedAt(sites, places, site, prefix, key)),
    mistyped: (run, options, site, prefix, value, parentData) =>
      add(run, options, mistypedAt(sites, places, site, prefix, value, parentData)),
    reported: (run, options, error) =>
      add(run, options, toErrorItem(error, undefined, error.instancePath.slice(1))),
  };
}

/** A missing field's item: at a place of fixed path, a copy of the one made first. */
function missingAt(sites: Sites, places: readonly Place[], site: number, prefix: string): ErrorItem {
  const known = sites[site] as ErrorItem | undefined;
  return prefix === '' && known !== undefined ? copy(known) : missingItem(sites, places, site, prefix);
}

/** An undocumented key's item: at a place of fixed path, a copy of the last key's when it is the same. */
function undocumentedAt(
  sites: Sites,
  places: readonly Place[],
  site: number,
  prefix: string,
  key: string,
): ErrorItem {
  const known = sites[site] as KeyTexts | undefined;
  // The last key named here: a payload sent again with the same mistake names it again.
  return prefix === '' && known !== undefined && known.key === key
    ? copy(known.item)
    : undocumentedItem(sites, places, site, prefix, key);
}

/** A wrong type's item: at a place of fixed path, a copy of the one made for the same kind of value. */
function mistypedAt(
  sites: Sites,
  places: readonly Place[],
  site: number,
  prefix: string,
  value: unknown,
  parentData: unknown,
): ErrorItem {
  const known = sites[site] as TypeTexts | undefined;
  return prefix === '' && known !== undefined && known.tag === tagOf(value)
    ? copy(known.item)
    : mistypedItem(sites, places[site] as TypePlace, site, prefix, value, parentData);
}

type TypePlace = readonly [2, string, string, boolean | null];
type Sites = (ErrorItem | KeyTexts | TypeTexts | undefined)[];

function missingItem(sites: Sites, places: readonly Place[], site: number, prefix: string): ErrorItem {
  const item = requiredItem((prefix + (places[site] as readonly [number, string])[1]).slice(1));
  if (prefix !== '') return item;
  sites[site] = item;
  return copy(item);
}

function undocumentedItem(
  sites: Sites,
  places: readonly Place[],
  site: number,
  prefix: string,
  key: string,
): ErrorItem {
  const item = unknownItem(joinPath((prefix + (places[site] as readonly [number, string])[1]).slice(1), key));
  if (prefix !== '') return item;
  if (key.length <= SITE_KEY_LIMIT) sites[site] = { key, item };
  return copy(item);
}

function mistypedItem(
  sites: Sites,
  place: TypePlace,
  site: number,
  prefix: string,
  value: unknown,
  parentData: unknown,
): ErrorItem {
  const path = prefix + place[1];
  const found = foundValue(path !== '', value, place[3] ?? Array.isArray(parentData));
  const item = typeItemOf(path.slice(1), place[2], found);
  const tag = tagOf(value);
  if (prefix !== '' || tag === '') return item;
  sites[site] = { tag, item };
  return copy(item);
}

/**
 * The kind of a value as a wrong type's text tells it (`foundValue`), in a few tests V8 inlines: at a
 * place of fixed path, each kind has one text. A number that is not finite has none (its text names it).
 */
function tagOf(value: unknown): string {
  // Tests of `typeof` against a literal, which V8 compiles to a check of the value's map.
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number')
    return Number.isInteger(value) ? 'integer' : Number.isFinite(value) ? 'fraction' : '';
  if (value === null) return 'null';
  if (typeof value === 'boolean') return 'boolean';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' ? 'object' : '';
}

function copy(item: ErrorItem): ErrorItem {
  return { detail: item.detail, code: item.code, attr: item.attr };
}

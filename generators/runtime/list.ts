import {
  foundValue,
  joinPath,
  requiredItem,
  toErrorItem,
  typeItemOf,
  unknownItem,
  unreadable,
} from './error-items.js';
import { DEFAULT_MAX_ERRORS, readMaxErrors } from './options.js';
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
  if (items === undefined) return [item];
  // Under the bound, whatever `maxErrors` says: the items past it are dropped at the end (`failedWith`).
  if (items.length < COUNT_BOUND - 1) items.push(item);
  else addPast(items, options, item);
  return items;
}

/** The count bound reached: `maxErrors` decides whether the walk stops, or lists on (a bound over it). */
function addPast(items: ErrorItem[], options: ValidateOptions | undefined, item: ErrorItem): void {
  let max: number;
  try {
    max = options === undefined ? DEFAULT_MAX_ERRORS : readMaxErrors(options);
  } catch (optionError) {
    throw new Stopped(items, items.length + 1, optionError);
  }
  const found = items.length + 1;
  if (found >= Math.max(max + 1, COUNT_BOUND)) throw new Stopped(items, found);
  items.push(item);
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
  const max = options === undefined ? DEFAULT_MAX_ERRORS : readMaxErrors(options);
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
 * place at a fixed path that made its texts already, is a few lines V8 inlines into the generated
 * code; the texts are made out of line.
 */
export function itemMakers(places: readonly Place[]): ItemMakers {
  // Per place: a missing field's item, an undocumented key's, a wrong type's by kind of value.
  const sites: Sites = [];
  return {
    missing(run, options, site, prefix) {
      const known = sites[site] as ErrorItem | undefined;
      const fixed = prefix === '' && known !== undefined;
      return add(run, options, fixed ? copy(known) : missingItem(sites, places, site, prefix));
    },
    undocumented(run, options, site, prefix, key) {
      const known = sites[site] as KeyTexts | undefined;
      // The last key named here: a payload sent again with the same mistake names it again.
      const fixed = prefix === '' && known !== undefined && known.key === key;
      return add(run, options, fixed ? copy(known.item) : undocumentedItem(sites, places, site, prefix, key));
    },
    mistyped(run, options, site, prefix, value, parentData) {
      const known = sites[site] as TypeTexts | undefined;
      const fixed = prefix === '' && known !== undefined && known.tag === tagOf(value);
      return add(
        run,
        options,
        fixed
          ? copy(known.item)
          : mistypedItem(sites, places[site] as TypePlace, site, prefix, value, parentData),
      );
    },
    reported: (run, options, error) =>
      add(run, options, toErrorItem(error, undefined, error.instancePath.slice(1))),
  };
}

type TypePlace = readonly [2, string, string, boolean | null];
type Sites = (ErrorItem | KeyTexts | TypeTexts | undefined)[];

function missingItem(sites: Sites, places: readonly Place[], site: number, prefix: string): ErrorItem {
  const attr = (prefix + (places[site] as readonly [number, string])[1]).slice(1);
  if (prefix !== '') return requiredItem(attr);
  const known = requiredItem(attr);
  sites[site] = known;
  return copy(known);
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

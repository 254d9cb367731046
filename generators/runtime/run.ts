import {
  foundValue,
  joinPath,
  requiredItem,
  toErrorItem,
  typeItem,
  typeItemOf,
  unknownItem,
} from './error-items.js';
import { DEFAULT_MAX_ERRORS, readMaxErrors } from './options.js';
import type { AjvError, ErrorItem, Failure, ValidateOptions, ValidatorContext } from './types.js';

/**
 * How many problems a run counts before it stops looking: past the listed ones it only counts, so the
 * final item can say how many more there are, up to this bound (then "at least").
 */
export const COUNT_BOUND = 10_000;
const DEFAULT_BOUND = Math.max(DEFAULT_MAX_ERRORS + 1, COUNT_BOUND);

/**
 * One validation run, which the generated code opens at a payload's first error (see
 * `CompiledValidator`): it hands each error to a method as found, which finds or makes the error's
 * platform item there and then (the payload is never read again). Items are listed in the order found,
 * up to `maxErrors`; past them errors are only counted, up to a bound, where the run ends by throwing
 * itself to the run time's `validate`. `options.maxErrors` is read at the first error, so it is only
 * checked once a payload fails. Code generated before 1.4.0 is given a run, and reads `tolerant`.
 */
export class Run implements ValidatorContext {
  tolerant = false;
  options: ValidateOptions | undefined = undefined;
  maxErrors = 0;
  bound = 0;
  /**
   * The items listed so far, `listedCount` of them, kept by this run from one failure to the next: a
   * place's known item as it is (a path with an array index gets a new one), copied into the result's
   * own array of the exact size once the run is over (`explain`). A failure grows no array, and one
   * whose places are known stores no new object into this long-lived one.
   */
  readonly listed: ErrorItem[] = [];
  listedCount = 0;
  found = 0;
  stopped = false;
  /** The dot path of the last type error (`NO_PATH` before one). */
  typePath = NO_PATH;
  optionError: unknown = undefined;

  constructor(private readonly sites: Site[]) {}

  /** A run that found no error needs no other reset: `validate` calls `reset` after one that did. */
  start(tolerant: boolean, options: ValidateOptions | undefined): void {
    this.tolerant = tolerant;
    this.options = options;
  }

  reset(): void {
    // Forget the payload's items (a place's known ones stay in `sites` anyway).
    const listed = this.listed;
    for (let i = 0; i < this.listedCount; i++) listed[i] = NO_ITEM;
    this.listedCount = 0;
    this.found = 0;
    this.stopped = false;
    this.typePath = NO_PATH;
    this.optionError = undefined;
  }

  missing(prefix: string, suffix: string, site: number): void {
    if (!this.count()) return;
    const fixed = prefix === '' && site >= 0;
    let known = fixed ? (this.sites[site] as ErrorItem | undefined) : undefined;
    if (known === undefined) {
      known = requiredItem((prefix + suffix).slice(1));
      if (fixed) this.sites[site] = known;
    }
    this.list(known);
  }

  undocumented(prefix: string, suffix: string, key: string, site: number): void {
    if (!this.count()) return;
    const fixed = prefix === '' && site >= 0;
    let known = fixed ? (this.sites[site] as UndocumentedSite | undefined) : undefined;
    // The last key named here: a payload sent again with the same mistake names it again.
    if (known === undefined || known.key !== key) {
      known = { key, item: unknownItem(joinPath((prefix + suffix).slice(1), key)) };
      if (fixed && key.length <= SITE_KEY_LIMIT) this.sites[site] = known;
    }
    this.list(known.item);
  }

  mistyped(prefix: string, suffix: string, type: string, value: unknown, item: boolean, site: number): void {
    // A value of the wrong type also fails its enum: that is one problem, reported here.
    const path = prefix === '' ? suffix : prefix + suffix;
    this.typePath = path;
    if (!this.count()) return;
    const found = foundValue(path !== '', value, item);
    const fixed = prefix === '' && site >= 0;
    let known = fixed ? (this.sites[site] as TypeSite | undefined) : undefined;
    if (known === undefined || known.found !== found || known.type !== type) {
      known = { type, found, item: typeItemOf(path.slice(1), type, found) };
      if (fixed) this.sites[site] = known;
    }
    this.list(known.item);
  }

  required(attr: string): void {
    if (this.count()) this.list(requiredItem(attr.slice(1)));
  }

  unknown(path: string, key: string): void {
    if (this.count()) this.list(unknownItem(joinPath(path.slice(1), key)));
  }

  type(path: string, type: string, value: unknown, item: boolean): void {
    // A value of the wrong type also fails its enum: that is one problem, reported here.
    this.typePath = path;
    if (this.count()) this.list(typeItem(path.slice(1), type, value, item));
  }

  report(error: AjvError): void {
    if (error.keyword === 'type') this.typePath = error.instancePath;
    else if (error.keyword === 'enum' && error.instancePath === this.typePath) return;
    if (this.count()) this.list(toErrorItem(error, undefined, error.instancePath.slice(1)));
  }

  violated(detail: string, attr: string): void {
    if (this.count()) this.list({ detail, code: 'rule_violated', attr });
  }

  /** Counts one more error: whether it is listed; past the bound, ends the run. */
  count(): boolean {
    if (this.found === 0) this.begin();
    const found = this.found + 1;
    this.found = found;
    if (found >= this.bound) {
      this.stopped = true;
      throw this;
    }
    return found <= this.maxErrors;
  }

  /** Lists an item: a place's known one is copied into the result at the end (`explain`). */
  list(item: ErrorItem): void {
    this.listed[this.listedCount++] = item;
  }

  /** The first error: the caller's `maxErrors` is read now. */
  begin(): void {
    if (this.options === undefined) {
      // No options: the defaults, known in advance.
      this.maxErrors = DEFAULT_MAX_ERRORS;
      this.bound = DEFAULT_BOUND;
      return;
    }
    try {
      this.maxErrors = readMaxErrors(this.options);
    } catch (optionError) {
      // The caller's mistake, thrown to the caller once the run has unwound.
      this.optionError = optionError;
      throw this;
    }
    this.bound = Math.max(this.maxErrors + 1, COUNT_BOUND);
  }
}

/**
 * The item of an error at one place of the generated code (see `ValidatorContext`), copied into each
 * result: a missing field's as it is; an undocumented field's with the key, a wrong type's with the
 * wanted type and the kind of value it was made for.
 */
export type Site = ErrorItem | UndocumentedSite | TypeSite;
interface UndocumentedSite {
  key: string;
  item: ErrorItem;
}
interface TypeSite {
  type: string;
  found: string;
  item: ErrorItem;
}

/** The longest undocumented key whose texts a place keeps: a payload's keys are not held past this. */
export const SITE_KEY_LIMIT = 128;

/** Not a dot path (each starts with `.` or is empty). */
const NO_PATH = '#';

/** What a run's list holds past its items: no payload's item is kept past its run. */
const NO_ITEM: ErrorItem = Object.freeze({ detail: '', code: 'required', attr: '' });

/** The platform's body for a run that found problems: its items as listed, each a copy of its own. */
export function explain(key: string, run: Run, summaries: string[]): Failure {
  const items = copyItems(run.listed, run.listedCount);
  const more = run.found - items.length;
  if (more > 0) items.push(tooMany(more, run.stopped, run.maxErrors));
  return failure(key, items, run.stopped ? `at least ${run.found}` : run.found, summaries);
}

/**
 * The first `count` of `listed`, each copied (each result's items are its own), into an array of their
 * number: a literal for the common counts, which V8 allocates at its size at once.
 */
function copyItems(listed: readonly ErrorItem[], count: number): ErrorItem[] {
  switch (count) {
    case 0:
      return [];
    case 1:
      return [copyItem(listed[0]!)];
    case 2:
      return [copyItem(listed[0]!), copyItem(listed[1]!)];
    case 3:
      return [copyItem(listed[0]!), copyItem(listed[1]!), copyItem(listed[2]!)];
    case 4:
      return [copyItem(listed[0]!), copyItem(listed[1]!), copyItem(listed[2]!), copyItem(listed[3]!)];
    default: {
      const items: ErrorItem[] = [];
      for (let i = 0; i < count; i++) items.push(copyItem(listed[i]!));
      return items;
    }
  }
}

function copyItem(item: ErrorItem): ErrorItem {
  return { detail: item.detail, code: item.code, attr: item.attr };
}

export function tooMany(more: number, stopped: boolean, maxErrors: number): ErrorItem {
  const count = `${stopped ? 'At least ' : ''}${more} more ${more === 1 ? 'problem is' : 'problems are'}`;
  return {
    detail: `${count} not listed: a result lists the first ${maxErrors} (option \`maxErrors\`).`,
    code: 'too_many_problems',
    attr: '',
  };
}

/** The platform's body; `summaries` keeps its detail by count for the event's next failures. */
export function failure(
  key: string,
  errors: ErrorItem[],
  found: number | string,
  summaries?: string[],
): Failure {
  return {
    valid: false,
    error: { detail: summaryOf(key, found, summaries), code: 'event_failed_validation', errors },
  };
}

/** Counts up to this one have their summary kept, made once per event. */
const SUMMARY_LIMIT = 128;

/**
 * The body's detail for `found` problems. `summaries` holds it by count, from 0 (unused) up: filled in
 * order, so that it stays an array without holes, which V8 reads fastest (`resultOf` in list.ts).
 */
export function summaryOf(key: string, found: number | string, summaries: string[] | undefined): string {
  if (summaries === undefined || typeof found !== 'number' || found >= SUMMARY_LIMIT)
    return summaryText(key, found);
  while (summaries.length <= found) summaries.push(summaryText(key, summaries.length));
  return summaries[found]!;
}

function summaryText(key: string, found: number | string): string {
  return `The payload is not a valid \`${key}\` event: ${found === 1 ? '1 problem' : `${found} problems`}.`;
}

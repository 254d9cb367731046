/**
 * The run time of every generated group package: it turns the precompiled ajv validators of an event
 * into `validate` / `isEvent` / `assertEvent`, and ajv's errors into the platform's 400 body. Authored
 * once here; the toolkit's tsc compiles it with its declarations, and the build ships that as the one
 * package `@<scope>/runtime` every group package imports. No dependencies, no `eval`: safe under a
 * strict content security policy.
 */

/** `strict` (producers, the default): undocumented fields are errors. `tolerant` (consumers): accepted. */
export type ValidationMode = 'strict' | 'tolerant';

/** Options of `validate`, `isEvent` and `assertEvent`; any other `mode` throws a `TypeError`. */
export interface ValidateOptions {
  mode?: ValidationMode;
  /** How many problems a result lists (default 100); a final `too_many_problems` item counts the rest. */
  maxErrors?: number;
}

/** Stable machine-readable codes of one problem. */
export type ErrorItemCode =
  | 'required'
  | 'unknown_field'
  | 'invalid_type'
  | 'invalid_format'
  | 'invalid_value'
  | 'unreadable_payload'
  | 'too_many_problems';

/**
 * One problem: `attr` is the dot path of the offending field (`""` is the payload itself); numeric
 * parts are array indexes, and a key that is empty, all digits, contains a `.` or starts with `"` is
 * written as a JSON string (`meta."a.b"`).
 */
export interface ErrorItem {
  detail: string;
  code: ErrorItemCode;
  attr: string;
}

/** The platform's 400 body. */
export interface ErrorBody {
  detail: string;
  code: 'event_failed_validation' | 'unknown_event';
  errors: ErrorItem[];
}

/** The outcome of `validate`. */
export type ValidationResult = { valid: true } | { valid: false; error: ErrorBody };

/** An event key of the map `M`; any other string is accepted at run time and reported `unknown_event`. */
export type KeyOf<M> = keyof M & string;

/** The API of one event (`<package>/events/<key>`). */
export interface EventApi<T, K extends string = string> {
  readonly key: K;
  validate(payload: unknown, options?: ValidateOptions): ValidationResult;
  isEvent(payload: unknown, options?: ValidateOptions): payload is T;
  assertEvent(payload: unknown, options?: ValidateOptions): asserts payload is T;
}

/** The API of a group package, over its map of event key to payload type. */
export interface GroupApi<M> {
  readonly eventKeys: readonly KeyOf<M>[];
  validate(key: KeyOf<M> | (string & {}), payload: unknown, options?: ValidateOptions): ValidationResult;
  isEvent<K extends KeyOf<M>>(key: K, payload: unknown, options?: ValidateOptions): payload is M[K];
  assertEvent<K extends KeyOf<M>>(
    key: K,
    payload: unknown,
    options?: ValidateOptions,
  ): asserts payload is M[K];
}

/** A matcher result, as vitest and jest expect it. */
export interface MatcherResult {
  pass: boolean;
  message(): string;
}

/**
 * The matchers for `expect.extend`: a type alias, not an interface, so that it fits the index signature
 * of vitest's and jest's `expect.extend` parameter.
 */
export type EventMatchers = {
  toBeValidEvent(received: unknown, key: string, options?: ValidateOptions): MatcherResult;
};

/** A generated ajv standalone validator. */
export interface CompiledValidator {
  (data: unknown, context?: { instancePath: string }): boolean;
  errors?: AjvError[] | null;
}

/** The part of an ajv error the mapping reads. */
export interface AjvError {
  keyword: string;
  instancePath: string;
  // biome-ignore lint/suspicious/noExplicitAny: ajv's params differ per keyword; the mapping reads them by keyword.
  params: Record<string, any>;
}

/** A first-error check of one event: `tolerant` picks the mode's validator. */
export type FastCheck = (payload: unknown, tolerant: boolean, context: { instancePath: string }) => boolean;

/** The all-errors run the generated code reports to (`eventryRun`). */
export interface ErrorRun {
  readonly tolerant: boolean;
  report(error: AjvError): void;
}

/** One group package, as its matchers make it known to the matchers of the others. */
export interface MatcherGroup {
  packageName: string;
  eventKeys: readonly string[];
  validate(key: string, payload: unknown, options?: ValidateOptions): ValidationResult;
}

/** A failed validation, as built here. */
type Failure = { valid: false; error: ErrorBody };

const VALID: ValidationResult = Object.freeze({ valid: true });
/** What no caller can pass as an event key. */
const NO_KEY = Symbol('no event key');

/** The error `assertEvent` throws; `body` is exactly the platform's 400 body. */
export class EventValidationError extends Error {
  /** `body.code`. */
  declare readonly code: ErrorBody['code'];
  /** `body.errors`. */
  declare readonly errors: ErrorItem[];
  /** Exactly the platform's 400 body. */
  declare readonly body: ErrorBody;
  constructor(body: ErrorBody) {
    super(body.detail);
    this.name = 'EventValidationError';
    this.code = body.code;
    this.errors = body.errors;
    this.body = body;
  }
}

/**
 * ajv's generated functions default their second argument to a fresh object on every call; passing
 * one shared context saves the allocation. Nothing writes to it.
 */
const CONTEXT = Object.freeze({ instancePath: '' });

/** How many problems a result lists unless `maxErrors` says otherwise. */
export const DEFAULT_MAX_ERRORS: number = 100;

/**
 * How many problems a run counts before it stops looking: past the listed ones it only counts, so the
 * final item can say how many more there are, up to this bound (then "at least").
 */
const COUNT_BOUND = 10_000;

/**
 * One event's API from its generated validators, each compiled on first use (a group package's
 * import only pre-parses its events' code). `compileFast` defines the first-error validators of both
 * modes and returns this event's own `check(payload, tolerant, context)` over them: a function per
 * event, so its calls into the validators stay monomorphic however many events a process validates.
 * `compileFull` returns the all-errors validator of the strict schema, which runs only once a fast one
 * has failed; it reports each error to `RUN` as found and skips undocumented keys when `RUN.tolerant`.
 */
export function defineEvent<T, K extends string>(
  key: K,
  compileFast: (exports: object) => FastCheck,
  compileFull: (exports: object, run: ErrorRun) => CompiledValidator,
): EventApi<T, K> {
  let check: FastCheck | undefined;
  let complete: CompiledValidator | undefined;
  function validate(payload: unknown, options?: ValidateOptions): ValidationResult {
    const isTolerant = options === undefined ? false : readMode(options);
    check ??= compileFast({});
    try {
      if (check(payload, isTolerant, CONTEXT)) return VALID;
    } catch (error) {
      return failure(key, [unreadable(error)], 1);
    }
    complete ??= compileFull({}, RUN);
    return explain(key, complete, payload, isTolerant, readMaxErrors(options));
  }
  return {
    key,
    validate,
    isEvent: (payload: unknown, options?: ValidateOptions): payload is T =>
      validate(payload, options) === VALID,
    assertEvent: (payload: unknown, options?: ValidateOptions): asserts payload is T => {
      const result = validate(payload, options);
      if (result !== VALID) throw new EventValidationError((result as Failure).error);
    },
  };
}

/** A group's API over its events: the same calls, with the event key first. */
export function defineGroup<M>(packageName: string, events: readonly EventApi<unknown>[]): GroupApi<M> {
  const byKey = new Map(events.map((api) => [api.key, api.validate]));
  const eventKeys = Object.freeze(events.map((api) => api.key)) as readonly KeyOf<M>[];

  // Producers and consumers mostly validate runs of one event: remember the last one looked up.
  let lastKey: unknown = NO_KEY;
  let lastValidate: EventApi<unknown>['validate'] | undefined;
  function validate(key: unknown, payload: unknown, options?: ValidateOptions): ValidationResult {
    if (key === lastKey) return lastValidate!(payload, options);
    const validateEvent = byKey.get(key as string);
    if (validateEvent === undefined) return unknownEvent(packageName, key, eventKeys);
    lastKey = key;
    lastValidate = validateEvent;
    return validateEvent(payload, options);
  }

  return {
    eventKeys,
    validate,
    isEvent: <K extends KeyOf<M>>(key: K, payload: unknown, options?: ValidateOptions): payload is M[K] =>
      validate(key, payload, options) === VALID,
    assertEvent: <K extends KeyOf<M>>(
      key: K,
      payload: unknown,
      options?: ValidateOptions,
    ): asserts payload is M[K] => {
      const result = validate(key, payload, options);
      if (result !== VALID) throw new EventValidationError((result as Failure).error);
    },
  };
}

/**
 * Where the matchers of every group package loaded in this process find each other (each package has
 * its own copy of this file): `expect.extend` with two packages' matchers keeps only the last
 * `toBeValidEvent`, which must then know the events of both.
 */
const GROUPS_OF_MATCHERS = Symbol.for('eventry.matcher-groups');

function matcherGroups(): Map<string, MatcherGroup> {
  let groups = (globalThis as Record<symbol, unknown>)[GROUPS_OF_MATCHERS];
  if (!(groups instanceof Map)) {
    groups = new Map();
    Object.defineProperty(globalThis, GROUPS_OF_MATCHERS, { value: groups });
  }
  return groups as Map<string, MatcherGroup>;
}

/**
 * Matchers for vitest and jest (`expect.extend(matchers)`): `expect(payload).toBeValidEvent(key)`,
 * for the events of `group` and of every other group package whose matchers this process has loaded.
 */
export function createMatchers(group: MatcherGroup): EventMatchers {
  const groups = matcherGroups();
  groups.set(group.packageName, group);
  return {
    toBeValidEvent(received: unknown, key: string, options?: ValidateOptions): MatcherResult {
      const owner = [...groups.values()].find((candidate) => candidate.eventKeys.includes(key));
      const result = owner
        ? owner.validate(key, received, options)
        : unknownEvent(
            [...groups.keys()].join(' or '),
            key,
            [...groups.values()].flatMap((candidate) => candidate.eventKeys),
          );
      const what = `a valid \`${describeKey(key)}\` event (${readMode(options) ? 'tolerant' : 'strict'} mode)`;
      if (result.valid) {
        return { pass: true, message: () => `expected the payload not to be ${what}, but it is` };
      }
      const lines = result.error.errors.map(
        (item) => `  ${item.attr === '' ? '(payload)' : item.attr}: ${item.detail}`,
      );
      return {
        pass: false,
        message: () => [`expected the payload to be ${what}: ${result.error.detail}`, ...lines].join('\n'),
      };
    },
  };
}

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
    items.push(toErrorItem(error, payload));
  }
  return items;
}

function toErrorItem(error: AjvError, payload: unknown): ErrorItem {
  const path = toDotPath(error.instancePath);
  switch (error.keyword) {
    case 'required': {
      const attr = joinPath(path, error.params.missingProperty);
      return { detail: `\`${attr}\` is required but missing.`, code: 'required', attr };
    }
    case 'additionalProperties': {
      const attr = joinPath(path, error.params.additionalProperty);
      return {
        detail: `\`${attr}\` is not a documented field; only documented fields may be sent.`,
        code: 'unknown_field',
        attr,
      };
    }
    case 'type':
      return { detail: typeDetail(path, error, payload), code: 'invalid_type', attr: path };
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

/**
 * The all-errors run in progress, which the generated code sees as `eventryRun`: it reports each error
 * as found (`report`) and skips undocumented keys in tolerant mode (`tolerant`). One per module, swapped
 * in and out by `explain`, so a getter in a payload that validates another payload cannot mix them up.
 */
let current: Run | undefined;
const RUN: ErrorRun = Object.freeze({
  get tolerant() {
    return current!.tolerant;
  },
  report(error: AjvError) {
    current!.report(error);
  },
});
/** Thrown by `report` to end a run that has counted enough problems. */
const STOP = Symbol('enough problems');

/** One all-errors run: what it lists and how many problems it found. */
interface Run extends ErrorRun {
  listed: AjvError[];
  found: number;
  stopped: boolean;
}

function explain(
  key: string,
  complete: CompiledValidator,
  payload: unknown,
  tolerant: boolean,
  maxErrors: number,
): Failure {
  const bound = Math.max(maxErrors + 1, COUNT_BOUND);
  let typePath: string | undefined;
  const run: Run = {
    tolerant,
    listed: [],
    found: 0,
    stopped: false,
    report(error: AjvError) {
      // A value of the wrong type also fails its enum: that is one problem, already reported.
      if (error.keyword === 'type') typePath = error.instancePath;
      else if (error.keyword === 'enum' && error.instancePath === typePath) return;
      if (run.found < maxErrors) run.listed.push(error);
      run.found += 1;
      if (run.found >= bound) {
        run.stopped = true;
        throw STOP;
      }
    },
  };
  const outer = current;
  current = run;
  let items: ErrorItem[] | undefined;
  try {
    complete(payload, CONTEXT);
  } catch (error) {
    if (error !== STOP) items = [unreadable(error)];
  } finally {
    current = outer;
  }
  if (items !== undefined) return failure(key, items, 1);
  if (run.found === 0) {
    // The fast validator failed and the complete one found nothing: the payload changed while read.
    const changed: ErrorItem = {
      detail: 'The payload gave different values each time it was read.',
      code: 'unreadable_payload',
      attr: '',
    };
    return failure(key, [changed], 1);
  }
  items = [];
  for (const error of run.listed) items.push(toErrorItem(error, payload));
  const more = run.found - run.listed.length;
  if (more > 0) items.push(tooMany(more, run.stopped, maxErrors));
  return failure(key, items, run.stopped ? `at least ${run.found}` : run.found);
}

function tooMany(more: number, stopped: boolean, maxErrors: number): ErrorItem {
  const count = `${stopped ? 'At least ' : ''}${more} more ${more === 1 ? 'problem is' : 'problems are'}`;
  return {
    detail: `${count} not listed: a result lists the first ${maxErrors} (option \`maxErrors\`).`,
    code: 'too_many_problems',
    attr: '',
  };
}

function failure(key: string, errors: ErrorItem[], found: number | string): Failure {
  const count = found === 1 ? '1 problem' : `${found} problems`;
  return {
    valid: false,
    error: {
      detail: `The payload is not a valid \`${key}\` event: ${count}.`,
      code: 'event_failed_validation',
      errors,
    },
  };
}

function unknownEvent(packageName: string, key: unknown, eventKeys: readonly string[]): Failure {
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

function unreadable(error: unknown): ErrorItem {
  let reason: string;
  try {
    reason = error instanceof Error ? `${error.name}: ${error.message}` : typeof error;
  } catch {
    reason = 'unknown error';
  }
  return { detail: `The payload could not be read (${reason}).`, code: 'unreadable_payload', attr: '' };
}

/**
 * The mode asked for: `tolerant` or, by default, `strict`. Options that cannot be read (null, a getter
 * that throws) mean the default; a mode that is neither is a caller's mistake, never silently strict.
 */
function readMode(options: unknown): boolean {
  let mode: unknown;
  try {
    if (options === null || typeof options !== 'object') return false;
    mode = (options as { mode?: unknown }).mode;
  } catch {
    return false;
  }
  if (mode === 'tolerant') return true;
  if (mode === undefined || mode === 'strict') return false;
  throw new TypeError(
    `eventry: unknown validation mode ${describeOption(mode)}; use 'strict' (the default) or 'tolerant'.`,
  );
}

/** `options.maxErrors`, read only once a payload has failed: a positive integer, by default 100. */
function readMaxErrors(options: unknown): number {
  let max: unknown;
  try {
    if (options === null || typeof options !== 'object') return DEFAULT_MAX_ERRORS;
    max = (options as { maxErrors?: unknown }).maxErrors;
  } catch {
    return DEFAULT_MAX_ERRORS;
  }
  if (max === undefined) return DEFAULT_MAX_ERRORS;
  if (Number.isSafeInteger(max) && (max as number) > 0) return max as number;
  throw new TypeError(`eventry: maxErrors must be a positive integer, not ${describeOption(max)}.`);
}

function describeOption(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : `a ${typeof value} (${String(value)})`;
}

/**
 * The closest of `candidates` to a mistyped `name`, if it is close enough to be the likely intent:
 * within a third of the name's length (at least 2) in Levenshtein distance, ignoring case. The loader
 * (generators/load/suggest.ts) uses this same function, so the toolkit and the packages agree.
 */
export function suggest(name: string, candidates: Iterable<string>): string | undefined {
  const lower = name.toLowerCase();
  const limit = Math.max(2, Math.floor(name.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    // The distance is at least the difference in length: a long hostile key costs nothing.
    if (Math.abs(candidate.length - name.length) >= bestDistance) continue;
    const d = distance(lower, candidate.toLowerCase(), bestDistance);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/** Levenshtein distance of `a` and `b`, or `cap` once it is certain to be at least that. */
function distance(a: string, b: string, cap: number): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row: number[] = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const d = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      row.push(d);
      if (d < rowMin) rowMin = d;
    }
    if (rowMin >= cap) return cap;
    previous = row;
  }
  return previous[b.length]!;
}

function describeKey(key: unknown): string {
  return typeof key === 'string' ? key : `(a ${typeof key})`;
}

/** A field's dot path below `path`; an all-digit field name is quoted, as it is a key, not an index. */
function joinPath(path: string, name: string): string {
  const part = /^\d+$/.test(name) ? JSON.stringify(name) : attrPart(name);
  return path === '' ? part : `${path}.${part}`;
}

function subject(path: string): string {
  return path === '' ? 'The payload' : `\`${path}\``;
}

function typeDetail(path: string, error: AjvError, payload: unknown): string {
  const expected = error.params.type;
  const want = TYPES[expected] ?? expected;
  const got = describeValue(valueAt(payload, error.instancePath));
  if (got === 'null' && path !== '') {
    if (isArrayItem(payload, error.instancePath)) {
      return `${subject(path)} must be ${want}, not null; an array holds no null items.`;
    }
    // The run time does not know whether the field is required, so the advice covers both cases.
    return `${subject(path)} must be ${want}, not null; null is never a value here: a required field needs ${want}, an optional field with no value is left out.`;
  }
  return got === undefined
    ? `${subject(path)} must be ${want}.`
    : `${subject(path)} must be ${want}, not ${got}.`;
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

function describeValue(found: { value: unknown } | undefined): string | undefined {
  if (found === undefined) return undefined;
  const { value } = found;
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

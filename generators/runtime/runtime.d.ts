/** The types of the run time every generated group package ships (`runtime.js`). */

/** `strict` (producers, the default): undocumented fields are errors. `tolerant` (consumers): accepted. */
export type ValidationMode = 'strict' | 'tolerant';

/** Options of `validate`, `isEvent` and `assertEvent`; any other `mode` throws a `TypeError`. */
export interface ValidateOptions {
  mode?: ValidationMode;
  /** How many problems a result lists (default 100); a final `too_many_problems` item counts the rest. */
  maxErrors?: number;
}

/** How many problems a result lists unless `maxErrors` says otherwise. */
export declare const DEFAULT_MAX_ERRORS: number;

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

/** What `assertEvent` throws; `body` is exactly the platform's 400 body. */
export declare class EventValidationError extends Error {
  constructor(body: ErrorBody);
  readonly code: ErrorBody['code'];
  readonly errors: ErrorItem[];
  readonly body: ErrorBody;
}

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
  (this: ValidatorContext, data: unknown, context?: { instancePath: string }): boolean;
  errors?: AjvError[] | null;
}

/** The part of an ajv error the mapping reads. */
export interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
}

/** What the generated validator sees as `this`: the mode, and where each error goes as found. */
export interface ValidatorContext {
  readonly tolerant: boolean;
  report(error: AjvError): void;
}

/** One event's API over its generated validator (`this` is a `ValidatorContext`). */
export declare function defineEvent<T, K extends string>(
  key: K,
  compile: (exports: object) => CompiledValidator,
): EventApi<T, K>;

export declare function defineGroup<M>(
  packageName: string,
  events: readonly EventApi<unknown>[],
): GroupApi<M>;

/** One group package, as its matchers make it known to the matchers of the others. */
export interface MatcherGroup {
  packageName: string;
  eventKeys: readonly string[];
  validate(key: string, payload: unknown, options?: ValidateOptions): ValidationResult;
}

/** Matchers over the events of `group` and of every other group whose matchers are loaded. */
export declare function createMatchers(group: MatcherGroup): EventMatchers;

/** The closest candidate to a mistyped name, if close enough to be the likely intent (shared with the loader). */
export declare function suggest(name: string, candidates: Iterable<string>): string | undefined;

export declare function toErrorItems(
  ajvErrors: readonly AjvError[],
  payload: unknown,
  tolerant: boolean,
): ErrorItem[];

export declare function toDotPath(pointer: string): string;

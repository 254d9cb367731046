/** The run time's types: options, results, the group and event APIs, and what generated code is given. */

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
  | 'rule_violated'
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

/**
 * A generated validator: the all-errors code of an event's closed schema. Code generated for 1.4.0 on
 * opens a run itself at the first error; earlier code is given one, as its last argument (1.3.0) or as
 * `this` (1.2.0 and before), and says which (`CompiledExports.context`).
 */
export type CompiledValidator = OpenRunValidator | RunArgumentValidator | RunThisValidator;
/**
 * A validator generated for 1.4.0 on, called as `validate(payload, '', undefined, undefined, tolerant,
 * options)`: it opens a run at the first error (`CompiledExports.open`) and returns it, or returns
 * nothing for a valid payload, which then touches no state outside the call.
 */
export type OpenRunValidator = (
  data: unknown,
  instancePath: string,
  parentData: unknown,
  run: ValidatorContext | undefined,
  tolerant: boolean,
  options: ValidateOptions | undefined,
) => ValidatorContext | undefined;
/** A validator generated for 1.3.0: the run time calls it as `validate(payload, '', undefined, run)`. */
export type RunArgumentValidator = (
  data: unknown,
  instancePath: string,
  parentData: unknown,
  run: ValidatorContext,
) => boolean;
/** A validator generated for 1.2.0 or before: the run time calls it as `validate.call(run, payload, '')`. */
export type RunThisValidator = (this: ValidatorContext, data: unknown, instancePath?: string) => boolean;

/**
 * A place of the generated code that reports an error, as its code describes it once: `[0, suffix]`
 * a missing field, `[1, suffix]` an undocumented one, `[2, suffix, type, item]` a wrong type (`item`
 * null when the call passes it); null for a place that calls the run's `report` itself.
 */
export type Place = readonly [0 | 1, string] | readonly [2, string, string, boolean | null] | null;

/**
 * What each error place of code generated for 1.4.0 on calls: hands the error at place `site` to `run`
 * (or to a run it opens with `options`) and returns the run. `prefix` is the path's first part; `key`
 * the undocumented key; `value` the value of the wrong type, and `parentData` what holds it where the
 * place does not say whether it is an array item.
 */
export interface Reporter {
  missing(
    run: ValidatorContext | undefined,
    options: ValidateOptions | undefined,
    site: number,
    prefix: string,
  ): ValidatorContext;
  undocumented(
    run: ValidatorContext | undefined,
    options: ValidateOptions | undefined,
    site: number,
    prefix: string,
    key: string,
  ): ValidatorContext;
  mistyped(
    run: ValidatorContext | undefined,
    options: ValidateOptions | undefined,
    site: number,
    prefix: string,
    value: unknown,
    parentData?: unknown,
  ): ValidatorContext;
}

/**
 * What the run time gives a generated event's code, and what the code sets besides its validator.
 * Given (read by code generated for 1.4.0 on): `open` opens a run with the caller's options; `fail`
 * makes, from the code's places (`Place`), the functions each place calls with its error (`Reporter`); `mode`
 * reads the options' mode (true: tolerant); `failed` ends a validation whose run found problems,
 * `thrown` one that met an exception (a run that counted enough problems is thrown); `valid` is the
 * result of a valid payload. Given for code generated for 1.7.0 on, which lists each error's item
 * itself (list.ts, docs/decisions/0191): `add` lists an item, `items` makes the item makers of the
 * code's places, `failedWith` ends a validation that listed items, `caught` one that met an exception.
 * Set: `context`, how the code reports its errors: `"list"` (1.7.0 on), `"open"` (1.4.0 to 1.6.x),
 * `"argument"` (1.3.0), none (1.2.0 and before); `entry`, the event's `validate(payload, options)`
 * (1.4.0 on).
 */
export interface CompiledExports {
  validate?: CompiledValidator;
  context?: unknown;
  entry?: (payload: unknown, options?: ValidateOptions) => ValidationResult;
  open?: (options: ValidateOptions | undefined) => ValidatorContext;
  fail?: (places: readonly Place[]) => Reporter;
  mode?: (options: unknown) => boolean;
  failed?: (run: ValidatorContext) => ValidationResult;
  thrown?: (error: unknown) => ValidationResult;
  valid?: ValidationResult;
  add?: (
    items: ErrorItem[] | undefined,
    options: ValidateOptions | undefined,
    item: ErrorItem,
  ) => ErrorItem[];
  items?: (places: readonly Place[]) => ItemMakers;
  failedWith?: (items: ErrorItem[], options: ValidateOptions | undefined) => ValidationResult;
  caught?: (error: unknown, options: ValidateOptions | undefined) => ValidationResult;
}

/**
 * The items of the places whose path is made as the walk goes (a path through an array index, a
 * shape's function of its own) and of those whose texts depend on the payload (an undocumented key, the
 * kind of a value of the wrong type): each a fresh object, its texts made once per place where the path
 * is fixed (`prefix === ''`), listed (`add`) by the same call, so that each place in the generated
 * code is one short call and V8 still inlines the code of an event into its entry (a literal item and
 * a second call at each place took the flat event's function past V8's inlining limit; 0191).
 */
export interface ItemMakers {
  missing(
    run: ErrorItem[] | undefined,
    options: ValidateOptions | undefined,
    site: number,
    prefix: string,
  ): ErrorItem[];
  undocumented(
    run: ErrorItem[] | undefined,
    options: ValidateOptions | undefined,
    site: number,
    prefix: string,
    key: string,
  ): ErrorItem[];
  mistyped(
    run: ErrorItem[] | undefined,
    options: ValidateOptions | undefined,
    site: number,
    prefix: string,
    value: unknown,
    parentData?: unknown,
  ): ErrorItem[];
  /** Any other error (`enum`, `format`), as ajv builds it (with `data`). */
  reported(run: ErrorItem[] | undefined, options: ValidateOptions | undefined, error: AjvError): ErrorItem[];
}

/** The part of an ajv error the mapping reads. */
export interface AjvError {
  keyword: string;
  instancePath: string;
  // biome-ignore lint/suspicious/noExplicitAny: ajv's params differ per keyword; the mapping reads them by keyword.
  params: Record<string, any>;
  /** The value the error is about (the generated code is compiled in ajv's `verbose` mode). */
  data?: unknown;
  /** For a `type` error from the generated code: whether the value is an array item. */
  item?: boolean;
}

/**
 * A validation run as generated code sees it: where each error goes as found (see `writeValidatorCode`
 * in generators/emit/package/validator/write-code.ts), and the mode for code generated before 1.4.0. Paths are dot paths with a leading `.`
 * per part (`""` is the payload itself). The two-part methods take `prefix + suffix` and the place in
 * the code that reports the error (`site`), so that texts are made once per place; the methods of every
 * earlier minor version stay, for code generated for it (see docs/decisions/0066).
 */
export interface ValidatorContext {
  readonly tolerant: boolean;
  /** A missing required field at `prefix + suffix` (its name quoted as the platform's dot path needs). */
  missing(prefix: string, suffix: string, site: number): void;
  /** An undocumented field `key` of the object at `prefix + suffix`. */
  undocumented(prefix: string, suffix: string, key: string, site: number): void;
  /**
   * A value of the wrong type at `prefix + suffix`: JSON Schema's `type`, the value, whether it is an
   * array item.
   */
  mistyped(prefix: string, suffix: string, type: string, value: unknown, item: boolean, site: number): void;
  /** A missing required field, at `attr` (code generated for 1.1.0). */
  required(attr: string): void;
  /** An undocumented field `key` of the object at `path` (code generated for 1.1.0). */
  unknown(path: string, key: string): void;
  /** A value of the wrong type at `path` (code generated for 1.1.0). */
  type(path: string, type: string, value: unknown, item: boolean): void;
  /** Any other error, as ajv builds it (with `data`, its path a dot path). */
  report(error: AjvError): void;
  /** A data rule the payload breaks (`rules:`): its message, and the dot path it names (code generated for 1.5.0 on). */
  violated?(detail: string, attr: string): void;
}

/** One group package, as its matchers make it known to the matchers of the others. */
export interface MatcherGroup {
  packageName: string;
  eventKeys: readonly string[];
  validate(key: string, payload: unknown, options?: ValidateOptions): ValidationResult;
}

/** A failed validation, as built here. */
export type Failure = { valid: false; error: ErrorBody };

/**
 * Standard Schema V1 (https://standardschema.dev, `@standard-schema/spec` 1.1.0), the interface Zod,
 * Valibot and ArkType share and that tRPC, Hono's validator and others accept: each event of a group
 * package as a `StandardSchemaV1<unknown, Payload>` over its precompiled validator. The spec's types are
 * copied below, as the spec invites ("copy/paste the code block"), so that no package depends on it;
 * they are structural, so a project's own `@standard-schema/spec` types accept these (see
 * docs/decisions/0085).
 */
import type {
  ErrorItem,
  EventApi,
  KeyOf,
  ValidateOptions,
  ValidationMode,
  ValidationResult,
} from './types.js';

/** The Standard Typed interface (copied from `@standard-schema/spec` 1.1.0). */
export interface StandardTypedV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardTypedV1.Props<Input, Output>;
}
export declare namespace StandardTypedV1 {
  interface Props<Input = unknown, Output = Input> {
    readonly version: 1;
    readonly vendor: string;
    readonly types?: Types<Input, Output> | undefined;
  }
  interface Types<Input = unknown, Output = Input> {
    readonly input: Input;
    readonly output: Output;
  }
  type InferInput<Schema extends StandardTypedV1> = NonNullable<Schema['~standard']['types']>['input'];
  type InferOutput<Schema extends StandardTypedV1> = NonNullable<Schema['~standard']['types']>['output'];
}

/** The Standard Schema interface (copied from `@standard-schema/spec` 1.1.0). */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaV1.Props<Input, Output>;
}
export declare namespace StandardSchemaV1 {
  interface Props<Input = unknown, Output = Input> extends StandardTypedV1.Props<Input, Output> {
    readonly validate: (
      value: unknown,
      options?: StandardSchemaV1.Options | undefined,
    ) => Result<Output> | Promise<Result<Output>>;
  }
  type Result<Output> = SuccessResult<Output> | FailureResult;
  interface SuccessResult<Output> {
    readonly value: Output;
    readonly issues?: undefined;
  }
  interface Options {
    readonly libraryOptions?: Record<string, unknown> | undefined;
  }
  interface FailureResult {
    readonly issues: ReadonlyArray<Issue>;
  }
  interface Issue {
    readonly message: string;
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined;
  }
  interface PathSegment {
    readonly key: PropertyKey;
  }
  interface Types<Input = unknown, Output = Input> extends StandardTypedV1.Types<Input, Output> {}
  type InferInput<Schema extends StandardTypedV1> = StandardTypedV1.InferInput<Schema>;
  type InferOutput<Schema extends StandardTypedV1> = StandardTypedV1.InferOutput<Schema>;
}

/** The Standard Schemas of a group's events, by event key. */
export type StandardSchemas<M> = { readonly [K in KeyOf<M>]: StandardSchemaV1<unknown, M[K]> };

/** The `vendor` of every eventry Standard Schema. */
export const STANDARD_VENDOR = 'eventry';

type Validate = EventApi<unknown>['validate'];

const TOLERANT: ValidateOptions = Object.freeze({ mode: 'tolerant' });

/**
 * An event as a Standard Schema in `mode`, over the event's `validate`, which `find` gives on the first
 * validation (a group sets up an event's validator on first use: making the schema sets up nothing).
 * `~standard.validate` returns the payload itself as `value`, or one issue per error item: `message` the
 * item's `detail`, `path` its `attr` as segments (array indexes as numbers). `libraryOptions` may carry
 * `validate`'s own options (`mode`, `maxErrors`), over the schema's mode.
 */
export function standardSchemaOf<T>(
  find: () => Validate,
  mode: ValidationMode,
): StandardSchemaV1<unknown, T> {
  const fixed = mode === 'tolerant' ? TOLERANT : undefined;
  let validateEvent: Validate | undefined;
  const props: StandardSchemaV1.Props<unknown, T> = {
    version: 1,
    vendor: STANDARD_VENDOR,
    validate: (value, options) => {
      validateEvent ??= find();
      const library = options?.libraryOptions;
      const result = validateEvent(value, library === undefined ? fixed : optionsOf(library, mode));
      return standardResult<T>(value, result);
    },
  };
  // Not frozen: freezing cost more than making the objects (docs/decisions/0085).
  return { '~standard': props };
}

/**
 * The Standard Schemas of a group's events (each `EventApi` or an event set up on first use), in
 * `mode`: one small object per event, made at import; no validator is set up until one validates.
 */
export function defineStandardSchemas<M>(
  events: readonly (EventApi<unknown> | { readonly key: string; api(): EventApi<unknown> })[],
  mode: ValidationMode,
): StandardSchemas<M> {
  const schemas: Record<string, StandardSchemaV1> = {};
  for (const event of events) {
    const find = 'api' in event ? () => event.api().validate : () => event.validate;
    // An event key ends in its version (`-v1`, `-1.0.0`): never `__proto__` or the like.
    schemas[event.key] = standardSchemaOf(find, mode);
  }
  return schemas as StandardSchemas<M>;
}

function optionsOf(library: Record<string, unknown>, mode: ValidationMode): ValidateOptions {
  return {
    mode: (library.mode ?? mode) as ValidationMode,
    maxErrors: library.maxErrors as number | undefined,
  };
}

/** A `validate` result as Standard Schema's. */
function standardResult<T>(value: unknown, result: ValidationResult): StandardSchemaV1.Result<T> {
  if (result.valid) return { value: value as T };
  return { issues: result.error.errors.map(toIssue) };
}

function toIssue(item: ErrorItem): StandardSchemaV1.Issue {
  return { message: item.detail, path: toPathSegments(item.attr) };
}

/**
 * An `attr` (the platform's dot path) as path segments: `entry.items.0.id` -> `['entry', 'items', 0,
 * 'id']`. A part written as a JSON string (`meta."a.b"`, `""`) is that key; any other all-digit part is
 * an array index, a number; `""` (the payload itself) is no segment.
 */
export function toPathSegments(attr: string): (string | number)[] {
  if (attr === '') return [];
  const segments: (string | number)[] = [];
  let at = 0;
  while (at <= attr.length) {
    if (attr.charCodeAt(at) === QUOTE) {
      const end = closingQuote(attr, at);
      segments.push(JSON.parse(attr.slice(at, end + 1)) as string);
      at = end + 2;
    } else {
      let end = attr.indexOf('.', at);
      if (end === -1) end = attr.length;
      const part = attr.slice(at, end);
      segments.push(INDEX.test(part) ? Number(part) : part);
      at = end + 1;
    }
  }
  return segments;
}

const QUOTE = 34;
const INDEX = /^(0|[1-9]\d*)$/;

/** Where the JSON string starting at `start` ends: its closing quote (a quote not escaped by `\`). */
function closingQuote(attr: string, start: number): number {
  let at = start + 1;
  while (at < attr.length) {
    const code = attr.charCodeAt(at);
    if (code === BACKSLASH) at += 2;
    else if (code === QUOTE) return at;
    else at++;
  }
  return attr.length - 1;
}

const BACKSLASH = 92;

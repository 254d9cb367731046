import { add, caughtBy, itemMakers, resultOf } from './list.js';
import { readMode } from './options.js';
import type {
  CompiledExports,
  ErrorBody,
  EventApi,
  Failure,
  ValidateOptions,
  ValidationResult,
} from './types.js';

/** The result of every valid payload: one frozen object, so `isEvent` compares it by identity. */
export const VALID: ValidationResult = Object.freeze({ valid: true });

/**
 * What code generated for 1.7.0 on (context `"list"`, list.ts) is given to call, for the event `key`:
 * one set for both `defineEvent`s (runtime.ts, which adds the earlier protocols, and event-entry.ts).
 * `summaries` keeps the body's detail by problem count, made once per count (`summaryOf` in run.ts).
 */
export function listExports(
  key: string,
  summaries: string[],
): Pick<CompiledExports, 'mode' | 'valid' | 'add' | 'items' | 'failedWith' | 'caught'> {
  return {
    mode: readMode,
    valid: VALID,
    add,
    items: itemMakers,
    failedWith: resultOf(key, summaries),
    caught: (error, options) => caughtBy(key, summaries, error, options),
  };
}

/**
 * An event's API over its `validate`: what `defineEvent` returns, in the group's run time (runtime.ts)
 * and in the event entry points' (event-entry.ts). `ErrorClass` is the process's one
 * `EventValidationError`, which `assertEvent` throws with the platform's body.
 */
export function eventApiOf<T, K extends string>(
  key: K,
  validate: (payload: unknown, options?: ValidateOptions) => ValidationResult,
  ErrorClass: new (body: ErrorBody) => Error,
): EventApi<T, K> {
  return {
    key,
    validate,
    isEvent: (payload: unknown, options?: ValidateOptions): payload is T =>
      validate(payload, options) === VALID,
    assertEvent: (payload: unknown, options?: ValidateOptions): asserts payload is T => {
      const result = validate(payload, options);
      if (result !== VALID) throw new ErrorClass((result as Failure).error);
    },
  };
}

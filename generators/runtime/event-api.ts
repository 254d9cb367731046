import type { ErrorBody, EventApi, Failure, ValidateOptions, ValidationResult } from './types.js';

/** The result of every valid payload: one frozen object, so `isEvent` compares it by identity. */
export const VALID: ValidationResult = Object.freeze({ valid: true });

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

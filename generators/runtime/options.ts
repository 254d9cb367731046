import type { ValidateOptions } from './types.js';

/** How many problems a result lists unless `maxErrors` says otherwise. */
export const DEFAULT_MAX_ERRORS: number = 100;

/**
 * The mode asked for: `tolerant` or, by default, `strict`. Options that cannot be read (null, a getter
 * that throws) mean the default; a mode that is neither is a caller's mistake, never silently strict.
 */
export function readMode(options: unknown): boolean {
  // Small, so that V8 inlines it into every `validate`; the error is made out of line.
  if (options === null || typeof options !== 'object') return false;
  let mode: unknown;
  try {
    mode = (options as ValidateOptions).mode;
  } catch {
    return false;
  }
  if (mode === 'tolerant') return true;
  if (mode === undefined || mode === 'strict') return false;
  throw unknownMode(mode);
}

function unknownMode(mode: unknown): TypeError {
  return new TypeError(
    `eventry: unknown validation mode ${describeOption(mode)}; use 'strict' (the default) or 'tolerant'.`,
  );
}

/** `options.maxErrors`, read only once a payload has failed: a positive integer, by default 100. */
export function readMaxErrors(options: unknown): number {
  let max: unknown;
  try {
    max =
      options !== null && typeof options === 'object' ? (options as ValidateOptions).maxErrors : undefined;
  } catch {
    max = undefined;
  }
  // Small, so that V8 inlines it where a failed validation ends; the check of a given value is out of line.
  return max === undefined ? DEFAULT_MAX_ERRORS : checkedMaxErrors(max);
}

function checkedMaxErrors(max: unknown): number {
  if (Number.isSafeInteger(max) && (max as number) > 0) return max as number;
  throw new TypeError(`eventry: maxErrors must be a positive integer, not ${describeOption(max)}.`);
}

function describeOption(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  // An object's own toString is the caller's code: it may throw, and the TypeError must still come.
  if (value !== null && (typeof value === 'object' || typeof value === 'function'))
    return `an ${typeof value}`;
  return `a ${typeof value} (${String(value)})`;
}

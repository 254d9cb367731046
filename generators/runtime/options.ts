import type { ValidateOptions } from './types.js';

/** How many problems a result lists unless `maxErrors` says otherwise. */
export const DEFAULT_MAX_ERRORS: number = 100;

/**
 * The mode asked for: `tolerant` or, by default, `strict`. Options that cannot be read (null, a getter
 * that throws) mean the default; a mode that is neither is a caller's mistake, never silently strict.
 */
export function readMode(options: unknown): boolean {
  // Small (45 bytes of bytecode), so that V8 inlines it into every `validate` within its budget for the
  // caller (docs/decisions/0197): a primitive has no `mode` to read, null throws and means the default
  // (the entry of code generated for 1.7.1 on tests it first); the error is made out of line.
  let mode: unknown;
  try {
    mode = (options as ValidateOptions).mode;
  } catch {
    return false;
  }
  return mode === 'tolerant' || (mode !== undefined && mode !== 'strict' && badMode(mode));
}

function badMode(mode: unknown): never {
  throw unknownMode(mode);
}

function unknownMode(mode: unknown): TypeError {
  return new TypeError(
    `eventry: unknown validation mode ${describeOption(mode)}; use 'strict' (the default) or 'tolerant'.`,
  );
}

/** `options.maxErrors`, read only once a payload has failed: a positive integer, by default 100. */
export function readMaxErrors(options: unknown): number {
  // Small, so that V8 inlines it where a failed validation ends; the check of a given value is out of line.
  if (options == null) return DEFAULT_MAX_ERRORS;
  let max: unknown;
  try {
    max = (options as ValidateOptions).maxErrors;
  } catch {
    return DEFAULT_MAX_ERRORS;
  }
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

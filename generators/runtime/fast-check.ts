/**
 * fast-check, when the project has it installed (an optional peer dependency of the run time): only
 * `arbitrary` of a group's `testing` entry point needs it. Loaded here, in a module of its own, so that
 * the rest of the test data (and the docs playground) never asks for it.
 */
import type { FastCheck } from './testing.js';

/** The fast-check module, or undefined when it cannot be imported. */
export const fastCheck: FastCheck | undefined = await import('fast-check').then(
  (module) => module,
  () => undefined,
);

import { _, Name } from 'ajv/dist/compile/codegen/index.js';

/** The names every generated function uses: its parameters, and what the run time gives it. */
export const DATA = new Name('data');
export const INSTANCE_PATH = new Name('instancePath');
export const PARENT_DATA = new Name('parentData');
export const RUN = new Name('run');
export const TOLERANT = new Name('tolerant');
export const OPTIONS = new Name('options');
export const OPEN = new Name('open');
/** What the run time gives the entry point (see `CompiledExports`). */
export const MODE = new Name('mode');
export const THROWN = new Name('thrown');
export const FAILED = new Name('failed');
export const VALID = new Name('valid');
export const PAYLOAD = new Name('payload');
export const FULL_FORMATS = new Name('fullFormats');
/** The run time's functions each error place calls, by kind of error (see `Place`). */
export const MISSING = new Name('missing');
export const UNDOCUMENTED = new Name('undocumented');
export const MISTYPED = new Name('mistyped');
/** The run an error goes to: the function's, or one opened at the payload's first error. */
export const OPENED = _`(${RUN} ??= ${OPEN}(${OPTIONS}))`;

import { Name } from 'ajv/dist/compile/codegen/index.js';

/** The names every generated function uses: its parameters, and what the run time gives it. */
export const DATA = new Name('data');
export const INSTANCE_PATH = new Name('instancePath');
export const PARENT_DATA = new Name('parentData');
/** The items listed so far (`ErrorItem[]`), undefined until the payload's first error. */
export const RUN = new Name('run');
export const TOLERANT = new Name('tolerant');
export const OPTIONS = new Name('options');
/** What the run time gives the code (see `CompiledExports`). */
export const MODE = new Name('mode');
export const VALID = new Name('valid');
export const ADD = new Name('add');
export const FAILED_WITH = new Name('failedWith');
export const CAUGHT = new Name('caught');
export const PAYLOAD = new Name('payload');
export const FULL_FORMATS = new Name('fullFormats');
/** The run time's item makers the places call whose item is not a literal (see `ItemMakers`). */
export const MISSING = new Name('missing');
export const UNDOCUMENTED = new Name('undocumented');
export const MISTYPED = new Name('mistyped');
export const REPORTED = new Name('reported');

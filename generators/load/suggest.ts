// The package run time owns the one implementation, so the loader and the packages agree.
/** The closest candidate to a misspelt name, if it is close enough to be the likely intent. */
export { suggest } from '../runtime/runtime.js';

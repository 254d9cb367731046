import { pathToFileURL } from 'node:url';
import type * as Runtime from '../runtime/runtime.js';
import { toolkitFilePath } from '../shared/toolkit-files.js';

// The package run time owns the one implementation (packages cannot depend on the toolkit); tsc does
// not copy it into dist/, so it is loaded from the source tree, as the emitter copies it from there.
const runtime = (await import(pathToFileURL(toolkitFilePath('runtime/runtime.js')).href)) as typeof Runtime;

/** The closest candidate to a misspelt name, if it is close enough to be the likely intent. */
export const suggest: typeof Runtime.suggest = runtime.suggest;

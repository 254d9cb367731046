import { emitAsyncApi } from './asyncapi.js';
import { emitCataloguePackage } from './catalogue-package.js';
import type { Emitter } from './context.js';
import { emitJsonSchemas } from './json-schema.js';
import { emitOpenApi } from './openapi.js';
import { emitGroupPackages } from './package/index.js';
import { emitRuntimePackage } from './package/runtime-package.js';

/** The name of each emitter a build runs: what the executors dispatch on, so a misspelled one does not compile. */
export type EmitterName =
  | 'json-schema'
  | 'asyncapi'
  | 'openapi'
  | 'catalogue-package'
  | 'runtime-package'
  | 'group-packages';

/** An emitter under its name. */
export interface NamedEmitter {
  readonly name: EmitterName;
  readonly emit: Emitter;
}

/** Every emitter a build runs, in order; each is a pure function of the model and its options (`EmitOptions`). */
export const EMITTERS: readonly NamedEmitter[] = [
  { name: 'json-schema', emit: emitJsonSchemas },
  // AsyncAPI before OpenAPI: the larger document (see docs/decisions/0002) is staged first, so
  // that its flush to disk (write.ts `earlyFlush`) runs while the rest is made, not after.
  { name: 'asyncapi', emit: emitAsyncApi },
  { name: 'openapi', emit: emitOpenApi },
  { name: 'catalogue-package', emit: emitCataloguePackage },
  { name: 'runtime-package', emit: emitRuntimePackage },
  { name: 'group-packages', emit: emitGroupPackages },
];

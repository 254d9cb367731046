import { emitAsyncApi } from './asyncapi.js';
import { emitCataloguePackage } from './catalogue-package.js';
import type { Emitter } from './context.js';
import { emitJsonSchemas } from './json-schema.js';
import { emitOpenApi } from './openapi.js';
import { emitGroupPackages } from './package/index.js';
import { emitRuntimePackage } from './package/runtime-package.js';

/** Every emitter a build runs, in order; each is a pure function of the model and its options (`EmitOptions`). */
export const EMITTERS: { name: string; emit: Emitter }[] = [
  { name: 'json-schema', emit: emitJsonSchemas },
  // AsyncAPI before OpenAPI: the larger document (see docs/decisions/0002) is staged first, so
  // that its flush to disk (write.ts `earlyFlush`) runs while the rest is made, not after.
  { name: 'asyncapi', emit: emitAsyncApi },
  { name: 'openapi', emit: emitOpenApi },
  { name: 'catalogue-package', emit: emitCataloguePackage },
  { name: 'runtime-package', emit: emitRuntimePackage },
  { name: 'group-packages', emit: emitGroupPackages },
];

import { buildAsyncApi } from '../../emit/asyncapi.js';
import type { EmitOptions } from '../../emit/context.js';
import { EMITTERS, type EmitterName } from '../../emit/index.js';
import { buildOpenApi } from '../../emit/openapi.js';
import { packageJsonPath, versionOf } from '../../emit/package/package-json.js';
import type { Catalogue } from '../../model.js';
import { modelEntries } from './deferred-entries.js';
import { documentFiles } from './document-text.js';
import type { FastContext, FastEmitter } from './emit-context.js';
import { emitGroupPackagesFast } from './group-units.js';
import type { FastTwin } from './twins.js';

/**
 * The catalogue documents written entry by entry into the staging folder (`openSink`), and with a
 * cache, copying the entries whose part of the model is unchanged from the last build's file.
 */
export const emitAsyncApiFast: FastEmitter = (model, context) => {
  const defer = context.cache?.recall !== undefined;
  const entries = defer ? (section: string) => modelEntries(model, section) : undefined;
  return documentFiles('catalogue/asyncapi', buildAsyncApi(model, entries), context);
};

export const emitOpenApiFast: FastEmitter = (model, context) => {
  const defer = context.cache?.recall !== undefined;
  return documentFiles(
    'catalogue/openapi',
    buildOpenApi(model, defer ? modelEntries(model) : undefined),
    context,
  );
};

const FASTER: Partial<Record<EmitterName, FastEmitter>> = {
  asyncapi: emitAsyncApiFast,
  openapi: emitOpenApiFast,
  'group-packages': emitGroupPackagesFast,
};

/** The options a pure emitter gets in the fast executor: read through its context, once per build. */
function emitOptionsOf(model: Catalogue, context: FastContext): EmitOptions {
  const known = OPTIONS.get(context);
  if (known?.model === model) return known.options;
  const versions: Record<string, string> = {};
  for (const group of model.groups) {
    const version = versionOf(context.readExisting(packageJsonPath(group.slug)));
    if (version !== undefined) versions[group.slug] = version;
  }
  const options = { versions };
  OPTIONS.set(context, { model, options });
  return options;
}

/** The options read for each build's context (a context serves one build, over one output). */
const OPTIONS = new WeakMap<FastContext, { model: Catalogue; options: EmitOptions }>();

/** A fast emitter under the name of the pure emitter it stands for. */
export interface NamedFastEmitter {
  readonly name: EmitterName;
  readonly emit: FastEmitter;
}

/**
 * `EMITTERS` in the same order under the same names, each the faster twin where there is one, else
 * the pure emitter itself: what the fast executor runs.
 */
export const FAST_EMITTERS: readonly NamedFastEmitter[] = fastEmitters(new Set());

/** `FAST_EMITTERS` with the twins `off`: without `document-copy`, the documents are the pure emitters'. */
export function fastEmitters(off: ReadonlySet<FastTwin>): NamedFastEmitter[] {
  const plain = new Set<EmitterName>(off.has('document-copy') ? ['asyncapi', 'openapi'] : []);
  return EMITTERS.map(({ name, emit }) => ({
    name,
    emit:
      (plain.has(name) ? undefined : FASTER[name]) ??
      ((model, context) => emit(model, emitOptionsOf(model, context))),
  }));
}

import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { emitGroupPackages } from '../../../generators/emit/package/index.js';
import { emitRuntimePackage, RUNTIME_SLUG } from '../../../generators/emit/package/runtime-package.js';
import { buildCatalogue } from '../../../generators/execute/fast/build.js';
import { readCatalogueSources } from '../../../generators/load/index.js';
import type { Catalogue } from '../../../generators/model.js';
import type { EventApi, GroupApi } from '../../../generators/runtime/runtime.js';
import { REPO, tempDir } from '../../helpers.js';

/** Group packages built into a temporary project: `<root>/packages/<slug>`, linked from `<root>/node_modules`. */
export interface BuiltPackages {
  root: string;
  out: string;
  catalogue: Catalogue;
  /** Imports a built group package's index (the way a consumer does). */
  importGroup(slug: string): Promise<GroupApi<Record<string, unknown>>>;
  /** Imports a built per-event entry point, `<pkg>/events/<key>`. */
  importEvent(slug: string, key: string): Promise<EventModule>;
}

/** What `<pkg>/events/<key>.js` exports. */
export type EventModule = EventApi<unknown>;

/**
 * Builds a catalogue with the real build into a temporary consumer project. `node_modules` holds
 * `ajv-formats`, the run time package and every group package under its name, so packages resolve as
 * they would once installed.
 */
export async function buildPackages(catalogueDir: string): Promise<BuiltPackages> {
  const root = tempDir('eventry-packages-');
  const out = join(root, 'packages');
  const result = await buildCatalogue(readCatalogueSources(catalogueDir), out);
  if (result.kind !== 'built')
    throw new Error(
      `build failed: ${JSON.stringify(
        result.kind === 'problems'
          ? result.problems
          : result.kind === 'emitter-failed'
            ? String(result.error)
            : result.kind === 'write-failed'
              ? String(result.failure)
              : result.kind,
      )}`,
    );
  const scope = result.catalogue.config.scope;
  mkdirSync(join(root, 'node_modules', scope), { recursive: true });
  symlinkSync(join(REPO, 'node_modules', 'ajv-formats'), join(root, 'node_modules', 'ajv-formats'), 'dir');
  for (const slug of [RUNTIME_SLUG, ...result.catalogue.groups.map((group) => group.slug)]) {
    symlinkSync(join(out, slug), join(root, 'node_modules', scope, slug), 'dir');
  }
  const url = (...parts: string[]) => pathToFileURL(join(out, ...parts)).href;
  return {
    root,
    out,
    catalogue: result.catalogue,
    importGroup: (slug) => import(url(slug, 'index.js')),
    importEvent: (slug, key) => import(url(slug, 'events', `${key}.js`)),
  };
}

/**
 * The group packages of a catalogue model built in the test (not read from YAML, so it may hold what
 * the loader would refuse), written into a temporary folder beside `ajv-formats` and the run time
 * package: `<root>/<slug>/`.
 */
export async function writeModelPackages(model: Catalogue): Promise<string> {
  const root = tempDir('eventry-model-packages-');
  const files = [...emitRuntimePackage(model), ...(await emitGroupPackages(model, { versions: {} }))];
  for (const file of files) {
    mkdirSync(dirname(join(root, file.path)), { recursive: true });
    writeFileSync(join(root, file.path), file.contents);
  }
  mkdirSync(join(root, 'node_modules', model.config.scope), { recursive: true });
  symlinkSync(join(REPO, 'node_modules', 'ajv-formats'), join(root, 'node_modules', 'ajv-formats'), 'dir');
  // The emitted files may already hold the in-place link to the run time package (the build writes one).
  const runtimeLink = join(root, 'node_modules', model.config.scope, RUNTIME_SLUG);
  if (!existsSync(runtimeLink)) symlinkSync(join(root, RUNTIME_SLUG), runtimeLink, 'dir');
  return root;
}

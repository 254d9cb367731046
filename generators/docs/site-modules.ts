import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Group } from '../model.js';
import { BROWSER_CLASSIC, BROWSER_MODULES, browserAssetsDir } from './browser-assets.js';
import { conversionModule } from './migrations.js';
import {
  isProblem,
  readChunkModule,
  readValidatorModule,
  VENDORED,
  vendoredModule,
} from './package-files.js';
import { docsSourceDir } from './render.js';
import { searchIndexJson } from './search.js';
import type { SiteContext } from './site-context.js';

// The site's files that are not pages: its assets, and the modules of the group packages the
// playground runs (run time, test payloads, validators, the vendored libraries they import).

/** Static assets copied from generators/docs/assets/. */
const ASSETS = ['site.css', 'favicon.svg'];

/** The style sheet, icon, browser scripts, MiniSearch and the search index. */
export async function writeAssets({ catalogue, out }: SiteContext): Promise<void> {
  for (const name of ASSETS)
    await out.file(`assets/${name}`, readFileSync(join(docsSourceDir(), 'assets', name)));
  for (const name of [...BROWSER_MODULES, BROWSER_CLASSIC])
    await out.file(`assets/${name}`, readFileSync(join(browserAssetsDir(), name)));
  await out.file('assets/minisearch.js', readFileSync(minisearchBrowserBuild()));
  await out.file('assets/search-index.json', searchIndexJson(catalogue));
}

/** Each group package's run time modules, and what its random payloads need. */
export async function writeRunTimes({ packages, out }: SiteContext): Promise<void> {
  for (const [slug, pkg] of packages) {
    for (const module of pkg.runtime) await out.file(`pkg/${slug}/${module.name}`, module.text);
    // The playground's random payloads: the run time's `testing.js` imports `./runtime.js` and
    // `./testing-values.js`, `./testing-rules.js` and `./testing-repair.js`, which sit beside it here as in the run time package.
    if (pkg.testing) {
      await out.file(`pkg/${slug}/runtime-testing.js`, pkg.testing.runtime);
      await out.file(`pkg/${slug}/testing-values.js`, pkg.testing.values);
      await out.file(`pkg/${slug}/testing-rules.js`, pkg.testing.rules);
      await out.file(`pkg/${slug}/testing-repair.js`, pkg.testing.repair);
      await out.file(`pkg/${slug}/testing-data.js`, pkg.testing.data);
    }
  }
}

/**
 * Every event's validator module, the chunks they import and (when no module had a problem) the
 * vendored libraries those import. Streamed one by one (10,000 validators would not fit in memory at
 * once). A problem found here still writes nothing: the caller discards the staging folder of a result
 * that is not ok.
 */
export async function writeValidatorModules(site: SiteContext): Promise<void> {
  const vendored = new Set<string>();
  for (const group of site.catalogue.groups) await writeGroupValidators(site, group, vendored);
  if (site.problems.length > 0) return;
  for (const specifier of vendored)
    await site.out.file(VENDORED.get(specifier)!.asset, vendoredModule(specifier));
}

/** One group's validator modules and the chunks that hold them, each shipped once; adds to `vendored`. */
async function writeGroupValidators(
  { packages, out, problems }: SiteContext,
  group: Group,
  vendored: Set<string>,
): Promise<void> {
  const pkg = packages.get(group.slug)!;
  const chunks = new Set<string>();
  for (const key of group.events) {
    const module = readValidatorModule(pkg, key);
    if (isProblem(module)) {
      problems.push(module);
      continue;
    }
    for (const specifier of module.vendored) vendored.add(specifier);
    for (const chunk of module.chunks) chunks.add(chunk);
    // Unchanged (only chunks are imported): hard-linked rather than copied.
    await out.file(
      `pkg/${group.slug}/events/${key}.js`,
      module.unchanged ? { copyOf: module.file } : module.text,
    );
  }
  for (const path of chunks) {
    const module = readChunkModule(pkg, path);
    if (isProblem(module)) {
      problems.push(module);
      continue;
    }
    for (const specifier of module.vendored) vendored.add(specifier);
    await out.file(`pkg/${group.slug}/${path}`, module.unchanged ? { copyOf: module.file } : module.text);
  }
}

/**
 * For each event that a migration leads to, the module of those conversions (`migrations/<key>.js`):
 * the playground's "Convert from" runs it on the payload in the box, then validates the result.
 */
export async function writeMigrationModules({ catalogue, out }: SiteContext): Promise<void> {
  for (const key of Object.keys(catalogue.events).sort()) {
    const module = conversionModule(catalogue, key);
    if (module !== undefined) await out.file(`migrations/${key}.js`, module);
  }
}

/** MiniSearch's ES module build, shipped as a local asset (no CDN). */
function minisearchBrowserBuild(): string {
  return createRequire(import.meta.url)
    .resolve('minisearch')
    .replace(/[/\\]cjs[/\\]index\.cjs$/, '/es/index.js');
}

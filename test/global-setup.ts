import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildCatalogue } from '../generators/execute/fast/build.js';
import { readCatalogueSources } from '../generators/load/index.js';
import { BUILT_FROM_FILE, digestToolkitSources } from '../scripts/toolkit-sources.js';
import { REPO } from './helpers.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The repository's catalogue built once for the whole run (`injectSeedPackages` in helpers.ts). */
    seedPackages: string;
    /**
     * An empty folder for the whole run, removed at its end: fixtures several test files share (the
     * portal sites of the browser suites) are made in it once, by the first file that needs them.
     */
    runScratch: string;
  }
}

/**
 * Builds the repository's catalogue once per test run into a temporary folder, for the tests that need
 * the seed's group packages as files (the docs site, the browser tests). `packages/` in the checkout holds
 * only what git reviews (package.json, CHANGELOG.md, the catalogue documents), so tests never read the
 * generated code from there: a fresh clone passes `npm test` without `npm run build`.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  checkCompiledToolkit();
  const out = mkdtempSync(join(tmpdir(), 'eventry-seed-packages-'));
  const result = await buildCatalogue(readCatalogueSources(join(REPO, 'catalogue')), out);
  if (result.kind !== 'built')
    throw new Error(`the repository's catalogue does not build: ${JSON.stringify(result)}`);
  project.provide('seedPackages', out);
  const scratch = mkdtempSync(join(tmpdir(), 'eventry-run-'));
  project.provide('runScratch', scratch);
  return () => {
    rmSync(out, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  };
}

/**
 * Tests run the compiled toolkit (workers, precompiled validators and templates, the CLI), also when they
 * import the TypeScript source: refuse to start against a `dist/` built from other sources than these.
 */
function checkCompiledToolkit(): void {
  const recorded = join(REPO, BUILT_FROM_FILE);
  const builtFrom = existsSync(recorded) ? readFileSync(recorded, 'utf8').trim() : undefined;
  if (builtFrom === digestToolkitSources(REPO)) return;
  throw new Error(
    `dist/ is ${builtFrom ? 'older than the sources' : 'missing'}: run \`npm run build:tool\` before vitest (npm test does).`,
  );
}

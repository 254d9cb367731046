import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { emitAll } from '../generators/build/build.js';
import { loadValid, REPO } from './helpers.js';

/**
 * The generated packages are committed. Regenerating them from the committed catalogue must change
 * nothing: a stale `packages/` (someone edited the catalogue and forgot `npm run build`, or edited a
 * generated file by hand) fails here with the list of files that differ.
 */
it('committed packages/ is exactly what the catalogue generates', async () => {
  const outDir = join(REPO, 'packages');
  const files = await emitAll(loadValid(join(REPO, 'catalogue')), outDir);
  if (!Array.isArray(files)) throw new Error(`emitter ${files.emitter} failed`);
  const stale = files
    .filter((file) => {
      try {
        return readFileSync(join(outDir, file.path), 'utf8') !== file.contents;
      } catch {
        return true;
      }
    })
    .map((file) => file.path);
  expect(stale, 'run `npm run build` and commit packages/').toEqual([]);
}, 180_000);

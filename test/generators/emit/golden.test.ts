import { describe, expect, it } from 'vitest';
import { emitAll } from '../../../generators/build.js';
import { fixturePath, loadValid, REPO, tempDir } from '../../helpers.js';

/**
 * Golden files of the catalogue-wide documents for the small fixture. `npm run test:update` rewrites
 * them; review the diff like any other code change.
 */
describe('golden files: small fixture, catalogue documents', async () => {
  const files = await emitAll(loadValid(fixturePath('small')), tempDir());
  if (!Array.isArray(files)) throw new Error(`emitter ${files.emitter} failed: ${String(files.error)}`);
  const documents = files.filter((file) => file.path.startsWith('catalogue/'));

  it.each(documents.map((file) => [file.path, file.contents]))('%s', async (path, contents) => {
    await expect(contents).toMatchFileSnapshot(`${REPO}/test/fixtures/small/expected/${path}`);
  });
});

describe('determinism', () => {
  it('gives byte-identical output for the same catalogue, whatever the output folder', async () => {
    const model = loadValid(`${REPO}/catalogue`);
    const first = await emitAll(model, tempDir());
    const second = await emitAll(loadValid(`${REPO}/catalogue`), tempDir());
    expect(second).toEqual(first);
    const text = JSON.stringify(first);
    expect(text).not.toContain(REPO);
    expect(text).not.toMatch(/20\d\d-\d\d-\d\dT\d\d:/);
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { emitAll } from '../../generators/execute/reference.js';
import { fixturePath, loadValid, REPO } from '../helpers.js';

/**
 * Golden files of the catalogue-wide documents for the small fixture. `npm run test:update` rewrites
 * them; review the diff like any other code change.
 */
describe('golden files: small fixture, catalogue documents', async () => {
  const files = await emitAll(loadValid(fixturePath('small')), { versions: {} });
  if (!Array.isArray(files)) throw new Error(`emitter ${files.emitter} failed: ${String(files.error)}`);
  const documents = files.filter((file) => file.path.startsWith('catalogue/'));

  it.each(documents.map((file) => [file.path, file.contents]))('%s', async (path, contents) => {
    await expect(contents).toMatchFileSnapshot(`${REPO}/test/fixtures/small/expected/${path}`);
  });
});

describe('determinism', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  // The real catalogue's output is compared with the committed packages/ in test/freshness.test.ts.
  it('gives byte-identical output for the same catalogue, whatever the clock and the output folder', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2001-02-03T04:05:06Z'));
    const first = await emitAll(loadValid(fixturePath('small')), { versions: {} });
    vi.setSystemTime(new Date('2042-12-31T23:59:59Z'));
    const second = await emitAll(loadValid(fixturePath('small')), { versions: {} });
    expect(second).toEqual(first);
    const text = JSON.stringify(first);
    expect(text).not.toContain(REPO);
    expect(text).not.toContain('/tmp/');
  });
});

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { parseEventKey } from '../../generators/load/event-key.js';
import { headersLines, layOut, type ReleaseEntry } from '../../generators/serve/export/layout.js';
import { type ExportedRoute, requestPath } from '../../generators/serve/export/routes.js';
import { writeRelease } from '../../generators/serve/export/write.js';
import { removeTempDirs, tempDir } from '../helpers.js';
import { startStaticHost } from './static-host.js';

afterAll(() => removeTempDirs());

/** Event keys as the loader's grammar builds them: a dotted type, then `vN` or a semver with a pre-release. */
const word = fc.stringMatching(/^[a-z0-9_][a-z0-9_-]{0,6}$/);
const eventKey = fc
  .tuple(
    fc.array(word, { minLength: 1, maxLength: 3 }),
    fc.oneof(
      fc.integer({ min: 1, max: 99 }).map((n) => `v${n}`),
      fc
        .tuple(
          fc.nat(20),
          fc.nat(20),
          fc.nat(20),
          fc.option(fc.stringMatching(/^[0-9A-Za-z-]{1,5}(\.[0-9A-Za-z-]{1,5})?$/)),
        )
        .map(([a, b, c, pre]) => `${a}.${b}.${c}${pre ? `-${pre}` : ''}`),
    ),
  )
  .map(([type, version]) => `${type.join('.')}-${version}`)
  .filter((key) => parseEventKey(key) !== undefined);

const route = (...segments: string[]): ExportedRoute => ({ segments, cache: 'short' });

describe('the static layout of subject names', () => {
  it('every key the loader accepts (and its -value name) is its own URL segment and file name', () => {
    fc.assert(
      fc.property(eventKey, (key) => {
        for (const name of [key, `${key}-value`]) {
          expect(encodeURIComponent(name)).toBe(name);
          const [file] = layOut([route('subjects', name, 'versions')]);
          expect(file!.file).toBe(`subjects/${name}/versions`);
        }
      }),
      { numRuns: 500, seed: 47 },
    );
  });

  it('a name a URL must encode is stored decoded, and a static host finds it from the encoded request', async () => {
    const name = 'a.b-1.0.0+build~7';
    const files = layOut([route('subjects'), route('subjects', name, 'versions')]);
    expect(files.map((f) => f.file)).toEqual(['subjects/index.json', `subjects/${name}/versions`]);
    expect(requestPath(files[1]!.route)).toBe('/subjects/a.b-1.0.0%2Bbuild~7/versions');
    const root = tempDir('eventry-export-layout-');
    const entries = (): ReleaseEntry[] => [
      ...files.map(({ file, route: r }): ReleaseEntry => [file, Buffer.from(JSON.stringify(r.segments))]),
      ['_headers', headersLines(files)],
      ['404.json', Buffer.from('{}')],
    ];
    writeRelease(root, 'r1', entries, {});
    expect(readdirSync(join(root, 'current', 'subjects'))).toContain(name);
    const host = await startStaticHost(join(root, 'current'));
    try {
      const response = await fetch(`${host.url}/subjects/a.b-1.0.0%2Bbuild~7/versions`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual(['subjects', name, 'versions']);
      expect(response.headers.get('cache-control')).toBe('public, max-age=60');
    } finally {
      await host.close();
    }
  });

  it('a segment no host stores safely (a `/`, `..`, `index.json`) is refused, never written', () => {
    for (const bad of ['a/b', '..', '.', 'index.json', 'a b', '']) {
      expect(() => layOut([route('subjects', bad, 'versions')])).toThrow(/no safe file name/);
    }
  });
});

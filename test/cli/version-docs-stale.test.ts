import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changedSinceRelease } from './version-repo.js';

describe('the release flow leaves the docs portal stale (regression: it showed the last release after `version`)', () => {
  it('after `version`, the docs portal shows the new release, before and after it is committed', {
    timeout: 180_000,
  }, async () => {
    const { repo, cli } = await changedSinceRelease({ docs: true });
    const site = (path: string) => readFileSync(join(repo.dir, '.eventry/site', path), 'utf8');
    const bumped = await cli('version');
    expect(bumped.status).toBe(0);
    expect(bumped.stdout).toContain('eventry: wrote the docs site into .eventry/site');
    expect(site('index.html')).toContain('Catalogue version <strong data-catalogue-version>2.0.0</strong>');
    expect(site('changelog/2.0.0/index.html')).toContain('Release 2.0.0');
    expect(existsSync(join(repo.dir, '.eventry/site/changelog/unreleased/index.html'))).toBe(false);

    // Committed, the release is in the history under the same name.
    repo.commit('release 2.0.0');
    expect((await cli('docs')).status).toBe(0);
    expect(site('changelog/2.0.0/index.html')).toContain('Release 2.0.0');
  });
});

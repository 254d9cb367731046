import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers.js';
import { findBrowser } from './browsers.js';

// Finding the browsers the portal suites run in: a machine without one skips its suites with a notice
// naming how to install it; CI, which installs both (.ci/run), fails instead.

describe.each([
  { kind: 'chromium', name: 'Chromium', envVar: 'CHROMIUM_PATH', get: 'apt-get install chromium' },
  { kind: 'firefox', name: 'Firefox', envVar: 'FIREFOX_PATH', get: 'apt-get install firefox-esr' },
] as const)('findBrowser($kind)', ({ kind, name, envVar, get }) => {
  it(`treats ${envVar} naming a missing file as absent, even where Debian's exists, with how to install it`, () => {
    const missing = join(tempDir(), kind);
    const result = findBrowser(kind, { [envVar]: missing });
    expect(result.found).toBe(false);
    if (result.found) return;
    expect(result.notice).toMatch(new RegExp(`^SKIPPED the ${name} browser tests: ${name} not found`));
    expect(result.notice).toContain(`${envVar}=${missing} does not exist`);
    expect(result.notice).toContain(get);
  });

  it(`uses the file ${envVar} names`, () => {
    const fake = join(tempDir(), kind);
    writeFileSync(fake, '');
    expect(findBrowser(kind, { [envVar]: fake })).toEqual({ found: true, path: fake });
  });

  it(`fails in CI when ${name} is absent, naming ${envVar}`, () => {
    expect(() => findBrowser(kind, { [envVar]: `/nonexistent/${kind}`, CI: 'true' })).toThrow(
      new RegExp(
        `^${name} not found \\(${envVar}=/nonexistent/${kind} does not exist\\), and CI \\(CI=true\\) needs it: set ${envVar}`,
      ),
    );
  });
});

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findChromium, findFirefox, isCi, optionalResource, tempDir } from './helpers.js';

/** Two candidate files, the first missing and the second present, and a spec looking at them. */
function setUp() {
  const dir = tempDir();
  const present = join(dir, 'present.md');
  const other = join(dir, 'other.md');
  writeFileSync(present, 'x');
  writeFileSync(other, 'x');
  mkdirSync(join(dir, 'a-folder'));
  const spec = {
    what: 'the thing',
    envVar: 'THING_PATH',
    candidates: [join(dir, 'missing.md'), present],
    skips: 'the thing tests',
  };
  return { dir, present, other, spec };
}

describe('optionalResource (a missing optional resource skips with a notice instead of failing)', () => {
  it('takes the first candidate that exists when the variable is not set', () => {
    const { present, spec } = setUp();
    expect(optionalResource(spec, {})).toEqual({ found: true, path: present });
  });

  it('takes the file the variable names over every candidate', () => {
    const { other, spec } = setUp();
    expect(optionalResource(spec, { THING_PATH: other })).toEqual({ found: true, path: other });
  });

  it('is absent when the variable names a missing file, without falling back to a candidate', () => {
    const { dir, spec } = setUp();
    const missing = join(dir, 'nope.md');
    const result = optionalResource(spec, { THING_PATH: missing });
    expect(result.found).toBe(false);
    if (result.found) return;
    expect(result.notice).toBe(
      `SKIPPED the thing tests: the thing not found (THING_PATH=${missing} does not exist); to run them, set THING_PATH to its path`,
    );
  });

  it('is absent when no candidate exists or it is a folder, and the notice lists where it looked', () => {
    const { dir, spec } = setUp();
    const candidates = [join(dir, 'missing.md'), join(dir, 'a-folder')];
    const result = optionalResource({ ...spec, candidates, get: 'ask the platform team' }, {});
    expect(result).toEqual({
      found: false,
      notice: `SKIPPED the thing tests: the thing not found (looked at ${candidates.join(', ')}); to run them, set THING_PATH to its path (ask the platform team)`,
    });
  });

  it('throws in CI, naming the variable, because CI provides every resource', () => {
    const { dir, spec } = setUp();
    const missing = join(dir, 'nope.md');
    expect(() => optionalResource(spec, { THING_PATH: missing, CI: 'true' })).toThrow(
      `the thing not found (THING_PATH=${missing} does not exist), and CI (CI=true) needs it: set THING_PATH to its path.`,
    );
    expect(() => optionalResource({ ...spec, candidates: [] }, { CI: '1' })).toThrow(/set THING_PATH/);
  });

  it('does not throw in CI when the resource is there', () => {
    const { present, spec } = setUp();
    expect(optionalResource(spec, { CI: 'true' })).toEqual({ found: true, path: present });
  });
});

describe('isCi', () => {
  it.each([
    [{ CI: 'true' }, true],
    [{ CI: '1' }, true],
    [{ CI: 'TRUE' }, true],
    [{ CI: 'false' }, false],
    [{ CI: '0' }, false],
    [{ CI: '' }, false],
    [{}, false],
  ])('%o is %s', (env, want) => {
    expect(isCi(env)).toBe(want);
  });
});

describe('findChromium (a machine without Chromium skips the browser tests)', () => {
  it('treats CHROMIUM_PATH naming a missing file as absent, even where /usr/bin/chromium exists', async () => {
    const missing = join(tempDir(), 'chromium');
    const result = await findChromium({ CHROMIUM_PATH: missing });
    expect(result.found).toBe(false);
    if (result.found) return;
    expect(result.notice).toMatch(/^SKIPPED the browser tests: Chromium not found/);
    expect(result.notice).toContain(`CHROMIUM_PATH=${missing} does not exist`);
    expect(result.notice).toContain('apt-get install chromium');
  });

  it('uses the file CHROMIUM_PATH names', async () => {
    const fake = join(tempDir(), 'chromium');
    writeFileSync(fake, '');
    expect(await findChromium({ CHROMIUM_PATH: fake })).toEqual({ found: true, path: fake });
  });

  it('fails in CI when Chromium is absent, naming CHROMIUM_PATH', async () => {
    await expect(findChromium({ CHROMIUM_PATH: '/nonexistent/chromium', CI: 'true' })).rejects.toThrow(
      /^Chromium not found \(CHROMIUM_PATH=\/nonexistent\/chromium does not exist\), and CI \(CI=true\) needs it: set CHROMIUM_PATH/,
    );
  });
});

describe('findFirefox (a machine without Firefox skips the portal Firefox suite)', () => {
  it('treats FIREFOX_PATH naming a missing file as absent, with how to install it', () => {
    const missing = join(tempDir(), 'firefox');
    const result = findFirefox({ FIREFOX_PATH: missing });
    expect(result.found).toBe(false);
    if (result.found) return;
    expect(result.notice).toMatch(/^SKIPPED the Firefox portal tests: Firefox not found/);
    expect(result.notice).toContain('apt-get install firefox-esr');
  });

  it('fails in CI when Firefox is absent, naming FIREFOX_PATH', () => {
    expect(() => findFirefox({ FIREFOX_PATH: '/nonexistent/firefox', CI: 'true' })).toThrow(
      /^Firefox not found .*set FIREFOX_PATH/,
    );
  });
});

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isCi, optionalResource, tempDir } from './helpers.js';

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

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './helpers.js';

// The validators are ajv's standalone output, post-processed: a new ajv release can change that output,
// so it may only come in through a reviewed change of the exact version (and the goldens with it).
describe('code generators are pinned exactly', () => {
  const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const lock = JSON.parse(readFileSync(join(REPO, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string }>;
  };

  it.each(['ajv', 'ajv-formats'])(
    '%s: an exact version in package.json, the one the lock installs',
    (name) => {
      const range = manifest.dependencies[name];
      expect(range, `${name} must be an exact version, not a range`).toMatch(/^\d+\.\d+\.\d+$/);
      expect(lock.packages[`node_modules/${name}`]?.version).toBe(range);
    },
  );
});

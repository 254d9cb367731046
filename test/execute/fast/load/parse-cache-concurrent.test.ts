import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compiledToolkitPath, tempDir } from '../../../helpers.js';

// Two builds of one project share its parse cache: each rewrites the file while the other reads it.
// Each process here rewrites it again and again (every round misses a file of its own) and, between its
// writes, reads it: a torn file would fail its checksum and miss the entry every writer stores.

const CACHE = pathToFileURL(compiledToolkitPath('generators/execute/fast/load/parse-cache.js')).href;
const FAST = pathToFileURL(compiledToolkitPath('generators/execute/fast/load/yaml-fast.js')).href;
const ROUNDS = 25;

/** One writer: `ROUNDS` loads that each miss, save, then check a fresh reader hits the common entry. */
const WRITER = `
import { ParseCache } from ${JSON.stringify(CACHE)};
import { readPlainYaml } from ${JSON.stringify(FAST)};
const [dir, name] = process.argv.slice(1);
const common = 'common:\\n' + Array.from({ length: 3000 }, (_, i) => '  key' + i + ': { type: string }\\n').join('');
for (let round = 0; round < ${ROUNDS}; round++) {
  const cache = new ParseCache(dir, 'tool');
  cache.read(common, readPlainYaml);
  cache.read('own: ' + name + '-' + round + '\\n', readPlainYaml);
  cache.save();
  new ParseCache(dir, 'tool').read(common, () => {
    console.error('round ' + round + ': the cache file was torn');
    process.exit(1);
  });
}
`;

function writer(dir: string, name: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', WRITER, dir, name]);
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('builds sharing a parse cache', () => {
  it('never read a torn cache file while another build rewrites it (atomic rename)', async () => {
    const dir = tempDir('eventry-parse-cache-race-');
    const results = await Promise.all(['a', 'b', 'c'].map((name) => writer(dir, name)));
    expect(results).toEqual(results.map(() => ({ code: 0, stderr: '' })));
  });
});

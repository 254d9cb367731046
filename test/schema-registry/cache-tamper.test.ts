import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { type History, loadHistory } from '../../generators/schema-registry/history.js';
import { SchemaRegistryState } from '../../generators/schema-registry/registry.js';
import { compiledToolkitPath, tempDir } from '../helpers.js';
import { releasedTwice } from './released-repo.js';

/**
 * The fault suite's cache tampering: `.eventry/registry/*.json` is a cache, checked before use, never
 * believed. `[]` once made `serve` start with fewer versions, an edited schema text was served as the
 * release's, and a number in place of a text crashed `serve` with exit 70.
 */

/** What serve answers from: every point's label and schema texts, and the ids and versions they give. */
function served(history: History) {
  const state = new SchemaRegistryState(history);
  return {
    points: history.points.map((point) => [point.label, [...point.schemas]]),
    subjects: [...state.subjects].map(([subject, versions]) => [
      subject,
      versions.map((v) => [v.version, v.id]),
    ]),
  };
}

const TAMPERINGS: [string, (text: string) => string][] = [
  ['an empty list `[]`', () => '[]'],
  ['an empty object', () => '{}'],
  ['`null`', () => 'null'],
  ['a truncated file', (text) => text.slice(0, text.length >> 1)],
  ['the older bare list of pairs', (text) => JSON.stringify(JSON.parse(text).schemas)],
  [
    'an edited schema text (digest left as it was)',
    (text) => text.replace(/\\"type\\":\\"string\\"/, '\\"type\\":\\"integer\\"'),
  ],
  [
    'a number in place of a text',
    (text) => {
      const entry = JSON.parse(text);
      entry.schemas[0][1] = 42;
      return JSON.stringify(entry);
    },
  ],
  [
    'a release entry dropped',
    (text) => {
      const entry = JSON.parse(text);
      entry.schemas.pop();
      return JSON.stringify(entry);
    },
  ],
  [
    'another tree named as its input',
    (text) => {
      const entry = JSON.parse(text);
      entry.tree = '0'.repeat(40);
      return JSON.stringify(entry);
    },
  ],
];

describe('fault suite: a tampered registry cache is rebuilt from git, never served', () => {
  const repo = releasedTwice();
  const cacheDir = join(tempDir(), 'registry-cache');
  const load = () => {
    const result = loadHistory({ cwd: repo.dir, env: process.env, catalogue: 'catalogue', cacheDir });
    if (!result.ok) throw new Error(JSON.stringify(result));
    return result.history;
  };
  const truth = served(load());
  const files = readdirSync(cacheDir).filter((name) => name.endsWith('.json'));

  it('the cache holds one entry per release, and a restart from it serves the same', () => {
    expect(files).toHaveLength(2);
    expect(served(load())).toEqual(truth);
  });

  it.each(TAMPERINGS)('%s: the same versions, ids and texts as from git', (_name, tamper) => {
    for (const file of files) {
      const path = join(cacheDir, file);
      const good = readFileSync(path, 'utf8');
      const bad = tamper(good);
      expect(bad).not.toBe(good);
      writeFileSync(path, bad);
      expect(served(load())).toEqual(truth);
      // Rebuilt, the entry is good again.
      expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(JSON.parse(good));
    }
  });

  it('`eventry serve` started on a number-for-text cache serves every version, no exit 70', async () => {
    const versions = async () => {
      const child = spawn(
        process.execPath,
        [compiledToolkitPath('scripts/eventry.js'), 'serve', '--port', '0'],
        {
          cwd: repo.dir,
        },
      );
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      const url = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).on('line', (line) => {
          const match = /^eventry: serving (\S+)$/.exec(line);
          if (match) resolve(match[1]!);
        });
        void exited.then((code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
      });
      try {
        return await (await fetch(`${url}/subjects/account.created-v1/versions`)).json();
      } finally {
        child.kill('SIGTERM');
        await exited;
      }
    };
    expect(await versions()).toEqual([1, 2]);
    const projectCache = join(repo.dir, '.eventry', 'registry');
    for (const file of readdirSync(projectCache)) {
      const path = join(projectCache, file);
      const entry = JSON.parse(readFileSync(path, 'utf8'));
      entry.schemas[0][1] = 42;
      writeFileSync(path, JSON.stringify(entry));
    }
    expect(await versions()).toEqual([1, 2]);
  });
});

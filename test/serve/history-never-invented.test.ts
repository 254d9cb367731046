import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadHistory } from '../../generators/schema-registry/history.js';
import { runCli, tempDir } from '../helpers.js';
import { releasedTwice } from '../schema-registry/released-repo.js';
import type { TestRepo } from '../sources/git-repo.js';
import { serveFollowed } from './followed-server.js';

/**
 * History is never invented: a reload that cannot read git keeps serving the last good state (and
 * `/healthz` says `degraded`), and a shallow clone is refused rather than served short.
 */

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const SUBJECT = 'account.created-v1';

/** Release 1.0.0 and 1.1.0 of the small fixture, served in process and followed (checked by hand). */
async function served() {
  const repo: TestRepo = releasedTwice();
  const { follower, url, failures } = await serveFollowed(repo.dir, cleanups);
  return { repo, follower, url, failures };
}

const get = async (url: string) => {
  const response = await fetch(url);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

/** What a client sees of the subject: its versions, each version's id and text, each id's text. */
async function snapshot(url: string) {
  const versions = (await get(`${url}/subjects/${SUBJECT}/versions`)).body as unknown as number[];
  const out: unknown[] = [versions];
  for (const version of versions) {
    const { body } = await get(`${url}/subjects/${SUBJECT}/versions/${version}`);
    out.push(body, (await get(`${url}/schemas/ids/${body.id}`)).body);
  }
  return out;
}

/** Ways git stops being readable for a moment, each with its undoing. */
const breakages: [string, (dir: string) => () => void][] = [
  [
    '.git/HEAD moved away',
    (dir) => {
      renameSync(join(dir, '.git/HEAD'), join(dir, '.git/HEAD.away'));
      return () => renameSync(join(dir, '.git/HEAD.away'), join(dir, '.git/HEAD'));
    },
  ],
  [
    '.git/HEAD not a ref',
    (dir) => {
      const head = readFileSync(join(dir, '.git/HEAD'));
      writeFileSync(join(dir, '.git/HEAD'), 'garbage\n');
      return () => writeFileSync(join(dir, '.git/HEAD'), head);
    },
  ],
  [
    '.git missing',
    (dir) => {
      renameSync(join(dir, '.git'), join(dir, '.git-away'));
      return () => renameSync(join(dir, '.git-away'), join(dir, '.git'));
    },
  ],
  [
    'objects unreadable',
    (dir) => {
      const away = tempDir('eventry-objects-');
      cpSync(join(dir, '.git/objects'), away, { recursive: true });
      rmSync(join(dir, '.git/objects'), { recursive: true });
      mkdirSync(join(dir, '.git/objects/info'), { recursive: true });
      mkdirSync(join(dir, '.git/objects/pack'), { recursive: true });
      return () => {
        rmSync(join(dir, '.git/objects'), { recursive: true });
        cpSync(away, join(dir, '.git/objects'), { recursive: true });
      };
    },
  ],
];

describe('serve --poll when git cannot be read for a moment', () => {
  it.each(breakages)(
    '%s: the last good state stays served, /healthz says degraded, then recovers',
    async (_, breakGit) => {
      const { repo, follower, url, failures } = await served();
      const before = await snapshot(url);
      expect(before[0]).toEqual([1, 2]);
      const restore = breakGit(repo.dir);
      try {
        expect(follower.check()).toBe(false);
        expect(await snapshot(url)).toEqual(before);
        const health = await get(`${url}/healthz`);
        expect(health.status).toBe(200);
        expect(health.body).toMatchObject({ status: 'degraded', reason: expect.stringMatching(/git/) });
        expect(Date.parse(String(health.body.since))).not.toBeNaN();
        expect(failures).toHaveLength(1);
        // Polling on while git stays broken changes nothing and reports nothing new.
        expect(follower.check()).toBe(false);
        expect(failures).toHaveLength(1);
      } finally {
        restore();
      }
      follower.check();
      expect(await snapshot(url)).toEqual(before);
      expect((await get(`${url}/healthz`)).body).toMatchObject({ status: 'ok' });
    },
  );
});

describe('a shallow clone', () => {
  it('serve and register refuse it with shallow-history (exit 2), as check does; a full clone serves', () => {
    const repo = releasedTwice();
    const shallow = join(tempDir('eventry-shallow-'), 'clone');
    execFileSync('git', ['clone', '-q', '--depth', '1', `file://${repo.dir}`, shallow]);
    const result = loadHistory({ cwd: shallow, env: process.env, catalogue: 'catalogue' });
    expect(result).toMatchObject({ ok: false, reason: 'shallow' });
    for (const args of [
      ['serve', '--port', '0', '--no-cache'],
      ['register', '--registry', 'http://127.0.0.1:9', '--dry-run', '--no-cache'],
    ]) {
      const run = runCli(args, { cwd: shallow });
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(/error shallow-history: this clone is shallow/);
      expect(run.stderr).toContain('git fetch --unshallow');
    }
    const full = join(tempDir('eventry-full-'), 'clone');
    execFileSync('git', ['clone', '-q', `file://${repo.dir}`, full]);
    const history = loadHistory({ cwd: full, env: process.env, catalogue: 'catalogue' });
    expect(history.ok && history.history.points.map((point) => point.version)).toEqual([
      '1.0.0',
      '1.1.0',
      '1.1.0',
    ]);
  });
});

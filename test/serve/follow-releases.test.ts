import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { loadServedState } from '../../generators/serve/follow.js';
import { fixturePath } from '../helpers.js';
import { releaseNickname } from '../schema-registry/released-repo.js';
import { makeRepo, type TestRepo } from '../sources/git-repo.js';
import { serveFollowed } from './followed-server.js';

/**
 * A registry that follows the catalogue: a new release committed while `serve` runs is served without
 * a restart, swapped whole (a request answers from one state), and the health endpoint names it.
 */

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A repository with release 1.0.0 of the small fixture, served in process, following it. */
async function servedRepo(intervalMs = 3_600_000) {
  const repo: TestRepo = makeRepo();
  repo.copy(fixturePath('small'), 'catalogue');
  const first = repo.commit('release 1.0.0');
  const { follower, holder, url, failures, server } = await serveFollowed(repo.dir, cleanups, { intervalMs });
  return { repo, first, follower, holder, url, failures, server };
}

const getJson = async (url: string) => (await fetch(url)).json() as Promise<Record<string, unknown>>;

describe('serve follows the repository', () => {
  it('a release committed while serving is served after the next check, and /healthz names it', async () => {
    const { repo, first, follower, url } = await servedRepo();
    expect(await getJson(`${url}/healthz`)).toMatchObject({
      status: 'ok',
      release: { commit: first, version: '1.0.0' },
      head: first,
      catalogueVersion: '1.0.0',
      unreleased: 0,
    });
    expect(await getJson(`${url}/subjects/account.created-v1/versions/latest`)).toMatchObject({ version: 1 });
    expect(follower.check()).toBe(false);

    releaseNickname(repo);
    const second = repo.git('rev-parse', 'HEAD');
    expect(follower.check()).toBe(true);
    expect(await getJson(`${url}/healthz`)).toMatchObject({
      release: { commit: second, version: '1.1.0' },
      head: second,
      catalogueVersion: '1.1.0',
    });
    const latest = await getJson(`${url}/subjects/account.created-v1/versions/latest`);
    expect(latest).toMatchObject({ version: 2 });
    expect(String(latest.schema)).toContain('nickname');
    // The hot route's precomputed body is the new state's too.
    expect(await getJson(`${url}/schemas/ids/${latest.id}`)).toMatchObject({ schemaType: 'JSON' });
    expect(follower.check()).toBe(false);
  });

  it('an edit of the working catalogue that does not load keeps the state being served, and says why once', async () => {
    const { repo, follower, url, failures } = await servedRepo();
    repo.write('catalogue/groups/account.yaml', 'events: [not, a, map\n');
    expect(follower.check()).toBe(false);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(/account\.yaml:\d+:\d+/);
    expect(follower.check()).toBe(false);
    expect(failures).toHaveLength(1);
    expect(await getJson(`${url}/subjects/account.created-v1/versions`)).toEqual([1]);
  });

  it('polls by itself: a new release shows up without calling check', async () => {
    const { repo, url } = await servedRepo(50);
    releaseNickname(repo);
    // A hang guard, not a timing: the poll comes within a few intervals.
    for (let tries = 0; tries < 400; tries += 1) {
      const health = await getJson(`${url}/healthz`);
      if ((health.release as { version: string }).version === '1.1.0') break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(await getJson(`${url}/subjects/account.created-v1/versions`)).toEqual([1, 2]);
  });

  it('a request answers from the state it arrived under, even when a reload lands while its body arrives', async () => {
    const { repo, follower, url, server } = await servedRepo();
    releaseNickname(repo);
    const v2 = loadServedState({ cwd: repo.dir, env: process.env, catalogue: 'catalogue' });
    if (!v2.ok) throw new Error(v2.message);
    const text = v2.served.state.subjects.get('account.created-v1')!.at(-1)!.schema;
    const body = JSON.stringify({ schemaType: 'JSON', schema: text });
    // A look-up of version 2's text, its body sent in two halves with the reload in between.
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        `${url}/subjects/account.created-v1`,
        { method: 'POST', headers: { 'content-length': Buffer.byteLength(body) } },
        (res) => {
          let received = '';
          res.on('data', (chunk: Buffer) => {
            received += chunk.toString();
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: received }));
        },
      );
      req.on('error', reject);
      // Once the server has taken the request (its handler runs before this listener), reload.
      server.once('request', () => {
        expect(follower.check()).toBe(true);
        req.end(body.slice(10));
      });
      req.write(body.slice(0, 10));
    });
    const { status, body: received } = await answer;
    // Served from 1.0.0, which has no version with that text; the next request sees 1.1.0.
    expect(status).toBe(404);
    expect(JSON.parse(received)).toMatchObject({ error_code: 40403 });
    const again = await fetch(`${url}/subjects/account.created-v1`, { method: 'POST', body });
    expect(((await again.json()) as { version: number }).version).toBe(2);
  });
});

import { execFileSync, spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compiledToolkitPath, fixturePath, REPO, tempDir } from '../helpers.js';
import { releasedTwice, releaseNickname, runCliAsync } from '../schema-registry/released-repo.js';
import { type ServeProcess, spawnServe } from '../serve/replica-helpers.js';
import { makeRepo } from '../sources/git-repo.js';
import { type InProcessRun, startCliInProcess } from './in-process.js';

/** A `serve` process of the compiled CLI, once it printed its address. */
interface Served extends ServeProcess {
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** Starts `eventry serve --port 0` in `cwd` (the replica tests' starter); its address is its first line. */
async function serve(cwd: string, args: string[] = []): Promise<Served> {
  const served = await spawnServe(cwd, args);
  expect(served.lines[0], 'the first stdout line').toMatch(/^eventry: serving http:\/\/\S+$/);
  return {
    ...served,
    stop: () => {
      served.child.kill('SIGTERM');
      return served.exited;
    },
  };
}

const getJson = async (url: string) => {
  const response = await fetch(url);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe('eventry serve (compiled CLI)', () => {
  it('versions come from the release history: two releases give versions 1 and 2, both ids resolve; same ids after a restart and on a fresh clone', async () => {
    const repo = releasedTwice();
    const ids = async (dir: string) => {
      const served = await serve(dir);
      try {
        const versions = await getJson(`${served.url}/subjects/account.created-v1/versions`);
        expect(versions.body).toEqual([1, 2]);
        const one = await getJson(`${served.url}/subjects/account.created-v1/versions/1`);
        const two = await getJson(`${served.url}/subjects/account.created-v1/versions/latest`);
        expect(two.body.version).toBe(2);
        expect(String(one.body.schema)).not.toContain('nickname');
        expect(String(two.body.schema)).toContain('nickname');
        for (const id of [one.body.id, two.body.id]) {
          const byId = await getJson(`${served.url}/schemas/ids/${id}`);
          expect(byId.status).toBe(200);
          expect(byId.body.schemaType).toBe('JSON');
        }
        // An event the second release left alone keeps one version.
        expect(
          (await getJson(`${served.url}/subjects/lifecycle.support-site.sale-1.0.0/versions`)).body,
        ).toEqual([1]);
        return [one.body.id, two.body.id];
      } finally {
        expect(await served.stop()).toBe(0);
      }
    };
    const first = await ids(repo.dir);
    expect(first[0]).not.toBe(first[1]);
    // A restart reads the release cache (.eventry/registry/) written by the first start: one file a release.
    expect(readdirSync(join(repo.dir, '.eventry/registry'))).toHaveLength(2);
    expect(await ids(repo.dir)).toEqual(first);
    const clone = join(tempDir('eventry-serve-clone-'), 'clone');
    execFileSync('git', ['clone', '-q', repo.dir, clone]);
    expect(await ids(clone)).toEqual(first);
  }, 60_000);

  it('prints one `serving` line, logs one JSON line per request with --access-log, stops on SIGTERM with exit 0', async () => {
    const repo = releasedTwice();
    const served = await serve(repo.dir, ['--access-log']);
    const health = await getJson(`${served.url}/healthz`);
    expect(health.status).toBe(200);
    expect(health.body.status).toBe('ok');
    const missing = await getJson(`${served.url}/schemas/ids/notanumber`);
    expect(missing).toEqual({
      status: 404,
      body: { error_code: 40403, message: 'Schema notanumber not found.' },
    });
    expect(await served.stop()).toBe(0);
    const log = served.lines.slice(1).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(log.map((entry) => [entry.method, entry.path, entry.status])).toEqual([
      ['GET', '/healthz', 200],
      ['GET', '/schemas/ids/notanumber', 404],
    ]);
  }, 30_000);

  it('stops on SIGTERM with exit 0 after a compatibility check too (its thread never holds the process)', async () => {
    const repo = releasedTwice();
    const served = await serve(repo.dir);
    const response = await fetch(
      `${served.url}/compatibility/subjects/account.created-v1/versions/latest?verbose=true`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/vnd.schemaregistry.v1+json' },
        body: JSON.stringify({ schemaType: 'JSON', schema: JSON.stringify({ type: 'object' }) }),
      },
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toHaveProperty('is_compatible');
    // The check ran on a thread of its own: it must not keep the process alive after the drain.
    const exited = await Promise.race([
      served.stop(),
      new Promise<string>((resolve) => setTimeout(() => resolve('still running 10 s after SIGTERM'), 10_000)),
    ]);
    if (exited !== 0) served.child.kill('SIGKILL');
    expect(exited).toBe(0);
  }, 30_000);

  it('--poll: a release committed while it runs is served without a restart; /healthz names the release', async () => {
    const repo = makeRepo();
    repo.copy(fixturePath('small'), 'catalogue');
    const first = repo.commit('release 1.0.0');
    const served = await serve(repo.dir, ['--poll', '0.1']);
    try {
      expect((await getJson(`${served.url}/healthz`)).body).toMatchObject({
        release: { commit: first, version: '1.0.0' },
        head: first,
        catalogueVersion: '1.0.0',
      });
      releaseNickname(repo);
      const second = repo.git('rev-parse', 'HEAD');
      // A hang guard, not a timing: the next polls pick it up.
      let health: Record<string, unknown> = {};
      for (let tries = 0; tries < 300; tries += 1) {
        health = (await getJson(`${served.url}/healthz`)).body;
        if (health.head === second) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(health).toMatchObject({ release: { commit: second, version: '1.1.0' }, head: second });
      expect((await getJson(`${served.url}/subjects/account.created-v1/versions`)).body).toEqual([1, 2]);
    } finally {
      expect(await served.stop()).toBe(0);
    }
  }, 60_000);

  it('a catalogue with problems is not served: located problems, exit 1', async () => {
    const repo = releasedTwice();
    repo.write(
      'catalogue/groups/broken.yaml',
      'group: {slug: broken, title: B}\nevents:\n  broken.thing-v1:\n    fields:\n      x: {type: Nope}\n',
    );
    const result = await runCliAsync(['serve', '--port', '0'], { cwd: repo.dir });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /catalogue\/groups\/broken\.yaml:5:\d+: error unknown-shape: Shape `Nope` is not defined/,
    );
  });

  it('a port that is not a number is a usage error (exit 2)', async () => {
    const child = spawn(
      process.execPath,
      [compiledToolkitPath('scripts/eventry.js'), 'serve', '--port', 'http'],
      {
        cwd: REPO,
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toContain('--port http is not a port number');
  });
});

/** The address an in-process `serve` printed, once it did; its output when it ended before that. */
async function servingUrl(run: InProcessRun): Promise<string> {
  let ended = false;
  void run.done.then(() => {
    ended = true;
  });
  // A hang guard, not a timing: the line comes once the history is loaded and the port is bound.
  for (let tries = 0; tries < 1500; tries += 1) {
    const match = /^eventry: serving (http:\/\/\S+)$/m.exec(run.stdout());
    if (match) return match[1]!;
    if (ended) throw new Error(`serve ended before serving: ${JSON.stringify(await run.done)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`serve printed no address: ${run.stdout()}`);
}

describe('eventry serve (in process, stopped through the container)', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    '%s sent through the container closes the server cleanly: exit 0, the port refuses after, no process handler',
    async (signal) => {
      const repo = releasedTwice();
      const handlers = () => [process.listenerCount('SIGTERM'), process.listenerCount('SIGINT')];
      const before = handlers();
      const run = startCliInProcess(['serve', '--port', '0', '--poll', '0'], { cwd: repo.dir });
      const url = await servingUrl(run);
      expect((await getJson(`${url}/healthz`)).body.status).toBe('ok');
      // It listens for the stop through the container, not on the test process.
      expect(handlers()).toEqual(before);
      run.signal(signal);
      const result = await run.done;
      expect(result.status).toBe(0);
      expect(result.stderr).toBe('');
      expect(run.exits).toEqual([]);
      await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    },
    30_000,
  );
});

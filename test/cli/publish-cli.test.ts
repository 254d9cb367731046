import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturePath, tempDir } from '../helpers.js';
import { runCliInProcess } from './in-process.js';

const SMALL = fixturePath('small');

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

describe('eventry publish: usage and failures', () => {
  it('requires --registry (exit 2)', async () => {
    const result = await runCliInProcess(['publish']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("required option '-r, --registry <url>' not specified");
  });

  it('rejects a registry that is not a URL (exit 2)', async () => {
    const result = await runCliInProcess(['publish', '--registry', 'localhost-4873']);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      'eventry: --registry localhost-4873 is not a URL (e.g. http://127.0.0.1:4873/).\n',
    );
  });

  it('says at once that nothing listens at the registry, and publishes nothing (exit 1)', async () => {
    const out = join(tempDir(), 'packages');
    const port = await closedPort();
    const started = performance.now();
    const result = await runCliInProcess([
      'publish',
      ...['--registry', `http://127.0.0.1:${port}`, '--catalogue', SMALL, '--out', out],
    ]);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      `eventry: publish stopped, nothing more was published: cannot reach http://127.0.0.1:${port}/ (ECONNREFUSED): is the registry running?\n`,
    );
    expect(performance.now() - started).toBeLessThan(15_000);
  });

  it('builds what it publishes from the catalogue first: no packages folder needed', async () => {
    const out = join(tempDir(), 'nowhere');
    const port = await closedPort();
    const result = await runCliInProcess([
      'publish',
      ...['--registry', `http://127.0.0.1:${port}`, '--catalogue', SMALL, '--out', out],
    ]);
    expect(result.stdout).toMatch(/^eventry: built \d+ events in \d+ groups/m);
    expect(existsSync(join(out, 'account', 'index.js'))).toBe(true);
    expect(result.stderr).toContain('ECONNREFUSED');
    expect(result.status).toBe(1);
  });

  it('publishes nothing, and says so, when the catalogue does not build (exit 1)', async () => {
    const port = await closedPort();
    const result = await runCliInProcess([
      'publish',
      ...['--registry', `http://127.0.0.1:${port}`, '--catalogue', fixturePath('bad/duplicate-event')],
      ...['--out', join(tempDir(), 'packages')],
    ]);
    expect(result.stderr).toContain('nothing was published');
    expect(result.stderr).not.toContain('ECONNREFUSED');
    expect(result.status).toBe(1);
  });

  it('--json keeps stdout JSON: the build reports on stderr', async () => {
    const port = await closedPort();
    const result = await runCliInProcess([
      'publish',
      ...['--registry', `http://127.0.0.1:${port}`, '--catalogue', SMALL, '--json', '--dry-run'],
      ...['--out', join(tempDir(), 'packages')],
    ]);
    expect(result.stderr).toMatch(/^eventry: built \d+ events/m);
    expect(result.stdout).not.toContain('eventry: built');
  });

  it('never prints the credentials of a registry URL: text, --json, errors, npm output', async () => {
    const out = join(tempDir(), 'packages');
    const port = await closedPort();
    const registry = `http://ci-bot:hunter2%40secret@127.0.0.1:${port}/`;
    for (const extra of [[], ['--json'], ['--dry-run'], ['--json', '--dry-run']]) {
      const result = await runCliInProcess([
        'publish',
        ...['--registry', registry, '--catalogue', SMALL, '--out', out, ...extra],
      ]);
      const printed = result.stdout + result.stderr;
      expect(printed).toContain(`***@127.0.0.1:${port}`);
      for (const secret of ['hunter2', 'ci-bot', 'secret']) expect(printed).not.toContain(secret);
      expect(result.status).toBe(1);
    }
    const notUrl = await runCliInProcess([
      'publish',
      '--registry',
      'http://ci-bot:hunter2secret@[::1',
      '--out',
      out,
    ]);
    expect(notUrl.stderr).toContain('is not a URL');
    expect(notUrl.stderr).not.toContain('hunter2');
    expect(notUrl.status).toBe(2);
  });
});

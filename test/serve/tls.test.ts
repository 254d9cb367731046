import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startCliInProcess } from '../cli/in-process.js';
import { releasedTwice } from '../schema-registry/released-repo.js';
import type { TestRepo } from '../sources/git-repo.js';
import { fetchRaw, selfSignedCert } from './replica-helpers.js';

/**
 * `eventry serve --tls-cert FILE --tls-key FILE`: HTTPS with the user's certificate; a file missing,
 * unreadable, not PEM, or a key that is not the certificate's is a usage error naming the flag and
 * the file (never its content, never a stack trace), before anything is loaded.
 */

let repo: TestRepo;
let tls: ReturnType<typeof selfSignedCert>;
beforeAll(() => {
  repo = releasedTwice();
  tls = selfSignedCert();
});

/** Waits (bounded) for the `serving` line of an in-process run. */
async function servingUrl(run: ReturnType<typeof startCliInProcess>): Promise<string> {
  for (let tries = 0; tries < 1500; tries += 1) {
    const match = /^eventry: serving (\S+)$/m.exec(run.stdout());
    if (match) return match[1]!;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`serve printed no address: ${run.stdout()}`);
}

describe('eventry serve over TLS', () => {
  it('serves HTTPS with the given certificate; reads, /readyz and ETags as over HTTP; SIGTERM exits 0', async () => {
    const run = startCliInProcess(
      ['serve', '--port', '0', '--poll', '0', '--tls-cert', tls.cert, '--tls-key', tls.key],
      {
        cwd: repo.dir,
      },
    );
    const url = await servingUrl(run);
    expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const ca = readFileSync(tls.cert, 'utf8');
    const latest = await fetchRaw(`${url}/subjects/account.created-v1/versions/latest`, { ca });
    expect(latest.status).toBe(200);
    expect(JSON.parse(latest.body)).toMatchObject({ subject: 'account.created-v1', version: 2 });
    const byId = await fetchRaw(`${url}/schemas/ids/${JSON.parse(latest.body).id}`, { ca });
    expect(byId.status).toBe(200);
    const revalidated = await fetchRaw(`${url}/schemas/ids/${JSON.parse(latest.body).id}`, {
      ca,
      headers: { 'if-none-match': byId.headers.etag! },
    });
    expect(revalidated.status).toBe(304);
    expect((await fetchRaw(`${url}/readyz`, { ca })).status).toBe(200);
    // A client that does not trust the certificate is refused by TLS itself.
    await expect(fetchRaw(`${url}/readyz`)).rejects.toThrow(/self[- ]signed/i);
    run.signal('SIGTERM');
    const result = await run.done;
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('');
  }, 60_000);

  it('each bad certificate or key is a usage error naming the flag and the file, quoting nothing of it', async () => {
    const dir = tls.dir;
    writeFileSync(join(dir, 'not-pem.txt'), 'SECRET-CONTENT-1 this is no certificate\n');
    writeFileSync(
      join(dir, 'bad-key.pem'),
      '-----BEGIN PRIVATE KEY-----\nU0VDUkVULUNPTlRFTlQtMg==\n-----END PRIVATE KEY-----\n',
    );
    const other = selfSignedCert();
    const cases: [string[], string][] = [
      [['--tls-cert', tls.cert], '--tls-cert needs --tls-key too'],
      [['--tls-key', tls.key], '--tls-key needs --tls-cert too'],
      [['--tls-cert', 'missing.pem', '--tls-key', tls.key], '--tls-cert: missing.pem: no such file.'],
      [['--tls-cert', tls.cert, '--tls-key', dir], `--tls-key: ${dir}: it is a directory, not a file.`],
      [['--tls-cert', join(dir, 'not-pem.txt'), '--tls-key', tls.key], 'not-pem.txt: not a PEM certificate.'],
      [['--tls-cert', tls.key, '--tls-key', tls.key], 'key.pem: not a PEM certificate.'],
      [
        ['--tls-cert', tls.cert, '--tls-key', join(dir, 'bad-key.pem')],
        'bad-key.pem: not an unencrypted PEM private key.',
      ],
      [['--tls-cert', tls.cert, '--tls-key', tls.cert], 'cert.pem: not an unencrypted PEM private key.'],
      [
        ['--tls-cert', tls.cert, '--tls-key', other.key],
        `--tls-cert and --tls-key: the key in ${other.key} is not the private key of the certificate in ${tls.cert}.`,
      ],
    ];
    for (const [args, message] of cases) {
      const result = await startCliInProcess(['serve', '--port', '0', '--poll', '0', ...args], {
        cwd: repo.dir,
      }).done;
      expect(result.status, args.join(' ')).toBe(2);
      expect(result.stdout, args.join(' ')).toBe('');
      expect(result.stderr, args.join(' ')).toContain(message);
      expect(result.stderr, args.join(' ')).toMatch(
        /^eventry serve: .*\nRun `eventry serve --help` for usage\.\n$/,
      );
      expect(result.stderr).not.toMatch(/SECRET-CONTENT|BEGIN|\n\s+at /);
    }
  }, 60_000);
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import type { NpmRunner } from '../../generators/publish/npm.js';
import { parseNpmJson } from '../../generators/publish/npm.js';
import { NpmRegistryClient, NpmRegistryError } from '../../generators/publish/npm-registry-client.js';

const REGISTRY = 'http://127.0.0.1:4873/';

/** A fetch that fails the way undici does when nothing listens on the port. */
const refused = (async () => {
  throw Object.assign(new TypeError('fetch failed'), {
    cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }),
  });
}) as unknown as typeof fetch;

/** An npm that only ever answers E404, recording its calls. */
function npm404(calls: string[][]): NpmRunner {
  return async (args) => {
    calls.push(args);
    return { code: 1, stdout: '{"error":{"code":"E404","summary":"Not Found"}}', stderr: '', ms: 1 };
  };
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('NpmRegistryClient.getState', () => {
  it('reads versions and the exact version from one anonymous packument GET, without npm', async () => {
    const calls: string[][] = [];
    const packument = {
      name: '@platform-events/account',
      'dist-tags': { latest: '1.1.0' },
      versions: {
        '1.0.0': {
          dist: { integrity: 'sha512-A', shasum: 'a', tarball: 't' },
          eventry: { sourceHash: 'h1' },
        },
        '1.1.0': { dist: { integrity: 'sha512-B', shasum: 'b', tarball: 't' } },
      },
    };
    let requested = '';
    const fetch = (async (url: URL) => {
      requested = String(url);
      return new Response(JSON.stringify(packument), { status: 200 });
    }) as unknown as typeof globalThis.fetch;
    const client = new NpmRegistryClient(REGISTRY, { npm: npm404(calls), fetch });
    const state = await client.getState('@platform-events/account', '1.0.0');
    expect(requested).toBe('http://127.0.0.1:4873/@platform-events%2faccount');
    expect(state).toEqual({
      package: {
        name: '@platform-events/account',
        versions: ['1.0.0', '1.1.0'],
        distTags: { latest: '1.1.0' },
      },
      published: {
        name: '@platform-events/account',
        version: '1.0.0',
        integrity: 'sha512-A',
        shasum: 'a',
        tarball: 't',
        sourceHash: 'h1',
      },
    });
    expect(calls).toEqual([]);
  });

  it('asks npm (with its credentials) when the anonymous answer is a 404 that may hide a private package', async () => {
    const calls: string[][] = [];
    const fetch = (async () => new Response('{}', { status: 404 })) as unknown as typeof globalThis.fetch;
    const client = new NpmRegistryClient(REGISTRY, { npm: npm404(calls), fetch });
    expect(await client.getState('@platform-events/account', '1.0.0')).toEqual({});
    expect(calls).toEqual([
      [
        'view',
        '@platform-events/account',
        'versions',
        'dist-tags',
        '--json',
        '--prefer-online',
        `--registry=${REGISTRY}`,
        `--@platform-events:registry=${REGISTRY}`,
      ],
    ]);
  });

  it('stops at once when nothing listens at the registry URL, instead of waiting for npm to retry', async () => {
    const calls: string[][] = [];
    const client = new NpmRegistryClient(REGISTRY, { npm: npm404(calls), fetch: refused });
    await expect(client.getState('@platform-events/account', '1.0.0')).rejects.toThrow(
      new NpmRegistryError(`cannot reach ${REGISTRY} (ECONNREFUSED): is the registry running?`),
    );
    expect(calls).toEqual([]);
  });

  it('leaves reaching the registry to npm when a proxy is configured', async () => {
    vi.stubEnv('HTTPS_PROXY', 'http://proxy.invalid:3128');
    const calls: string[][] = [];
    const client = new NpmRegistryClient(REGISTRY, { npm: npm404(calls), fetch: refused });
    expect(await client.getState('@platform-events/account', '1.0.0')).toEqual({});
    expect(calls).toHaveLength(1);
  });
});

describe('parseNpmJson', () => {
  it('finds the error object npm 11 prints after its log lines on stderr', () => {
    const result = {
      code: 1,
      stdout: '',
      stderr:
        'npm error code E404\nnpm error 404 Not Found\n{\n  "error": {\n    "code": "E404",\n    "summary": "Not Found"\n  }\n}\n',
      ms: 1,
    };
    expect(parseNpmJson(result)).toEqual({ error: { code: 'E404', summary: 'Not Found' } });
  });
});

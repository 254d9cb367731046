import { writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { registryTimeouts } from '../../generators/publish/npm.js';
import { runCliInProcess } from '../cli/in-process.js';
import { fixturePath, tempDir } from '../helpers.js';

// A registry that cannot be used is reported at once (a URL eventry will not send to), or within the
// timeouts (a closed port, a server that never answers, one that dies mid-publish). The vitest timeout
// of each test is the hang guard; the registry timeouts are set low so that a run takes seconds.

const SMALL = fixturePath('small');
const FAST = { EVENTRY_REGISTRY_TIMEOUT: '2', EVENTRY_REGISTRY_DEADLINE: '8' };

const servers: { close(): void }[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** A TCP server on loopback that accepts connections and never says a word. */
async function silentServer(): Promise<number> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push({
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  });
  return (server.address() as AddressInfo).port;
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A user config giving npm a token for the registry at `port` (npm publish insists on one). */
function npmrc(port: number): string {
  const file = join(tempDir('eventry-npmrc-'), '.npmrc');
  writeFileSync(file, `//127.0.0.1:${port}/:_authToken=dummy\n`);
  return file;
}

const publish = (registry: string, env: Record<string, string> = {}) =>
  runCliInProcess(
    ['publish', '--registry', registry, '--catalogue', SMALL, '--out', join(tempDir(), 'packages')],
    { env: { ...FAST, ...env } },
  );

describe('registry URLs eventry will not use are refused at once (exit 2, registry-url)', () => {
  const refused: [string, string, RegExp][] = [
    ['a file: URL', 'file:///etc/passwd', /file: is not a registry scheme/],
    ['a javascript: URL', 'javascript:alert(1)', /javascript: is not a registry scheme/],
    ['a URL with a newline', 'http://127.0.0.1:4873/\nx', /white space or a control character/],
    ['a URL with a tab', 'http://127.0.0.1:4873/\tx', /white space or a control character/],
    ['an ftp: URL', 'ftp://127.0.0.1/', /ftp: is not a registry scheme/],
  ];
  for (const [what, url, why] of refused) {
    it(`publish: ${what}`, async () => {
      const out = join(tempDir(), 'packages');
      const result = await runCliInProcess([
        'publish',
        '--registry',
        url,
        '--catalogue',
        SMALL,
        '--out',
        out,
      ]);
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(/^eventry: error registry-url: --registry ".*" is refused: /);
      expect(result.stderr).toMatch(why);
      expect(result.stderr.split('\n').length).toBe(2);
    });
    it(`diff npm: ${what}`, async () => {
      const result = await runCliInProcess([
        'diff',
        'npm:@fixture-events/account@1.0.0',
        SMALL,
        '--registry',
        url,
      ]);
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(/error registry-url: --registry ".*" is refused: /);
      expect(result.stderr).toMatch(why);
    });
  }

  it('bad timeout settings are a usage error, not a default', async () => {
    expect(registryTimeouts({ EVENTRY_REGISTRY_TIMEOUT: 'soon' })).toEqual({
      ok: false,
      error: 'EVENTRY_REGISTRY_TIMEOUT=soon is not a number of seconds (e.g. 10).',
    });
    const result = await publish('http://127.0.0.1:4873/', { EVENTRY_REGISTRY_DEADLINE: '-1' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('error registry-timeout: EVENTRY_REGISTRY_DEADLINE=-1 is not a number');
  });
});

describe('a registry that does not answer ends the run within its timeouts', () => {
  it('publish to a closed port: says nothing listens, publishes nothing (exit 1)', async () => {
    const port = await closedPort();
    const result = await publish(`http://127.0.0.1:${port}/`);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`cannot reach http://127.0.0.1:${port}/ (ECONNREFUSED)`);
  }, 60_000);

  it('publish to a server that accepts and never answers: stops after the request timeout (exit 1)', async () => {
    const port = await silentServer();
    const result = await publish(`http://127.0.0.1:${port}/`);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`http://127.0.0.1:${port}/ did not answer within 2 s (ETIMEDOUT`);
  }, 60_000);

  it('diff npm: against a server that never answers: a usage error within the deadline', async () => {
    const port = await silentServer();
    const result = await runCliInProcess(
      ['diff', 'npm:@fixture-events/account@1.0.0', SMALL, '--registry', `http://127.0.0.1:${port}/`],
      { env: FAST },
    );
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/npm could not fetch it/);
  }, 60_000);

  it('diff npm: against a closed port: a usage error within the deadline', async () => {
    const port = await closedPort();
    const result = await runCliInProcess(
      ['diff', 'npm:@fixture-events/account@1.0.0', SMALL, '--registry', `http://127.0.0.1:${port}/`],
      { env: FAST },
    );
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/npm could not fetch it.*ECONNREFUSED/s);
  }, 60_000);

  it('diff npm: without --registry asks the registry npm config names for the scope, not the public one', async () => {
    const port = await closedPort();
    const project = tempDir('eventry-scope-registry-');
    writeFileSync(join(project, '.npmrc'), `@fixture-events:registry=http://127.0.0.1:${port}/\n`);
    const result = await runCliInProcess(['diff', 'npm:@fixture-events/account@1.0.0', SMALL], {
      cwd: project,
      env: FAST,
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`127.0.0.1:${port}`);
    expect(result.stderr).not.toContain('registry.npmjs.org');
  }, 60_000);

  it('a registry killed mid-publish: the run ends with an account of what was published and what was not', async () => {
    // Knows no package (so everything is to publish), takes the first upload (the run time), and
    // dies at the second: every connection cut, nothing listening any more.
    const sockets = new Set<Socket>();
    let uploads = 0;
    const server = createHttpServer((request, response) => {
      if (request.method !== 'PUT') {
        response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
        return;
      }
      uploads++;
      if (uploads === 1) {
        request.resume();
        request.on('end', () =>
          response.writeHead(201, { 'content-type': 'application/json' }).end('{"ok":true}'),
        );
        return;
      }
      server.close();
      for (const socket of sockets) socket.destroy();
    });
    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push({
      close: () => {
        server.close();
        for (const socket of sockets) socket.destroy();
      },
    });
    const { port } = server.address() as AddressInfo;
    // The default timeouts: the first upload must succeed however busy the machine is; the dead
    // registry then refuses at once, and the run must still end within the test's minute.
    const result = await publish(`http://127.0.0.1:${port}/`, {
      npm_config_userconfig: npmrc(port),
      EVENTRY_REGISTRY_TIMEOUT: '10',
      EVENTRY_REGISTRY_DEADLINE: '40',
    });
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/published {3}@fixture-events\/runtime@/);
    expect(result.stderr).toMatch(/@fixture-events\/account@[^:]+: not published: /);
    expect(result.stderr).toMatch(/@fixture-events\/billing@[^:]+: not published: /);
    expect(result.stdout).toMatch(
      /eventry: 1 published, 0 up to date, 2 failed \(run again to publish them\)/,
    );
  }, 60_000);
});

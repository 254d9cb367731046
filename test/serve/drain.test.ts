import { once } from 'node:events';
import type { Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SchemaRegistryState } from '../../generators/schema-registry/registry.js';
import { ReplicaLifecycle } from '../../generators/serve/drain.js';
import { createRegistryServer } from '../../generators/serve/server.js';
import { fetchRaw } from './replica-helpers.js';
import { seedHistory } from './serve-helpers.js';

/**
 * Graceful drain, as a load balancer sees it: once draining, `/readyz` is 503 (reads still answer, each
 * closing its connection), then the server stops accepting, a request in flight finishes with its
 * whole answer, an idle kept-alive connection is closed, and the drain ends once nothing is left; a
 * request still unanswered at the timeout is cut and counted.
 */

let servers: Server[] = [];
afterEach(() => {
  for (const server of servers) server.closeAllConnections();
  servers = [];
});

async function replica(): Promise<{ server: Server; lifecycle: ReplicaLifecycle; port: number }> {
  const lifecycle = new ReplicaLifecycle();
  const server = createRegistryServer(new SchemaRegistryState(seedHistory()), { lifecycle });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, lifecycle, port: (server.address() as { port: number }).port };
}

/** A raw connection and everything it has read so far; `closed` resolves when the server ends it. */
function rawConnection(port: number): Promise<{ socket: Socket; read: () => string; closed: Promise<void> }> {
  return new Promise((resolve) => {
    let text = '';
    const socket = connect(port, '127.0.0.1');
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    socket.on('error', () => {});
    socket.once('connect', () => resolve({ socket, read: () => text, closed }));
  });
}

/** Waits (bounded) until `check` holds. */
async function until(check: () => boolean): Promise<void> {
  for (let tries = 0; !check() && tries < 1000; tries += 1)
    await new Promise((resolve) => setTimeout(resolve, 5));
}

const refused = (port: number) =>
  fetchRaw(`http://127.0.0.1:${port}/healthz`).then(
    () => false,
    (error: NodeJS.ErrnoException) => error.code === 'ECONNREFUSED',
  );

describe('draining a replica', () => {
  it('/readyz is 200 while serving, 503 during the drain delay while reads still answer with connection: close', async () => {
    const { server, lifecycle, port } = await replica();
    const url = `http://127.0.0.1:${port}`;
    expect((await fetchRaw(`${url}/readyz`)).status).toBe(200);
    const idle = await rawConnection(port);
    idle.socket.write('GET /config HTTP/1.1\r\nhost: x\r\n\r\n');
    await until(() => idle.read().includes('"compatibilityLevel"'));
    // A delay far longer than the test: a second drain ends it (cutting nothing, since nothing is left).
    const drained = lifecycle.drain(server, { delayMs: 60_000, timeoutMs: 5_000 });
    const ready = await fetchRaw(`${url}/readyz`);
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.body)).toMatchObject({ status: 'draining' });
    const read = await fetchRaw(`${url}/subjects/account.created-v1/versions/latest`);
    expect(read.status).toBe(200);
    expect(read.headers.connection).toBe('close');
    // A connection kept alive from before stays open through the delay: its client may send on it.
    let kept = false;
    void idle.closed.then(() => {
      kept = true;
    });
    // (A few turns of the loop: the old code closed it right after the other answer.)
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(kept).toBe(false);
    idle.socket.write('GET /mode HTTP/1.1\r\nhost: x\r\n\r\n');
    await until(() => idle.read().includes('READONLY'));
    expect(idle.read().split('HTTP/1.1 200').pop()).toMatch(/\r\nconnection: close\r\n/i);
    await idle.closed;
    // The liveness probe stays 200: a draining replica is not to be restarted.
    expect((await fetchRaw(`${url}/healthz`)).status).toBe(200);
    expect(await lifecycle.drain(server, { delayMs: 0, timeoutMs: 0 })).toEqual({ cut: 0 });
    expect(await drained).toEqual({ cut: 0 });
    expect(await refused(port)).toBe(true);
  });

  it('a request in flight finishes, a new connection is refused, an idle keep-alive connection is closed', async () => {
    const { server, lifecycle, port } = await replica();
    const idle = await rawConnection(port);
    idle.socket.write('GET /config HTTP/1.1\r\nhost: x\r\n\r\n');
    await until(() => idle.read().includes('"compatibilityLevel"'));
    const busy = await rawConnection(port);
    const arrived = once(server, 'request');
    const body = JSON.stringify({ schemaType: 'JSON', schema: '{"type":"object"}' });
    busy.socket.write(
      `POST /compatibility/subjects/account.created-v1/versions/latest HTTP/1.1\r\nhost: x\r\n` +
        `content-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
    );
    await arrived;
    let done = false;
    const drained = lifecycle.drain(server, { delayMs: 0, timeoutMs: 10_000 }).then((outcome) => {
      done = true;
      return outcome;
    });
    await idle.closed;
    expect(await refused(port)).toBe(true);
    expect(done).toBe(false);
    busy.socket.write(body.slice(5));
    await busy.closed;
    expect(busy.read()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(busy.read()).toMatch(/\r\nconnection: close\r\n/i);
    expect(busy.read()).toContain('"is_compatible"');
    expect(await drained).toEqual({ cut: 0 });
  });

  it('a request still unanswered at the drain timeout is cut and counted; a second drain cuts at once', async () => {
    const { server, lifecycle, port } = await replica();
    const stuck = await rawConnection(port);
    const arrived = once(server, 'request');
    stuck.socket.write(
      'POST /subjects/account.created-v1 HTTP/1.1\r\nhost: x\r\ncontent-length: 100\r\n\r\n{',
    );
    await arrived;
    expect(await lifecycle.drain(server, { delayMs: 0, timeoutMs: 200 })).toEqual({ cut: 1 });
    await stuck.closed;

    const second = await replica();
    const held = await rawConnection(second.port);
    const heldArrived = once(second.server, 'request');
    held.socket.write(
      'POST /subjects/account.created-v1 HTTP/1.1\r\nhost: x\r\ncontent-length: 100\r\n\r\n{',
    );
    await heldArrived;
    const drained = second.lifecycle.drain(second.server, { delayMs: 60_000, timeoutMs: 60_000 });
    expect(await second.lifecycle.drain(second.server, { delayMs: 60_000, timeoutMs: 60_000 })).toEqual({
      cut: 1,
    });
    expect(await drained).toEqual({ cut: 1 });
    await held.closed;
  });
});

import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { releasedTwice } from '../schema-registry/released-repo.js';
import { fetchRaw, type ServeProcess, spawnServe } from './replica-helpers.js';

/**
 * A rolling restart under load loses no request. Two `eventry serve` processes sit behind a tiny
 * round-robin load balancer that does what the common ones do and nothing more: it sends each request
 * to the next replica its readiness checks (`/readyz` every 50 ms; out after two failed checks in a row) call ready, on a fresh connection,
 * and never retries (an upstream error is a 502 to the client). Clients loop the read mix (schema by
 * id, latest by subject) while each replica in turn gets SIGTERM and a new one takes its place; every
 * request must come back 200, and each old replica must exit 0.
 */

interface Upstream {
  name: string;
  port: number;
  ready: boolean;
  /** Failed readiness checks in a row. */
  failures: number;
  answered: number;
}

/** The load balancer: round-robin over ready upstreams, readiness polled, no retry. */
function loadBalancer(): { server: Server; upstreams: Upstream[]; stop(): void } {
  const upstreams: Upstream[] = [];
  let next = 0;
  const poll = setInterval(() => {
    for (const upstream of upstreams) {
      // Taken out after two failed checks in a row (an ALB's default unhealthy threshold): one slow
      // check on a busy machine is no verdict; the drain delay covers the checks it takes.
      const checked = (ok: boolean) => {
        upstream.failures = ok ? 0 : upstream.failures + 1;
        upstream.ready = ok || (upstream.ready && upstream.failures < 2);
      };
      fetchRaw(`http://127.0.0.1:${upstream.port}/readyz`).then(
        (answer) => checked(answer.status === 200),
        () => checked(false),
      );
    }
  }, 50);
  const server = createServer((req, res) => {
    const ready = upstreams.filter((upstream) => upstream.ready);
    const upstream = ready[next++ % Math.max(1, ready.length)];
    if (!upstream) {
      res.writeHead(503).end('no replica ready');
      return;
    }
    const forwarded = request(
      { host: '127.0.0.1', port: upstream.port, path: req.url, method: req.method, agent: false },
      (answer) => {
        upstream.answered += 1;
        res.writeHead(answer.statusCode!, { 'x-upstream': upstream.name });
        answer.pipe(res);
      },
    );
    forwarded.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502).end(`${upstream.name}: ${error.message}`);
      else res.destroy();
    });
    req.pipe(forwarded);
  });
  return { server, upstreams, stop: () => clearInterval(poll) };
}

const replicas: ServeProcess[] = [];
afterAll(() => {
  for (const replica of replicas) replica.child.kill('SIGKILL');
});

describe('a rolling restart behind a load balancer', () => {
  it('loses no request: every request of clients looping the read mix gets 200 while each replica is replaced', async () => {
    const repo = releasedTwice();
    const start = async (name: string) => {
      const replica = await spawnServe(repo.dir, ['--poll', '0', '--drain-delay', '0.5']);
      replicas.push(replica);
      return {
        replica,
        upstream: { name, port: Number(new URL(replica.url).port), ready: false, failures: 0, answered: 0 },
      };
    };
    const balancer = loadBalancer();
    await new Promise<void>((resolve) => balancer.server.listen(0, '127.0.0.1', resolve));
    const front = `http://127.0.0.1:${(balancer.server.address() as AddressInfo).port}`;
    const [a, b] = await Promise.all([start('a'), start('b')]);
    balancer.upstreams.push(a.upstream, b.upstream);

    const latest = JSON.parse(
      (await fetchRaw(`${a.replica.url}/subjects/account.created-v1/versions/latest`)).body,
    );
    const mix = [`/schemas/ids/${latest.id}`, '/subjects/account.created-v1/versions/latest'];
    const statuses = new Map<string, number>();
    let sent = 0;
    let looping = true;
    const loop = async () => {
      while (looping) {
        const response = await fetch(`${front}${mix[sent++ % mix.length]}`);
        await response.arrayBuffer();
        const key =
          response.status === 200 ? '200' : `${response.status} ${response.headers.get('x-upstream')}`;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
      }
    };
    /** Waits (bounded) until `upstream` has answered `count` more requests. */
    const served = async (upstream: Upstream, count: number) => {
      const target = upstream.answered + count;
      for (let tries = 0; upstream.answered < target && tries < 3000; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(upstream.answered, upstream.name).toBeGreaterThanOrEqual(target);
    };
    // Traffic starts once the balancer has found both replicas ready, as behind a real one: the
    // restart is under test, not a cold start with no replica ready yet.
    for (let tries = 0; !(a.upstream.ready && b.upstream.ready) && tries < 3000; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const clients = Array.from({ length: 4 }, loop);
    try {
      await Promise.all([served(a.upstream, 30), served(b.upstream, 30)]);
      // Replace a, then b: SIGTERM the old one while its successor starts.
      for (const [old, name] of [
        [a, 'a2'],
        [b, 'b2'],
      ] as const) {
        old.replica.child.kill('SIGTERM');
        const successor = await start(name);
        balancer.upstreams.push(successor.upstream);
        expect(await old.replica.exited).toBe(0);
        await served(successor.upstream, 30);
      }
    } finally {
      looping = false;
      await Promise.all(clients);
      balancer.stop();
      balancer.server.close();
    }
    expect(Object.fromEntries(statuses)).toEqual({ '200': sent });
    expect(sent).toBeGreaterThan(200);
    for (const upstream of balancer.upstreams) expect(upstream.answered, upstream.name).toBeGreaterThan(0);
  }, 120_000);
});

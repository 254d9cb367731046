import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Follower, followRepository, loadServedState } from '../../generators/serve/follow.js';
import { ServedStateHolder } from '../../generators/serve/served-state.js';
import { createRegistryServer } from '../../generators/serve/server.js';

/** A registry served in process from a repository's catalogue, following its commits. */
export interface FollowedServer {
  holder: ServedStateHolder;
  follower: Follower;
  server: Server;
  url: string;
  /** What each failed reload said. */
  failures: string[];
}

/**
 * Serves the catalogue of the repository at `dir` on the loopback, polling it every `intervalMs` (an
 * hour by default: the tests call `follower.check()` themselves), with the docs portal at `docsDir`
 * when given. Stopping the follower and closing the server are pushed onto `cleanups`.
 */
export async function serveFollowed(
  dir: string,
  cleanups: (() => unknown)[],
  { intervalMs = 3_600_000, docsDir }: { intervalMs?: number; docsDir?: string } = {},
): Promise<FollowedServer> {
  const source = { cwd: dir, env: process.env, catalogue: 'catalogue' };
  const loaded = loadServedState(source);
  if (!loaded.ok) throw new Error(loaded.message);
  const holder = new ServedStateHolder(loaded.served);
  const failures: string[] = [];
  const follower = followRepository(holder, source, intervalMs, {
    reloaded: () => undefined,
    failed: (message) => failures.push(message),
  });
  const server = createRegistryServer(holder, docsDir ? { docsDir } : {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  cleanups.push(
    () => follower.stop(),
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return { holder, follower, server, url, failures };
}

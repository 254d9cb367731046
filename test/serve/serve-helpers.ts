import type { AddressInfo } from 'node:net';
import { type History, loadHistory } from '../../generators/schema-registry/history.js';
import { SchemaRegistryState } from '../../generators/schema-registry/registry.js';
import { createRegistryServer, type RegistryServerOptions } from '../../generators/serve/server.js';
import { REPO } from '../helpers.js';

/** The seed catalogue's history (this repository's releases plus the working catalogue), loaded once. */
let seed: History | undefined;
export function seedHistory(): History {
  if (!seed) {
    const result = loadHistory({ cwd: REPO, env: process.env, catalogue: 'catalogue' });
    if (!result.ok) throw new Error(`the seed catalogue does not load: ${JSON.stringify(result)}`);
    seed = result.history;
  }
  return seed;
}

/** A running registry server on a free loopback port. */
export interface RunningRegistry {
  url: string;
  state: SchemaRegistryState;
  close(): Promise<void>;
}

/** Starts `createRegistryServer` over a history on 127.0.0.1, port 0. */
export async function startRegistry(
  history: History = seedHistory(),
  options: RegistryServerOptions = {},
): Promise<RunningRegistry> {
  const state = new SchemaRegistryState(history);
  const server = createRegistryServer(state, options);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

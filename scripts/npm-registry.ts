#!/usr/bin/env node
/**
 * `npm run npm-registry`: a local npm registry (Verdaccio) on 127.0.0.1, storage in the git-ignored
 * `.verdaccio/`, so the whole loop (build, publish, install in a consumer, validate) runs on one machine.
 * Options: see USAGE below (`npm run npm-registry -- --help`).
 */
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CONFIG_FILE, loadCatalogueFromSources } from '../generators/load/index.js';
import { startLocalRegistry } from './npm-registry/local-registry.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

const USAGE = `Usage: npm run npm-registry -- [options]

A local npm registry (Verdaccio) for trying the publish and install loop on one machine.

Options:
  --port <n>         port to listen on; 0 picks a free one (default: 4873)
  --host <address>   address to listen on (default: 127.0.0.1)
  --storage <dir>    where published packages are kept (default: .verdaccio/storage)
  --catalogue <dir>  catalogue to read the npm scope from, for the printed .npmrc line (default: catalogue)
  --verbose          log every request
  -h, --help         print this help
`;

let values: {
  port: string;
  host: string;
  storage: string;
  catalogue: string;
  verbose: boolean;
  help: boolean;
};
try {
  ({ values } = parseArgs({
    options: {
      port: { type: 'string', default: '4873' },
      host: { type: 'string', default: '127.0.0.1' },
      storage: { type: 'string', default: join(REPO, '.verdaccio', 'storage') },
      catalogue: { type: 'string', default: join(REPO, 'catalogue') },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  }));
} catch (error) {
  // parseArgs throws on an unknown option or a missing value: a usage error, not a crash.
  console.error(`registry: ${(error as Error).message}\n\n${USAGE}`);
  process.exit(2);
}
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}

const port = Number(values.port);
if (values.port.trim() === '' || !Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`registry: --port ${values.port} is not a port number`);
  process.exit(2);
}

let registry: Awaited<ReturnType<typeof startLocalRegistry>>;
try {
  registry = await startLocalRegistry({
    storage: values.storage,
    host: values.host,
    port,
    logLevel: values.verbose ? 'http' : 'warn',
  });
} catch (error) {
  // A port in use or an address that does not resolve: say which, without a stack.
  console.error(`registry: cannot start on ${values.host}:${port}: ${(error as Error).message}`);
  process.exit(2);
}
const scope = readScope(values.catalogue);
const hostPath = registry.url.replace(/^http:/, '');
const storagePath = relative(process.cwd(), resolve(values.storage));
const storage = storagePath.startsWith('..') ? resolve(values.storage) : storagePath;

console.log(`eventry registry: Verdaccio listening on ${registry.url} (storage ${storage}; Ctrl-C stops it)`);
console.log(`
npm sends a token even to a registry that lets anyone publish; any value works. Keep it in your
user config, never in a committed file:
  npm config set ${hostPath}:_authToken dummy

Publish the group packages (after npm run build):
  npm run --silent cli -- publish --registry ${registry.url}

In a consumer project's .npmrc, send only the scope here (everything else still comes from npm):
  ${scope}:registry=${registry.url}
`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void registry.close().then(() => process.exit(0));
  });
}

/** The npm scope of the group packages, from the catalogue's config (the loader checks it). */
function readScope(catalogue: string): string {
  try {
    const text = readFileSync(join(catalogue, CONFIG_FILE), 'utf8');
    const loaded = loadCatalogueFromSources([{ path: CONFIG_FILE, text }]);
    if (loaded.ok) return loaded.catalogue.config.scope;
  } catch {
    // No catalogue here: fall back to a placeholder the user fills in.
  }
  return '@<scope>';
}

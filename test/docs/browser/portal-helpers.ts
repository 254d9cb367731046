import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { inject } from 'vitest';
import { generateSite, type SiteInput } from '../../../generators/docs/site.js';
import { writeSiteAtomically } from '../../../generators/docs/write-site.js';
import { type Catalogue, type Field, typeNotation } from '../../../generators/model.js';
import { loadHistory } from '../../../generators/schema-registry/history.js';
import { fixturePath, loadValid, REPO, runCli, seedPackages } from '../../helpers.js';

/**
 * The strict policy the docs portal must work under, as a static host would send it: `script-src 'self'`
 * (no inline script, no eval) and nothing but the site's own origin.
 */
const PORTAL_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'";

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.json': 'application/json',
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
};

/** A running static host: its base URL and how to stop it. */
export interface PortalServer {
  base: string;
  close(): void;
}

/**
 * Serves built sites as a static host does, with `PORTAL_CSP` on every response: `mounts` maps a URL
 * prefix (`/`, `/small/`) to a site folder, longest prefix first; `extra` maps exact URL paths to files
 * served beside the sites (same origin, so the policy allows them).
 */
export async function servePortal(
  mounts: Record<string, string>,
  extra: Record<string, string> = {},
): Promise<PortalServer> {
  const prefixes = Object.keys(mounts).sort((a, b) => b.length - a.length);
  const server: Server = createServer((request, response) => {
    let path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    let file: string | undefined = Object.hasOwn(extra, path) ? extra[path] : undefined;
    if (!file) {
      if (path.endsWith('/')) path += 'index.html';
      const prefix = prefixes.find((candidate) => path.startsWith(candidate));
      if (prefix !== undefined) {
        const folder = mounts[prefix]!;
        const candidate = normalize(join(folder, path.slice(prefix.length - 1)));
        if (candidate.startsWith(folder) && statSync(candidate, { throwIfNoEntry: false })?.isFile())
          file = candidate;
      }
    }
    if (!file) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'content-security-policy': PORTAL_CSP,
    });
    response.end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => server.close(),
  };
}

/** Where axe-core is served beside the sites, for the accessibility checks (same origin: the policy allows it). */
export const AXE = '/__axe.js';

/** Writes the docs site of `input` into `site`; a site that is not written fails the suite's set-up. */
async function writeTestSite(site: string, input: SiteInput): Promise<void> {
  const written = await writeSiteAtomically(site, (emit) => generateSite(input, emit));
  if (!('ok' in written) || !written.ok) throw new Error(`site not written: ${JSON.stringify(written)}`);
}

/**
 * The small fixture's group packages, built by the CLI into `packages`. The small fixture has
 * descriptions (the seed has none, so its search shows snippets) and date fields (its validators import
 * ajv-formats).
 */
function buildSmallPackages(packages: string): string {
  const built = runCli(['build', '--catalogue', fixturePath('small'), '--out', packages]);
  if (built.status !== 0) throw new Error(`the small fixture does not build: ${built.stderr}`);
  return packages;
}

/** The two portal sites the browser suites read: the repository catalogue's and the small fixture's. */
interface PortalSites {
  site: string;
  smallSite: string;
}

/**
 * The portal sites, made once per test run and shared by every browser suite (portal, portal-design,
 * portal-phone) and browser: the first suite to ask builds them into the run's scratch folder, holding
 * a folder made atomically as its lock; the others wait for its `ready.json` (or its `failed`). No
 * suite writes into them.
 */
export async function portalSites(): Promise<PortalSites> {
  const root = join(inject('runScratch'), 'portal-sites');
  const ready = join(root, 'ready.json');
  const failed = join(root, 'failed');
  try {
    mkdirSync(root);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    while (!existsSync(ready)) {
      if (existsSync(failed))
        throw new Error(`the portal sites were not built: ${readFileSync(failed, 'utf8')}`);
      await sleep(200);
    }
    return JSON.parse(readFileSync(ready, 'utf8')) as PortalSites;
  }
  try {
    const sites = await buildPortalSites(root);
    writeFileSync(`${ready}.tmp`, JSON.stringify(sites));
    renameSync(`${ready}.tmp`, ready);
    return sites;
  } catch (error) {
    writeFileSync(failed, String((error as Error).stack ?? error));
    throw error;
  }
}

async function buildPortalSites(root: string): Promise<PortalSites> {
  const loaded = loadHistory({ cwd: REPO, env: process.env, catalogue: 'catalogue' });
  if (!loaded.ok) throw new Error('the seed catalogue does not load');
  const site = join(root, 'site');
  await writeTestSite(site, {
    catalogue: loaded.history.current,
    history: loaded.history,
    packagesDir: seedPackages(),
  });
  const smallSite = join(root, 'small');
  await writeTestSite(smallSite, {
    catalogue: loadValid(fixturePath('small')),
    packagesDir: buildSmallPackages(join(root, 'small-packages')),
  });
  return { site, smallSite };
}

/** The repository's catalogue as the portal sites show it (the working tree, with its release history). */
function portalCatalogue(): Catalogue {
  const loaded = loadHistory({ cwd: REPO, env: process.env, catalogue: 'catalogue' });
  if (!loaded.ok) throw new Error('the seed catalogue does not load');
  return loaded.history.current;
}

/**
 * What the portal suites run against: the repository catalogue's site (with its release history) at `/`,
 * the small fixture's at `/small/`, and axe-core at `AXE`, served under `PORTAL_CSP`; `site` is the
 * repository's site folder. The sites are built once per run (`portalSites`); each suite has its own
 * server.
 */
export async function servePortalSites(): Promise<{
  server: PortalServer;
  catalogue: Catalogue;
  site: string;
}> {
  const { site, smallSite } = await portalSites();
  const server = await servePortal(
    { '/': site, '/small/': smallSite },
    { [AXE]: join(REPO, 'node_modules/axe-core/axe.min.js') },
  );
  return { server, catalogue: portalCatalogue(), site };
}

/**
 * Every field row an event page must show, as `path|required|type`: shape fields expanded in place
 * (a shape inside itself once), `[]` after each array level (`lines[].amount`).
 */
export function expectedRows(
  catalogue: Catalogue,
  fields: readonly Field[],
  prefix = '',
  shapes: string[] = [],
): string[] {
  const rows: string[] = [];
  for (const field of fields) {
    const path = `${prefix}${field.name}`;
    rows.push(`${path}|${field.required}|${typeNotation(field.type)}`);
    let type = field.type;
    let marks = '';
    while (type.kind === 'array') {
      type = type.items;
      marks += '[]';
    }
    if (type.kind === 'shape' && !shapes.includes(type.name)) {
      rows.push(
        ...expectedRows(catalogue, catalogue.shapes[type.name]!.fields, `${path}${marks}.`, [
          ...shapes,
          type.name,
        ]),
      );
    }
  }
  return rows;
}

/** The nested event both portal suites open (arrays of shapes, several levels deep). */
export const NESTED = 'agreement.rollover.completed-v1';

/** The pages the phone-width check opens in every browser: one of each kind, `shape` the first shape. */
export function phonePages(shape: string): string[] {
  return [
    '/index.html',
    '/groups/billing/index.html',
    `/events/${NESTED}/index.html`,
    '/events/billing.ledger.entry_posted-v2/index.html',
    `/shapes/${shape}/index.html`,
    '/shapes/index.html',
    '/search/index.html?q=account',
    '/changelog/index.html',
  ];
}

/** The pages the dark-mode check opens in every browser. */
export const DARK_PAGES: readonly string[] = [
  '/index.html',
  `/events/${NESTED}/index.html`,
  '/shapes/index.html',
  '/search/index.html?q=agreement',
];

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers.js';
import { releasedTwice } from '../schema-registry/released-repo.js';
import type { TestRepo } from '../sources/git-repo.js';
import { serveFollowed } from './followed-server.js';

/**
 * What `serve` promises a client: an id it served keeps resolving for the life of the process (the
 * ids of uncommitted edits too), and every link of the docs portal it serves resolves.
 */

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The repository's catalogue served in process (with the portal at `docsDir`), followed by hand. */
function served(repo: TestRepo, docsDir?: string) {
  return serveFollowed(repo.dir, cleanups, docsDir ? { docsDir } : {});
}

const SUBJECT = 'account.created-v1';
const GROUP_FILE = 'catalogue/groups/account.yaml';

describe('ids of uncommitted edits', () => {
  it('keep resolving to the same text for the life of the process, listed nowhere once replaced', async () => {
    const repo = releasedTwice();
    const { follower, url } = await served(repo);
    const original = readFileSync(join(repo.dir, GROUP_FILE), 'utf8');
    const seen = new Map<number, string>();
    for (const field of ['draft_one', 'draft_two', 'draft_three']) {
      repo.write(
        GROUP_FILE,
        original.replace(
          '      is_imported: {type: boolean}\n',
          `      is_imported: {type: boolean}\n      ${field}: {type: string}\n`,
        ),
      );
      expect(follower.check()).toBe(true);
      const latest = (await (await fetch(`${url}/subjects/${SUBJECT}/versions/latest`)).json()) as {
        id: number;
        schema: string;
      };
      expect(latest.schema).toContain(field);
      seen.set(latest.id, latest.schema);
    }
    repo.write(GROUP_FILE, original);
    expect(follower.check()).toBe(true);
    expect(seen.size).toBe(3);
    for (const [id, schema] of seen) {
      const response = await fetch(`${url}/schemas/ids/${id}`);
      expect(response.status, `id ${id}`).toBe(200);
      expect(await response.json()).toEqual({ schema, schemaType: 'JSON' });
    }
    // Only what the history and the working catalogue hold is listed.
    const listed = (await (await fetch(`${url}/schemas`)).json()) as { id: number }[];
    for (const id of seen.keys()) expect(listed.map((entry) => entry.id)).not.toContain(id);
    expect(await (await fetch(`${url}/subjects/${SUBJECT}/versions`)).json()).toEqual([1, 2]);
  });
});

describe('the docs portal under serve', () => {
  it('every link of every served page resolves (no 404)', async () => {
    const repo = releasedTwice();
    const site = join(tempDir('eventry-served-site-'), 'site');
    const packages = runCli(['build'], { cwd: repo.dir });
    expect(packages.status, packages.stderr).toBe(0);
    const built = runCli(['docs', '--out', site, '--no-cache'], { cwd: repo.dir });
    expect(built.status, built.stderr).toBe(0);
    const { url } = await served(repo, site);
    const queue = ['/docs/'];
    const visited = new Set<string>(queue);
    const broken: string[] = [];
    while (queue.length > 0) {
      const path = queue.shift()!;
      const response = await fetch(`${url}${path}`);
      if (response.status !== 200) {
        broken.push(`${path} (${response.status})`);
        continue;
      }
      if (!(response.headers.get('content-type') ?? '').startsWith('text/html')) {
        await response.arrayBuffer();
        continue;
      }
      const html = await response.text();
      for (const [, raw] of html.matchAll(/(?:href|src)="([^"#]+)[^"]*"/g)) {
        const target = new URL(raw!.replace(/&amp;/g, '&'), `${url}${path}`);
        if (target.origin !== url || !target.pathname.startsWith('/docs/')) continue;
        if (!visited.has(target.pathname)) {
          visited.add(target.pathname);
          queue.push(target.pathname);
        }
      }
    }
    expect(broken).toEqual([]);
    expect([...visited].some((path) => path.endsWith('/llms.txt'))).toBe(true);
    expect([...visited].some((path) => path.endsWith('/index.md'))).toBe(true);
    expect(visited.size).toBeGreaterThan(20);
  }, 120_000);
});

import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_TYPE } from '../../generators/serve/send.js';
import { runCli, tempDir } from '../helpers.js';
import type { TestRepo } from '../sources/git-repo.js';
import {
  type ExportedObject,
  exportOf,
  exportRepo,
  historyOf,
  ODD_KEY,
  objectsOf,
  pathOf,
} from './export-fixture.js';
import { type RunningRegistry, startRegistry } from './serve-helpers.js';
import { type StaticHost, startStaticHost } from './static-host.js';

/**
 * `eventry registry export` against `eventry serve` on the same history: every route it writes is the
 * bytes serve answers, served unchanged by a plain static host with the manifest's headers.
 */

let repo: TestRepo;
let out: string;
let objects: ExportedObject[];
let registry: RunningRegistry;
let host: StaticHost;

beforeAll(async () => {
  repo = exportRepo();
  out = exportOf(repo).out;
  objects = objectsOf(out);
  registry = await startRegistry(historyOf(repo));
  host = await startStaticHost(join(out, 'current'));
}, 60_000);
afterAll(async () => {
  await registry?.close();
  await host?.close();
});

const bytes = async (url: string) => {
  const response = await fetch(url);
  return {
    status: response.status,
    headers: response.headers,
    body: Buffer.from(await response.arrayBuffer()),
  };
};

/** Every file under `dir`, as `/`-separated paths relative to it. */
function filesUnder(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory()
      ? filesUnder(path, base)
      : [relative(base, path).split('\\').join('/')];
  });
}

describe('eventry registry export: a static registry, byte for byte what serve answers', () => {
  it('every route: the file, the static host and serve give the same bytes, with the manifest headers', async () => {
    expect(objects.length).toBeGreaterThan(100);
    for (const object of objects) {
      const path = pathOf(object);
      const served = await bytes(`${registry.url}${path}`);
      expect(served.status, path).toBe(200);
      expect(readFileSync(join(out, 'current', object.file)).equals(served.body), path).toBe(true);
      const hosted = await bytes(`${host.url}${path}`);
      expect(hosted.status, path).toBe(200);
      expect(hosted.body.equals(served.body), path).toBe(true);
      expect(hosted.headers.get('content-type'), path).toBe(CONTENT_TYPE);
      expect(object.contentType).toBe(CONTENT_TYPE);
      expect(hosted.headers.get('cache-control'), path).toBe(object.cacheControl);
    }
    // Every file of the release is a route, but for the manifests.
    const routeFiles = objects.map((object) => object.file).sort();
    const files = filesUnder(join(out, 'current')).filter(
      (f) => !['_headers', '_redirects', 'objects.json', '404.json'].includes(f),
    );
    expect(files.sort()).toEqual(routeFiles);
  });

  it('every read route clients use is there, for every subject (and its -value name) and every id', () => {
    const paths = new Set(objects.map(pathOf));
    for (const path of ['/subjects', '/config', '/mode', '/schemas/types', '/contexts'])
      expect(paths).toContain(path);
    for (const [subject, versions] of registry.state.subjects) {
      for (const name of [subject, `${subject}-value`].map(encodeURIComponent)) {
        for (const spec of [...versions.map((version) => version.version), 'latest']) {
          expect(paths).toContain(`/subjects/${name}/versions/${spec}`);
          expect(paths).toContain(`/subjects/${name}/versions/${spec}/schema`);
        }
        expect(paths).toContain(`/subjects/${name}/versions`);
        expect(paths).toContain(`/config/${name}`);
        expect(paths).toContain(`/mode/${name}`);
      }
    }
    for (const id of registry.state.schemas.keys()) {
      for (const tail of ['', '/schema', '/versions', '/subjects'])
        expect(paths).toContain(`/schemas/ids/${id}${tail}`);
    }
  });

  it('an odd subject name (upper case, `_`, dots, dashes) is the file the host finds for the request', async () => {
    expect(registry.state.subjects.has(ODD_KEY)).toBe(true);
    const path = `/subjects/${encodeURIComponent(ODD_KEY)}-value/versions/latest`;
    expect(
      existsSync(join(out, 'current', 'subjects', `${ODD_KEY}-value`, 'versions', 'latest', 'index.json')),
    ).toBe(true);
    const hosted = await bytes(`${host.url}${path}`);
    expect(hosted.status).toBe(200);
    expect(JSON.parse(hosted.body.toString())).toMatchObject({ subject: `${ODD_KEY}-value`, version: 1 });
    expect(hosted.body.equals((await bytes(`${registry.url}${path}`)).body)).toBe(true);
  });

  it('ids and released versions are immutable; an unreleased version, latest and lists are short-lived', () => {
    const cacheOf = new Map(objects.map((object) => [pathOf(object), object.cacheControl]));
    const immutable = 'public, max-age=31536000, immutable';
    const versions = [...registry.state.subjects.values()].flat();
    expect(versions.some((version) => !version.released)).toBe(true);
    expect(versions.some((version) => version.eventKey !== undefined && version.released)).toBe(true);
    for (const version of versions) {
      const path = `/subjects/${encodeURIComponent(version.subject)}/versions/${version.version}`;
      // A type subject's version is an event version, which a later release may change (decision 0170).
      const fixed = version.released && version.eventKey === undefined;
      expect(cacheOf.get(path) === immutable, path).toBe(fixed);
      expect(cacheOf.get(`${path}/schema`) === immutable, path).toBe(fixed);
      expect(cacheOf.get(`/subjects/${encodeURIComponent(version.subject)}/versions/latest`)).not.toBe(
        immutable,
      );
      expect(cacheOf.get(`/schemas/ids/${version.id}`)).toBe(immutable);
      expect(cacheOf.get(`/schemas/ids/${version.id}/versions`)).not.toBe(immutable);
    }
    for (const path of ['/subjects', '/config', '/mode'])
      expect(cacheOf.get(path)).toBe('public, max-age=60');
  });

  it('_redirects sends every folder route to its index.json (one segment per `:name`)', () => {
    const rules = readFileSync(join(out, 'current', '_redirects'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => line.split(' '));
    const rewrite = (path: string): string | undefined => {
      const segments = path.split('/');
      for (const [from, to] of rules) {
        const pattern = from!.split('/');
        if (pattern.length !== segments.length) continue;
        const bound = new Map<string, string>();
        if (!pattern.every((p, i) => (p.startsWith(':') ? bound.set(p, segments[i]!) : p === segments[i])))
          continue;
        return to!.replace(/:[a-z]+/g, (name) => bound.get(name)!);
      }
      return undefined;
    };
    const folders = objects.filter((object) => object.file.endsWith('/index.json'));
    expect(folders.length).toBeGreaterThan(10);
    for (const object of folders) expect(rewrite(pathOf(object)), object.key).toBe(`/${object.file}`);
    for (const object of objects.filter((o) => !o.file.endsWith('/index.json'))) {
      expect(rewrite(pathOf(object)), object.key).toBeUndefined();
    }
  });

  it('an unknown route is a 404 with a Confluent error body', async () => {
    const missing = await bytes(`${host.url}/subjects/no.such-v1/versions/latest`);
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body.toString())).toEqual({ error_code: 404, message: 'HTTP 404 Not Found' });
  });
});

describe('eventry registry export: releases side by side, nothing lost', () => {
  it('refuses a folder it did not write, and the catalogue folder, touching nothing', () => {
    const foreign = tempDir('eventry-export-foreign-');
    writeFileSync(join(foreign, 'notes.txt'), 'mine');
    const refused = runCli(['registry', 'export', '--out', foreign], { cwd: repo.dir });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('error out-not-owned');
    expect(readdirSync(foreign)).toEqual(['notes.txt']);
    const inCatalogue = runCli(['registry', 'export', '--out', 'catalogue/static'], { cwd: repo.dir });
    expect(inCatalogue.status).toBe(2);
    expect(inCatalogue.stderr).toContain('error out-unsafe');
    expect(existsSync(join(repo.dir, 'catalogue/static'))).toBe(false);
  });

  it("a `current` that is not the export's link is left alone, and nothing is written (write-failed)", () => {
    const root = join(tempDir('eventry-export-current-'), 'registry');
    exportOf(repo, root);
    const link = join(root, 'current');
    const pointer = readlinkSync(link);
    rmSync(link);
    writeFileSync(link, 'my notes');
    const before = filesUnder(root);
    // A changed catalogue: a new release that would be written, if anything were.
    const group = join(repo.dir, 'catalogue/groups/account.yaml');
    const text = readFileSync(group, 'utf8');
    writeFileSync(
      group,
      text.replace('  note: {type: string}\n', '  note: {type: string}\n      extra: {type: string}\n'),
    );
    const failed = runCli(['registry', 'export', '--out', root], { cwd: repo.dir });
    writeFileSync(group, text);
    expect(failed.status).toBe(1);
    expect(failed.stderr).toContain('error write-failed');
    expect(readFileSync(link, 'utf8')).toBe('my notes');
    expect(readFileSync(join(root, 'current.json'), 'utf8')).toContain(pointer);
    expect(filesUnder(root)).toEqual(before);
  });

  it('the same state again is the same release; a new one is added beside it and current moves to it', () => {
    const pointer = () =>
      JSON.parse(readFileSync(join(out, 'current.json'), 'utf8')) as { release: string; path: string };
    const first = pointer();
    const again = exportOf(repo, out);
    expect(again.stdout).toContain(`already exported release ${first.release}`);
    expect(pointer()).toEqual(first);

    const firstFiles = filesUnder(join(out, first.path));
    const staging = join(out, 'releases', '.staging-999999999-0badf00d');
    mkdirSync(staging);
    writeFileSync(join(staging, 'half'), 'a dead run left this');
    const group = join(repo.dir, 'catalogue/groups/account.yaml');
    writeFileSync(
      group,
      readFileSync(group, 'utf8').replace(
        '  note: {type: string}\n',
        '  note: {type: string}\n      memo: {type: string}\n',
      ),
    );
    const second = exportOf(repo, out);
    expect(second.stdout).toMatch(/exported release [0-9a-f]{16}/);
    const next = pointer();
    expect(next.release).not.toBe(first.release);
    expect(readlinkSync(join(out, 'current'))).toBe(next.path);
    // The earlier release is still there, whole: a client that cached it keeps resolving it.
    expect(filesUnder(join(out, first.path))).toEqual(firstFiles);
    expect(existsSync(staging)).toBe(false);
  }, 60_000);
});

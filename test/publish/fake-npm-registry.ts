import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { create } from 'tar';
import type { NpmResult, NpmRunner } from '../../generators/publish/npm.js';

interface StoredVersion {
  integrity: string;
  files: Map<string, Buffer>;
  sourceHash?: string;
}

/**
 * An npm registry and the npm client in memory, for testing the publish logic without processes:
 * `npm pack --dry-run`, `npm publish`, `npm view` (404s only) and `npm pack <spec>` are simulated, and
 * `fetch` serves packuments. Every npm call is recorded.
 */
export class FakeRegistry {
  readonly url = 'http://registry.test/';
  readonly packages = new Map<string, Map<string, StoredVersion>>();
  readonly distTags = new Map<string, Record<string, string>>();
  /** Package names whose next `npm publish` fails like a dropped connection. */
  readonly failPublish = new Set<string>();
  /** Every npm call's arguments. */
  readonly calls: string[][] = [];
  /** `name@version` of every `npm publish` attempt, in call order. */
  readonly publishAttempts: string[] = [];

  /** Stores a version as if published by another machine (whose npm may pack other bytes). */
  seed(dir: string, integrity?: string): void {
    const { name, version, files, integrity: own, sourceHash } = readPackage(dir);
    this.store(
      name,
      version,
      { integrity: integrity ?? own, files, ...(sourceHash ? { sourceHash } : {}) },
      'latest',
    );
  }

  npm: NpmRunner = async (args, options = {}) => {
    const command = args.filter((arg) => !arg.startsWith('--'));
    this.calls.push(args);
    if (args[0] === 'pack' && args.includes('--dry-run')) {
      return ok(JSON.stringify(command.slice(1).map((dir) => packJson(readPackage(dir)))));
    }
    if (args[0] === 'publish') {
      const pkg = readPackage(options.cwd!);
      this.publishAttempts.push(`${pkg.name}@${pkg.version}`);
      if (this.failPublish.has(pkg.name)) {
        this.failPublish.delete(pkg.name);
        return fail('ECONNRESET', 'socket hang up');
      }
      if (this.packages.get(pkg.name)?.has(pkg.version))
        return fail('E403', 'cannot publish over the previously published versions');
      const tag = args.find((arg) => arg.startsWith('--tag='))?.slice('--tag='.length) ?? 'latest';
      const { files, integrity, sourceHash } = pkg;
      this.store(pkg.name, pkg.version, { integrity, files, ...(sourceHash ? { sourceHash } : {}) }, tag);
      return ok(JSON.stringify({ [pkg.name]: packJson(pkg) }));
    }
    if (args[0] === 'view') return fail('E404', 'Not Found');
    if (args[0] === 'pack') {
      const spec = command[1]!;
      const at = spec.lastIndexOf('@');
      const stored = this.packages.get(spec.slice(0, at))?.get(spec.slice(at + 1));
      if (!stored) return fail('E404', 'Not Found');
      const destination = args
        .find((arg) => arg.startsWith('--pack-destination='))!
        .slice('--pack-destination='.length);
      const staging = join(destination, 'staging');
      for (const [path, contents] of stored.files) {
        mkdirSync(join(staging, 'package', path, '..'), { recursive: true });
        writeFileSync(join(staging, 'package', path), contents);
      }
      const filename = 'published.tgz';
      await create({ gzip: true, file: join(destination, filename), cwd: staging }, ['package']);
      return ok(JSON.stringify([{ filename }]));
    }
    return fail('EUNKNOWN', `the fake npm does not know ${args.join(' ')}`);
  };

  fetch = (async (input: string | URL | Request) => {
    const url = new URL(String(input));
    const name = decodeURIComponent(url.pathname.slice(1));
    const versions = this.packages.get(name);
    if (!versions) return new Response('{"error":"not found"}', { status: 404 });
    const packument = {
      name,
      'dist-tags': this.distTags.get(name) ?? {},
      versions: Object.fromEntries(
        [...versions].map(([version, stored]) => [
          version,
          {
            name,
            version,
            dist: {
              integrity: stored.integrity,
              shasum: 'sha1',
              tarball: `${this.url}${name}/-/x-${version}.tgz`,
            },
            ...(stored.sourceHash ? { eventry: { sourceHash: stored.sourceHash } } : {}),
          },
        ]),
      ),
    };
    return new Response(JSON.stringify(packument), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  }) as typeof globalThis.fetch;

  private store(name: string, version: string, stored: StoredVersion, tag: string): void {
    if (!this.packages.has(name)) this.packages.set(name, new Map());
    this.packages.get(name)!.set(version, stored);
    this.distTags.set(name, { ...this.distTags.get(name), [tag]: version });
  }
}

/** Writes a minimal group package into `root/<slug>/`. */
export function writePackage(
  root: string,
  slug: string,
  version = '1.0.0',
  body = `export const slug = '${slug}';\n`,
): string {
  const dir = join(root, slug);
  mkdirSync(dir, { recursive: true });
  const manifest = {
    name: `@platform-events/${slug}`,
    version,
    type: 'module',
    exports: './index.js',
    eventry: { sourceHash: createHash('sha256').update(body).digest('hex') },
  };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(dir, 'index.js'), body);
  return dir;
}

function readPackage(dir: string) {
  const files = new Map<string, Buffer>();
  for (const path of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
    const full = join(dir, path);
    try {
      files.set(relative(dir, full).split(sep).join('/'), readFileSync(full));
    } catch {
      // a folder
    }
  }
  const manifest = JSON.parse(files.get('package.json')!.toString()) as {
    name: string;
    version: string;
    eventry?: { sourceHash?: string };
  };
  const hash = createHash('sha512');
  for (const [path, contents] of files) hash.update(path).update('\0').update(contents).update('\0');
  return {
    name: manifest.name,
    version: manifest.version,
    files,
    integrity: `sha512-${hash.digest('base64')}`,
    ...(manifest.eventry?.sourceHash ? { sourceHash: manifest.eventry.sourceHash } : {}),
  };
}

function packJson(pkg: ReturnType<typeof readPackage>) {
  const sizes = [...pkg.files.values()].map((contents) => contents.length);
  return {
    name: pkg.name,
    version: pkg.version,
    integrity: pkg.integrity,
    shasum: 'sha1',
    size: 100 + sizes.reduce((a, b) => a + b, 0) / 2,
    unpackedSize: sizes.reduce((a, b) => a + b, 0),
    files: [...pkg.files.keys()].map((path) => ({ path })),
  };
}

function ok(stdout: string): NpmResult {
  return { code: 0, stdout, stderr: '', ms: 1 };
}

function fail(code: string, summary: string): NpmResult {
  return {
    code: 1,
    stdout: JSON.stringify({ error: { code, summary } }),
    stderr: `npm error code ${code}\n`,
    ms: 1,
  };
}

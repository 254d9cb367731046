import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEventKey } from '../load/event-key.js';
import type { LoadResult } from '../load/index.js';
import { readEventNotices } from '../model.js';
import {
  deadlineText,
  NOT_A_URL,
  type NpmResult,
  normaliseRegistry,
  npmErrorText,
  npmTimeoutEnv,
  packedTarball,
  packSpecArgs,
  type RegistryTimeouts,
  registryFlags,
  registryTimeouts,
  scopeOf,
} from '../publish/npm.js';
import { readTarball } from '../publish/pack.js';
import { readOpenApiCatalogue } from './openapi.js';
import { loaded, type SourceKind } from './source.js';

type Json = Record<string, unknown>;

/**
 * `npm:<scope>/<pkg>@<version>`: a published group package, fetched with `npm pack` from `--registry`,
 * else from the registry npm's own configuration names for that scope (`@scope:registry` in the
 * project's or the user's `.npmrc`), its bundled schemas read back into the model. It covers one
 * group only, so `groups` tells the diff to compare just that group of the other side.
 */
export const npmSource: SourceKind = {
  name: 'npm',
  claims: (spec) => spec.startsWith('npm:'),
  resolve(spec, { cwd, registry, env }) {
    const packageSpec = spec.slice('npm:'.length);
    if (!/^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*(@.+)?$/i.test(packageSpec)) {
      return {
        ok: false,
        reason: 'usage',
        message: `\`${spec}\` is not \`npm:<scope>/<package>@<version>\`.`,
      };
    }
    let flags: string[] = [];
    const name = packageSpec.replace(/(.)@.*$/, '$1');
    if (registry !== undefined) {
      try {
        flags = registryFlags(normaliseRegistry(registry), scopeOf(name));
      } catch (error) {
        const why = (error as Error).message;
        const message =
          why === NOT_A_URL
            ? `--registry \`${registry}\` is not a URL.`
            : `error registry-url: --registry ${JSON.stringify(registry)} is refused: ${why} (e.g. http://127.0.0.1:4873/).`;
        return { ok: false, reason: 'usage', message };
      }
    }
    const timeouts = registryTimeouts(env);
    if (!timeouts.ok) return { ok: false, reason: 'usage', message: timeouts.error };
    const fetched = fetchPackageFiles(packageSpec, cwd, flags, timeouts, env);
    // Without --registry npm picks one from its configuration: a scope it names no registry for goes
    // to the public one, which is said, never left silent (a private scope's name was sent there).
    const publicNote =
      registry === undefined && fetched.registry === PUBLIC_REGISTRY && scopeOf(name) !== undefined
        ? ` It was asked of the public registry ${PUBLIC_REGISTRY}: npm's configuration names no registry for ${scopeOf(name)} (set \`${scopeOf(name)}:registry=URL\` in an .npmrc, or pass --registry URL).`
        : '';
    if (!fetched.ok) {
      const asked = fetched.registry && !publicNote ? ` (asked ${fetched.registry})` : '';
      return {
        ok: false,
        reason: 'usage',
        message: `\`${spec}\`: npm could not fetch it${asked}: ${fetched.error}${publicNote}`,
      };
    }
    const label = `npm:${fetched.id}`;
    const manifest = fetched.files.get('package.json');
    const result = readPackageCatalogue(fetched.files, label);
    const resolved = loaded(result, '', { kind: 'npm', label, root: '', readPackage: () => manifest });
    if (resolved.ok && result.ok) resolved.source.groups = result.catalogue.groups.map((group) => group.slug);
    if (resolved.ok && publicNote)
      resolved.source.notes = [`\`${spec}\` was fetched from the public registry.${publicNote}`];
    return resolved;
  },
};

/** npm's default registry: the public one. */
const PUBLIC_REGISTRY = 'https://registry.npmjs.org/';

/** A published package's files, fetched from its registry. */
export interface FetchedPackage {
  /** `name@version` as npm resolved the spec (a range or tag becomes one version). */
  id: string;
  files: Map<string, string>;
  /** The registry npm asked (from its request log), when known. */
  registry?: string;
}

/**
 * Downloads a published package with `npm pack <spec>` and reads its files, without installing it.
 * npm resolves the spec and the registry from the user's configuration (`@scope:registry` in an
 * `.npmrc` of `cwd` or the home folder), with its own credentials. Synchronous because diff sources
 * are; the registry must therefore be another process (it always is, outside tests).
 */
function fetchPackageFiles(
  spec: string,
  cwd: string,
  /** Extra npm flags (`--registry=…`) on top of the user's configuration. */
  flags: readonly string[] = [],
  timeouts?: RegistryTimeouts,
  env: Readonly<Record<string, string | undefined>> = process.env,
): ({ ok: true } & FetchedPackage) | { ok: false; error: string; registry?: string } {
  const dir = mkdtempSync(join(tmpdir(), 'eventry-npm-source-'));
  try {
    const started = performance.now();
    // `--loglevel=http`: npm logs each request's URL, which says which registry it asked.
    const child = spawnSync(
      process.platform === 'win32' ? 'npm.cmd' : 'npm',
      [...packSpecArgs(spec, dir), ...flags, '--loglevel=http'],
      {
        cwd,
        encoding: 'utf8',
        shell: process.platform === 'win32',
        env: {
          ...env,
          npm_config_update_notifier: 'false',
          ...(timeouts ? npmTimeoutEnv(timeouts) : {}),
        },
        ...(timeouts ? { timeout: timeouts.deadlineMs, killSignal: 'SIGKILL' as const } : {}),
      },
    );
    const expired = (child.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT';
    const result: NpmResult = {
      code: expired ? 1 : (child.status ?? 1),
      stdout: child.stdout ?? '',
      stderr: expired ? deadlineText(timeouts!.deadlineMs) : (child.stderr ?? String(child.error ?? '')),
      ms: performance.now() - started,
    };
    const registry = askedRegistry(child.stderr ?? '', spec);
    const packed = packedTarball(result);
    if (result.code !== 0 || !packed?.filename)
      return {
        ok: false,
        error: npmErrorText(result) || `npm pack ${spec} failed`,
        ...(registry ? { registry } : {}),
      };
    const files = new Map<string, string>();
    for (const [path, contents] of readTarball(join(dir, packed.filename)))
      files.set(path, contents.toString('utf8'));
    return { ok: true, id: packed.id ?? spec, files, ...(registry ? { registry } : {}) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The registry of npm's first request for the package (`npm http fetch GET 200 <registry><name>`). */
function askedRegistry(log: string, spec: string): string | undefined {
  const name = spec.replace(/(.)@.*$/, '$1').replace('/', '%2f');
  for (const match of log.matchAll(/^npm http fetch \w+ \d+ (\S+)/gm)) {
    const at = match[1]!.toLowerCase().indexOf(name.toLowerCase());
    if (at > 0) return match[1]!.slice(0, at);
  }
  return undefined;
}

/**
 * Reads a published group package back into the model, so `eventry diff npm:<pkg>@<version> HEAD` can
 * compare what consumers of a release have with the working catalogue. The package ships one
 * self-contained JSON Schema per event (`schemas/<event key>.json`, named shapes under `$defs`); they
 * are gathered into one OpenAPI-shaped document and read by the OpenAPI reader, so there is exactly
 * one inverse of the emitters to keep right. `files` are the package's files by path (from its tarball).
 */
export function readPackageCatalogue(files: ReadonlyMap<string, string>, label: string): LoadResult {
  const problem = (message: string, file = 'package.json'): LoadResult => ({
    ok: false,
    problems: [{ code: 'invalid-value', message, file: `${label}/${file}`, line: 1, column: 1 }],
  });
  let manifest: Json;
  try {
    manifest = JSON.parse(files.get('package.json') ?? '') as Json;
  } catch {
    return problem('The package has no readable package.json.');
  }
  const name = typeof manifest.name === 'string' ? manifest.name : '';
  const slug = name.split('/')[1];
  if (!name.startsWith('@') || !slug) return problem(`\`${name}\` is not a scoped group package name.`);

  // Keyed by event and shape names from the package: `__proto__` must stay a plain key.
  const components: Json = Object.create(null);
  const schemaFiles = [...files.keys()].filter((path) => /^schemas\/[^/]+\.json$/.test(path)).sort();
  if (schemaFiles.length === 0) {
    return problem(
      'The package ships no `schemas/<event key>.json`: it was not built by an eventry that can be diffed.',
    );
  }
  for (const path of schemaFiles) {
    let schema: Json;
    try {
      schema = JSON.parse(files.get(path)!) as Json;
    } catch {
      return problem('Not valid JSON.', path);
    }
    const key = path.slice('schemas/'.length, -'.json'.length);
    const { $schema: _dialect, $id: _id, $comment: _comment, $defs, ...event } = schema;
    components[key] = toComponentRefs(withIdentity(event, key, slug));
    for (const [shape, definition] of Object.entries(($defs ?? {}) as Json))
      components[shape] = toComponentRefs(definition);
  }

  const eventry = (manifest.eventry ?? {}) as Json;
  const document = {
    openapi: '3.1.0',
    info: {
      title: typeof manifest.description === 'string' ? manifest.description : name,
      version: typeof manifest.version === 'string' ? manifest.version : '0.0.0',
      ...(typeof eventry.sourceHash === 'string' ? { 'x-catalogue-hash': eventry.sourceHash } : {}),
    },
    tags: [{ name: slug, description: groupTitle(eventry, slug), 'x-npm-package': name }],
    components: { schemas: components },
  };
  const result = readOpenApiCatalogue(JSON.stringify(document, null, 2), label);
  if (!result.ok) return result;
  // Locations inside the synthetic document mean nothing to a reader: point at the package's files.
  const catalogue = result.catalogue;
  for (const event of Object.values(catalogue.events)) {
    const location = { file: `${label}/schemas/${event.key}.json`, line: 1, column: 1 };
    event.source = location;
    for (const field of event.fields) field.source = location;
  }
  for (const shape of Object.values(catalogue.shapes)) {
    const location = { file: `${label}/schemas`, line: 1, column: 1 };
    shape.source = location;
    for (const field of shape.fields) field.source = location;
  }
  for (const group of catalogue.groups) group.source = { file: `${label}/package.json`, line: 1, column: 1 };
  return { ok: true, catalogue };
}

/** The group's title, as the package records it (`eventry.group.title`), else its slug. */
function groupTitle(eventry: Json, slug: string): string {
  const group = eventry.group;
  if (group && typeof group === 'object' && typeof (group as Json).title === 'string')
    return (group as Json).title as string;
  return slug;
}

/** `#/$defs/Name` (standalone schema) to `#/components/schemas/Name` (the OpenAPI reader's form). */
function toComponentRefs(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/'));
}

/**
 * The `x-` identity the OpenAPI reader expects, for a schema shipped with standard keywords only (its
 * key names the type and version, the package the group, the description the partial and deprecation
 * texts). A schema of an older package that still carries its `x-` keywords keeps them.
 */
function withIdentity(schema: Json, key: string, slug: string): Json {
  if (schema['x-event-type'] !== undefined) return schema;
  const parsed = parseEventKey(key);
  const description = typeof schema.description === 'string' ? schema.description : '';
  const notices = readEventNotices(description, {
    partial: schema.additionalProperties !== false,
    deprecated: schema.deprecated === true,
  });
  return {
    ...schema,
    ...(parsed ? { 'x-event-type': parsed.type, 'x-event-version': parsed.version } : {}),
    'x-group': slug,
    ...(notices.partial !== undefined ? { 'x-partial': notices.partial } : {}),
    ...(notices.deprecated ? { 'x-deprecated': notices.deprecated } : {}),
  };
}

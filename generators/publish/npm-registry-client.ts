import { join } from 'node:path';
import {
  type NpmOptions,
  type NpmRunner,
  npmErrorText,
  packedTarball,
  packSpecArgs,
  parseNpmJson,
  registryFlags,
  runNpm,
  scopeOf,
} from './npm.js';

/** What a registry holds of one package name. */
export interface NpmRegistryPackage {
  name: string;
  versions: string[];
  distTags: Record<string, string>;
}

/** One published version, as the registry describes its tarball. */
export interface PublishedVersion {
  name: string;
  version: string;
  /** `sha512-...` (subresource integrity of the tarball). */
  integrity: string;
  shasum: string;
  tarball: string;
  /** `eventry.sourceHash` from the published package.json, when it has one. */
  sourceHash?: string;
}

/** The parts of a registry's package document eventry reads. */
interface Packument {
  name?: string;
  'dist-tags'?: Record<string, string>;
  versions?: Record<string, Manifest>;
}

interface Manifest {
  dist?: { integrity?: string; shasum?: string; tarball?: string };
  eventry?: { sourceHash?: string };
}

function toPublished(name: string, version: string, manifest: Manifest): PublishedVersion {
  return {
    name,
    version,
    integrity: manifest.dist?.integrity ?? '',
    shasum: manifest.dist?.shasum ?? '',
    tarball: manifest.dist?.tarball ?? '',
    ...(manifest.eventry?.sourceHash ? { sourceHash: manifest.eventry.sourceHash } : {}),
  };
}

/** Whether npm may be going through a proxy (which a plain fetch would not). */
function proxyConfigured(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  return Object.keys(env).some((key) => /^(https?_proxy|npm_config_(https_)?proxy)$/i.test(key));
}

/** A registry failure that is not "not found" (unreachable, unauthorised, ...): the run must stop. */
export class NpmRegistryError extends Error {
  override name = 'NpmRegistryError';
}

/**
 * Asks one npm registry about packages, through npm itself (`npm view`, `npm pack <spec>`), so every
 * way npm authenticates (tokens, basic auth, certificates, proxies from `.npmrc`) works unchanged and
 * eventry never reads a credential. `--prefer-online` makes npm revalidate its cached packuments: a
 * version published a second ago must be seen.
 */
export class NpmRegistryClient {
  readonly registry: string;
  private readonly npm: NpmRunner;
  private readonly npmOptions: NpmOptions;

  private readonly fetch: typeof globalThis.fetch | undefined;
  private readonly requestMs: number;

  /**
   * `fetch: undefined` in options turns the anonymous fast path off (everything through npm);
   * `requestMs`: how long its request may take.
   */
  constructor(
    registry: string,
    options: {
      npm?: NpmRunner;
      npmOptions?: NpmOptions;
      fetch?: typeof globalThis.fetch | undefined;
      requestMs?: number;
    } = {},
  ) {
    this.registry = registry;
    this.npm = options.npm ?? runNpm;
    this.npmOptions = options.npmOptions ?? {};
    this.fetch = 'fetch' in options ? options.fetch : globalThis.fetch;
    this.requestMs = options.requestMs ?? 15_000;
  }

  /**
   * The package and, if published, the exact version. Fast path: one anonymous GET of the packument
   * (milliseconds, no credentials involved). Whenever that answer is not conclusive (401/403, a 404
   * that may hide a private package, a proxy only npm knows about), npm itself is asked.
   */
  async getState(
    name: string,
    version: string,
  ): Promise<{ package?: NpmRegistryPackage; published?: PublishedVersion }> {
    const packument = await this.fetchPackument(name);
    if (packument) {
      const registryPackage = {
        name,
        versions: Object.keys(packument.versions ?? {}),
        distTags: packument['dist-tags'] ?? {},
      };
      const manifest = packument.versions?.[version];
      if (!manifest) return { package: registryPackage };
      if (!manifest.dist?.integrity) {
        throw new NpmRegistryError(
          `${this.registry} lists ${name}@${version} without its tarball's integrity.`,
        );
      }
      return { package: registryPackage, published: toPublished(name, version, manifest) };
    }
    const registryPackage = await this.getPackage(name);
    if (!registryPackage) return {};
    if (!registryPackage.versions.includes(version)) return { package: registryPackage };
    const published = await this.getVersion(name, version);
    return { package: registryPackage, ...(published ? { published } : {}) };
  }

  /** Every version and dist-tag of a package, or undefined when the registry has never heard of it. */
  async getPackage(name: string): Promise<NpmRegistryPackage | undefined> {
    const result = await this.view([name, 'versions', 'dist-tags'], name);
    if (result === undefined) return undefined;
    const value = (result ?? {}) as { versions?: string | string[]; 'dist-tags'?: Record<string, string> };
    // npm prints a lone version as a string, not a one-element list.
    const versions = typeof value.versions === 'string' ? [value.versions] : (value.versions ?? []);
    return { name, versions, distTags: value['dist-tags'] ?? {} };
  }

  /** The registry's record of one exact version, or undefined when that version is not published. */
  async getVersion(name: string, version: string): Promise<PublishedVersion | undefined> {
    const result = await this.view([`${name}@${version}`, 'dist', 'eventry', 'version'], name);
    if (result === undefined) return undefined;
    const value = result as Manifest & { version?: string };
    if (value.version !== version || !value.dist?.integrity) {
      throw new NpmRegistryError(
        `${this.registry} answered for ${name}@${version} without its tarball's integrity.`,
      );
    }
    return toPublished(name, version, value);
  }

  /** Downloads a published tarball (`npm pack <spec>`) into `dir` and returns its path. */
  async downloadTarball(spec: string, dir: string): Promise<string> {
    const name = spec.slice(0, spec.indexOf('@', 1) > 0 ? spec.indexOf('@', 1) : undefined);
    const result = await this.npm([...packSpecArgs(spec, dir), ...this.flags(name)], {
      ...this.npmOptions,
      cwd: dir,
    });
    const filename = packedTarball(result)?.filename;
    if (result.code !== 0 || !filename) {
      throw new NpmRegistryError(`could not download ${spec} from ${this.registry}: ${npmErrorText(result)}`);
    }
    return join(dir, filename);
  }

  /** `npm view` as JSON; undefined on E404 (the package or version does not exist). */
  private async view(args: string[], name: string): Promise<unknown> {
    const result = await this.npm(
      ['view', ...args, '--json', '--prefer-online', ...this.flags(name)],
      this.npmOptions,
    );
    const { value, error } = parseNpmJson(result);
    if (error?.code === 'E404') return undefined;
    if (result.code !== 0 || error) {
      throw new NpmRegistryError(`could not read ${args[0]} from ${this.registry}: ${npmErrorText(result)}`);
    }
    // A version that exists but lacks every asked field prints nothing: treat it as found, empty.
    return value ?? {};
  }

  /** The full packument by an anonymous GET, or undefined when only npm can tell. */
  private async fetchPackument(name: string): Promise<Packument | undefined> {
    if (!this.fetch) return undefined;
    try {
      const url = new URL(name.replace('/', '%2f'), this.registry);
      // Anonymous on purpose (fetch refuses a URL with credentials): only npm ever sends them.
      url.username = '';
      url.password = '';
      const response = await this.fetch(url, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(this.requestMs),
      });
      if (!response.ok) return undefined;
      const packument = (await response.json()) as Packument;
      return packument && typeof packument === 'object' && packument.name === name ? packument : undefined;
    } catch (error) {
      // Nothing listens there: say so now, rather than after npm's retries (over a minute). Behind a
      // proxy only npm knows how to reach it, so ask npm.
      const code = (error as { cause?: { code?: string } }).cause?.code;
      if ((code === 'ECONNREFUSED' || code === 'ENOTFOUND') && !proxyConfigured(this.npmOptions.baseEnv)) {
        throw new NpmRegistryError(`cannot reach ${this.registry} (${code}): is the registry running?`);
      }
      // Connected, and then no answer in time: npm would wait as long again, and retry.
      if ((error as Error).name === 'TimeoutError' && !proxyConfigured(this.npmOptions.baseEnv)) {
        throw new NpmRegistryError(
          `${this.registry} did not answer within ${this.requestMs / 1000} s (ETIMEDOUT; EVENTRY_REGISTRY_TIMEOUT sets the limit).`,
        );
      }
      return undefined;
    }
  }

  private flags(name: string): string[] {
    return registryFlags(this.registry, scopeOf(name));
  }
}

import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, posix, relative, resolve, sep } from 'node:path';
import { readOpenApiCatalogue } from '../load/from-openapi.js';
import { readPackageCatalogue } from '../load/from-package.js';
import {
  ALLOW_LIST_FILE,
  type CatalogueProblem,
  type CatalogueSourceFile,
  CONFIG_FILE,
  type LoadResult,
  loadCatalogueFromSources,
  readCatalogueSources,
} from '../load/index.js';
import type { Catalogue } from '../model.js';
import { fetchPackageFiles } from '../publish/fetch-package.js';
import { normaliseRegistry, registryFlags, scopeOf } from '../publish/npm.js';
import { readIfExists } from '../write.js';
import { GitError, listFiles, readFiles, repoRoot, resolveCommit } from './git.js';

/** Where OLD/NEW are looked up. */
export interface SourceOptions {
  /** Folder the spec is relative to (the user's working folder). */
  cwd: string;
  /** The catalogue folder relative to `cwd`, used to find the catalogue inside a git commit. */
  catalogue: string;
  /** Registry for `npm:` sources, instead of the one npm's configuration names for the scope. */
  registry?: string;
}

/** A catalogue to compare, whatever it was given as. */
export interface ResolvedSource {
  kind: string;
  /** What to call it in a report: `main (1a2b3c4)`, `catalogue`, `packages/catalogue/openapi.json`. */
  label: string;
  catalogue: Catalogue;
  /** Prefix that makes the model's source paths relative to `cwd` (`catalogue`); '' when they already are. */
  root: string;
  /** `version` of `packages/<slug>/package.json` recorded beside this catalogue, by group slug. */
  packageVersions: Record<string, string>;
  /** The allow-list file of this catalogue, if it has one. */
  allowList?: CatalogueSourceFile;
  /** Set when the source covers only these groups (a published group package): see `alignSources`. */
  groups?: string[];
}

/** A resolved source, or why there is none. */
export type SourceResult =
  | { ok: true; source: ResolvedSource }
  /** The spec names nothing usable: exit 2. */
  | { ok: false; reason: 'usage'; message: string }
  /** A ref relative to HEAD that does not exist (`HEAD~1` of a first commit), or a commit without catalogue. */
  | { ok: false; reason: 'absent'; message: string }
  /** It loaded, with problems: print them (`root` prefixes their paths). */
  | { ok: false; reason: 'problems'; problems: CatalogueProblem[]; root: string };

/**
 * One way of naming a catalogue. The kinds are tried in order and the first that claims a spec
 * resolves it. To add one (the `npm:` kind below is where a published package gets read), implement
 * this and list it in SOURCE_KINDS.
 */
export interface SourceKind {
  name: string;
  /** Whether this kind handles the spec. */
  claims(spec: string, options: SourceOptions): boolean;
  resolve(spec: string, options: SourceOptions): SourceResult;
}

/**
 * `npm:<scope>/<pkg>@<version>`: a published group package, fetched with `npm pack` from `--registry`,
 * else from the registry npm's own configuration names for that scope (`@scope:registry` in the
 * project's or the user's `.npmrc`), its bundled schemas read back into the model. It covers one
 * group only, so `groups` tells the diff to compare just that group of the other side.
 */
export const npmSource: SourceKind = {
  name: 'npm',
  claims: (spec) => spec.startsWith('npm:'),
  resolve(spec, { cwd, registry }) {
    const packageSpec = spec.slice('npm:'.length);
    if (!/^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*(@.+)?$/i.test(packageSpec)) {
      return {
        ok: false,
        reason: 'usage',
        message: `\`${spec}\` is not \`npm:<scope>/<package>@<version>\`.`,
      };
    }
    let flags: string[] = [];
    if (registry !== undefined) {
      try {
        const name = packageSpec.replace(/(.)@.*$/, '$1');
        flags = registryFlags(normaliseRegistry(registry), scopeOf(name));
      } catch {
        return { ok: false, reason: 'usage', message: `--registry \`${registry}\` is not a URL.` };
      }
    }
    const fetched = fetchPackageFiles(packageSpec, cwd, flags);
    if ('error' in fetched) {
      return { ok: false, reason: 'usage', message: `\`${spec}\`: npm could not fetch it: ${fetched.error}` };
    }
    const label = `npm:${fetched.id}`;
    const manifest = fetched.files.get('package.json');
    const result = readPackageCatalogue(fetched.files, label);
    const resolved = loaded(result, '', { kind: 'npm', label, root: '', readPackage: () => manifest });
    if (resolved.ok && result.ok) resolved.source.groups = result.catalogue.groups.map((group) => group.slug);
    return resolved;
  },
};

/**
 * The part of a catalogue that holds only the given groups (their events; shapes stay, they are looked
 * up by name). When one side of a diff covers only some groups (a published package covers one), the
 * other side is compared on those groups alone: the rest is not "added", it is simply elsewhere.
 */
export function restrictToGroups(catalogue: Catalogue, slugs: readonly string[]): Catalogue {
  const keep = new Set(slugs);
  return {
    ...catalogue,
    groups: catalogue.groups.filter((group) => keep.has(group.slug)),
    events: Object.fromEntries(Object.entries(catalogue.events).filter(([, event]) => keep.has(event.group))),
  };
}

/** Both sides of a diff on the groups they both cover (unchanged when neither is restricted). */
export function alignSources<T extends Pick<ResolvedSource, 'catalogue' | 'groups'>>(
  before: T,
  after: T,
): [T, T] {
  const slugs = before.groups ?? after.groups;
  if (!slugs) return [before, after];
  const only = after.groups ? slugs.filter((slug) => after.groups!.includes(slug)) : slugs;
  return [
    { ...before, catalogue: restrictToGroups(before.catalogue, only) },
    { ...after, catalogue: restrictToGroups(after.catalogue, only) },
  ];
}

/** A catalogue directory (or a folder holding `catalogue/`). */
export const directorySource: SourceKind = {
  name: 'directory',
  claims: (spec, { cwd }) => existsSync(resolve(cwd, spec)) && statSync(resolve(cwd, spec)).isDirectory(),
  resolve(spec, { cwd }) {
    let folder = resolve(cwd, spec);
    if (!existsSync(join(folder, CONFIG_FILE)) && existsSync(join(folder, 'catalogue', CONFIG_FILE))) {
      folder = join(folder, 'catalogue');
    }
    if (!existsSync(join(folder, CONFIG_FILE))) {
      return {
        ok: false,
        reason: 'usage',
        message: `\`${spec}\` is a directory without \`${CONFIG_FILE}\`: not a catalogue.`,
      };
    }
    const root = displayPath(cwd, folder);
    const files = readCatalogueSources(folder);
    const packages = join(dirname(folder), 'packages');
    return loaded(loadCatalogueFromSources(files), root, {
      kind: 'directory',
      label: root,
      root,
      allowList: files.find((file) => file.path === ALLOW_LIST_FILE),
      readPackage: (slug) => readIfExists(join(packages, slug, 'package.json')),
    });
  },
};

/** A compiled OpenAPI document (`packages/catalogue/openapi.json` or its YAML copy). */
export const openApiSource: SourceKind = {
  name: 'openapi',
  claims: (spec, { cwd }) => existsSync(resolve(cwd, spec)) && statSync(resolve(cwd, spec)).isFile(),
  resolve(spec, { cwd }) {
    const path = resolve(cwd, spec);
    const shown = displayPath(cwd, path);
    // The build writes it to `<packages>/catalogue/openapi.json`, beside the group packages.
    const packages = dirname(dirname(path));
    return loaded(readOpenApiCatalogue(readFileSync(path, 'utf8'), shown), '', {
      kind: 'openapi',
      label: shown,
      root: '',
      readPackage: (slug) => readIfExists(join(packages, slug, 'package.json')),
    });
  },
};

/** A git ref: the catalogue at that commit, read from git objects (the work tree is never touched). */
export const gitSource: SourceKind = {
  name: 'git',
  claims: (_spec, { cwd }) => repoRoot(cwd) !== undefined,
  resolve(spec, { cwd, catalogue }) {
    const top = repoRoot(cwd)!;
    const commit = resolveCommit(cwd, spec);
    if (!commit) {
      if (/^(HEAD|@)([~^][0-9]*)*$/.test(spec)) {
        return { ok: false, reason: 'absent', message: `\`${spec}\` names no commit in this repository.` };
      }
      return { ok: false, reason: 'usage', message: unknownSpec(spec) };
    }
    const folder = toPosix(relative(top, resolve(cwd, catalogue)));
    const label = commit.startsWith(spec) ? commit.slice(0, 7) : `${spec} (${commit.slice(0, 7)})`;
    try {
      const prefix = folder === '' ? '' : `${folder}/`;
      const paths = listFiles(cwd, commit, folder || '.').filter(
        (path) =>
          /\.ya?ml$/.test(path) &&
          !path
            .slice(prefix.length)
            .split('/')
            .some((part) => part.startsWith('.')),
      );
      if (!paths.includes(`${prefix}${CONFIG_FILE}`)) {
        return {
          ok: false,
          reason: 'absent',
          message: `${label} has no catalogue in \`${folder || '.'}/\`.`,
        };
      }
      const texts = readFiles(cwd, commit, paths);
      const files = paths.map((path) => ({ path: path.slice(prefix.length), text: texts.get(path) ?? '' }));
      const result = loadCatalogueFromSources(files);
      const packagesFolder = posix.join(posix.dirname(folder || '.'), 'packages');
      const versions = result.ok
        ? readFiles(
            cwd,
            commit,
            result.catalogue.groups.map((group) => posix.join(packagesFolder, group.slug, 'package.json')),
          )
        : new Map<string, string>();
      const root = displayPath(cwd, join(top, folder));
      return loaded(result, root, {
        kind: 'git',
        label,
        root,
        allowList: files.find((file) => file.path === ALLOW_LIST_FILE),
        readPackage: (slug) => versions.get(posix.join(packagesFolder, slug, 'package.json')),
      });
    } catch (error) {
      if (error instanceof GitError)
        return { ok: false, reason: 'usage', message: `${label}: ${error.message}` };
      throw error;
    }
  },
};

/** The kinds, in the order they are tried: explicit prefixes first, then paths, then git refs. */
export const SOURCE_KINDS: readonly SourceKind[] = [npmSource, directorySource, openApiSource, gitSource];

/** Resolves OLD or NEW: `npm:…`, a directory, an OpenAPI document, or a git ref, in that order. */
export function resolveSource(spec: string, options: SourceOptions): SourceResult {
  const kind = SOURCE_KINDS.find((candidate) => candidate.claims(spec, options));
  if (!kind) return { ok: false, reason: 'usage', message: unknownSpec(spec) };
  return kind.resolve(spec, options);
}

function unknownSpec(spec: string): string {
  return `\`${spec}\` is neither a catalogue directory, an OpenAPI document, nor a git ref of this repository.`;
}

interface Details {
  kind: string;
  label: string;
  root: string;
  allowList?: CatalogueSourceFile | undefined;
  readPackage(slug: string): string | undefined;
}

function loaded(result: LoadResult, root: string, details: Details): SourceResult {
  if (!result.ok) return { ok: false, reason: 'problems', problems: result.problems, root };
  const packageVersions: Record<string, string> = {};
  for (const group of result.catalogue.groups) {
    const version = packageVersion(details.readPackage(group.slug));
    if (version) packageVersions[group.slug] = version;
  }
  return {
    ok: true,
    source: {
      kind: details.kind,
      label: details.label,
      catalogue: result.catalogue,
      root: details.root,
      packageVersions,
      ...(details.allowList ? { allowList: details.allowList } : {}),
    },
  };
}

/** The `version` of a package.json text, if it has one. */
export function packageVersion(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  try {
    const version = (JSON.parse(text) as { version?: unknown }).version;
    return typeof version === 'string' ? version : undefined;
  } catch {
    return undefined;
  }
}

/** A path as the user would type it from `cwd`: relative and `/`-separated when inside, absolute outside. */
export function displayPath(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  if (rel === '') return '.';
  return rel.startsWith('..') || isAbsolute(rel) ? toPosix(path) : toPosix(rel);
}

function toPosix(path: string): string {
  return path.split(sep).join('/');
}

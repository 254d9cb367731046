import { isAbsolute, relative, sep } from 'node:path';
import type { CatalogueProblem, CatalogueSourceFile, LoadOptions, LoadResult } from '../load/index.js';
import type { Catalogue } from '../model.js';

// What every kind of catalogue input shares: the result it resolves to and the helpers that build it.
// The kinds (one file each) and the dispatcher (index.ts) import this; it imports none of them.

/** Where OLD/NEW are looked up. */
export interface SourceOptions {
  /** Folder the spec is relative to (the user's working folder). */
  cwd: string;
  /** The catalogue folder relative to `cwd`, used to find the catalogue inside a git commit. */
  catalogue: string;
  /** Registry for `npm:` sources, instead of the one npm's configuration names for the scope. */
  registry?: string;
  /** How catalogue files are loaded (an accelerator shared by the two sides of a diff). */
  load?: LoadOptions;
  /** The environment git and npm run with for git refs and `npm:` sources (the command's container's). */
  env: Readonly<Record<string, string | undefined>>;
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
  /** What the user should know about how it was read (printed on stderr): the public registry asked. */
  notes?: string[];
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
 * resolves it. To add one, give it its own file in `sources/` (as `npm-package.ts`, `git.ts`, ...),
 * implement this and list it in SOURCE_KINDS (`index.ts`).
 */
export interface SourceKind {
  name: string;
  /** Whether this kind handles the spec. */
  claims(spec: string, options: SourceOptions): boolean;
  resolve(spec: string, options: SourceOptions): SourceResult;
}

/** The message for a spec no kind can resolve. */
export function unknownSpec(spec: string): string {
  return `\`${spec}\` is neither a catalogue directory, an OpenAPI document, nor a git ref of this repository.`;
}

/** What a kind knows about the catalogue it loaded, besides the load result. */
export interface SourceDetails {
  kind: string;
  label: string;
  root: string;
  allowList?: CatalogueSourceFile | undefined;
  readPackage(slug: string): string | undefined;
}

/** A load result as a source: its problems, or the catalogue with the package versions recorded beside it. */
export function loaded(result: LoadResult, root: string, details: SourceDetails): SourceResult {
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

/** A path `/`-separated, as git and reports show it. */
export function toPosix(path: string): string {
  return path.split(sep).join('/');
}

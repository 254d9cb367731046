import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { type AllowEntry, readAllowList } from '../diff/allow-list.js';
import { type BaseResult, type GateBase, missingBaseHint, resolveGateBase } from '../release/base.js';
import { directorySource } from '../sources/folder.js';
import type { GitPlace } from '../sources/git.js';
import {
  type ResolvedSource,
  resolveSource,
  type SourceOptions,
  type SourceResult,
} from '../sources/index.js';
import type { GateRequest, GateRun } from './verdict.js';

/** The two sides the gate compares, once both load: the base chosen, its catalogue, and the current one. */
export interface GateSides {
  kind: 'sides';
  chosen: GateBase;
  base: ResolvedSource;
  current: ResolvedSource;
  /** The current catalogue's allow-list. */
  allowList: AllowEntry[];
}

/**
 * Step 1 of the gate: the current catalogue and its allow-list, the base (`--base`, `EVENTRY_BASE`, else
 * the last release, `resolveGateBase`) and its catalogue; or why the gate cannot compare. Usage errors
 * come first: a wrong `--base` is reported as such even when the catalogue has problems too.
 */
export function resolveSides(request: GateRequest): GateSides | Exclude<GateRun, { kind: 'gated' }> {
  const at = request.source;
  const catalogueDir = at.catalogue;
  if (!directorySource.claims(catalogueDir, at))
    return { kind: 'usage', message: `no catalogue directory \`${catalogueDir}\`.` };
  const explicit = request.base;
  let chosen: BaseResult<GateBase> | undefined = explicit
    ? resolveGateBase(at, { catalogueDir, scope: '' }, explicit)
    : undefined;
  let given = chosen?.ok && chosen.value.kind !== 'empty' ? resolveSource(chosen.value.ref, at) : undefined;
  if (chosen?.ok && given && !given.ok && given.reason !== 'problems')
    return cannotSee(at, given.reason, `${explicit!.from} ${given.message}`);
  const loaded = directorySource.resolve(catalogueDir, at);
  if (!loaded.ok) {
    if (loaded.reason === 'problems')
      return { kind: 'catalogue-problems', problems: loaded.problems, root: loaded.root };
    return { kind: 'usage', message: loaded.message };
  }
  const current = loaded.source;
  const allowList = readAllowList(current.allowList);
  if (allowList.problems.length > 0)
    return { kind: 'allow-list-problems', problems: allowList.problems, root: current.root };
  chosen ??= resolveGateBase(at, { catalogueDir, scope: current.catalogue.config.scope });
  if (!chosen.ok) return { kind: 'base-problem', ...chosen.problem };
  given ??= chosen.value.kind === 'empty' ? undefined : resolveSource(chosen.value.ref, at);
  const base = baseSide(at, chosen.value, given, current);
  if (base.kind !== 'loaded') return base;
  return { kind: 'sides', chosen: chosen.value, base: base.source, current, allowList: allowList.entries };
}

/** The base's catalogue, or why it cannot be compared with (an unseen base is a usage error, never a pass). */
function baseSide(
  at: GitPlace,
  chosen: GateBase,
  given: SourceResult | undefined,
  current: ResolvedSource,
):
  | { kind: 'loaded'; source: ResolvedSource }
  | Extract<GateRun, { kind: 'base-unseen' | 'base-does-not-load' }> {
  if (!given || (!given.ok && given.reason === 'absent' && chosen.kind === 'commit' && chosen.neverReleased))
    // Nothing was ever released: against an empty catalogue every event is new, which is what it is.
    return { kind: 'loaded', source: emptySource(current) };
  if (given.ok) return { kind: 'loaded', source: given.source };
  if (given.reason !== 'problems') return { ...cannotSee(at, given.reason, given.message), base: chosen };
  return { kind: 'base-does-not-load', base: chosen, problems: given.problems.length };
}

/** Why the base cannot be seen and how to fix it: a usage error, never a pass. */
function cannotSee(
  at: GitPlace,
  reason: 'usage' | 'absent',
  message: string,
): { kind: 'base-unseen'; code: string; message: string; hint: string } {
  const code =
    reason === 'absent' && / has no catalogue /.test(message) ? 'base-without-catalogue' : 'base-not-found';
  const hint =
    code === 'base-not-found'
      ? missingBaseHint(at)
      : 'name a base that holds the catalogue with --base or EVENTRY_BASE (before the first release, set neither: the gate then compares with the root commit).';
  return { kind: 'base-unseen', code, message, hint };
}

/** The catalogue before anything was released: the current configuration, no groups, shapes or events. */
function emptySource(current: ResolvedSource): ResolvedSource {
  const catalogue = { ...current.catalogue, groups: [], shapes: {}, events: {} };
  return { kind: 'empty', label: 'an empty catalogue', catalogue, root: current.root, packageVersions: {} };
}

/**
 * The catalogue folder as git knows it: through any symbolic link, and absolute or relative to the
 * current folder as it was named (`../catalogue` from a folder beside it). Git looks a path up by its
 * name, so a link to the catalogue would have no history of its own, and the gate would compare with
 * the wrong base.
 */
export function throughLinks(source: SourceOptions): SourceOptions {
  let real: string;
  let cwd: string;
  try {
    real = realpathSync(resolve(source.cwd, source.catalogue));
    cwd = realpathSync(source.cwd);
  } catch {
    return source; // no such folder: the sides say so
  }
  // Absolute or relative as the user named it (relative to another root, another drive, is absolute).
  const named = relative(cwd, real);
  const catalogue = isAbsolute(source.catalogue) || isAbsolute(named) ? real : named || '.';
  return { ...source, catalogue };
}

import { posix, resolve } from 'node:path';
import { type AllowEntry, readAllowList } from '../diff/allow-list.js';
import { evaluateGate, type GateOutcome } from '../diff/gate.js';
import { checkDeclarationsAcross, consumerImpact, unreadPassing } from '../diff/impact.js';
import { compareCatalogues } from '../diff/index.js';
import { shapeFixesFor } from '../diff/report/report.js';
import type { Finding } from '../diff/rule.js';
import { lintForGate } from '../lint/gate.js';
import { ALLOW_LIST_FILE } from '../load/index.js';
import { lastRelease } from '../release/last-release.js';
import { type GitPlace, readFiles, repoPath, repoRoot, resolveCommit } from '../sources/git.js';
import type { ResolvedSource, SourceOptions } from '../sources/index.js';
import { withUpcasts } from './migrations.js';
import { type GateSides, resolveSides, throughLinks } from './sides.js';
import type { ConsumersVerdict, GateRequest, GateRun, GateVerdict } from './verdict.js';

// `eventry check`, the version policy gate, read top-down: `runGate` takes the steps in order, each a
// call into the room that does the work (sources and release find the sides, diff compares and applies
// the allow-list, lint runs its pack). Nothing here prints: the CLI formats the run (`report.ts`).

/**
 * The gate: (1) the two sides, (2) the version policy (the diff, the allow-lists of the base and of
 * the release before it), (3) whom the change breaks, (4) the lint pack. Never passes by default: a
 * base it cannot see is a result of its own, for a usage error.
 */
export async function runGate(asked: GateRequest): Promise<GateRun> {
  const request = { ...asked, source: throughLinks(asked.source) };
  const sides = resolveSides(request);
  if (sides.kind !== 'sides') return sides;
  const { chosen, base, current } = sides;
  const outcome = checkVersionPolicy(sides, earlierEntries(request.source, sides));
  const blocked = outcome.blocked.map((entry) => entry.finding);
  const verdict: GateVerdict = {
    kind: 'gated',
    base: chosen,
    baseLabel: base.label,
    root: current.root,
    outcome,
    shapeFixes: shapeFixesFor(blocked, base.catalogue, current.catalogue),
    consumers: checkConsumers(base, current, blocked),
  };
  if (verdict.consumers.kind === 'declaration-problems') return verdict;
  const { cwd, catalogue: catalogueDir } = request.source;
  // New lint findings are printed, new errors fail the gate (generators/lint/gate.ts).
  const dir = resolve(cwd, catalogueDir);
  const ruleData = await request.ruleData?.(current.catalogue);
  verdict.lint = lintForGate(current.catalogue, dir, catalogueDir, request.format, undefined, ruleData);
  return verdict;
}

/**
 * Step 2: the diff of the two sides under the allow-list. The base's allow-list holds the entries a
 * release already carried; `earlier` those the release before the base carried too.
 */
function checkVersionPolicy(sides: GateSides, earlier: readonly AllowEntry[]): GateOutcome {
  const { base, current } = sides;
  const findings = compareCatalogues(base.catalogue, current.catalogue);
  const carried = { base: readAllowList(base.allowList).entries, earlier };
  return evaluateGate(findings, sides.allowList, carried, base.catalogue, current.catalogue);
}

/** Step 3: whom the change breaks, and the blocked changes no consumer reads that pass. */
function checkConsumers(
  base: ResolvedSource,
  current: ResolvedSource,
  blocked: readonly Finding[],
): ConsumersVerdict {
  const problems = checkDeclarationsAcross(base.catalogue, current.catalogue);
  if (problems.length > 0) return { kind: 'declaration-problems', problems };
  // The fixes name the catalogue's migrations: a reader of an old version can `upcast` (issue 46).
  const impact = withUpcasts(
    consumerImpact(base.catalogue, current.catalogue),
    base.catalogue,
    current.catalogue,
  );
  const broken = impact.impacts.filter((entry) => entry.status === 'broken');
  const passing = unreadPassing(blocked, impact, current.catalogue);
  return { kind: 'impact', impact, broken, unreadPassing: passing };
}

/** The allow-list of the last release before the base (none when the base is a folder or the first release). */
function earlierEntries(at: SourceOptions, sides: GateSides): AllowEntry[] {
  const { chosen } = sides;
  const baseSpec =
    chosen.kind === 'commit' ? chosen.commit : chosen.kind === 'given' ? chosen.ref : undefined;
  if (baseSpec === undefined) return [];
  const scope = sides.current.catalogue.config.scope;
  return releaseAllowList(at, at.catalogue, scope, baseSpec);
}

/** The allow-list the release before `baseSpec` carried, read from git. */
function releaseAllowList(at: GitPlace, catalogueDir: string, scope: string, baseSpec: string): AllowEntry[] {
  const top = repoRoot(at);
  const baseCommit = top ? resolveCommit(at, baseSpec) : undefined;
  const parent = baseCommit ? resolveCommit(at, `${baseCommit}^`) : undefined;
  if (!top || !parent) return [];
  const release = lastRelease(at, top, catalogueDir, scope, parent);
  if (!release) return [];
  const path = posix.join(repoPath(top, at.cwd, catalogueDir), ALLOW_LIST_FILE);
  const text = readFiles(at, release.commit, [path]).get(path);
  return text === undefined ? [] : readAllowList({ path: ALLOW_LIST_FILE, text }).entries;
}

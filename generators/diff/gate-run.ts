import { posix, relative, resolve, sep } from 'node:path';
import { type LintGate, lintForGate } from '../lint/gate.js';
import { ALLOW_LIST_FILE, type CatalogueProblem } from '../load/index.js';
import { type GateBase, missingBaseHint, resolveGateBase } from '../release/base.js';
import { lastRelease } from '../release/last-release.js';
import { directorySource } from '../sources/folder.js';
import { type GitPlace, readFiles, repoRoot, resolveCommit } from '../sources/git.js';
import { type ResolvedSource, resolveSource } from '../sources/index.js';
import type { SourceOptions } from '../sources/source.js';
import { type AllowEntry, readAllowList } from './allow-list.js';
import { evaluateGate, type GateOutcome } from './gate.js';
import { checkDeclarationsAcross, consumerImpact, type ImpactReport, unreadPassing } from './impact.js';
import { compareCatalogues } from './index.js';
import { shapeFixesFor } from './report/report.js';
import type { Finding } from './rule.js';

/** The base the gate was asked for: `--base REF`, else `EVENTRY_BASE` (see `resolveGateBase`). */
export interface ExplicitBase {
  spec: string;
  from: '--base' | 'EVENTRY_BASE';
}

/** What `runGate` needs: where the catalogue is and how it loads (`SourceOptions`), and the base asked for. */
export interface GateRequest {
  source: SourceOptions;
  base?: ExplicitBase;
  /** The format the lint's new findings are given in. */
  format: 'text' | 'github';
}

/** Whom the change breaks, or the consumer declarations that are wrong. */
export type ConsumersVerdict =
  | { kind: 'declaration-problems'; problems: CatalogueProblem[] }
  /** `unreadPassing`: blocked changes no declared consumer reads that the config lets pass. */
  | { kind: 'impact'; impact: ImpactReport; broken: ImpactReport['impacts']; unreadPassing: Finding[] };

/** Everything the gate found once it could compare (the lint only when the declarations are right). */
export interface GateVerdict {
  kind: 'gated';
  base: GateBase;
  /** The base's name in messages: `main (1a2b3c4)`, `an empty catalogue`. */
  baseLabel: string;
  /** The prefix of the current catalogue's source paths. */
  root: string;
  outcome: GateOutcome;
  /** The fix for each blocked change made in a shared shape, by `ShapeChange.key`: the one `diff` gives. */
  shapeFixes: Map<string, string>;
  consumers: ConsumersVerdict;
  lint?: LintGate;
}

/** The outcome of `runGate`: a verdict, or why the gate could not give one. */
export type GateRun =
  | GateVerdict
  /** A usage error: no catalogue folder, a current catalogue that cannot be read. */
  | { kind: 'usage'; message: string }
  /** The current catalogue, or its allow-list, has problems. */
  | { kind: 'catalogue-problems'; problems: CatalogueProblem[]; root: string }
  | { kind: 'allow-list-problems'; problems: CatalogueProblem[]; root: string }
  /** No base could be chosen (a shallow clone, not a repository). */
  | { kind: 'base-problem'; code: string; message: string }
  /** The base names nothing this repository holds, or a commit without a catalogue (`base` once chosen). */
  | { kind: 'base-unseen'; code: string; message: string; hint: string; base?: GateBase }
  | { kind: 'base-does-not-load'; base: GateBase; problems: number };

/**
 * `eventry check`'s wiring: resolves the base (`--base`, `EVENTRY_BASE`, else the last release), loads
 * both sides and runs the version policy (`evaluateGate`), the consumer impact and the lint pack. Never
 * passes by default: a base it cannot see is a result of its own, for a usage error.
 */
export function runGate(request: GateRequest): GateRun {
  const sourceOptions = request.source;
  const { cwd, catalogue: catalogueDir } = sourceOptions;
  if (!directorySource.claims(catalogueDir, sourceOptions))
    return { kind: 'usage', message: `no catalogue directory \`${catalogueDir}\`.` };
  // Usage errors first: a wrong --base is reported as such even when the catalogue has problems too.
  const explicit = request.base;
  let chosen = explicit ? resolveGateBase(sourceOptions, { catalogueDir, scope: '' }, explicit) : undefined;
  let given =
    chosen?.ok && chosen.value.kind !== 'empty' ? resolveSource(chosen.value.ref, sourceOptions) : undefined;
  if (chosen?.ok && given && !given.ok && given.reason !== 'problems')
    return cannotSee(sourceOptions, given.reason, `${explicit!.from} ${given.message}`);
  const current = directorySource.resolve(catalogueDir, sourceOptions);
  if (!current.ok) {
    if (current.reason === 'problems')
      return { kind: 'catalogue-problems', problems: current.problems, root: current.root };
    return { kind: 'usage', message: current.message };
  }
  const after = current.source;
  const allowList = readAllowList(after.allowList);
  if (allowList.problems.length > 0)
    return { kind: 'allow-list-problems', problems: allowList.problems, root: after.root };

  chosen ??= resolveGateBase(sourceOptions, { catalogueDir, scope: after.catalogue.config.scope });
  if (!chosen.ok) return { kind: 'base-problem', ...chosen.problem };
  const chosenBase = chosen.value;
  given ??= chosenBase.kind === 'empty' ? undefined : resolveSource(chosenBase.ref, sourceOptions);
  let base: ResolvedSource;
  if (
    !given ||
    (!given.ok && given.reason === 'absent' && chosenBase.kind === 'commit' && chosenBase.neverReleased)
  ) {
    // Nothing was ever released: against an empty catalogue every event is new, which is what it is.
    base = emptySource(after);
  } else if (!given.ok) {
    if (given.reason !== 'problems')
      return { ...cannotSee(sourceOptions, given.reason, given.message), base: chosenBase };
    return { kind: 'base-does-not-load', base: chosenBase, problems: given.problems.length };
  } else {
    base = given.source;
  }
  const baseSpec =
    chosenBase.kind === 'commit'
      ? chosenBase.commit
      : chosenBase.kind === 'given'
        ? chosenBase.ref
        : undefined;
  const earlier =
    baseSpec === undefined
      ? []
      : earlierEntries(sourceOptions, catalogueDir, after.catalogue.config.scope, baseSpec);
  const outcome = checkVersionPolicy(base, after, allowList.entries, earlier);
  const verdict: GateVerdict = {
    kind: 'gated',
    base: chosenBase,
    baseLabel: base.label,
    root: after.root,
    outcome,
    shapeFixes: shapeFixesFor(
      outcome.blocked.map((entry) => entry.finding),
      base.catalogue,
      after.catalogue,
    ),
    consumers: checkConsumers(base, after, outcome),
  };
  if (verdict.consumers.kind === 'declaration-problems') return verdict;
  // The lint pack: new findings are printed, new errors fail the gate (generators/lint/gate.ts).
  verdict.lint = lintForGate(after.catalogue, resolve(cwd, catalogueDir), catalogueDir, request.format);
  return verdict;
}

/** Whom the change breaks: the broken consumers and the blocked changes no consumer reads that pass. */
function checkConsumers(
  base: ResolvedSource,
  current: ResolvedSource,
  outcome: GateOutcome,
): ConsumersVerdict {
  const problems = checkDeclarationsAcross(base.catalogue, current.catalogue);
  if (problems.length > 0) return { kind: 'declaration-problems', problems };
  const impact = consumerImpact(base.catalogue, current.catalogue);
  const broken = impact.impacts.filter((entry) => entry.status === 'broken');
  const passing = unreadPassing(
    outcome.blocked.map((entry) => entry.finding),
    impact,
    current.catalogue,
  );
  return { kind: 'impact', impact, broken, unreadPassing: passing };
}

/**
 * Runs the gate on two resolved catalogues. The base's allow-list holds the entries a release already
 * carried; `earlier` those the release before the base carried too.
 */
function checkVersionPolicy(
  base: ResolvedSource,
  current: ResolvedSource,
  entries: readonly AllowEntry[],
  earlier: readonly AllowEntry[] = [],
): GateOutcome {
  const findings = compareCatalogues(base.catalogue, current.catalogue);
  const carried = { base: readAllowList(base.allowList).entries, earlier };
  return evaluateGate(findings, entries, carried, base.catalogue, current.catalogue);
}

/** The allow-list of the last release before the base (none when the base is a folder or the first release). */
function earlierEntries(at: GitPlace, catalogueDir: string, scope: string, baseSpec: string): AllowEntry[] {
  const top = repoRoot(at);
  const baseCommit = top ? resolveCommit(at, baseSpec) : undefined;
  const parent = baseCommit ? resolveCommit(at, `${baseCommit}^`) : undefined;
  if (!top || !parent) return [];
  const release = lastRelease(at, top, catalogueDir, scope, parent);
  if (!release) return [];
  const path = posix.join(toPosix(relative(top, resolve(at.cwd, catalogueDir))), ALLOW_LIST_FILE);
  const text = readFiles(at, release.commit, [path]).get(path);
  return text === undefined ? [] : readAllowList({ path: ALLOW_LIST_FILE, text }).entries;
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

function toPosix(path: string): string {
  return path.split(sep).join(posix.sep);
}

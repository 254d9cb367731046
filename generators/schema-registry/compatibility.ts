import { diffCatalogues } from '../diff/diff.js';
import type { Finding } from '../diff/rule.js';
import { classifyChanges } from '../diff/rules/index.js';
import type { Catalogue, CompatibilityLevel } from '../model.js';
import { Budget, ComparisonTooLarge, type Difference } from './confluent-diff/schema-diff.js';
import type { SchemaNode } from './confluent-diff/schema-node.js';
import {
  type Direction,
  judgeDirection,
  loadSchemaText,
  type Policy,
  readerOf,
  SCHEMA_LIMITS,
} from './confluent-diff/verdict.js';
import type { SchemaRegistryState, SubjectVersion } from './registry.js';
import { servedSchemaText } from './schema-text.js';

/**
 * Confluent compatibility, the one implementation behind `/compatibility`, `eventry diff --level` and
 * what `register` expects a registry to accept: Confluent's own JSON Schema diff (confluent-diff/,
 * ported from its source) run on the schema texts a registry holds, so the verdict is the registry's,
 * for any JSON Schema a client may post. BACKWARD compares the earlier version as the writer with the
 * new one as the reader; FORWARD the other way round; FULL both; `_TRANSITIVE` against every earlier
 * version. eventry's own gate (the diff rules) may be stricter; `diff --level` says where.
 */

export type { Direction, Policy };

/** The directions a level checks. */
function directionsOf(level: CompatibilityLevel): Direction[] {
  if (level === 'NONE') return [];
  if (level.startsWith('BACKWARD')) return ['backward'];
  if (level.startsWith('FORWARD')) return ['forward'];
  return ['backward', 'forward'];
}

/** Whether a level checks every earlier version rather than the latest only. */
export const isTransitive = (level: CompatibilityLevel): boolean => level.endsWith('_TRANSITIVE');

/** One reason a change is incompatible in one direction. */
export interface Incompatibility {
  direction: Direction;
  /** Confluent's name for the difference (`REQUIRED_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL`). */
  difference: string;
  /** Confluent's JSON path of the difference (`#/properties/lines/items/properties/unit`). */
  path: string;
  /** eventry's finding for the same field, when the diff of two catalogues has one. */
  finding?: Finding;
}

/** A change eventry's gate blocks where the registry accepts it, and why the two differ. */
export interface StricterFinding {
  direction: Direction;
  finding: Finding;
  why: string;
}

/** The verdict of one event between two catalogues, for `eventry diff --level`. */
export interface EventVerdict {
  event: string;
  /** `new`: no earlier version to be compatible with (a new subject); `removed`: no new version. */
  status: 'compatible' | 'incompatible' | 'new' | 'removed';
  incompatibilities: Incompatibility[];
  /** Where eventry's gate is stricter than the registry for this event. */
  stricter: StricterFinding[];
}

/** The eventry field a Confluent path points into (`#/properties/a/items/properties/b` -> `a[].b`). */
function attrOfPath(path: string): string | null {
  const segments = path.replace(/^#\/?/, '').split('/').filter(Boolean);
  let attr = '';
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if ((segment === 'properties' || segment === 'required') && i + 1 < segments.length) {
      attr = attr ? `${attr}.${segments[++i]}` : segments[++i]!;
      if (segment === 'required') break;
    } else if (segment === 'items' && attr) attr = `${attr}[]`;
    else break;
  }
  return attr === '' ? null : attr;
}

const parentOf = (attr: string | null) => (attr?.includes('.') ? attr.slice(0, attr.lastIndexOf('.')) : '');

const directionBreaks = (direction: Direction, finding: Finding) =>
  finding.breaks === 'both' || finding.breaks === (direction === 'backward' ? 'producers' : 'consumers');

/** Why eventry's rule blocks a change Confluent's checker accepts. */
function whyStricter(rule: string): string {
  if (rule.startsWith('format-'))
    return 'Confluent ignores `format` (an annotation in 2020-12); eventry validates it';
  if (rule === 'field-renamed') return 'eventry sees a rename, Confluent a field removed and one added';
  return 'Confluent accepts this change; eventry treats it as breaking';
}

/**
 * Per event, whether a registry at `level` (with `policy`) would accept the new catalogue's schema after
 * the old one's. Two catalogues are two points: a transitive level is judged against the old one only
 * (serve and register check every earlier version).
 */
export function judgeCatalogues(
  before: Catalogue,
  after: Catalogue,
  level: CompatibilityLevel,
  policy: Policy,
): EventVerdict[] {
  const findings = new Map<string, Finding[]>();
  for (const finding of classifyChanges(diffCatalogues(before, after))) {
    const list = findings.get(finding.event) ?? [];
    list.push(finding);
    findings.set(finding.event, list);
  }
  const keys = [...new Set([...Object.keys(before.events), ...Object.keys(after.events)])].sort();
  const verdicts: EventVerdict[] = [];
  for (const key of keys) {
    if (!before.events[key] || !after.events[key]) {
      const status = before.events[key] ? 'removed' : 'new';
      verdicts.push({ event: key, status, incompatibilities: [], stricter: [] });
      continue;
    }
    const old = loadSchemaText(servedSchemaText(before, key));
    const now = loadSchemaText(servedSchemaText(after, key));
    if (!old.ok || !now.ok)
      throw new Error(`eventry's own schema of ${key} did not load: ${old.ok ? '' : old.error}`);
    const eventFindings = findings.get(key) ?? [];
    const incompatibilities: Incompatibility[] = [];
    const stricter: StricterFinding[] = [];
    for (const direction of directionsOf(level)) {
      const verdict = judgeDirection(old.node, now.node, direction, policy);
      const found = toIncompatibilities(verdict.incompatible, verdict.failure, direction, eventFindings);
      incompatibilities.push(...found);
      const seen = new Set(found.map((item) => attrOfPath(item.path)));
      const parents = new Set([...seen].map(parentOf));
      for (const finding of eventFindings) {
        if (finding.severity !== 'breaking' || !directionBreaks(direction, finding)) continue;
        if (found.length > 0 && (finding.attr === null || seen.has(finding.attr))) continue;
        // A rename is a removal and an addition to Confluent: either name found counts.
        if (finding.rule === 'field-renamed' && parents.has(parentOf(finding.attr))) continue;
        stricter.push({ direction, finding, why: whyStricter(finding.rule) });
      }
    }
    verdicts.push({
      event: key,
      status: incompatibilities.length > 0 ? 'incompatible' : 'compatible',
      incompatibilities,
      stricter,
    });
  }
  return verdicts;
}

function toIncompatibilities(
  differences: readonly Difference[],
  failure: string | undefined,
  direction: Direction,
  findings: readonly Finding[],
): Incompatibility[] {
  const out: Incompatibility[] = differences.map((diff) => {
    if (findings.length === 0) return { direction, difference: diff.type, path: diff.path };
    const attr = attrOfPath(diff.path);
    const finding =
      findings.find((f) => f.attr === attr && f.severity === 'breaking') ??
      findings.find((f) => f.attr === attr);
    return { direction, difference: diff.type, path: diff.path, ...(finding ? { finding } : {}) };
  });
  if (failure) out.push({ direction, difference: 'CHECKER_FAILURE', path: '#/' });
  return out;
}

/** A finding's detail inside a sentence: no backticks, no closing period. */
export const plain = (detail: string): string => detail.replace(/`/g, '').replace(/\.$/, '');

/** A plain-words line for an incompatibility: Confluent's difference and path, eventry's rule when known. */
export function describeIncompatibility(incompatibility: Incompatibility, against?: number): string {
  const { finding, direction, difference, path } = incompatibility;
  const version = against === undefined ? '' : ` (against version ${against})`;
  const rule = finding ? `; eventry: [${finding.rule}] ${plain(finding.detail)}` : '';
  const what =
    difference === 'CHECKER_FAILURE'
      ? "Confluent's checker fails on this pair (an internal error), so the registry refuses it"
      : `${difference} at ${path}`;
  return `${direction.toUpperCase()} incompatible${version}: ${what} — ${readerOf(direction)}${rule}.`;
}

/** The verdict on a candidate, or why the candidate cannot be read (`tooLarge`: over the limits). */
export type CandidateVerdict =
  | { ok: true; compatible: boolean; messages: string[] }
  | { ok: false; error: string; tooLarge?: true };

/** Everything a compatibility check reads, as plain data (it may run on another thread). */
export interface CandidateJob {
  candidate: string;
  /** The versions to judge against, oldest first. */
  targets: { version: number; schema: string }[];
  level: CompatibilityLevel;
  policy: Policy;
}

/**
 * The job of `/compatibility`: the candidate against the subject's versions the level names (the
 * latest, or all for a transitive level), or against `against` when a version is given.
 */
export function candidateJob(
  state: SchemaRegistryState,
  subject: string,
  candidate: string,
  against?: readonly SubjectVersion[],
): CandidateJob {
  const versions = state.subjects.get(subject)!;
  const level = state.levelOf(subject);
  const targets = against ?? (isTransitive(level) ? versions : [versions.at(-1)!]);
  return {
    candidate,
    targets: targets.map(({ version, schema }) => ({ version, schema })),
    level,
    policy: state.compatibility.policy,
  };
}

const loadedVersions = new Map<string, SchemaNode | string>();

/** A version's schema as loaded for comparison (the registry's own texts: loaded once per process). */
function loadedVersion(schema: string): SchemaNode | string {
  let loaded = loadedVersions.get(schema);
  if (loaded === undefined) {
    const result = loadSchemaText(schema);
    loaded = result.ok ? result.node : result.error;
    if (loadedVersions.size >= 10_000) loadedVersions.clear();
    loadedVersions.set(schema, loaded);
  }
  return loaded;
}

/**
 * Judges a candidate within `SCHEMA_LIMITS`: loading it and comparing it are linear in its size, and
 * a schema over the limits (or whose comparison would take more steps than allowed) is refused with
 * `tooLarge`, never left running.
 */
export function judgeCandidate(job: CandidateJob): CandidateVerdict {
  const candidate = loadSchemaText(job.candidate, SCHEMA_LIMITS);
  if (!candidate.ok) return candidate;
  const budget = new Budget(SCHEMA_LIMITS.steps);
  const messages: string[] = [];
  try {
    for (const target of [...job.targets].reverse()) {
      const previous = loadedVersion(target.schema);
      if (typeof previous === 'string') {
        messages.push(`version ${target.version} could not be read for comparison: ${previous}`);
        continue;
      }
      for (const direction of directionsOf(job.level)) {
        const verdict = judgeDirection(previous, candidate.node, direction, job.policy, budget);
        for (const incompatibility of toIncompatibilities(
          verdict.incompatible,
          verdict.failure,
          direction,
          [],
        ))
          messages.push(describeIncompatibility(incompatibility, target.version));
      }
    }
  } catch (error) {
    if (error instanceof ComparisonTooLarge) return { ok: false, error: error.message, tooLarge: true };
    throw error;
  }
  return { ok: true, compatible: messages.length === 0, messages };
}

/** `/compatibility` on this thread (MCP's `check_compatibility`): `judgeCandidate` of `candidateJob`. */
export function checkCandidate(
  state: SchemaRegistryState,
  subject: string,
  candidateText: string,
  against?: readonly SubjectVersion[],
): CandidateVerdict {
  return judgeCandidate(candidateJob(state, subject, candidateText, against));
}

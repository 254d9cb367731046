import type { CompatibilityLevel } from '../model.js';
import {
  describeIncompatibility,
  type EventVerdict,
  type Policy,
  plain,
  type StricterFinding,
} from './compatibility.js';
import { CONFLUENT_RULES_VERSION } from './confluent-diff/difference-types.js';

const shownVerdicts = (verdicts: readonly EventVerdict[]) =>
  verdicts.filter(
    (verdict) =>
      verdict.status !== 'compatible' || verdict.incompatibilities.length > 0 || verdict.stricter.length > 0,
  );

/** A plain-words line for a change eventry's gate blocks where the registry accepts it. */
function describeStricter({ direction, finding, why }: StricterFinding): string {
  return `eventry's gate is stricter here (${direction.toUpperCase()}): [${finding.rule}] ${plain(finding.detail)} — ${why}.`;
}

/** The Confluent verdicts of a diff as text (also used in markdown and github output): changed events only. */
export function formatVerdicts(
  verdicts: readonly EventVerdict[],
  level: CompatibilityLevel,
  policy: Policy,
): string {
  const incompatible = verdicts.filter((verdict) => verdict.status === 'incompatible').length;
  const lines = [
    '',
    `Schema registry verdict (Confluent ${level}, JSON Schema policy ${policy}): ${
      incompatible === 0
        ? 'a registry would accept every changed event'
        : `${incompatible} event(s) a registry would refuse`
    }.`,
  ];
  for (const verdict of shownVerdicts(verdicts)) {
    const status =
      verdict.status === 'new'
        ? 'new subject (nothing to be compatible with)'
        : verdict.status === 'removed'
          ? 'removed (no new version to check)'
          : verdict.status;
    lines.push(`  ${verdict.event}: ${status}`);
    for (const incompatibility of verdict.incompatibilities)
      lines.push(`    - ${describeIncompatibility(incompatibility)}`);
    for (const stricter of verdict.stricter) lines.push(`    - ${describeStricter(stricter)}`);
  }
  lines.push(`(Rules of ${CONFLUENT_RULES_VERSION}.)`);
  return `${lines.join('\n')}\n`;
}

/** The verdicts as the `registry` member of the JSON report. */
export function verdictsJson(
  verdicts: readonly EventVerdict[],
  level: CompatibilityLevel,
  policy: Policy,
): unknown {
  return {
    level,
    policy,
    rules: CONFLUENT_RULES_VERSION,
    events: shownVerdicts(verdicts).map((verdict) => ({
      event: verdict.event,
      status: verdict.status,
      messages: verdict.incompatibilities.map((incompatibility) => describeIncompatibility(incompatibility)),
      rules: verdict.incompatibilities.map(({ direction, difference, path, finding }) => ({
        direction,
        difference,
        path,
        rule: finding?.rule ?? null,
        attr: finding?.attr ?? null,
        breaks: finding?.breaks ?? null,
      })),
      stricter: verdict.stricter.map(({ direction, finding, why }) => ({
        direction,
        rule: finding.rule,
        attr: finding.attr,
        breaks: finding.breaks,
        why,
      })),
    })),
  };
}

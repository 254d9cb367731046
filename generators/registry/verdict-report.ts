import type { CompatibilityLevel } from '../model.js';
import { describeIncompatibility, type EventVerdict, type Policy } from './compatibility.js';

/** The Confluent verdicts of a diff as text (also used in markdown and github output): changed events only. */
export function formatVerdicts(
  verdicts: readonly EventVerdict[],
  level: CompatibilityLevel,
  policy: Policy,
): string {
  const shown = verdicts.filter(
    (verdict) => verdict.status !== 'compatible' || verdict.incompatibilities.length > 0,
  );
  const incompatible = verdicts.filter((verdict) => verdict.status === 'incompatible').length;
  const lines = [
    '',
    `Schema registry verdict (Confluent ${level}, JSON Schema policy ${policy}): ${
      incompatible === 0
        ? 'a registry would accept every changed event'
        : `${incompatible} event(s) a registry would refuse`
    }.`,
  ];
  for (const verdict of shown) {
    const status =
      verdict.status === 'new'
        ? 'new subject (nothing to be compatible with)'
        : verdict.status === 'removed'
          ? 'removed (no new version to check)'
          : verdict.status;
    lines.push(`  ${verdict.event}: ${status}`);
    for (const incompatibility of verdict.incompatibilities)
      lines.push(`    - ${describeIncompatibility(incompatibility)}`);
  }
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
    events: verdicts
      .filter((verdict) => verdict.status !== 'compatible' || verdict.incompatibilities.length > 0)
      .map((verdict) => ({
        event: verdict.event,
        status: verdict.status,
        messages: verdict.incompatibilities.map((incompatibility) =>
          describeIncompatibility(incompatibility),
        ),
        rules: verdict.incompatibilities.map((incompatibility) => ({
          direction: incompatibility.direction,
          rule: incompatibility.finding.rule,
          attr: incompatibility.finding.attr,
          breaks: incompatibility.finding.breaks,
          difference: incompatibility.difference,
        })),
      })),
  };
}

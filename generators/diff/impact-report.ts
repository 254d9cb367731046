import type { ConsumerImpact, ImpactCause, ImpactReport } from './impact.js';

// The consumer-aware part of every report format: who a change breaks, which field, what to do, whom to ask.

function where(cause: ImpactCause): string {
  return cause.finding.attr === null ? cause.finding.event : `${cause.finding.event} ${cause.finding.attr}`;
}

/** One cause as a line: rule, where, the field read, the detail. */
export function causeText(cause: ImpactCause): string {
  const field = cause.field
    ? ` (reads \`${cause.field}\`)`
    : cause.rejected
      ? ' (a strict reader rejects what it does not know)'
      : '';
  return `${cause.finding.rule} at ${where(cause)}${field}: ${cause.finding.detail}`;
}

/** `team [services], reader` */
export function teamLabel(impact: ConsumerImpact): string {
  const services = impact.services.length > 0 ? ` [${impact.services.join(', ')}]` : '';
  return `${impact.team}${services}, ${impact.reader} reader`;
}

/** Plain text, as `eventry diff` and `eventry check` print it. */
export function formatImpactText(report: ImpactReport): string {
  const lines: string[] = [];
  const shown = report.impacts.filter((impact) => impact.status !== 'unaffected');
  const unaffected = report.impacts.filter((impact) => impact.status === 'unaffected');
  const any = report.impacts.length + report.unread.length + report.deprecated.length > 0;
  if (any) lines.push('Consumers:');
  for (const impact of shown) {
    lines.push(`  ${impact.status} ${impact.event}: ${teamLabel(impact)}`);
    for (const cause of impact.causes) lines.push(`    ${causeText(cause)}`);
    if (impact.fix) lines.push(`    fix: ${impact.fix}`);
    if (impact.reviewers.length > 0) lines.push(`    ask: ${impact.reviewers.join(', ')}`);
  }
  for (const impact of unaffected) lines.push(`  unaffected ${impact.event}: ${teamLabel(impact)}`);
  for (const finding of report.unread)
    lines.push(
      `  unread ${finding.event}${finding.attr === null ? '' : ` ${finding.attr}`}: ${finding.rule}: no declared consumer reads it.`,
    );
  for (const deprecated of report.deprecated)
    lines.push(
      `  deprecated ${deprecated.event} is still read by ${deprecated.teams.join(', ')}${deprecated.replacedBy ? `; move them to ${deprecated.replacedBy}` : ''}.`,
    );
  if (report.reviewers.length > 0) lines.push(`Reviewers: ${report.reviewers.join(', ')}`);
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

/** Text for a markdown table cell: HTML and pipes escaped, on one line. */
export const mdEscape = (text: string): string =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('|', '\\|')
    .replaceAll('\n', ' ');

/** A markdown section (a table per status), for pull request comments. */
export function formatImpactMarkdown(report: ImpactReport): string {
  if (report.impacts.length === 0 && report.unread.length === 0 && report.deprecated.length === 0) return '';
  const out = ['## Consumers', ''];
  if (report.impacts.length > 0) {
    out.push(
      '| status | team | event version | field | change | fix | ask |',
      '|---|---|---|---|---|---|---|',
    );
    for (const impact of report.impacts) {
      const causes = impact.causes.length > 0 ? impact.causes : [undefined];
      for (const cause of causes) {
        out.push(
          `| ${impact.status} | ${mdEscape(teamLabel(impact))} | \`${impact.event}\` | ${cause?.field ? `\`${mdEscape(cause.field)}\`` : ''} | ${cause ? mdEscape(`${cause.finding.rule}: ${cause.finding.detail}`) : ''} | ${mdEscape(impact.fix)} | ${impact.reviewers.join(', ')} |`,
        );
      }
    }
    out.push('');
  }
  for (const finding of report.unread)
    out.push(
      `- unread: \`${finding.event}\`${finding.attr === null ? '' : ` \`${finding.attr}\``} (${finding.rule}): no declared consumer reads it.`,
    );
  for (const deprecated of report.deprecated)
    out.push(`- deprecated \`${deprecated.event}\` is still read by ${deprecated.teams.join(', ')}.`);
  if (report.reviewers.length > 0) out.push('', `Reviewers: ${report.reviewers.join(', ')}`);
  return `${out.join('\n')}\n`;
}

/** The JSON form: every impact with its causes by rule, field and location. */
export function impactJson(report: ImpactReport): object {
  return {
    impacts: report.impacts.map((impact) => ({
      status: impact.status,
      team: impact.team,
      teamName: impact.teamName,
      event: impact.event,
      reader: impact.reader,
      services: impact.services,
      causes: impact.causes.map((cause) => ({
        rule: cause.finding.rule,
        attr: cause.finding.attr,
        ...(cause.field ? { field: cause.field } : {}),
        detail: cause.finding.detail,
        ...(cause.acceptance ? { accepted: cause.acceptance.reason } : {}),
        ...(cause.rejected ? { rejectedByStrictReader: true } : {}),
      })),
      fix: impact.fix,
      reviewers: impact.reviewers,
      declaration: impact.declaration,
    })),
    unread: report.unread.map((finding) => ({
      event: finding.event,
      attr: finding.attr,
      rule: finding.rule,
    })),
    deprecated: report.deprecated,
    reviewers: report.reviewers,
  };
}

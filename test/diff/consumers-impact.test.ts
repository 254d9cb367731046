import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkDeclarationsAcross, computeImpact, type ImpactStatus } from '../../generators/diff/impact.js';
import { compareCatalogues } from '../../generators/diff/index.js';
import { formatGithub } from '../../generators/diff/report/github.js';
import { formatJson } from '../../generators/diff/report/json.js';
import { formatMarkdown } from '../../generators/diff/report/markdown.js';
import { buildReport } from '../../generators/diff/report/report.js';
import { formatText } from '../../generators/diff/report/text.js';
import { loadCatalogue } from '../../generators/load/index.js';
import type { Catalogue } from '../../generators/model.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/consumers/', import.meta.url));

/** Both sides of a case, loaded as `eventry check` loads them (declarations checked across both). */
function sides(name: string): { before: Catalogue; after: Catalogue } {
  const load = (side: string) => {
    const result = loadCatalogue(`${FIXTURES}${name}/${side}`, undefined, { ownership: 'defer' });
    if (!result.ok) throw new Error(`${name}/${side}: ${JSON.stringify(result.problems)}`);
    return result.catalogue;
  };
  const before = load('before');
  const after = load('after');
  expect(checkDeclarationsAcross(before, after)).toEqual([]);
  return { before, after };
}

function statuses(name: string): string[] {
  const { before, after } = sides(name);
  const impact = computeImpact(compareCatalogues(before, after), before, after, after.ownership);
  return impact.impacts.map((entry) => `${entry.status} ${entry.team} ${entry.event}`);
}

describe('the consumer-aware gate: one case per status', () => {
  it.each<[string, { want: string[] }]>([
    [
      'field-removed',
      {
        want: [
          'broken ledger invoice.issued-v1',
          'broken ledger invoice.issued-v2',
          'potentially-affected analytics invoice.issued-v1',
          'potentially-affected analytics invoice.issued-v2',
          'unaffected comms invoice.issued-v1',
        ],
      },
    ],
    [
      'accepted',
      {
        want: [
          'potentially-affected analytics invoice.issued-v1',
          'potentially-affected analytics invoice.issued-v2',
          'safe ledger invoice.issued-v1',
          'safe ledger invoice.issued-v2',
          'unaffected comms invoice.issued-v1',
        ],
      },
    ],
    [
      'enum-value-added',
      {
        want: [
          'broken ledger invoice.issued-v1',
          'broken ledger invoice.issued-v2',
          'unaffected analytics invoice.issued-v1',
          'unaffected analytics invoice.issued-v2',
          'unaffected comms invoice.issued-v1',
        ],
      },
    ],
    [
      'strict-reader-field-added',
      {
        // A strict reader rejects the new optional field it never reads; tolerant ones ignore it.
        want: ['broken ledger invoice.issued-v1', 'broken ledger invoice.issued-v2'],
      },
    ],
    ['deprecated-version-removed', { want: ['broken comms invoice.voided-v1'] }],
    ['unread-change', { want: [] }],
    [
      'data-rule-removed',
      {
        // The rule named `lines[].amount`: who reads it relied on it, who reads other fields did not.
        want: [
          'broken ledger invoice.issued-v1',
          'broken ledger invoice.issued-v2',
          'potentially-affected analytics invoice.issued-v1',
          'potentially-affected analytics invoice.issued-v2',
          'unaffected comms invoice.issued-v1',
        ],
      },
    ],
    [
      'data-rule-reads',
      {
        // The rule names no field (`attr` left out) and reads `status` and `lines[].amount`: who reads
        // one of them relied on it; comms reads only `account_number` and did not.
        want: [
          'broken ledger invoice.issued-v1',
          'potentially-affected analytics invoice.issued-v1',
          'unaffected comms invoice.issued-v1',
        ],
      },
    ],
  ])('%s', (name, { want }) => {
    expect(statuses(name)).toEqual(want);
  });

  it('a data rule added breaks producers only: no reader is affected, and it is not an unread consumer break', () => {
    const { before, after } = sides('data-rule-added');
    const findings = compareCatalogues(before, after);
    expect(findings.map((finding) => `${finding.rule} ${finding.breaks} ${finding.attr}`)).toEqual([
      'data-rule-added producers lines[].amount',
      'data-rule-added producers lines[].amount',
    ]);
    const impact = computeImpact(findings, before, after, after.ownership);
    expect(impact.impacts.filter((entry) => entry.status !== 'unaffected')).toEqual([]);
    expect(impact.unread).toEqual([]);
  });

  it('a breaking change no declared consumer reads is reported as unread', () => {
    const { before, after } = sides('unread-change');
    const impact = computeImpact(compareCatalogues(before, after), before, after, after.ownership);
    expect(impact.unread.map((finding) => `${finding.event} ${finding.attr} ${finding.rule}`)).toEqual([
      'invoice.voided-v2 reason field-removed',
    ]);
  });

  it('deprecation readiness: a deprecated version names the teams that still read it', () => {
    const { before, after } = sides('field-removed');
    const impact = computeImpact(compareCatalogues(before, after), before, after, after.ownership);
    expect(impact.deprecated).toEqual([
      { event: 'invoice.voided-v1', replacedBy: 'invoice.voided-v2', teams: ['comms'] },
    ]);
  });

  it('a field the change removes is checked against the base too, not reported as unknown', () => {
    const result = loadCatalogue(`${FIXTURES}field-removed/after`);
    expect(result.ok ? [] : result.problems.map((problem) => problem.code)).toEqual(['unknown-field']);
  });
});

describe('every report format names team, event version, field, fix and reviewers', () => {
  const { before, after } = sides('field-removed');
  const report = buildReport({ label: 'before', catalogue: before }, { label: 'after', catalogue: after });
  const wanted = [
    'ledger',
    'invoice.issued-v1',
    'lines[].amount',
    'make the change in a new version',
    '@acme/ledger',
    '@acme/billing',
  ];

  it.each([
    ['text', formatText],
    ['markdown', formatMarkdown],
    ['github', formatGithub],
    ['json', formatJson],
  ] as const)('%s', (_, format) => {
    const output = format(report);
    for (const text of wanted) expect(output).toContain(text);
  });

  it('json: each impact with its status, cause and declaration', () => {
    const json = JSON.parse(formatJson(report)) as {
      consumers: {
        impacts: {
          status: ImpactStatus;
          team: string;
          event: string;
          causes: { field?: string; rule: string }[];
        }[];
      };
    };
    const ledger = json.consumers.impacts.find(
      (entry) => entry.team === 'ledger' && entry.event === 'invoice.issued-v1',
    );
    expect(ledger?.status).toBe('broken');
    expect(ledger?.causes).toEqual([
      expect.objectContaining({ field: 'lines[].amount', rule: 'field-removed' }),
    ]);
  });

  it('github: an error annotation at the broken team declaration', () => {
    expect(formatGithub(report)).toMatch(
      /^::error file=consumers\/ledger\.yaml,line=\d+,col=\d+,title=consumer-broken::/m,
    );
  });
});

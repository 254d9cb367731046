import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatGithub } from '../../../../generators/diff/report/github.js';
import { formatJson } from '../../../../generators/diff/report/json.js';
import { formatMarkdown } from '../../../../generators/diff/report/markdown.js';
import { buildReport, type DiffReport } from '../../../../generators/diff/report/report.js';
import { formatText } from '../../../../generators/diff/report/text.js';
import { loadValid, REPO } from '../../../helpers.js';

const FIXTURE = join(REPO, 'test', 'fixtures', 'diff-report');
const GOLDEN = join(FIXTURE, 'expected');

/** The report fixture: three group packages moving major, patch and new. */
function fixtureReport(): DiffReport {
  return buildReport(
    {
      label: 'main (1a2b3c4)',
      catalogue: loadValid(join(FIXTURE, 'before')),
      packageVersions: { orders: '1.4.2', payments: '1.0.3' },
    },
    { label: 'catalogue', catalogue: loadValid(join(FIXTURE, 'after')), root: 'catalogue' },
  );
}

describe('the four report formats on the report fixture (golden files; `npm run test:update` rewrites them)', () => {
  const report = fixtureReport();
  it.each([
    ['text', formatText, 'report.txt'],
    ['markdown', formatMarkdown, 'report.md'],
    ['json', formatJson, 'report.json'],
    ['github', formatGithub, 'report.github.txt'],
  ] as const)('%s', async (_name, format, file) => {
    await expect(format(report)).toMatchFileSnapshot(join(GOLDEN, file));
  });
});

describe('what each format must get right', () => {
  const report = fixtureReport();

  it('json: the documented keys, in order, and a bump per package from the recorded versions', () => {
    const json = JSON.parse(formatJson(report));
    expect(Object.keys(json)).toEqual(['changes', 'packages']);
    expect(Object.keys(json.changes[0])).toEqual(['event', 'attr', 'rule', 'severity', 'breaks', 'detail']);
    expect(json.packages).toEqual([
      { name: '@shop-events/orders', from: '1.4.2', to: '2.0.0', bump: 'major' },
      { name: '@shop-events/payments', from: '1.0.3', to: '1.0.4', bump: 'patch' },
      { name: '@shop-events/returns', from: null, to: '1.0.0', bump: 'minor' },
    ]);
  });

  it('markdown: a summary row per changed group, with user text that cannot break the table', () => {
    const markdown = formatMarkdown(report);
    expect(markdown).toContain('## Event catalogue: 2 breaking changes');
    expect(markdown).toContain(
      '| Payments \\| captures and refunds | `@shop-events/payments` | 1.0.3 → 1.0.4 | patch | 0 | 0 | 1 |',
    );
    expect(markdown).toContain('- 🔴 **Breaking** for consumers: Field `status` now also allows `refunded`');
    expect(markdown).toMatch(/<sub>`field-removed`: A field was removed/);
  });

  it('github: errors for breaking changes at the file and line of the new catalogue, escaped', () => {
    const lines = formatGithub(report).trimEnd().split('\n');
    expect(lines).toHaveLength(report.findings.length);
    expect(lines).toContain(
      '::error file=catalogue/orders.yaml,line=11,col=3,title=breaking field-removed%3A order.placed-v1::Field `note` (`string`, optional) was removed. Breaks producers and consumers.',
    );
    expect(lines.filter((line) => line.startsWith('::error'))).toHaveLength(2);
  });

  it('text and markdown say so when nothing changed', () => {
    const same = loadValid(join(FIXTURE, 'after'));
    const empty = buildReport({ label: 'a', catalogue: same }, { label: 'b', catalogue: same });
    expect(formatText(empty)).toBe('Comparing a → b (catalogue 1.4.0 → 1.4.0)\n\nNo changes.\n');
    expect(formatMarkdown(empty)).toContain('## Event catalogue: no changes');
    expect(formatGithub(empty)).toBe('');
    expect(JSON.parse(formatJson(empty)).changes).toEqual([]);
  });
});

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatGithub } from '../../../generators/diff/report/github.js';
import { formatJson } from '../../../generators/diff/report/json.js';
import { formatMarkdown } from '../../../generators/diff/report/markdown.js';
import { buildReport, type DiffReport } from '../../../generators/diff/report/report.js';
import { formatText } from '../../../generators/diff/report/text.js';
import { loadCatalogueFromSources, readCatalogueSources } from '../../../generators/load/index.js';
import { loadValid, REPO } from '../../helpers.js';

const FIXTURE = join(REPO, 'test', 'fixtures', 'diff-report');
const GOLDEN = join(FIXTURE, 'expected');

/** The report fixture: three group packages moving major, patch and new. */
function fixtureReport(): DiffReport {
  return buildReport(
    {
      label: 'main (1a2b3c4)',
      catalogue: loadValid(join(FIXTURE, 'before')),
      packageVersions: { orders: '1.4.2', payments: '1.0.3' },
      root: 'catalogue',
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
    expect(Object.keys(json)).toEqual(['compared', 'summary', 'changes', 'packages']);
    expect(Object.keys(json.changes[0])).toEqual([
      'group',
      'package',
      'event',
      'attr',
      'shape',
      'rule',
      'severity',
      'breaks',
      'detail',
      'fix',
      'location',
      'oldLocation',
    ]);
    expect(json.packages).toEqual([
      { name: '@shop-events/orders', from: '1.4.2', to: '2.0.0', bump: 'major' },
      { name: '@shop-events/payments', from: '1.0.3', to: '2.0.0', bump: 'major' },
      { name: '@shop-events/returns', from: null, to: '1.0.0', bump: 'minor' },
    ]);
  });

  it('json: each change carries its group, package, shape and both source locations', () => {
    const shaped = buildReport(
      { label: 'main', catalogue: loadValid(join(FIXTURE, 'before')), root: 'catalogue' },
      { label: 'catalogue', catalogue: loadValid(join(FIXTURE, 'after')), root: 'catalogue' },
    );
    const changes = JSON.parse(formatJson(shaped)).changes as Record<string, unknown>[];
    expect(changes.find((change) => change.event === 'payment.captured-v1' && change.shape)).toEqual({
      group: 'payments',
      package: '@shop-events/payments',
      event: 'payment.captured-v1',
      attr: 'amount.currency',
      shape: 'Money',
      rule: 'enum-added',
      severity: 'breaking',
      breaks: 'producers',
      detail: 'Field `amount.currency` via shape `Money` is now restricted to `EUR`, `GBP`.',
      fix: 'An existing event version only grows by adding optional fields: add `payment.captured-v2` instead (and deprecate `payment.captured-v1`), or, if the break is intended and agreed, list it in `allow-breaking.yaml` (event, rule, reason).',
      location: { file: 'catalogue/orders.yaml', line: 9, column: 7 },
      oldLocation: { file: 'catalogue/orders.yaml', line: 9, column: 7 },
    });
    const removed = buildReport(
      { label: 'a', catalogue: loadValid(join(FIXTURE, 'after')), root: 'old' },
      { label: 'b', catalogue: loadValid(join(FIXTURE, 'before')), root: 'new' },
    );
    const gone = JSON.parse(formatJson(removed)).changes.find(
      (change: { event: string }) => change.event === 'return.requested-v1',
    );
    expect(gone).toMatchObject({
      group: 'returns',
      package: '@shop-events/returns',
      rule: 'event-removed-without-deprecation',
      location: null,
      oldLocation: { file: 'old/returns.yaml', line: 6, column: 3 },
    });
  });

  it('markdown: a summary row per changed group, with user text that cannot break the table', () => {
    const markdown = formatMarkdown(report);
    expect(markdown).toContain('## Event catalogue: 5 breaking changes');
    expect(markdown).toContain(
      '| Payments \\| captures and refunds | `@shop-events/payments` | 1.0.3 → 2.0.0 | **major** | 1 | 0 | 1 |',
    );
    expect(markdown).toContain('- 🔴 **Breaking** for consumers: Field `status` now also allows `refunded`');
    expect(markdown).toMatch(/<sub>`field-renamed`: A field was removed and one of the same type added/);
  });

  it('github: errors for breaking changes at the file and line of the new catalogue, escaped', () => {
    const lines = formatGithub(report).trimEnd().split('\n');
    // The shape change reaches three events and is annotated once, on the shape's line.
    expect(lines).toHaveLength(report.findings.length - 2);
    expect(lines).toContain(
      '::error file=catalogue/orders.yaml,line=18,col=7,title=breaking field-renamed%3A order.placed-v1::Field `note` (`string`, optional) was removed and `coupon` (`string`, optional) added: likely a rename. Breaks producers and consumers.%0AAn existing event version only grows by adding optional fields: make the change in `order.placed-v2` instead (and deprecate `order.placed-v1`), or, if the break is intended and agreed, list it in `allow-breaking.yaml` (event, rule, reason).',
    );
    expect(lines.filter((line) => line.startsWith('::error'))).toHaveLength(3);
  });

  it('text and markdown list a shape change once per package, with the events it reaches and the path in each', () => {
    const text = formatText(report);
    expect(text.match(/\[enum-added\]/g)).toHaveLength(2);
    expect(text).toContain(
      '  via shape Money\n    ✖ breaking [enum-added] Field `currency` is now restricted to `EUR`, `GBP`. Breaks producers.\n      reaches `order.placed-v1` (`total.currency`), `order.shipped-v1` (`charged.currency`)\n',
    );
    expect(formatMarkdown(report)).toContain(
      '<sub>Reaches `order.placed-v1` (`total.currency`), `order.shipped-v1` (`charged.currency`).</sub>',
    );
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

describe('the fix for a change in a shared shape', () => {
  it('names each next version once, though two versions of an event reach the shape', () => {
    const files = readCatalogueSources(join(REPO, 'catalogue')).map((file) =>
      file.path === 'shapes.yaml'
        ? {
            ...file,
            text: file.text.replace(
              '      number: {type: string, required: true}\n      id: {type: string}\n',
              '      number: {type: string, required: true}\n',
            ),
          }
        : file,
    );
    const after = loadCatalogueFromSources(files);
    if (!after.ok) throw new Error('the edited seed should load');
    const report = buildReport(
      { label: 'main', catalogue: loadValid(join(REPO, 'catalogue')), root: 'catalogue' },
      { label: 'catalogue', catalogue: after.catalogue, root: 'catalogue' },
    );
    const fix = [...report.shapeFixes.values()].find((text) => text.startsWith('Shape `Ledger`'));
    // billing.ledger.entry_posted-v1 and -v2 both have the shape: their next version is -v3, once.
    expect(fix).toContain('`billing.ledger.entry_posted-v3`');
    const named = [...(fix ?? '').matchAll(/`([a-z_.-]+-v\d+)`/g)].map((match) => match[1]);
    expect(named.length).toBeGreaterThan(1);
    expect(new Set(named).size).toBe(named.length);
  });
});

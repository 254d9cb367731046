import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateSite } from '../../generators/docs/site.js';
import type { ErrorBody } from '../../generators/runtime/runtime.js';
import { type BuiltPackages, buildPackages } from '../emit/package/build-packages.js';
import { fixturePath, tempDir } from '../helpers.js';

/** The site of the rules fixture catalogue, written to a temporary folder as `eventry docs` writes it. */
let site: string;
let built: BuiltPackages;
const page = (key: string) => readFileSync(join(site, 'events', key, 'index.html'), 'utf8');

beforeAll(async () => {
  built = await buildPackages(fixturePath('rules'));
  site = tempDir('eventry-rules-site-');
  const result = await generateSite(
    { catalogue: built.catalogue, packagesDir: built.out },
    (path, content) => {
      const file = join(site, path);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(
        file,
        typeof content === 'object' && 'copyOf' in content ? readFileSync(content.copyOf) : content,
      );
    },
  );
  expect(result.ok).toBe(true);
}, 120_000);

/** The rows of the page's rules table: name, expression, message and field, as a reader sees them. */
function ruleRows(html: string): string[][] {
  const table = /<table class="rules" data-rules>([\s\S]*?)<\/table>/.exec(html)?.[1] ?? '';
  return [...table.matchAll(/<tr data-rule="([^"]+)"[^>]*>([\s\S]*?)<\/tr>/g)].map(([, name, row]) => {
    const cells = [...row!.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map(([, cell]) =>
      cell!
        .replace(/<br>/g, ' ')
        .replace(/<[^>]+>/g, '')
        .replaceAll('&amp;', '&')
        .replaceAll('&gt;', '>')
        .replaceAll('&lt;', '<')
        .replaceAll('&#x27;', "'")
        .replaceAll('&quot;', '"')
        .replaceAll('&#x3D;', '=')
        .replace(/\s+/g, ' ')
        .trim(),
    );
    return [name!, ...cells];
  });
}

describe('the event page shows the data rules', () => {
  it("lists the event's own rules and its shapes' rules at each place, with expression, message and field", () => {
    const rows = ruleRows(page('order.placed-v1'));
    expect(rows.map((row) => row[0])).toEqual([
      'amount_positive',
      'lines_present',
      'ships_after_placed',
      'priced_lines_need_amount',
      'qty_positive',
      'discount_below_price',
    ]);
    expect(rows[0]).toEqual([
      'amount_positive',
      'amount_positive',
      'message.amount > 0',
      'The amount must be positive.',
      'amount',
    ]);
    expect(rows[4]).toEqual([
      'qty_positive',
      'qty_positive from shape Line at lines[]',
      'this.qty > 0',
      'A line needs at least one item.',
      'lines[].qty',
    ]);
    expect(page('order.placed-v1')).toContain('<a href="#rules">rules</a>');
  });

  it("shows a shape's rules on the shape's page, over `this`", () => {
    const html = readFileSync(join(site, 'shapes', 'Line', 'index.html'), 'utf8');
    expect(ruleRows(html)).toEqual([
      ['qty_positive', 'qty_positive', 'this.qty > 0', 'A line needs at least one item.', 'qty'],
      [
        'discount_below_price',
        'discount_below_price',
        '!has(this.discount) || this.discount <= this.price',
        'A discount cannot exceed the price.',
        'discount',
      ],
    ]);
    expect(readFileSync(join(site, 'shapes', 'Party', 'index.html'), 'utf8')).not.toContain('data-rules');
  });

  it('has no rules section on an event without rules', () => {
    expect(page('order.cancelled-v1')).not.toContain('id="rules"');
    expect(page('order.cancelled-v1')).not.toContain('href="#rules"');
  });

  it("lists them in the page's Markdown too", () => {
    const markdown = readFileSync(join(site, 'events', 'refund.issued-v1', 'index.md'), 'utf8');
    expect(markdown).toContain('## Rules');
    expect(markdown).toContain(
      "- `reason_is_short`: `size(message.reason) <= 20 && !message.reason.matches('(?i)^test')`: A refund reason is at most 20 characters and not a test. Field: `reason`.",
    );
  });
});

describe("the playground's validator enforces the rules", () => {
  it('answers rule_violated for a payload that breaks a rule, in both modes', async () => {
    const html = page('order.placed-v1');
    const module = /data-module="([^"]+)"/.exec(html)?.[1];
    expect(module).toBeDefined();
    const url = new URL(module!, pathToFileURL(join(site, 'events', 'order.placed-v1', 'index.html')));
    const { validate } = (await import(url.href)) as {
      validate(payload: unknown, options?: { mode?: string }): { valid: boolean; error?: ErrorBody };
    };
    const payload = {
      order_id: 'o-1',
      amount: -1,
      currency: 'EUR',
      placed_at: '2024-01-31T10:00:00Z',
      buyer: { name: 'Ada' },
      lines: [{ sku: 'A-1', qty: 0, price: 5 }],
    };
    for (const mode of ['strict', 'tolerant']) {
      const result = validate(payload, { mode });
      expect(result.valid).toBe(false);
      expect(result.error!.errors).toContainEqual({
        detail: 'The amount must be positive.',
        code: 'rule_violated',
        attr: 'amount',
      });
      expect(result.error!.errors).toContainEqual({
        detail: 'A line needs at least one item.',
        code: 'rule_violated',
        attr: 'lines.0.qty',
      });
    }
    expect(validate({ ...payload, amount: 12, lines: [{ sku: 'A-1', qty: 2, price: 5 }] })).toEqual({
      valid: true,
    });
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalogueFromSources } from '../../generators/load/index.js';
import { REPO } from '../helpers.js';

const BEFORE = join(REPO, 'test', 'fixtures', 'diff', 'field-removed', 'before');
const CONFIG = readFileSync(join(BEFORE, 'eventry.config.yaml'), 'utf8');
const ORDERS = readFileSync(join(BEFORE, 'orders.yaml'), 'utf8');

/** The problems of the fixture catalogue with `orders.yaml` edited, as `line:column code message`. */
function problemsWith(orders: string): string[] {
  const result = loadCatalogueFromSources([
    { path: 'eventry.config.yaml', text: CONFIG },
    { path: 'orders.yaml', text: orders },
  ]);
  expect(result.ok).toBe(false);
  return result.ok
    ? []
    : result.problems.map((p) => `${p.file}:${p.line}:${p.column} ${p.code} ${p.message}`);
}

describe('one mis-indented key gives one error (regression: every key below it was reported)', () => {
  it('the first key of a mapping indented one space short: one error, at that key', () => {
    const line = ORDERS.split('\n').findIndex((text) => text.startsWith('      order_id:')) + 1;
    const problems = problemsWith(ORDERS.replace('      order_id:', '     order_id:'));
    expect(problems).toEqual([
      `orders.yaml:${line}:6 yaml-syntax This key is not aligned with the keys below it, the other keys of its mapping.`,
    ]);
  });

  it('a later key indented one space short: one error, at that key', () => {
    const line = ORDERS.split('\n').findIndex((text) => text.startsWith('      status:')) + 1;
    const problems = problemsWith(ORDERS.replace('      status:', '       status:'));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^orders\\.yaml:${line}:`));
  });

  it('a key of an event one space short: one error, not two messages at one place', () => {
    const problems = problemsWith(
      ORDERS.replace('    description: An order was placed.', '   description: An order was placed.'),
    );
    expect(problems).toHaveLength(1);
  });
});

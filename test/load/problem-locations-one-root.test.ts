import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatProblem, loadCatalogueFromSources } from '../../generators/load/index.js';
import { REPO } from '../helpers.js';

const BEFORE = join(REPO, 'test', 'fixtures', 'diff', 'field-removed', 'before');
const CONFIG = readFileSync(join(BEFORE, 'eventry.config.yaml'), 'utf8');
const ORDERS = readFileSync(join(BEFORE, 'orders.yaml'), 'utf8');

/** The printed problems of a catalogue in the folder `catalogue/`, as `eventry build` prints them. */
function printed(files: Record<string, string>): string[] {
  const result = loadCatalogueFromSources([
    { path: 'eventry.config.yaml', text: CONFIG },
    ...Object.entries(files).map(([path, text]) => ({ path, text })),
  ]);
  return result.ok ? [] : result.problems.map((problem) => formatProblem(problem, 'catalogue'));
}

describe('every location in a message is relative to the same root (regression: the other place lacked `catalogue/`)', () => {
  it('a group declared twice names both files from the catalogue folder', () => {
    const lines = printed({ 'groups/a.yaml': ORDERS, 'groups/b.yaml': ORDERS });
    const group = lines.find((line) => line.includes('error duplicate-group'));
    expect(group).toMatch(
      /^catalogue\/groups\/b\.yaml:3:9: error duplicate-group: Group `orders` is also declared in catalogue\/groups\/a\.yaml:3:3\./,
    );
  });

  it('an event defined twice names the first definition from the catalogue folder', () => {
    const other = ORDERS.replace('slug: orders', 'slug: orders-two').replace(/^shapes:\n(?: {2,}.*\n)*/m, '');
    const lines = printed({ 'groups/a.yaml': ORDERS, 'groups/b.yaml': other });
    const event = lines.find((line) => line.includes('error duplicate-event'));
    expect(event).toMatch(
      /^catalogue\/groups\/b\.yaml:\d+:\d+: error duplicate-event: .* the first definition is at catalogue\/groups\/a\.yaml:\d+:\d+\./,
    );
  });
});

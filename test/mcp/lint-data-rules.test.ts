import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { probeRuleData } from '../../generators/emit/package/rule-probe.js';
import { CatalogueView } from '../../generators/mcp/catalogue-view.js';
import { loadValid, REPO, tempDir } from '../helpers.js';

const BAD = join(REPO, 'test', 'fixtures', 'lint', 'rule-unbreakable', 'bad');

describe("the MCP server's lint of an event version", () => {
  it('carries the data-rule findings, the test data judged with the probe it is given', () => {
    const view = (withProbe: boolean) =>
      new CatalogueView({
        catalogue: loadValid(BAD),
        packagesDir: tempDir('eventry-mcp-lint-'),
        catalogueDir: BAD,
        ...(withProbe ? { ruleData: probeRuleData } : {}),
      });
    const rules = (found: { rule: string; message: string }[]) =>
      found.filter((one) => one.rule === 'rule-unbreakable').map((one) => one.message.split(' of ')[0]);
    expect(rules(view(true).lint('orders.placed-v1'))).toEqual([
      'Rule `note_present_or_not`',
      'Rule `id_is_itself`',
      'Rule `amount_not_negative`',
    ]);
    // Without the probe, only what the expressions say alone.
    expect(rules(view(false).lint('orders.placed-v1'))).toEqual([
      'Rule `note_present_or_not`',
      'Rule `id_is_itself`',
    ]);
  });
});

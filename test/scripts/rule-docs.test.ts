import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIFF_RULES } from '../../generators/diff/rules/index.js';
import { LINT_REGISTRY } from '../../generators/lint/rules/index.js';
import { RULES_DOC, renderRuleDocs } from '../../scripts/rule-docs/table.js';
import { REPO } from '../helpers.js';

/** The rule reference users read is the two registries: a rule added or reworded without regenerating fails here. */
describe('docs/rules.md', () => {
  const committed = readFileSync(join(REPO, RULES_DOC), 'utf8');

  it('is what the registries generate (run npm run gen:rule-docs)', () => {
    expect(renderRuleDocs()).toBe(committed);
  });

  it('has a row for every diff and lint rule, with its hint', () => {
    for (const rule of [...DIFF_RULES.rules, ...LINT_REGISTRY.rules]) {
      const row = committed.split('\n').find((line) => line.startsWith(`| \`${rule.id}\` |`));
      expect(row, rule.id).toBeDefined();
      expect(row).toContain(` ${rule.severity} |`);
      expect(row).toContain(rule.hint.replaceAll('|', '\\|'));
    }
  });

  it('is linked from the README', () => {
    expect(readFileSync(join(REPO, 'README.md'), 'utf8')).toContain('](docs/rules.md)');
  });
});

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIFF_RULES } from '../../generators/diff/rules/index.js';
import { LINT_REGISTRY } from '../../generators/lint/rules/index.js';
import { defineRuleSet, type RuleInfo, ruleSetProblems } from '../../generators/shared/rule-registry.js';
import { REPO } from '../helpers.js';

const SPEC = { name: 'demo', fixtureRoot: 'test/fixtures/demo', sides: ['before', 'after'] } as const;

/** A rule as the kernel sees it, described well enough to pass. */
const rule = (id: string, severity = 'warning'): RuleInfo => ({
  id,
  severity,
  description: `Reports ${id} because it matters to someone.`,
  hint: 'Do the obvious thing about it.',
});

describe('the rule kernel', () => {
  it('registers a well-formed set, in order, by id, with its examples by convention', () => {
    const set = defineRuleSet(
      SPEC,
      [rule('b-rule'), rule('a-rule', 'error')],
      [{ id: 'old-rule', reason: 'Replaced by a-rule, which says more.' }],
    );
    expect(set.rules.map((entry) => entry.id)).toEqual(['b-rule', 'a-rule']);
    expect(set.byId.get('a-rule')?.severity).toBe('error');
    expect(set.retiredRule('old-rule')?.reason).toMatch(/Replaced/);
    expect(set.retiredRule('a-rule')).toBeUndefined();
    expect(set.fixtures('a-rule')).toEqual({
      folder: 'test/fixtures/demo/a-rule',
      sides: { before: 'test/fixtures/demo/a-rule/before', after: 'test/fixtures/demo/a-rule/after' },
    });
  });

  it('refuses a retired id given to a new rule, naming the id and why it was retired', () => {
    const retired = [{ id: 'field-gone', reason: 'Split into field-removed and field-renamed.' }];
    expect(() => defineRuleSet(SPEC, [rule('field-gone')], retired)).toThrow(
      /the demo rules are wrong: rule id `field-gone` was retired: Split into/,
    );
  });

  it.each([
    ['a repeated id', [rule('same'), rule('same')], [], /`same` is used twice/],
    ['an id not in kebab-case', [rule('Not_Kebab')], [], /`Not_Kebab` is not kebab-case/],
    ['a rule without a hint', [{ ...rule('no-hint'), hint: '' }], [], /`no-hint` has no one-line hint/],
    [
      'a description over two lines',
      [{ ...rule('two-lines'), description: 'First line.\nSecond line.' }],
      [],
      /`two-lines` has no one-line description/,
    ],
    [
      'a retired id listed twice',
      [],
      [
        { id: 'x', reason: 'Gone for good.' },
        { id: 'x', reason: 'Gone for good.' },
      ],
      /`x` is listed twice/,
    ],
    ['a retired id without a reason', [], [{ id: 'y', reason: '' }], /`y` does not say why/],
  ])('refuses %s', (_what, rules, retired, message) => {
    expect(ruleSetProblems(rules, retired).join('; ')).toMatch(message);
    expect(() => defineRuleSet(SPEC, rules, retired)).toThrow(message);
  });

  it.each([DIFF_RULES, LINT_REGISTRY].map((set) => [set.name, set] as const))(
    'holds the %s rules: no problem, and every rule has its examples on disk',
    (_name, set) => {
      expect(ruleSetProblems(set.rules, set.retired)).toEqual([]);
      for (const entry of set.rules) {
        for (const side of Object.values<string>(set.fixtures(entry.id).sides))
          expect(existsSync(join(REPO, side, 'eventry.config.yaml')), side).toBe(true);
      }
    },
  );

  it('never lets the diff and the lint sets share an id (one id, one meaning across eventry)', () => {
    const lint = new Set(LINT_REGISTRY.rules.map((entry) => entry.id));
    expect(DIFF_RULES.rules.filter((entry) => lint.has(entry.id)).map((entry) => entry.id)).toEqual([]);
  });
});

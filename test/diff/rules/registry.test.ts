import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALLOWABLE_RULES } from '../../../generators/diff/allow-list.js';
import { isGated } from '../../../generators/diff/gate.js';
import { compareCatalogues } from '../../../generators/diff/index.js';
import type { Finding } from '../../../generators/diff/rule.js';
import { enumAdded } from '../../../generators/diff/rules/enum-added.js';
import {
  classifyChanges,
  DIFF_RULES,
  RETIRED_RULE_IDS,
  RULES,
  RULES_BY_KIND,
  type RulesByKind,
} from '../../../generators/diff/rules/index.js';
import { loadValid, REPO } from '../../helpers.js';

const FIXTURES = join(REPO, 'test', 'fixtures', 'diff');
const RULES_DIR = join(REPO, 'generators', 'diff', 'rules');

/** A finding as the JSON report and `expected.json` write it. */
const asJson = (finding: Finding) => ({
  event: finding.event,
  attr: finding.attr,
  shape: finding.via?.shape ?? null,
  rule: finding.rule,
  severity: finding.severity,
  breaks: finding.breaks,
  detail: finding.detail,
});

/** A side of a rule's fixture pair, as the rule kernel names it. */
const fixture = (id: string, side: 'before' | 'after'): string =>
  join(REPO, DIFF_RULES.fixtures(id).sides[side]);

/** The findings between a rule's fixture pair. */
function fixtureFindings(id: string): Finding[] {
  return compareCatalogues(loadValid(fixture(id, 'before')), loadValid(fixture(id, 'after')));
}

describe('the rule registry', () => {
  it.each(RULES.map((rule) => [rule.id, rule] as const))('%s is fully described', (id, rule) => {
    expect(id).toMatch(/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/);
    expect(['breaking', 'non-breaking', 'docs']).toContain(rule.severity);
    expect(['producers', 'consumers', 'both', 'none']).toContain(rule.breaks);
    // Only a breaking change breaks anyone; a non-breaking one that names a victim is mislabelled.
    expect(rule.breaks === 'none').toBe(rule.severity !== 'breaking');
    expect(rule.description).toMatch(/^[A-Z].{20,}\.$/);
    expect(rule.description).not.toContain('\n');
    expect(rule.hint).toMatch(/^[A-Z].{10,}\.$/);
    expect(existsSync(join(RULES_DIR, `${id}.ts`)), `generators/diff/rules/${id}.ts`).toBe(true);
    for (const side of ['before', 'after'] as const) {
      expect(existsSync(join(fixture(id, side), 'eventry.config.yaml')), `${id}/${side}`).toBe(true);
    }
  });

  it('has unique ids, one source file per rule and no file without a rule', () => {
    const ids = RULES.map((rule) => rule.id);
    expect(new Set(ids).size).toBe(ids.length);
    const files = readdirSync(RULES_DIR)
      .filter((name) => name !== 'index.ts')
      .map((name) => name.replace(/\.ts$/, ''));
    expect(files.sort()).toEqual([...ids].sort());
  });

  it('has a fixture pair for every rule and no fixture without a rule', () => {
    expect(readdirSync(FIXTURES).sort()).toEqual(RULES.map((rule) => rule.id).sort());
  });

  it('lets the allow-list name exactly the rules the version gate blocks', () => {
    const gated = RULES.filter((rule) => isGated({ severity: rule.severity, rule: rule.id } as Finding));
    expect([...ALLOWABLE_RULES].sort()).toEqual(gated.map((rule) => rule.id).sort());
  });
});

describe('the registry by change kind', () => {
  it('lists every rule once, under one kind, in report order', () => {
    expect(Object.values(RULES_BY_KIND).flat()).toEqual([...RULES]);
    for (const rules of Object.values(RULES_BY_KIND)) expect(rules.length).toBeGreaterThan(0);
  });

  it('fails the type check when a kind of change has no rule, or a rule sits under a kind it cannot read', () => {
    const { 'enum-changed': _enumRules, ...withoutEnum } = RULES_BY_KIND;
    // @ts-expect-error `enum-changed` has no rule: the registry's type demands one for every kind.
    const missing: RulesByKind = withoutEnum;
    // @ts-expect-error an enum rule cannot classify an added field.
    const misfiled: RulesByKind = { ...RULES_BY_KIND, 'field-added': [enumAdded] };
    expect(Object.keys(missing)).not.toContain('enum-changed');
    expect(misfiled['field-added']).toEqual([enumAdded]);
  });

  it('never reuses a retired rule id, and says why each was retired', () => {
    const live = new Set(RULES.map((rule) => rule.id));
    for (const retired of RETIRED_RULE_IDS) {
      expect(live.has(retired.id), `${retired.id} is retired`).toBe(false);
      expect(retired.id).toMatch(/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/);
      expect(retired.reason).toMatch(/^[A-Z].{10,}\.$/);
    }
    expect(new Set(RETIRED_RULE_IDS.map((retired) => retired.id)).size).toBe(RETIRED_RULE_IDS.length);
    expect(ALLOWABLE_RULES.filter((id) => RETIRED_RULE_IDS.some((retired) => retired.id === id))).toEqual([]);
  });
});

describe.each(RULES.map((rule) => [rule.id]))('rule %s on its fixture pair', (id) => {
  const findings = fixtureFindings(id);

  it('reports exactly the expected findings', () => {
    const expected = JSON.parse(
      readFileSync(join(REPO, DIFF_RULES.fixtures(id).folder, 'expected.json'), 'utf8'),
    );
    expect(findings.map(asJson)).toEqual(expected);
  });

  it('is among them, with a message', () => {
    const own = findings.filter((finding) => finding.rule === id);
    expect(own.length).toBeGreaterThan(0);
    for (const finding of own) expect(finding.detail).toMatch(/\S.*\.$/);
  });

  it('reports nothing when the pair is compared with itself', () => {
    const after = loadValid(fixture(id, 'after'));
    expect(compareCatalogues(after, after)).toEqual([]);
  });
});

describe('classifyChanges', () => {
  it('refuses a change no rule classifies: a new kind of change needs a rule', () => {
    const change = { kind: 'not-a-kind', event: 'a-v1', group: 'g', attr: null } as never;
    expect(() => classifyChanges([change])).toThrow(/no diff rule classifies a not-a-kind change/);
  });
});

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAllowList } from '../../generators/diff/allow-list.js';
import { evaluateGate, isGated } from '../../generators/diff/gate.js';
import { compareCatalogues } from '../../generators/diff/index.js';
import { loadValid, REPO } from '../helpers.js';

const MODELINE = '# yaml-language-server: $schema=../generators/schema/source/allow-list.schema.json\n';
const read = (text: string) => readAllowList({ path: 'allow-breaking.yaml', text: MODELINE + text });
const where = (list: ReturnType<typeof read>) =>
  list.problems.map((p) => `${p.line}:${p.column} ${p.code}: ${p.message}${p.hint ? ` | ${p.hint}` : ''}`);

describe('readAllowList', () => {
  it('reads entries with their line, the field path optional', () => {
    const list = read(`allow:
  - event: order.placed-v1
    rule: field-removed
    attr: note
    reason: Never sent; agreed with consumers in ADR-12.
  - {event: order.cancelled-v1, rule: event-removed-without-deprecation, reason: Test event.}
`);
    expect(list.problems).toEqual([]);
    expect(list.entries).toEqual([
      {
        event: 'order.placed-v1',
        rule: 'field-removed',
        attr: 'note',
        reason: 'Never sent; agreed with consumers in ADR-12.',
        location: { file: 'allow-breaking.yaml', line: 3, column: 5 },
      },
      {
        event: 'order.cancelled-v1',
        rule: 'event-removed-without-deprecation',
        reason: 'Test event.',
        location: { file: 'allow-breaking.yaml', line: 7, column: 5 },
      },
    ]);
  });

  it('treats a missing or empty file as no entries', () => {
    expect(readAllowList(undefined)).toEqual({ entries: [], problems: [] });
    expect(read('')).toEqual({ entries: [], problems: [] });
  });

  it('locates every problem of the file at once, with what to do', () => {
    const list = read(`allow:
  - event: order.placed-v1
    rule: field-remove
    reason: x
  - event: order.placed-v1
    rule: type-changed
    resaon: typo
  - event: order.placed-v1
    rule: optional-field-added
    reason: not breaking, nothing to allow
`);
    expect(where(list)).toEqual([
      '4:11 invalid-value: `field-remove` is not a breaking rule the version gate blocks. | Did you mean `field-removed`? Allowed: event-removed-without-deprecation, object-closed, required-field-added, field-removed, field-renamed, optional-became-required, required-became-optional, type-changed, format-added, format-changed, format-removed, enum-value-removed, enum-value-added, enum-added, enum-removed, data-rule-added, data-rule-changed, data-rule-removed.',
      '6:5 invalid-value: Missing required key `reason` in the allow-list. | Say why the break is acceptable: the reviewer and the changelog read it.',
      '8:5 unknown-key: Unknown key `resaon` in the allow-list. | Did you mean `reason`? Allowed: event, rule, attr, reason.',
      expect.stringMatching(/^10:11 invalid-value: `optional-field-added` is not a breaking rule/),
    ]);
  });
});

describe('readAllowList and retired rule ids', () => {
  it('an entry naming a retired rule is told it was retired, with the reason, not "not a rule"', () => {
    const retired = [{ id: 'field-dropped', reason: 'Split into field-removed and field-renamed.' }];
    const text = `${MODELINE}allow:\n  - event: order.placed-v1\n    rule: field-dropped\n    reason: Agreed.\n`;
    const list = readAllowList({ path: 'allow-breaking.yaml', text }, retired);
    expect(where(list)).toEqual([
      '4:11 invalid-value: `field-dropped` is a retired rule: Split into field-removed and field-renamed. | No finding carries this rule id any more: remove the entry.',
    ]);
    expect(list.entries).toEqual([]);
  });
});

/** No allow-list entries carried by earlier releases. */
const NONE = { base: [], earlier: [] };

describe('evaluateGate', () => {
  const fixture = (side: string) => loadValid(join(REPO, 'test', 'fixtures', 'diff', 'field-removed', side));
  const before = fixture('before');
  const after = fixture('after');
  const findings = compareCatalogues(before, after);
  const entry = (attr: string | undefined, line = 1) => ({
    event: 'order.placed-v1',
    rule: 'field-removed',
    ...(attr ? { attr } : {}),
    reason: 'agreed',
    location: { file: 'allow-breaking.yaml', line, column: 5 },
  });

  it('blocks breaking changes to an existing version and names the new version to add', () => {
    const outcome = evaluateGate(findings, [], NONE, before, after);
    expect(outcome.blocked.map((b) => b.finding.attr)).toEqual(['lines[].quantity', 'note']);
    expect(outcome.blocked[0]!.fix).toBe(
      'An existing event version only grows by adding optional fields: add `order.placed-v2` instead (and deprecate `order.placed-v1`), or, if the break is intended and agreed, list it in `allow-breaking.yaml` (event, rule, reason).',
    );
  });

  it('lets through exactly what an entry names: one field, or with no attr the whole event', () => {
    const one = evaluateGate(findings, [entry('note')], NONE, before, after);
    expect(one.blocked.map((b) => b.finding.attr)).toEqual(['lines[].quantity']);
    expect(one.allowed.map((a) => a.finding.attr)).toEqual(['note']);
    const all = evaluateGate(findings, [entry(undefined)], NONE, before, after);
    expect(all.blocked).toEqual([]);
    expect(all.allowed).toHaveLength(2);
  });

  it('makes an entry that matches nothing an error, unless the base release carried it (a warning), until a second release did (an error)', () => {
    const stale = entry('nope', 7);
    expect(evaluateGate(findings, [entry(undefined), stale], NONE, before, after).stale).toEqual([stale]);
    const landed = evaluateGate([], [stale], { base: [stale], earlier: [] }, after, after);
    expect(landed.stale).toEqual([]);
    expect(landed.consumed).toEqual([stale]);
    const twice = evaluateGate([], [stale], { base: [stale], earlier: [stale] }, after, after);
    expect(twice.consumed).toEqual([]);
    expect(twice.expired).toEqual([stale]);
  });

  it('never lets an entry the base release carried allow a finding (a new break of the same name)', () => {
    const carried = evaluateGate(
      findings,
      [entry(undefined)],
      { base: [entry(undefined)], earlier: [] },
      before,
      after,
    );
    expect(carried.allowed).toEqual([]);
    expect(carried.blocked).toHaveLength(findings.filter(isGated).length);
    expect(carried.consumed).toHaveLength(1);
  });

  it('lets a deprecated version go: removal after notice is the policy', () => {
    const removed = (side: string) =>
      loadValid(join(REPO, 'test', 'fixtures', 'diff', 'event-removed', side));
    const found = compareCatalogues(removed('before'), removed('after'));
    expect(found.map((f) => f.rule)).toEqual(['event-removed']);
    expect(evaluateGate(found, [], NONE, removed('before'), removed('after')).blocked).toEqual([]);
    const abrupt = (side: string) =>
      loadValid(join(REPO, 'test', 'fixtures', 'diff', 'event-removed-without-deprecation', side));
    const blocked = evaluateGate(
      compareCatalogues(abrupt('before'), abrupt('after')),
      [],
      NONE,
      abrupt('before'),
      abrupt('after'),
    ).blocked;
    expect(blocked.map((b) => b.finding.rule)).toEqual(['event-removed-without-deprecation']);
    expect(blocked[0]!.fix).toMatch(/^Keep `order.cancelled-v1` and deprecate it first/);
  });
});

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareCatalogues } from '../../generators/diff/index.js';
import type { Finding } from '../../generators/diff/rule.js';
import { applyBump, bumpFor, packageBumps } from '../../generators/diff/semver.js';
import { loadValid, REPO } from '../helpers.js';

const finding = (severity: Finding['severity']): Finding =>
  ({ severity, event: 'e-v1', group: 'g', attr: null, rule: 'r', breaks: 'none', detail: '' }) as Finding;

describe('bumpFor', () => {
  it.each([
    ['nothing', [], 'none'],
    ['docs only', ['docs', 'docs'], 'patch'],
    ['an addition beside docs', ['docs', 'non-breaking'], 'minor'],
    ['any breaking change', ['non-breaking', 'breaking', 'docs'], 'major'],
  ] as const)('%s: %s', (_name, severities, want) => {
    expect(bumpFor(severities.map(finding))).toBe(want);
  });
});

describe('applyBump', () => {
  it.each([
    ['1.4.2', 'major', '2.0.0'],
    ['1.4.2', 'minor', '1.5.0'],
    ['1.4.2', 'patch', '1.4.3'],
    ['1.4.2', 'none', '1.4.2'],
    ['2.0.0-rc.1', 'major', '2.0.0'],
  ] as const)('%s %s → %s', (from, bump, want) => {
    expect(applyBump(from, bump)).toBe(want);
  });

  it('refuses a version that is not semver', () => {
    expect(() => applyBump('v1', 'major')).toThrow(/not a semver version: v1/);
  });
});

describe('packageBumps', () => {
  const fixture = (rule: string, side: string) =>
    loadValid(join(REPO, 'test', 'fixtures', 'diff', rule, side));

  it('gives each group package its own bump from its own findings, from the recorded version', () => {
    const before = fixture('field-removed', 'before');
    const after = fixture('field-removed', 'after');
    expect(packageBumps(compareCatalogues(before, after), before, after, { orders: '3.1.4' })).toEqual([
      { name: '@fixture-events/orders', slug: 'orders', from: '3.1.4', to: '4.0.0', bump: 'major' },
    ]);
  });

  it('starts an unrecorded package at the build default and leaves an untouched one alone', () => {
    const before = fixture('title-changed', 'before');
    const after = fixture('title-changed', 'after');
    expect(packageBumps(compareCatalogues(before, after), before, after, {})).toEqual([
      { name: '@fixture-events/orders', slug: 'orders', from: '1.0.0', to: '1.0.1', bump: 'patch' },
    ]);
    expect(packageBumps([], before, before, { orders: '1.2.0' })[0]).toMatchObject({
      from: '1.2.0',
      to: '1.2.0',
      bump: 'none',
    });
  });
});

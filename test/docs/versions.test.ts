import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareVersions } from '../../generators/docs/versions.js';
import type { EventVersion, Field } from '../../generators/model.js';
import { loadValid, REPO } from '../helpers.js';

// The portal's cross-version view: eventry's findings between two versions of an event type, with no
// rename guessed (a version's fields are not edits of the other's), and every enum and format change.
const seed = loadValid(join(REPO, 'catalogue'));
const base = seed.events['account.created-v1']!;
const field = (name: string, type: Field['type'], required = true): Field => ({
  name,
  type,
  required,
  source: base.source,
});
const version = (v: string, fields: Field[]): EventVersion => ({
  ...base,
  key: `x.y-${v}`,
  type: 'x.y',
  version: v,
  fields,
});

describe('the cross-version view', () => {
  const v1 = version('v1', [
    field('old_name', { kind: 'string' }),
    field('status', { kind: 'string', enum: ['a', 'b'] }),
    field('when', { kind: 'string' }, false),
    field('day', { kind: 'string', format: 'date' }, false),
  ]);
  const v2 = version('v2', [
    field('new_name', { kind: 'string' }),
    field('status', { kind: 'string', enum: ['a', 'b', 'c'] }),
    field('when', { kind: 'string', format: 'date' }, false),
    field('day', { kind: 'string', format: 'date-time' }, false),
  ]);
  const findings = compareVersions(seed, v1, v2).map((f) => `${f.rule}@${f.attr}`);

  it('a field gone beside a new one of the same type is a removal and an addition, not a guessed rename', () => {
    expect(findings).toContain('field-removed@old_name');
    expect(findings).toContain('required-field-added@new_name');
    expect(findings.some((f) => f.startsWith('field-renamed'))).toBe(false);
  });

  it('names every enum and format change', () => {
    expect(findings).toEqual(
      expect.arrayContaining(['enum-value-added@status', 'format-added@when', 'format-changed@day']),
    );
  });
});

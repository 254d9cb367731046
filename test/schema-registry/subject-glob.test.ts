import { describe, expect, it } from 'vitest';
import { matchesSubjectGlob } from '../../generators/schema-registry/register.js';

describe('matchesSubjectGlob (register --subjects)', () => {
  it.each([
    ['account.*', 'account.created-v1', true],
    ['account.*', 'accountXcreated-v1', false],
    ['*-v1', 'billing.ledger.entry_posted-v1', true],
    ['*-v1', 'billing.ledger.entry_posted-v10', false],
    ['account.created-v?', 'account.created-v2', true],
    ['a+b(c)', 'a+b(c)', true],
    ['a+b(c)', 'aab(c)', false],
    ['[ab]*', 'a', false],
  ])('%s against %s: %s', (glob, subject, expected) => {
    expect(matchesSubjectGlob(subject, glob)).toBe(expected);
  });
});

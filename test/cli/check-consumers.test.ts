import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from './in-process.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/consumers/', import.meta.url));

describe('eventry check names the consumers a change breaks', () => {
  it('a removed field a team reads: exit 1, the team, the field and whom to ask', async () => {
    const run = await runCliInProcess([
      'check',
      '--base',
      `${FIXTURES}field-removed/before`,
      '--catalogue',
      `${FIXTURES}field-removed/after`,
    ]);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('broken invoice.issued-v1: ledger [ledger-service], strict reader');
    expect(run.stdout).toContain('(reads `lines[].amount`)');
    expect(run.stdout).toContain('Reviewers: @acme/billing, @acme/ledger');
    expect(run.stdout).toContain(
      'consumer(s) broken: ledger (invoice.issued-v1), ledger (invoice.issued-v2)',
    );
  });
});

import { appendFileSync, cpSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../cli/in-process.js';
import { tempDir } from '../helpers.js';

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

  it('a breaking change no declared consumer reads: blocked by default, passes with unread_breaking: warn', async () => {
    const base = `${FIXTURES}unread-change/before`;
    const blocked = await runCliInProcess([
      'check',
      '--base',
      base,
      '--catalogue',
      `${FIXTURES}unread-change/after`,
    ]);
    expect(blocked.status).toBe(1);
    expect(blocked.stdout).toContain(
      'unread invoice.voided-v2 reason: field-removed: no declared consumer reads it.',
    );
    const after = join(tempDir('eventry-unread-'), 'catalogue');
    cpSync(`${FIXTURES}unread-change/after`, after, { recursive: true });
    appendFileSync(join(after, 'eventry.config.yaml'), 'consumers:\n  unread_breaking: warn\n');
    const warned = await runCliInProcess(['check', '--base', base, '--catalogue', after]);
    expect(warned.stdout).toContain('passed with 1 unread breaking change (no declared consumer reads it');
    expect(warned.status).toBe(0);
  });
});

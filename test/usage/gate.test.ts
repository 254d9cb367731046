import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../cli/in-process.js';
import { tempDir } from '../helpers.js';
import { makeProject, type UsageWork, usageWork } from './project.js';

// What usage scan declares is what the gate judges by: a read the scan used to miss (a union handler) or
// cannot name (a computed key) must make the gate name the team for a break, never call it unread.
let work: UsageWork;
beforeAll(async () => {
  work = await usageWork();
}, 60_000);

/** Scans `code` into a copy of the catalogue, removes `status` from account.created-v1 (and so from
 * account.removed-v1, its `same_as`, and account.removed-v2, which extends it), runs the gate. */
async function gateAfterScan(code: string) {
  const before = join(tempDir('eventry-usage-gate-'), 'catalogue');
  cpSync(work.catalogue, before, { recursive: true });
  const project = makeProject(tempDir('eventry-usage-gate-'), work.packages, { 'a.ts': code });
  const scan = await runCliInProcess(['usage', 'scan', project, '--team', 'ledger', '--catalogue', before]);
  expect(scan.status, scan.stdout + scan.stderr).toBe(0);
  const after = join(tempDir('eventry-usage-gate-'), 'catalogue');
  cpSync(before, after, { recursive: true });
  const group = join(after, 'groups', 'account.yaml');
  const text = readFileSync(group, 'utf8');
  expect(text).toContain('status: {type: string, enum: [active, closed]}');
  writeFileSync(group, text.replace(/\n\s+status: \{type: string, enum: \[active, closed\]\}/, ''));
  return runCliInProcess(['check', '--base', before, '--catalogue', after]);
}

describe('the gate over a scanned declaration', () => {
  it('a union handler that reads the removed field: ledger is broken in both versions', async () => {
    const run = await gateAfterScan(
      "import type { AccountRemovedV1, AccountRemovedV2 } from '@fixture-events/account';\nexport const f = (e: AccountRemovedV1 | AccountRemovedV2) => e.status;\n",
    );
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/broken account\.removed-v1: ledger/);
    expect(run.stdout).toMatch(/broken account\.removed-v2: ledger/);
    expect(run.stdout).not.toMatch(/unread account\.removed-v[12]/);
  });

  it('a computed key: ledger is potentially affected, not unread', async () => {
    const run = await gateAfterScan(
      "import type { AccountRemovedV2 } from '@fixture-events/account';\nexport const g = (e: AccountRemovedV2, k: string) => (e as any)[k];\n",
    );
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/potentially-affected account\.removed-v2: ledger/);
    expect(run.stdout).not.toMatch(/unread account\.removed-v2/);
  });
});

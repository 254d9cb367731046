import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../generators/load/index.js';
import { tempDir } from '../helpers.js';
import { runCliInProcess } from './in-process.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
const CATALOGUE = join(FIXTURES, 'small', 'catalogue');

/** The sample consumer project, with the small catalogue's two group packages built into its node_modules. */
let project: string;
let work: string;
beforeAll(async () => {
  work = tempDir('eventry-usage-');
  const built = await runCliInProcess(['build', '--catalogue', CATALOGUE, '--out', join(work, 'packages')]);
  expect(built.status, built.stderr).toBe(0);
  project = join(work, 'project');
  cpSync(join(FIXTURES, 'usage', 'project'), project, { recursive: true });
  mkdirSync(join(project, 'node_modules'));
  symlinkSync(join(work, 'packages'), join(project, 'node_modules', '@fixture-events'));
}, 60_000);

const scan = (...extra: string[]) =>
  runCliInProcess(['usage', 'scan', project, '--team', 'ledger', '--catalogue', CATALOGUE, ...extra]);

describe('eventry usage scan', () => {
  it('declares every field the code reads: narrowing, destructuring, optional chains, array callbacks', async () => {
    const out = join(work, 'ledger.yaml');
    const run = await scan('--out', out);
    expect(run.status, run.stderr).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).toMatch(/^# yaml-language-server: \$schema=\S+consumers\.schema\.json\n/);
    expect(text.slice(text.indexOf('\n') + 1)).toBe(
      readFileSync(join(FIXTURES, 'usage', 'expected.yaml'), 'utf8'),
    );
  });

  it('the declaration it writes loads in a catalogue, every field found', async () => {
    const catalogue = join(work, 'catalogue');
    cpSync(CATALOGUE, catalogue, { recursive: true });
    writeFileSync(
      join(catalogue, 'teams.yaml'),
      'teams:\n  ledger: {name: Ledger, contact: ledger@example.com}\n',
    );
    const run = await runCliInProcess([
      'usage',
      'scan',
      project,
      '--team',
      'ledger',
      '--catalogue',
      catalogue,
    ]);
    expect(run.status, run.stderr).toBe(0);
    const loaded = loadCatalogue(catalogue);
    expect(loaded.ok ? [] : loaded.problems).toEqual([]);
  });

  it('--check: 0 while the file is what the code reads, 1 once the code reads more', async () => {
    const out = join(work, 'checked.yaml');
    expect((await scan('--out', out)).status).toBe(0);
    expect((await scan('--out', out, '--check')).status).toBe(0);
    const source = join(project, 'src', 'ledger.ts');
    writeFileSync(
      source,
      `${readFileSync(source, 'utf8')}\nexport const ledgerId = (event: import('@fixture-events/billing').BillingLedgerEntryPostedV1) => event.ledger.id;\n`,
    );
    const stale = await scan('--out', out, '--check');
    expect(stale.status).toBe(1);
    expect(stale.stdout).toContain('is not what the code reads');
  });

  it('never overwrites a declaration it did not write', async () => {
    const out = join(work, 'hand-written.yaml');
    writeFileSync(out, 'team: ledger\nconsumes: {}\n');
    const run = await scan('--out', out);
    expect(run.status).toBe(1);
    expect(readFileSync(out, 'utf8')).toBe('team: ledger\nconsumes: {}\n');
  });

  it('a folder without tsconfig.json is a usage error', async () => {
    const run = await runCliInProcess(['usage', 'scan', work, '--team', 'ledger', '--catalogue', CATALOGUE]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('has no tsconfig.json');
  });
});

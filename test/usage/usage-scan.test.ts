import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../generators/load/index.js';
import { GENERATED_DECLARATION_NOTE } from '../../generators/usage/declaration.js';
import { runCliInProcess } from '../cli/in-process.js';
import { FIXTURES, makeProject, type UsageWork, usageWork } from './project.js';

/** The sample consumer project, with the small catalogue's two group packages in its node_modules. */
let project: string;
let work: UsageWork;
beforeAll(async () => {
  work = await usageWork();
  project = join(work.work, 'project');
  cpSync(join(FIXTURES, 'usage', 'project'), project, { recursive: true });
  makeProject(project, work.packages, {});
}, 60_000);

const scan = (...extra: string[]) =>
  runCliInProcess(['usage', 'scan', project, '--team', 'ledger', '--catalogue', work.catalogue, ...extra]);

describe('eventry usage scan', () => {
  it('declares every field the code reads: narrowing, destructuring, optional chains, array callbacks', async () => {
    const out = join(work.work, 'ledger.yaml');
    const run = await scan('--out', out);
    expect(run.status, run.stderr).toBe(0);
    const [first, second, ...rest] = readFileSync(out, 'utf8').split('\n');
    expect(first).toBe(GENERATED_DECLARATION_NOTE);
    expect(second).toMatch(/^# yaml-language-server: \$schema=\S+consumers\.schema\.json$/);
    expect(rest.join('\n')).toBe(readFileSync(join(FIXTURES, 'usage', 'expected.yaml'), 'utf8'));
  });

  it('the declaration it writes loads in a catalogue, every field found', async () => {
    const run = await scan();
    expect(run.status, run.stderr).toBe(0);
    const loaded = loadCatalogue(work.catalogue);
    expect(loaded.ok ? [] : loaded.problems).toEqual([]);
  });

  it('--check: 0 while the file is what the code reads, 1 once the code reads more', async () => {
    const out = join(work.work, 'checked.yaml');
    expect((await scan('--out', out)).status).toBe(0);
    expect((await scan('--out', out, '--check')).status).toBe(0);
    const source = join(project, 'src', 'ledger.ts');
    const before = readFileSync(source, 'utf8');
    writeFileSync(
      source,
      `${before}\nexport const ledgerId = (event: import('@fixture-events/billing').BillingLedgerEntryPostedV1) => event.ledger.id;\n`,
    );
    const stale = await scan('--out', out, '--check');
    writeFileSync(source, before);
    expect(stale.status).toBe(1);
    expect(stale.stdout).toContain('is not what the code reads');
  });
});

describe('eventry usage scan: what it never does', () => {
  it('never overwrites a declaration it did not write', async () => {
    const out = join(work.work, 'hand-written.yaml');
    writeFileSync(out, 'team: ledger\nconsumes: {}\n');
    const run = await scan('--out', out);
    expect(run.status).toBe(1);
    expect(readFileSync(out, 'utf8')).toBe('team: ledger\nconsumes: {}\n');
  });

  it('nor one that merely quotes its note below the first line', async () => {
    const out = join(work.work, 'quoting.yaml');
    const text = `team: ledger\n# copied from a generated file:\n${GENERATED_DECLARATION_NOTE}\nconsumes: {}\n`;
    writeFileSync(out, text);
    const run = await scan('--out', out);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('usage-not-generated');
    expect(readFileSync(out, 'utf8')).toBe(text);
  });

  it('replaces a declaration in the format written before the note came first (modeline, then note)', async () => {
    const out = join(work.work, 'legacy.yaml');
    writeFileSync(
      out,
      `# yaml-language-server: $schema=../generators/schema/source/consumers.schema.json\n${GENERATED_DECLARATION_NOTE}\nteam: ledger\nconsumes: {}\n`,
    );
    const run = await scan('--out', out);
    expect(run.status, run.stderr).toBe(0);
    expect(readFileSync(out, 'utf8').split('\n')[0]).toBe(GENERATED_DECLARATION_NOTE);
  });

  it('a folder without tsconfig.json is a usage error', async () => {
    const run = await runCliInProcess([
      'usage',
      'scan',
      work.work,
      '--team',
      'ledger',
      '--catalogue',
      work.catalogue,
    ]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('has no tsconfig.json');
  });

  it('--team must be a team of teams.yaml, with a did-you-mean, before anything is written', async () => {
    const out = join(work.work, 'never.yaml');
    const run = await runCliInProcess([
      'usage',
      'scan',
      project,
      '--team',
      'ledgr',
      '--catalogue',
      work.catalogue,
      '--out',
      out,
    ]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('usage-unknown-team');
    expect(run.stderr).toContain('Did you mean `ledger`?');
    expect(() => readFileSync(out)).toThrow();
  });
});

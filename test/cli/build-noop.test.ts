import { cpSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { foldersRecordPath } from '../../generators/execute/fast/state.js';
import {
  RecordedArea,
  readState,
  recordedFiles,
  STATE_DIR,
  STATE_FILE,
} from '../../generators/execute/fast/state-file.js';
import { describeGroup, fixturePath, tempDir } from '../helpers.js';
import { runCliInProcess } from './in-process.js';
import { comparable, readTree } from './output-tree.js';

// A no-op build decides from the output folders' times (recorded after each build) instead of a stat
// of every output file: at 10,000 events that stat alone was over half a second.
describe('eventry build: the no-op and edit checks from folder times', () => {
  let work: string;
  let catalogue: string;
  let out: string;
  let fresh: Record<string, string>;
  const build = (...extra: string[]) =>
    runCliInProcess(['build', '--catalogue', catalogue, '--out', out, ...extra]);

  beforeEach(async () => {
    work = tempDir('eventry-build-noop-');
    catalogue = join(work, 'catalogue');
    out = join(work, 'packages');
    cpSync(fixturePath('small'), catalogue, { recursive: true });
    expect((await build()).status).toBe(0);
    fresh = comparable(readTree(out));
  });

  it('an untouched output is nothing to do, again and again', async () => {
    expect((await build()).stdout).toMatch(/nothing to do/);
    expect((await build()).stdout).toMatch(/nothing to do/);
  });

  it('a per-event file deleted by hand is rebuilt by the next build', async () => {
    rmSync(join(out, 'billing/schemas/billing.ledger.entry_posted-v1.json'));
    expect((await build()).stdout).toMatch(/1 files written/);
    expect(comparable(readTree(out))).toEqual(fresh);
    expect((await build()).stdout).toMatch(/nothing to do/);
  });

  it('a package.json edited in place is rebuilt by the next build', async () => {
    const packageJson = join(out, 'account/package.json');
    writeFileSync(packageJson, readFileSync(packageJson, 'utf8').replace('"license"', '"licence"'));
    expect((await build()).stdout).toMatch(/1 files written/);
    expect(comparable(readTree(out))).toEqual(fresh);
  });

  it('folder times recorded for another state are not trusted: a stale record means the full check', async () => {
    const record = foldersRecordPath(catalogue, out);
    const stamps = JSON.parse(readFileSync(record, 'utf8'));
    stamps.state.size += 1;
    writeFileSync(record, JSON.stringify(stamps));
    rmSync(join(out, 'billing/README.md'));
    writeFileSync(join(out, 'billing/README.md'), 'mine\n');
    expect((await build()).stdout).toMatch(/built 8 events/);
    expect(comparable(readTree(out))).toEqual(fresh);
  });

  it('a damaged folder record means the full check, not a crash', async () => {
    writeFileSync(foldersRecordPath(catalogue, out), '{"state":');
    expect((await build()).stdout).toMatch(/nothing to do/);
    expect((await build()).stdout).toMatch(/nothing to do/);
  });

  it('a per-event file edited in place is trusted to its folder; --force rebuilds it', async () => {
    const schema = join(out, 'billing/schemas/billing.ledger.entry_posted-v1.json');
    writeFileSync(schema, '{}\n');
    expect((await build()).stdout).toMatch(/nothing to do/);
    expect((await build('--force')).status).toBe(0);
    expect(comparable(readTree(out))).toEqual(fresh);
  });

  const editBilling = (tag: string) => {
    describeGroup(join(catalogue, 'groups/billing.yaml'), `${tag}.`);
  };

  it('an edit build restores a per-event file deleted from an untouched group', async () => {
    rmSync(join(out, 'account/events/account.created-v1.js'));
    editBilling('Edited');
    expect((await build()).status).toBe(0);
    const fresh = join(work, 'fresh');
    expect((await runCliInProcess(['build', '--catalogue', catalogue, '--out', fresh])).status).toBe(0);
    expect(comparable(readTree(out))).toEqual(comparable(readTree(fresh)));
  });

  it('an edit build trusts an untouched group’s per-event files to their folders; --force rebuilds them', async () => {
    const event = join(out, 'account/events/account.created-v1.js');
    const good = readFileSync(event, 'utf8');
    writeFileSync(event, '// edited by hand\n');
    editBilling('Edited');
    expect((await build()).status).toBe(0);
    expect(readFileSync(event, 'utf8')).toBe('// edited by hand\n');
    expect((await build('--force')).status).toBe(0);
    expect(readFileSync(event, 'utf8')).toBe(good);
  });

  it('an edit build sweeps a stray file dropped into an untouched group’s folder', async () => {
    writeFileSync(join(out, 'account/events/stray-v1.js'), 'export {};\n');
    editBilling('Edited');
    const edited = await build();
    expect(edited.stdout).toMatch(/1 removed/);
    const fresh = join(work, 'fresh');
    expect((await runCliInProcess(['build', '--catalogue', catalogue, '--out', fresh])).status).toBe(0);
    expect(comparable(readTree(out))).toEqual(comparable(readTree(fresh)));
  });

  it('an edit build sweeps a stray file dropped into the edited group’s folder', async () => {
    writeFileSync(join(out, 'billing/events/stray-v1.js'), 'export {};\n');
    editBilling('Edited');
    expect((await build()).stdout).toMatch(/1 removed/);
    const fresh = join(work, 'fresh');
    expect((await runCliInProcess(['build', '--catalogue', catalogue, '--out', fresh])).status).toBe(0);
    expect(comparable(readTree(out))).toEqual(comparable(readTree(fresh)));
  });

  it('a no-op right after an edit build takes the quick path from the folder record the edit left', async () => {
    editBilling('Edited');
    expect((await build()).stdout).toMatch(/built 8 events/);
    // Only the quick path trusts a per-event file to its folder: the full check would see its new size.
    writeFileSync(join(out, 'account/events/account.created-v1.js'), '// edited by hand\n');
    expect((await build()).stdout).toMatch(/nothing to do/);
  });

  it('a stray file dropped after an edit build is swept by the next edit build', async () => {
    editBilling('Edited');
    expect((await build()).status).toBe(0);
    writeFileSync(join(out, 'account/events/stray-v1.js'), 'export {};\n');
    const billing = join(catalogue, 'groups/billing.yaml');
    writeFileSync(billing, readFileSync(billing, 'utf8').replace('Edited.', 'Edited again.'));
    expect((await build()).stdout).toMatch(/1 removed/);
    expect((await build()).stdout).toMatch(/nothing to do/);
  });

  it('an edit build records every output file in the state as it is, the untouched groups’ included', async () => {
    editBilling('Edited');
    expect((await build()).stdout).toMatch(/built 8 events/);
    const recorded = recordedFiles(readState(out)!);
    const actual: Record<string, { size: number; mtimeMs: number }> = {};
    for (const path of readTree(out).keys()) {
      // The state's own files record the others.
      if (path === STATE_FILE || path.startsWith(`${STATE_DIR}/`)) continue;
      const { size, mtimeMs } = statSync(join(out, path));
      actual[path] = { size, mtimeMs };
    }
    expect({ ...recorded }).toEqual(actual);
  });

  it('an edit that changes no schema keeps the catalogue folder whole, its schemas’ list unread', async () => {
    // The first edit adds a line: every event below it moves, and its model (which says where it is
    // written) with it. The second changes that line only.
    editBilling('Edited');
    expect((await build()).stdout).toMatch(/built 8 events/);
    const billing = join(catalogue, 'groups/billing.yaml');
    const read = vi.spyOn(RecordedArea.prototype, 'below');
    try {
      writeFileSync(
        billing,
        readFileSync(billing, 'utf8').replace('description: Edited.', 'description: Again.'),
      );
      expect((await build()).stdout).toMatch(/built 8 events/);
      const readAreas = read.mock.contexts.map((area) => (area as RecordedArea).name);
      expect(readAreas).not.toContain('catalogue');
    } finally {
      read.mockRestore();
    }
    // And the state records it as it is.
    const catalogueFiles = Object.keys(recordedFiles(readState(out)!)).filter((path) =>
      path.startsWith('catalogue/schemas/'),
    );
    expect(catalogueFiles.length).toBeGreaterThan(0);
    expect(catalogueFiles.every((path) => statSync(join(out, path)).isFile())).toBe(true);
  });

  it('a state file of an older toolkit counts as none: the next build is a full one, then a no-op', async () => {
    writeFileSync(join(out, STATE_FILE), `${JSON.stringify({ inputHash: '0'.repeat(64), files: {} })}\n`);
    expect((await build()).stdout).toMatch(/built 8 events/);
    expect(comparable(readTree(out))).toEqual(fresh);
    expect((await build()).stdout).toMatch(/nothing to do/);
  });

  it('a damaged line of the state file regenerates that group package, not a crash', async () => {
    const statePath = join(out, STATE_FILE);
    const lines = readFileSync(statePath, 'utf8').split('\n');
    const account = lines.findIndex((line) => line.startsWith('["account",'));
    lines[account] = `${lines[account]!.slice(0, -12)}{`;
    writeFileSync(statePath, lines.join('\n'));
    rmSync(join(out, 'account/events/account.created-v1.js'));
    expect((await build()).status).toBe(0);
    expect(comparable(readTree(out))).toEqual(fresh);
    expect((await build()).stdout).toMatch(/nothing to do/);
  });

  it('a forced build writes the state folder’s lists again where one is damaged or gone, and only there', async () => {
    const lists = readdirSync(join(out, STATE_DIR)).sort();
    expect(lists.length).toBeGreaterThan(2);
    const [damaged, gone, intact] = lists;
    writeFileSync(join(out, STATE_DIR, damaged!), '{"tampered":[0,0]}');
    rmSync(join(out, STATE_DIR, gone!));
    const before = statSync(join(out, STATE_DIR, intact!)).mtimeMs;
    expect((await build('--force')).status).toBe(0);
    expect(comparable(readTree(out))).toEqual(fresh);
    expect(readdirSync(join(out, STATE_DIR)).sort()).toEqual(lists);
    expect(readFileSync(join(out, STATE_DIR, damaged!), 'utf8')).not.toContain('tampered');
    expect(statSync(join(out, STATE_DIR, intact!)).mtimeMs).toBe(before);
    expect((await build()).stdout).toMatch(/nothing to do/);
  });

  it('an edit build that drops an event removes its catalogue schema, the other schemas kept as recorded', async () => {
    const billing = join(catalogue, 'groups/billing.yaml');
    const text = readFileSync(billing, 'utf8');
    const dropped = text.slice(text.indexOf('  meterpoint.gas.partial-v1:'));
    writeFileSync(billing, text.replace(dropped, ''));
    expect((await build()).stdout).toMatch(/built 7 events/);
    const fresh = join(work, 'fresh');
    expect((await runCliInProcess(['build', '--catalogue', catalogue, '--out', fresh])).status).toBe(0);
    expect(comparable(readTree(out))).toEqual(comparable(readTree(fresh)));
  });

  it('an edit build sweeps a stray file dropped among the catalogue’s schemas', async () => {
    writeFileSync(join(out, 'catalogue/schemas/stray-v1.json'), '{}\n');
    editBilling('Edited');
    expect((await build()).stdout).toMatch(/1 removed/);
    expect(readTree(out).has('catalogue/schemas/stray-v1.json')).toBe(false);
  });
});

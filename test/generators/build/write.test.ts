import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  commitOutputs,
  type FileStats,
  JOURNAL_FILE,
  recoverOutput,
  STAGING_DIR,
  stageOnThread,
  startStaging,
  WriteFailure,
} from '../../../generators/build/write.js';
import { tempDir } from '../../helpers.js';

/** A process id no live process has (above Linux's and macOS's maximum). */
const DEAD_PID = 2 ** 30;

/** Leaves `root` as a build killed right after its commit point would: a journal and its staging folder. */
function committedJournal(root: string, journal: object, staged: Record<string, string>): void {
  const id = `${DEAD_PID}-0badf00d`;
  for (const [path, contents] of Object.entries(staged)) {
    const file = join(root, STAGING_DIR, id, path);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, contents);
  }
  writeFileSync(join(root, JOURNAL_FILE), JSON.stringify({ staging: id, pid: DEAD_PID, ...journal }));
}

describe('a new output folder moved in whole', () => {
  it('a fresh output gets every file, and the build state records the size and time each file has', async () => {
    const root = join(tempDir(), 'packages');
    let sealed: FileStats | undefined;
    await commitOutputs(
      root,
      [
        { path: 'billing/package.json', contents: '{}\n' },
        { path: 'billing/schemas/billing.paid-v1.json', contents: '{"type":"object"}\n' },
        { path: 'catalogue/openapi.json', contents: '{"openapi":"3.1.0"}\n' },
      ],
      {
        seal: (stats) => {
          sealed = stats;
          return { path: '.state.json', contents: JSON.stringify(stats) };
        },
      },
    );
    expect(readFileSync(join(root, 'billing/schemas/billing.paid-v1.json'), 'utf8')).toBe(
      '{"type":"object"}\n',
    );
    for (const path of [
      'billing/package.json',
      'billing/schemas/billing.paid-v1.json',
      'catalogue/openapi.json',
    ]) {
      const { size, mtimeMs } = statSync(join(root, path));
      expect(sealed?.[path]).toEqual({ size, mtimeMs });
    }
    expect(existsSync(join(root, STAGING_DIR))).toBe(false);
  });

  it('a killed build whose new folder appeared in the output meanwhile: recovery merges the folder file by file', () => {
    const root = tempDir();
    mkdirSync(join(root, 'ledger'));
    writeFileSync(join(root, 'ledger/NOTES.md'), 'kept\n');
    committedJournal(
      root,
      { putDirs: ['ledger'], put: [], remove: [], removeDirs: [] },
      { 'ledger/package.json': '{}\n', 'ledger/schemas/ledger.posted-v1.json': '{}\n' },
    );
    expect(recoverOutput(root)).toBe('rolled-forward');
    expect(readFileSync(join(root, 'ledger/NOTES.md'), 'utf8')).toBe('kept\n');
    expect(readFileSync(join(root, 'ledger/package.json'), 'utf8')).toBe('{}\n');
    expect(existsSync(join(root, 'ledger/schemas/ledger.posted-v1.json'))).toBe(true);
    expect(existsSync(join(root, STAGING_DIR))).toBe(false);
    expect(existsSync(join(root, JOURNAL_FILE))).toBe(false);
  });

  it('a killed build that had moved its new folder in already: recovery leaves it as moved', () => {
    const root = tempDir();
    mkdirSync(join(root, 'ledger'));
    writeFileSync(join(root, 'ledger/package.json'), '{"new":true}\n');
    committedJournal(root, { putDirs: ['ledger'], put: [], remove: [], removeDirs: [] }, {});
    expect(recoverOutput(root)).toBe('rolled-forward');
    expect(readFileSync(join(root, 'ledger/package.json'), 'utf8')).toBe('{"new":true}\n');
    expect(existsSync(join(root, JOURNAL_FILE))).toBe(false);
  });

  it('a journal left by a build from before folders moved whole (no putDirs) still rolls forward', () => {
    const root = tempDir();
    committedJournal(
      root,
      { put: ['account/events/created-v1.js'], remove: [], removeDirs: [] },
      { 'account/events/created-v1.js': 'export {};\n' },
    );
    expect(recoverOutput(root)).toBe('rolled-forward');
    expect(readFileSync(join(root, 'account/events/created-v1.js'), 'utf8')).toBe('export {};\n');
  });
});

describe('files staged by a build thread', () => {
  it('are committed like files staged on the build thread: unchanged ones untouched, changed ones replaced', async () => {
    const root = tempDir();
    await commitOutputs(root, [
      { path: 'account/package.json', contents: '{"v":1}\n' },
      { path: 'account/README.md', contents: '# Account\n' },
    ]);
    const before = statSync(join(root, 'account/README.md')).mtimeMs;
    const staging = startStaging(root);
    const staged = stageOnThread(
      staging.target,
      [
        { path: 'account/package.json', contents: '{"v":2}\n' },
        { path: 'account/README.md', contents: '# Account\n' },
        { path: 'ledger/package.json', contents: '{}\n' },
      ],
      {},
    );
    expect(staged.map((file) => [file.path, file.stats !== undefined])).toEqual([
      ['account/package.json', true],
      ['account/README.md', false],
      ['ledger/package.json', true],
    ]);
    // Nothing in the output changes before the commit.
    expect(readFileSync(join(root, 'account/package.json'), 'utf8')).toBe('{"v":1}\n');
    staging.addStaged(staged);
    const report = await staging.commit();
    expect(report.written).toEqual(['account/package.json', 'ledger/package.json']);
    expect(report.unchanged).toBe(1);
    expect(readFileSync(join(root, 'account/package.json'), 'utf8')).toBe('{"v":2}\n');
    expect(readFileSync(join(root, 'ledger/package.json'), 'utf8')).toBe('{}\n');
    expect(statSync(join(root, 'account/README.md')).mtimeMs).toBe(before);
  });

  it('a file the file system refuses fails with write-failed naming the output path', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'account/README.md'), { recursive: true });
    const staging = startStaging(root);
    let failure: unknown;
    try {
      stageOnThread(staging.target, [{ path: 'account/README.md', contents: '# Account\n' }], {});
    } catch (error) {
      failure = error;
    }
    staging.abort();
    expect(failure).toBeInstanceOf(WriteFailure);
    expect(failure).toMatchObject({ path: 'account/README.md', code: 'EISDIR' });
    expect(existsSync(join(root, STAGING_DIR))).toBe(false);
  });
});

describe('the sweep of the folders the last build had files in', () => {
  it('files the last build had at the output root name no folder to sweep: the rest of the output stays', async () => {
    const root = tempDir();
    const files = [
      { path: 'notes.md', contents: 'root\n' },
      { path: 'billing/package.json', contents: '{}\n' },
    ];
    await commitOutputs(root, files);
    await commitOutputs(root, files, { previousAreas: ['', 'billing'] });
    expect(readFileSync(join(root, 'billing/package.json'), 'utf8')).toBe('{}\n');
    expect(readFileSync(join(root, 'notes.md'), 'utf8')).toBe('root\n');
  });
});

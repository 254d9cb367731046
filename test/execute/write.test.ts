import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { WriterFile } from '../../generators/execute/commit-types.js';
import { openStagedSink, stageOnThread } from '../../generators/execute/stage-on-thread.js';
import {
  commitOutputs,
  type FileStat,
  JOURNAL_FILE,
  recoverOutput,
  STAGING_DIR,
  startStaging,
  WriteFailure,
} from '../../generators/execute/write.js';
import { openIfExists } from '../../generators/shared/fs.js';
import { tempDir } from '../helpers.js';

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
    let sealed: ReadonlyMap<string, FileStat> | undefined;
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
          return { path: '.state.json', contents: JSON.stringify(Object.fromEntries(stats)) };
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
      expect(sealed?.get(path)).toEqual({ size, mtimeMs });
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

/** A document as the catalogue documents come: in byte pieces, its text built only when asked for. */
function inPieces(path: string, ...texts: string[]): WriterFile {
  const pieces = texts.map((text) => Buffer.from(text));
  return {
    path,
    pieces,
    get contents(): string {
      throw new Error(`${path}: the build read contents instead of writing the pieces`);
    },
  };
}

describe('files given in pieces (the catalogue documents)', () => {
  for (const where of ['the build thread', 'a build thread'] as const) {
    it(`on ${where}: written from their pieces, and compared piece by piece with the output`, async () => {
      const root = tempDir();
      await commitOutputs(root, [
        { path: 'catalogue/openapi.json', contents: '{"a":1,"b":2}\n' },
        { path: 'catalogue/openapi.yaml', contents: 'a: 1\nb: 2\n' },
        { path: 'catalogue/asyncapi.json', contents: '{}\n' },
      ]);
      const before = statSync(join(root, 'catalogue/openapi.json')).mtimeMs;
      const files = [
        inPieces('catalogue/openapi.json', '{"a":1,', '"b":2}\n'),
        inPieces('catalogue/openapi.yaml', 'a: 1\n', 'b: 3\n'),
        inPieces('catalogue/asyncapi.json', '{}\n', 'x'),
      ];
      const staging = startStaging(root);
      if (where === 'the build thread') await staging.add(files);
      else staging.addStaged(stageOnThread(staging.target, files, {}));
      const report = await staging.commit();
      expect(report.written).toEqual(['catalogue/asyncapi.json', 'catalogue/openapi.yaml']);
      expect(report.unchanged).toBe(1);
      expect(statSync(join(root, 'catalogue/openapi.json')).mtimeMs).toBe(before);
      expect(readFileSync(join(root, 'catalogue/openapi.yaml'), 'utf8')).toBe('a: 1\nb: 3\n');
      expect(readFileSync(join(root, 'catalogue/asyncapi.json'), 'utf8')).toBe('{}\nx');
    });
  }

  it('one the emitter knows the output holds already is neither read nor written', async () => {
    const root = tempDir();
    await commitOutputs(root, [{ path: 'catalogue/openapi.json', contents: 'old\n' }]);
    const staging = startStaging(root);
    // Told "same" while the output differs: the build trusts the emitter (which checked by digest).
    await staging.add([
      Object.assign(inPieces('catalogue/openapi.json', 'new\n'), { inOutput: 'same' as const }),
    ]);
    const report = await staging.commit();
    expect(report.written).toEqual([]);
    expect(readFileSync(join(root, 'catalogue/openapi.json'), 'utf8')).toBe('old\n');
  });
});

describe('files an emitter wrote into the staging folder itself (openStagedSink)', () => {
  for (const where of ['the build thread', 'a build thread'] as const) {
    it(`on ${where}: a changed one is moved in, one the output holds already is dropped from staging`, async () => {
      const root = tempDir();
      await commitOutputs(root, [{ path: 'catalogue/openapi.json', contents: '{"a":1}\n' }]);
      const before = statSync(join(root, 'catalogue/openapi.json')).mtimeMs;
      const staging = startStaging(root);
      const sink = (path: string, ...pieces: string[]): WriterFile => {
        const out = openStagedSink(staging.target, path);
        for (const piece of pieces) out.write(Buffer.from(piece));
        out.close?.();
        return {
          path,
          sunk: true,
          get contents(): string {
            throw new Error('the build read contents of a file in staging');
          },
        };
      };
      const files = [
        sink('catalogue/openapi.json', '{"a":', '1}\n'),
        sink('catalogue/asyncapi.json', '{"b":', '2}\n'),
      ];
      // Not moved in before the commit.
      expect(existsSync(join(root, 'catalogue/asyncapi.json'))).toBe(false);
      if (where === 'the build thread') await staging.add(files);
      else staging.addStaged(stageOnThread(staging.target, files, {}));
      const report = await staging.commit();
      expect(report.written).toEqual(['catalogue/asyncapi.json']);
      expect(report.unchanged).toBe(1);
      expect(readFileSync(join(root, 'catalogue/asyncapi.json'), 'utf8')).toBe('{"b":2}\n');
      expect(statSync(join(root, 'catalogue/openapi.json')).mtimeMs).toBe(before);
      expect(existsSync(join(root, STAGING_DIR))).toBe(false);
    });
  }

  it('a sink says which file it wrote: the stamp the file keeps once moved into the output, until written again', async () => {
    const root = tempDir();
    const staging = startStaging(root);
    const out = openStagedSink(staging.target, 'catalogue/openapi.json');
    out.write(Buffer.from('{"a":1,'));
    out.truncate(6);
    out.write(Buffer.from('}\n'));
    const stamp = out.close?.();
    expect(out.close?.()).toBeUndefined();
    expect(() => out.write(Buffer.from('x'))).toThrow(/after its sink was closed/);
    await staging.add([{ path: 'catalogue/openapi.json', sunk: true, contents: '' }]);
    await staging.commit();
    const path = join(root, 'catalogue/openapi.json');
    expect(readFileSync(path, 'utf8')).toBe('{"a":1}\n');
    const committed = openIfExists(path)!;
    committed.close();
    expect(committed.stamp).toBe(stamp);
    expect(committed.size).toBe(8);
    // Another size: a rewrite within the clock tick of the commit keeps the time (as for the no-op check).
    writeFileSync(path, '{"a":22}\n');
    const rewritten = openIfExists(path)!;
    rewritten.close();
    expect(rewritten.stamp).not.toBe(stamp);
    expect(openIfExists(join(root, 'catalogue/none.json'))).toBeUndefined();
  });

  it('a large file is flushed to disk while written: the bytes moved in are exactly those written, cut and all', async () => {
    const root = tempDir();
    const staging = startStaging(root);
    const out = openStagedSink(staging.target, 'catalogue/asyncapi.json');
    // 20 MiB in pieces of 1 MiB, each filled with its number: two flushes start on the way.
    const pieces = Array.from({ length: 20 }, (_, i) => Buffer.alloc(2 ** 20, 65 + i));
    for (const piece of pieces) out.write(piece);
    out.truncate(19.5 * 2 ** 20);
    out.write(Buffer.from('end\n'));
    out.close?.();
    await staging.add([{ path: 'catalogue/asyncapi.json', sunk: true, contents: '' }]);
    await staging.commit();
    const expected = Buffer.concat([Buffer.concat(pieces).subarray(0, 19.5 * 2 ** 20), Buffer.from('end\n')]);
    expect(readFileSync(join(root, 'catalogue/asyncapi.json')).equals(expected)).toBe(true);
  });

  it('a sink the file system refuses fails with write-failed naming the output path, and the output is as it was', async () => {
    const root = tempDir();
    await commitOutputs(root, [{ path: 'catalogue/openapi.json', contents: 'old\n' }]);
    const staging = startStaging(root);
    // A folder where the staged file would go.
    mkdirSync(join(staging.target.staging, 'catalogue/openapi.json'), { recursive: true });
    let failure: unknown;
    try {
      openStagedSink(staging.target, 'catalogue/openapi.json');
    } catch (error) {
      failure = error;
    }
    staging.abort();
    expect(failure).toBeInstanceOf(WriteFailure);
    expect(failure).toMatchObject({ path: 'catalogue/openapi.json', code: 'EISDIR' });
    expect(readFileSync(join(root, 'catalogue/openapi.json'), 'utf8')).toBe('old\n');
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

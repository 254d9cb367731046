import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { STAGING_DIR } from '../../generators/execute/write.js';
import { describeGroup, fixturePath, tempDir } from '../helpers.js';
import { runCliInProcess } from './in-process.js';
import { comparable, emptyFolders, readTree } from './output-tree.js';

const build = (catalogue: string, out: string) =>
  runCliInProcess(['build', '--catalogue', catalogue, '--out', out]);

describe('eventry build output converges to exactly what the catalogue generates', () => {
  const work = tempDir('eventry-build-output-');
  const catalogue = join(work, 'project', 'catalogue');
  const fresh = join(work, 'fresh');
  let freshSet: Record<string, string>;

  /** A copy of the catalogue with the account group edited, in `work/<name>/catalogue`. */
  const changedCopy = (name: string): string => {
    const changed = join(work, name, 'catalogue');
    cpSync(catalogue, changed, { recursive: true });
    describeGroup(join(changed, 'groups/account.yaml'), 'Changed.');
    return changed;
  };

  beforeAll(async () => {
    cpSync(fixturePath('small'), catalogue, { recursive: true });
    const built = await build(catalogue, fresh);
    expect(built.stderr).toBe('');
    freshSet = comparable(readTree(fresh));
  }, 120_000);

  it('orphans left without a build state are swept: stray files, *.tmp, empty folders, a removed group', async () => {
    const out = join(work, 'orphans');
    cpSync(fresh, out, { recursive: true });
    rmSync(join(out, '.eventry-build-state.json'));
    writeFileSync(join(out, 'account/events/stale-v1.js'), 'export {};\n');
    writeFileSync(join(out, 'catalogue/openapi.json.deadbeef.tmp'), '{');
    writeFileSync(join(out, '.eventry-build-state.json.0badc0de.tmp'), '{');
    mkdirSync(join(out, 'account/empty/deeper'), { recursive: true });
    cpSync(join(out, 'billing'), join(out, 'gone'), { recursive: true });
    // Kept: the hand-kept changelog, a workspace's own dependencies, a folder that is not eventry's.
    writeFileSync(join(out, 'account/CHANGELOG.md'), '# changes\n');
    mkdirSync(join(out, 'account/node_modules/dep'), { recursive: true });
    writeFileSync(join(out, 'account/node_modules/dep/index.js'), '');
    mkdirSync(join(out, 'notes'));
    writeFileSync(join(out, 'notes/todo.txt'), 'mine\n');

    const rebuilt = await build(catalogue, out);
    expect(rebuilt.stderr).toBe('');
    expect(rebuilt.status).toBe(0);
    expect(comparable(readTree(out))).toEqual({
      ...freshSet,
      'account/CHANGELOG.md': readTree(out).get('account/CHANGELOG.md'),
      'account/node_modules/dep/index.js': '',
      'notes/todo.txt': Buffer.from('mine\n').toString('base64'),
    });
    expect(emptyFolders(out)).toEqual([]);
  });

  it('a stray file in a package folder is swept even when the catalogue did not change', async () => {
    const out = join(work, 'stray');
    expect((await build(catalogue, out)).status).toBe(0);
    writeFileSync(join(out, 'billing/events/stray-v1.d.ts'), 'export {};\n');
    const again = await build(catalogue, out);
    expect(again.stdout).not.toMatch(/nothing to do/);
    expect(again.stdout).toMatch(/1 removed/);
    expect(comparable(readTree(out))).toEqual(freshSet);
    expect((await build(catalogue, out)).stdout).toMatch(/nothing to do/);
  });

  it('an over-long event key is refused by the loader at its place, and replaces nothing', async () => {
    const out = join(work, 'long-key');
    expect((await build(catalogue, out)).status).toBe(0);
    const before = readTree(out);
    const mtime = statSync(join(out, 'account/package.json')).mtimeMs;
    const longCatalogue = join(work, 'long', 'catalogue');
    cpSync(catalogue, longCatalogue, { recursive: true });
    const account = join(longCatalogue, 'groups/account.yaml');
    writeFileSync(
      account,
      `${readFileSync(account, 'utf8')}  account.${'x'.repeat(260)}-v1:\n    fields:\n      id: {type: string}\n`,
    );

    const failed = await build(longCatalogue, out);
    expect(failed.status).toBe(1);
    expect(failed.stderr).toMatch(/groups\/account\.yaml:\d+:\d+: error name-too-long: /);
    expect(readTree(out)).toEqual(before);
    expect(statSync(join(out, 'account/package.json')).mtimeMs).toBe(mtime);
    expect(existsSync(join(out, STAGING_DIR))).toBe(false);
  });

  it('a generated file the file system refuses fails the build with write-failed and replaces nothing', async () => {
    const out = join(work, 'refused');
    expect((await build(catalogue, out)).status).toBe(0);
    // A folder where the build must write a file: reading or replacing it fails with EISDIR.
    rmSync(join(out, 'account/README.md'));
    mkdirSync(join(out, 'account/README.md/kept'), { recursive: true });
    const before = readTree(out);
    const mtime = statSync(join(out, 'account/package.json')).mtimeMs;
    const changed = changedCopy('refused-catalogue');

    const failed = await build(changed, out);
    expect(failed.status).toBe(1);
    expect(failed.stderr).toMatch(/error write-failed: cannot write account\/README\.md \(EISDIR: /);
    expect(failed.stderr).toMatch(/nothing was written/);
    expect(readTree(out)).toEqual(before);
    expect(statSync(join(out, 'account/package.json')).mtimeMs).toBe(mtime);
    expect(existsSync(join(out, STAGING_DIR))).toBe(false);
  });

  it('a folder where a catalogue document was, on an edit that copies from it: write-failed with its path', async () => {
    const out = join(work, 'document-folder');
    expect((await build(catalogue, out)).status).toBe(0);
    rmSync(join(out, 'catalogue/openapi.json'));
    mkdirSync(join(out, 'catalogue/openapi.json'));
    const before = readTree(out);
    const changed = changedCopy('document-folder-catalogue');

    const failed = await build(changed, out);
    expect(failed.status).toBe(1);
    expect(failed.stderr).toMatch(/error write-failed: cannot write catalogue\/openapi\.json \(EISDIR: /);
    expect(failed.stderr).not.toMatch(/\n\s+at /);
    expect(readTree(out)).toEqual(before);
    expect(existsSync(join(out, STAGING_DIR))).toBe(false);
  });

  it('--out outside the project keeps the emit cache in the project, not beside the output', async () => {
    const project = join(work, 'npm-project');
    cpSync(catalogue, join(project, 'events', 'catalogue'), { recursive: true });
    writeFileSync(join(project, 'package.json'), '{"private": true}\n');
    const elsewhere = tempDir('eventry-build-out-');
    expect((await build(join(project, 'events', 'catalogue'), join(elsewhere, 'x'))).status).toBe(0);
    expect(existsSync(join(elsewhere, '.eventry'))).toBe(false);
    expect(existsSync(join(project, 'events', '.eventry'))).toBe(false);
    expect(existsSync(join(project, '.eventry', 'cache'))).toBe(true);
  });
});

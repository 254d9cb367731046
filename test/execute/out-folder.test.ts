import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { OUTPUT_MARKER } from '../../generators/execute/output-folder.js';
import { runCliInProcess } from '../cli/in-process.js';
import { fixturePath, tempDir } from '../helpers.js';

/** Every entry below `dir` with its size and time: a refused run must leave this exactly as it was. */
function listing(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .map((entry) => {
      const full = join(entry.parentPath, entry.name);
      const stat = statSync(full);
      return `${relative(dir, full)} ${entry.isDirectory() ? 'dir' : stat.size} ${stat.mtimeMs}`;
    })
    .sort();
}

/** A project: package.json, a catalogue, node_modules with a dependency, and a stranger's folder. */
function makeProject(root: string): void {
  cpSync(fixturePath('small'), join(root, 'catalogue'), { recursive: true });
  writeFileSync(join(root, 'package.json'), '{"private": true}\n');
  mkdirSync(join(root, 'node_modules/left-pad'), { recursive: true });
  writeFileSync(join(root, 'node_modules/left-pad/index.js'), 'module.exports = 1;\n');
  mkdirSync(join(root, 'foreign/account'), { recursive: true });
  writeFileSync(join(root, 'foreign/account/notes.txt'), 'mine\n');
}

describe('--out must be a folder eventry owns: refused before anything is touched', () => {
  const work = tempDir('eventry-out-folder-');
  const project = join(work, 'project');
  beforeAll(() => makeProject(project));

  const cases: [string, string, 'out-unsafe' | 'out-not-owned'][] = [
    ['the project root (.)', '.', 'out-unsafe'],
    ["'' (an unset $OUT)", '', 'out-unsafe'],
    ['the catalogue', 'catalogue', 'out-unsafe'],
    ['a folder inside the catalogue', 'catalogue/groups', 'out-unsafe'],
    ['a parent of the catalogue (..)', '..', 'out-unsafe'],
    ['node_modules', 'node_modules', 'out-unsafe'],
    ['a folder inside node_modules', 'node_modules/.cache/eventry', 'out-unsafe'],
    ['a pseudo file system (/proc)', '/proc/x', 'out-unsafe'],
    ['a pseudo file system (/sys)', '/sys/x', 'out-unsafe'],
    ["a stranger's non-empty folder", 'foreign', 'out-not-owned'],
  ];
  for (const [what, out, code] of cases) {
    it(`build --out ${what}: exit 2, ${code}, the project untouched`, async () => {
      const before = listing(project);
      const result = await runCliInProcess(['build', '--catalogue', 'catalogue', '--out', out], {
        cwd: project,
      });
      expect(result.stderr).toMatch(new RegExp(`error ${code}: --out `));
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(result.status).toBe(2);
      expect(listing(project)).toEqual(before);
    });
  }

  for (const [out, code] of [
    ['', 'out-unsafe'],
    ['/proc/x', 'out-unsafe'],
    ['node_modules/site', 'out-unsafe'],
    ['foreign', 'docs-out-not-site'],
  ] as const) {
    it(`docs --out ${out || "''"}: exit 2, ${code}, the project untouched`, async () => {
      const before = listing(project);
      const result = await runCliInProcess(['docs', '--catalogue', 'catalogue', '--out', out], {
        cwd: project,
      });
      expect(result.stderr).toContain(`[${code}]`);
      expect(result.status).toBe(2);
      expect(listing(project)).toEqual(before);
    });
  }
});

describe('the sweep removes only what is eventry’s', () => {
  const work = tempDir('eventry-out-sweep-');
  const project = join(work, 'project');
  const build = (out: string) =>
    runCliInProcess(['build', '--catalogue', 'catalogue', '--out', out], { cwd: project });
  beforeAll(() => makeProject(project));

  it('a new folder is built and marked; files a stranger adds outside the package folders survive rebuilds', async () => {
    expect((await build('out')).status).toBe(0);
    const out = join(project, 'out');
    expect(readdirSync(out)).toContain(OUTPUT_MARKER);
    // npm installing into the packages' node_modules, and a folder of notes beside the packages.
    mkdirSync(join(out, 'node_modules/left-pad'), { recursive: true });
    writeFileSync(join(out, 'node_modules/left-pad/index.js'), 'module.exports = 1;\n');
    mkdirSync(join(out, 'node_modules/empty-dep'));
    mkdirSync(join(out, 'notes'));
    writeFileSync(join(out, 'notes/todo.txt'), 'mine\n');
    const forced = await runCliInProcess(['build', '--catalogue', 'catalogue', '--out', 'out', '--force'], {
      cwd: project,
    });
    expect(forced.status).toBe(0);
    expect(forced.stdout).toMatch(/ 0 removed/);
    expect(readFileSync(join(out, 'node_modules/left-pad/index.js'), 'utf8')).toBe('module.exports = 1;\n');
    expect(readdirSync(join(out, 'node_modules'))).toContain('empty-dep');
    expect(readFileSync(join(out, 'notes/todo.txt'), 'utf8')).toBe('mine\n');
    // And a build with nothing to do stays one: a stranger's file is no orphan of the build.
    expect((await build('out')).stdout).toMatch(/nothing to do/);
  });

  it('a fresh clone’s packages folder (committed package.json and CHANGELOG.md only) builds, its versions and changelogs kept', async () => {
    const built = join(project, 'built');
    expect((await build('built')).status).toBe(0);
    const clone = join(project, 'clone');
    for (const entry of readdirSync(built, { withFileTypes: true })) {
      const slug = entry.name;
      if (!entry.isDirectory() || slug.startsWith('.') || slug === 'node_modules') continue;
      for (const name of ['package.json', 'CHANGELOG.md']) {
        const path = join(built, slug, name);
        if (!statSync(path, { throwIfNoEntry: false })) continue;
        mkdirSync(join(clone, slug), { recursive: true });
        cpSync(path, join(clone, slug, name));
      }
    }
    const manifest = join(clone, 'account/package.json');
    writeFileSync(
      manifest,
      readFileSync(manifest, 'utf8').replace(/"version": "[^"]+"/, '"version": "3.1.4"'),
    );
    writeFileSync(join(clone, 'account/CHANGELOG.md'), '# Changelog\n\n## 3.1.4\n\n- kept by hand\n');

    const result = await build('clone');
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(readdirSync(clone)).toContain(OUTPUT_MARKER);
    expect(JSON.parse(readFileSync(manifest, 'utf8')).version).toBe('3.1.4');
    expect(readFileSync(join(clone, 'account/CHANGELOG.md'), 'utf8')).toContain('- kept by hand');
  });

  it('a stranger’s file in a folder that only looks like an output (no marker, one foreign folder) is refused, not swept', async () => {
    const looks = join(project, 'looks');
    cpSync(join(project, 'built'), looks, { recursive: true });
    rmSync(join(looks, OUTPUT_MARKER));
    rmSync(join(looks, '.eventry-build-state.json'));
    mkdirSync(join(looks, 'account-notes'));
    writeFileSync(join(looks, 'account-notes/notes.txt'), 'mine\n');
    const before = listing(looks);
    const result = await build('looks');
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/error out-not-owned: --out looks is a folder eventry did not write/);
    expect(listing(looks)).toEqual(before);
  });
});

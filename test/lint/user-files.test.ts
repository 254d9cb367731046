import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../generators/load/index.js';
import { REPO, tempDir } from '../helpers.js';
import { eventry as run } from './spawn.js';

// Every file eventry reads on a user's behalf is inside the catalogue once links are resolved, a
// regular file, of bounded size, or refused with a code that names the path and quotes nothing of it.

const LINT_FIXTURE = join(REPO, 'test', 'fixtures', 'lint', 'field-name-case', 'bad');
const CONSUMERS_FIXTURE = join(REPO, 'test', 'fixtures', 'consumers', 'accepted', 'before');

/** A secret outside the catalogue: its text must never reach any output. */
function secretFile(): string {
  const path = join(tempDir('eventry-secret-'), 'secret.json');
  writeFileSync(path, 'root:x:0:0:SECRET-OUTSIDE-THE-CATALOGUE\n');
  return path;
}

function copyOf(fixture: string): string {
  const dir = join(tempDir('eventry-user-files-'), 'catalogue');
  cpSync(fixture, dir, { recursive: true });
  return dir;
}

const eventry = (...args: string[]) => run(args);

describe('the lint baseline is read as every user file is', () => {
  const baselines: [string, (dir: string) => void][] = [
    [
      'a link to a file outside the catalogue',
      (dir) => symlinkSync(secretFile(), join(dir, 'lint-baseline.json')),
    ],
    ['a link to /dev/zero', (dir) => symlinkSync('/dev/zero', join(dir, 'lint-baseline.json'))],
    [
      'a FIFO',
      (dir) => {
        const made = spawnSync('mkfifo', [join(dir, 'lint-baseline.json')]);
        expect(made.status).toBe(0);
      },
    ],
    [
      'lint.baseline naming a file outside by a relative path',
      (dir) => {
        const secret = secretFile();
        writeFileSync(
          join(dir, 'eventry.config.yaml'),
          `title: T\nversion: 1.0.0\nscope: "@t"\nlint:\n  baseline: ${join('..', '..', secret)}\n`,
        );
      },
    ],
    [
      'lint.baseline naming an absolute path',
      (dir) =>
        writeFileSync(
          join(dir, 'eventry.config.yaml'),
          `title: T\nversion: 1.0.0\nscope: "@t"\nlint:\n  baseline: ${secretFile()}\n`,
        ),
    ],
  ];

  it.each(baselines)(
    '%s: refused with invalid-lint-baseline, nothing of it quoted, no hang',
    (name, make) => {
      const dir = copyOf(LINT_FIXTURE);
      make(dir);
      const formats = name.startsWith('a link to a file') ? ['text', 'json', 'sarif', 'github'] : ['text'];
      for (const format of formats) {
        const result = eventry('lint', '--catalogue', dir, '--format', format);
        expect(result.status, result.output).toBe(1);
        expect(result.output).toContain('invalid-lint-baseline');
        expect(result.output).not.toContain('root:x');
        expect(result.output).not.toContain('SECRET');
      }
    },
  );

  it('a link to a baseline inside the catalogue is read', () => {
    const dir = copyOf(LINT_FIXTURE);
    mkdirSync(join(dir, 'lint'));
    expect(eventry('lint', '--catalogue', dir, '--write-baseline').status).toBe(0);
    renameSync(join(dir, 'lint-baseline.json'), join(dir, 'lint', 'baseline.json'));
    symlinkSync(join('lint', 'baseline.json'), join(dir, 'lint-baseline.json'));
    const result = eventry('lint', '--catalogue', dir);
    expect(result.status, result.output).toBe(0);
    expect(result.stdout).toContain('(2 in the baseline)');
  });

  it('--write-baseline never writes outside the catalogue', () => {
    const dir = copyOf(LINT_FIXTURE);
    const outside = join(tempDir('eventry-outside-'), 'baseline.json');
    writeFileSync(
      join(dir, 'eventry.config.yaml'),
      `title: T\nversion: 1.0.0\nscope: "@t"\nlint:\n  baseline: ${outside}\n`,
    );
    const result = eventry('lint', '--catalogue', dir, '--write-baseline');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('outside the catalogue folder');
  });
});

describe('teams and consumer files', () => {
  const teamOf = (dir: string) => {
    const loaded = loadCatalogue(dir);
    return loaded.ok
      ? loaded.catalogue.ownership?.consumers.map((consumer) => consumer.team).sort()
      : loaded.problems;
  };

  it('a consumer file linked inside the catalogue is read: its team is in the gate', () => {
    const dir = copyOf(CONSUMERS_FIXTURE);
    // In a folder the loader does not walk (a dot folder), so it is read through the link only.
    mkdirSync(join(dir, '.shared'));
    renameSync(join(dir, 'consumers', 'ledger.yaml'), join(dir, '.shared', 'ledger.yaml'));
    symlinkSync(join('..', '.shared', 'ledger.yaml'), join(dir, 'consumers', 'ledger.yaml'));
    expect(teamOf(dir)).toContain('ledger');
  });

  it.each([
    ['consumers/ledger.yaml', 'symlink-outside-catalogue'],
    ['teams.yaml', 'symlink-outside-catalogue'],
  ])('%s linked outside the catalogue is a located, coded problem, never skipped', (file, code) => {
    const dir = copyOf(CONSUMERS_FIXTURE);
    const outside = join(tempDir('eventry-outside-'), 'file.yaml');
    renameSync(join(dir, file), outside);
    symlinkSync(outside, join(dir, file));
    for (const command of ['lint', 'check']) {
      const result = eventry(command, '--catalogue', dir, ...(command === 'check' ? ['--base', dir] : []));
      expect(result.status, result.output).not.toBe(0);
      expect(result.output).toContain(`${file}:1:1: error ${code}`);
    }
  });

  it.each(['consumers/fifo.yaml', 'teams.yaml', 'groups/billing.yaml'])(
    'a FIFO at %s is an unreadable-file problem, not a hang',
    (file) => {
      const dir = copyOf(CONSUMERS_FIXTURE);
      rmSync(join(dir, file), { force: true });
      expect(spawnSync('mkfifo', [join(dir, file)]).status).toBe(0);
      const result = eventry('lint', '--catalogue', dir);
      expect(result.status, result.output).toBe(1);
      expect(result.stdout).toContain(`${file}:1:1: error unreadable-file`);
      expect(result.stdout).toContain('not a regular file');
    },
  );

  it('a device linked into the catalogue is never read', () => {
    const dir = copyOf(CONSUMERS_FIXTURE);
    symlinkSync('/dev/zero', join(dir, 'consumers', 'zero.yaml'));
    const result = eventry('lint', '--catalogue', dir);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('consumers/zero.yaml:1:1: error symlink-outside-catalogue');
  });

  it('an allow-list linked outside the catalogue, or a FIFO in its place, stops check with a coded problem', () => {
    const linked = copyOf(CONSUMERS_FIXTURE);
    const outside = join(tempDir('eventry-outside-'), 'allow.yaml');
    writeFileSync(outside, 'allow: []\n');
    symlinkSync(outside, join(linked, 'allow-breaking.yaml'));
    const fifo = copyOf(CONSUMERS_FIXTURE);
    expect(spawnSync('mkfifo', [join(fifo, 'allow-breaking.yaml')]).status).toBe(0);
    for (const [dir, code] of [
      [linked, 'symlink-outside-catalogue'],
      [fifo, 'unreadable-file'],
    ] as const) {
      const result = eventry('check', '--catalogue', dir, '--base', dir);
      expect(result.status, result.output).toBe(1);
      expect(result.output).toContain(`allow-breaking.yaml:1:1: error ${code}`);
    }
  });
});

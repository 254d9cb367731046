import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type BuiltPackages, buildPackages } from '../emit/package/build-packages.js';
import { compiledToolkitPath, fixturePath, tempDir } from '../helpers.js';
import { inspectedProgram, runCliInProcess } from './in-process.js';

/**
 * Every command of the CLI with broken arguments: missing required ones, unknown flags, nonexistent
 * files, a directory where a file is expected, a file where a directory is expected, garbage values.
 * Each must exit with the documented code (2: usage or I/O error) and a message, never a stack trace.
 */
let built: BuiltPackages;
const scratch = tempDir('eventry-broken-');
const aFile = join(scratch, 'a-file.txt');
const garbage = join(scratch, 'garbage.json');
writeFileSync(aFile, 'not a directory\n');
writeFileSync(garbage, '\u0000\u0001{{{ not json or yaml');
beforeAll(async () => {
  built = await buildPackages(fixturePath('small'));
});

const STACK_FRAME = /^\s+at .+(\(.*:\d+:\d+\)|:\d+:\d+)$/m;
const USAGE = 2;

type Case = [name: string, args: () => string[], status: number];

/** At least one broken call per command; the list of commands is checked against the program below. */
const cases: Record<string, Case[]> = {
  build: [
    ['an unknown flag', () => ['build', '--bogus'], USAGE],
    ['a nonexistent catalogue', () => ['build', '--catalogue', join(scratch, 'nowhere')], USAGE],
    ['a file as the catalogue', () => ['build', '--catalogue', aFile], USAGE],
    ['a file as --out', () => ['build', '-c', fixturePath('small'), '--out', aFile], USAGE],
    ['a missing option value', () => ['build', '--out'], USAGE],
  ],
  publish: [
    ['no --registry', () => ['publish'], USAGE],
    ['a registry that is not a URL', () => ['publish', '--registry', '::::'], USAGE],
    ['an unknown --access', () => ['publish', '-r', 'http://127.0.0.1:9/', '--access', 'world'], USAGE],
    ['an unknown flag', () => ['publish', '-r', 'http://127.0.0.1:9/', '--bogus'], USAGE],
    ['a file as --out', () => ['publish', '-r', 'http://127.0.0.1:9/', '--out', aFile], USAGE],
  ],
  diff: [
    ['no arguments', () => ['diff'], USAGE],
    ['one argument', () => ['diff', 'HEAD'], USAGE],
    ['nonexistent sources', () => ['diff', join(scratch, 'a'), join(scratch, 'b')], USAGE],
    ['garbage files', () => ['diff', garbage, garbage], USAGE],
    ['an unknown --format', () => ['diff', 'HEAD', 'HEAD', '--format', 'constructor'], USAGE],
    ['an unknown --fail-on', () => ['diff', 'HEAD', 'HEAD', '--fail-on', 'sometimes'], USAGE],
    ['a file as the catalogue', () => ['diff', 'HEAD', 'HEAD', '--catalogue', aFile], USAGE],
  ],
  lint: [
    ['a nonexistent catalogue', () => ['lint', '-c', join(scratch, 'nowhere')], USAGE],
    ['a file as the catalogue', () => ['lint', '-c', aFile], USAGE],
    ['an unknown --format', () => ['lint', '--format', 'xml'], USAGE],
    ['a --max-warnings that is not a count', () => ['lint', '--max-warnings', '-1'], USAGE],
  ],
  check: [
    ['--base without its value', () => ['check', '--base'], USAGE],
    ['an unknown base', () => ['check', '--base', 'no-such-ref-anywhere'], USAGE],
    ['a nonexistent catalogue', () => ['check', '-b', 'HEAD', '-c', join(scratch, 'nowhere')], USAGE],
    ['a file as the catalogue', () => ['check', '-b', 'HEAD', '-c', aFile], USAGE],
    ['an unknown --format', () => ['check', '-b', 'HEAD', '--format', 'xml'], USAGE],
  ],
  version: [
    ['an unknown flag', () => ['version', '--bogus'], USAGE],
    ['a nonexistent catalogue', () => ['version', '-c', join(scratch, 'nowhere')], USAGE],
    ['a file as the catalogue', () => ['version', '-c', aFile], USAGE],
    ['--out outside the repository', () => ['version', '-o', scratch, '-n'], USAGE],
    ['a file as --out outside the repository', () => ['version', '-o', aFile, '-n'], USAGE],
  ],
  validate: [
    ['no arguments', () => ['validate'], USAGE],
    ['an unknown flag', () => ['validate', '--ndjson', '-', '--bogus'], USAGE],
    ['a garbage --max-bytes', () => ['validate', '--ndjson', '-', '--max-bytes', '-5'], USAGE],
    ['nonexistent packages', () => ['validate', '--ndjson', '-', '--out', join(scratch, 'no')], USAGE],
    ['a file as --out', () => ['validate', '--ndjson', '-', '--out', aFile], USAGE],
    ['a directory as the file', () => ['validate', 'account.created-v1', scratch, '--out', built.out], USAGE],
    ['a directory as --ndjson', () => ['validate', '--ndjson', scratch, '--out', built.out], USAGE],
    [
      'a nonexistent file',
      () => ['validate', 'account.created-v1', join(scratch, 'x.json'), '--out', built.out],
      USAGE,
    ],
    ['an unknown event', () => ['validate', 'constructor', aFile, '--out', built.out], USAGE],
  ],
  usage: [
    ['no subcommand', () => ['usage'], USAGE],
    ['no directory', () => ['usage', 'scan', '--team', 'ledger'], USAGE],
    ['no --team', () => ['usage', 'scan', scratch], USAGE],
    ['a --team that is no team id', () => ['usage', 'scan', scratch, '--team', 'Not A Team'], USAGE],
    ['a folder without tsconfig.json', () => ['usage', 'scan', scratch, '--team', 'ledger'], USAGE],
    ['an unknown flag', () => ['usage', 'scan', scratch, '--team', 'ledger', '--bogus'], USAGE],
  ],
  upcast: [
    ['no arguments', () => ['upcast'], USAGE],
    ['an unknown flag', () => ['upcast', 'account.removed-v1', '--bogus'], USAGE],
    ['a garbage --max-bytes', () => ['upcast', 'account.removed-v1', '--max-bytes', '0'], USAGE],
    ['a file as the catalogue', () => ['upcast', 'account.removed-v1', '--catalogue', aFile], USAGE],
    ['an unknown event', () => ['upcast', 'constructor', '--catalogue', fixturePath('small')], USAGE],
    [
      'a prototype name as --to',
      () => ['upcast', 'account.removed-v1', '--to', '__proto__', '--catalogue', fixturePath('small')],
      USAGE,
    ],
  ],
  fake: [
    ['no arguments', () => ['fake'], USAGE],
    ['an unknown flag', () => ['fake', 'account.created-v1', '--bogus'], USAGE],
    ['a garbage --count', () => ['fake', 'account.created-v1', '--count', '1e3', '--out', built.out], USAGE],
    [
      'an unknown variant',
      () => ['fake', 'account.created-v1', '--variant', 'huge', '--out', built.out],
      USAGE,
    ],
    ['nonexistent packages', () => ['fake', 'account.created-v1', '--out', join(scratch, 'no')], USAGE],
    ['a file as --out', () => ['fake', 'account.created-v1', '--out', aFile], USAGE],
    ['an unknown event', () => ['fake', 'constructor', '--out', built.out], USAGE],
    ['a prototype name as the event', () => ['fake', '__proto__', '--out', built.out], USAGE],
  ],
  serve: [
    ['an unknown flag', () => ['serve', '--bogus'], USAGE],
    ['a port that is not one', () => ['serve', '--port', 'http'], USAGE],
    ['a missing option value', () => ['serve', '--port'], USAGE],
    ['a nonexistent catalogue', () => ['serve', '--catalogue', join(scratch, 'nowhere')], USAGE],
    ['a file as the catalogue', () => ['serve', '--catalogue', aFile], USAGE],
  ],
  docs: [
    ['an unknown flag', () => ['docs', '--bogus'], USAGE],
    ['a nonexistent catalogue', () => ['docs', '--catalogue', join(scratch, 'nowhere')], USAGE],
    ['a file as the catalogue', () => ['docs', '--catalogue', aFile], USAGE],
    ['a file as --out', () => ['docs', '--out', aFile], USAGE],
    ['a folder it did not write as --out', () => ['docs', '--out', scratch, '--no-cache'], USAGE],
    [
      'no built packages',
      () => [
        'docs',
        '--packages',
        join(scratch, 'no-packages'),
        '--out',
        join(scratch, 'site'),
        '--no-cache',
      ],
      1,
    ],
  ],
  mcp: [
    ['an unknown flag', () => ['mcp', '--bogus'], USAGE],
    ['a nonexistent catalogue', () => ['mcp', '--catalogue', join(scratch, 'nowhere')], USAGE],
    ['a file as the catalogue', () => ['mcp', '--catalogue', aFile], USAGE],
    ['a nonexistent packages folder', () => ['mcp', '--packages', join(scratch, 'nowhere')], USAGE],
    ['a file as the packages folder', () => ['mcp', '--packages', aFile], USAGE],
  ],
  registry: [
    ['no subcommand', () => ['registry'], USAGE],
    ['no --out', () => ['registry', 'export'], USAGE],
    ['an unknown flag', () => ['registry', 'export', '--out', join(scratch, 'export'), '--bogus'], USAGE],
    ['a file as --out', () => ['registry', 'export', '-c', fixturePath('small'), '--out', aFile], USAGE],
    ['a folder it did not write as --out', () => ['registry', 'export', '--out', scratch], USAGE],
    [
      'a nonexistent catalogue',
      () => ['registry', 'export', '--out', join(scratch, 'export'), '-c', join(scratch, 'no')],
      USAGE,
    ],
  ],
  register: [
    ['no --registry', () => ['register'], USAGE],
    ['a registry that is not an http(s) URL', () => ['register', '--registry', '::::'], USAGE],
    ['an unknown flag', () => ['register', '-r', 'http://127.0.0.1:9/', '--bogus'], USAGE],
    [
      'a nonexistent catalogue',
      () => ['register', '-r', 'http://127.0.0.1:9/', '-c', join(scratch, 'no')],
      USAGE,
    ],
    ['a file as the catalogue', () => ['register', '-r', 'http://127.0.0.1:9/', '-c', aFile], USAGE],
    [
      '--subjects matching nothing',
      () => ['register', '-r', 'http://127.0.0.1:9/', '--subjects', 'nothing.*'],
      USAGE,
    ],
  ],
};

describe('every command with broken arguments: a message and the documented exit code, no stack trace', () => {
  it('covers every command of the program', () => {
    expect(
      inspectedProgram()
        .commands.map((command) => command.name())
        .sort(),
    ).toEqual(Object.keys(cases).sort());
  });

  const all = Object.entries(cases).flatMap(([command, list]) =>
    list.map(([name, args, status]) => [`${command}: ${name}`, args, status] as const),
  );
  it.each(all)('%s', async (_name, args, status) => {
    const result = await runCliInProcess(args(), { input: '' });
    expect(result.stderr).not.toMatch(STACK_FRAME);
    expect(result.stderr.trim()).not.toBe('');
    expect(result.status).toBe(status);
  });

  it.each([
    ['an unknown command', ['nosuchcommand']],
    ['an unknown top-level flag', ['--bogus']],
  ])('eventry with %s', async (_name, args) => {
    const result = await runCliInProcess(args);
    expect(result.stderr).not.toMatch(STACK_FRAME);
    expect(result.status).toBe(USAGE);
  });
});

describe('eventry --version and npm run npm-registry -- --help', () => {
  it('eventry --version prints the toolkit version', async () => {
    const result = await runCliInProcess(['--version']);
    expect(result.stdout).toBe('0.1.0\n');
    expect(result.status).toBe(0);
  });

  const registry = (args: string[]) =>
    spawnSync(process.execPath, [compiledToolkitPath('scripts/npm-registry.js'), ...args], {
      encoding: 'utf8',
    });

  it('registry --help prints the options and starts nothing', () => {
    const result = registry(['--help']);
    expect(result.stdout).toContain('Usage: npm run npm-registry -- [options]');
    expect(result.stdout).toContain('--port <n>');
    expect(result.status).toBe(0);
  });

  it.each([
    ['an unknown flag', ['--bogus']],
    ['a missing value', ['--port']],
    ['a port that is not one', ['--port', 'http']],
  ])('registry with %s exits 2 with usage, no stack trace', (_name, args) => {
    const result = registry(args);
    expect(result.stderr).toMatch(/^registry: /);
    expect(result.stderr).not.toMatch(STACK_FRAME);
    expect(result.status).toBe(USAGE);
  });
});

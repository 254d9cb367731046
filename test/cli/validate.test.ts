import { spawnSync } from 'node:child_process';
import { closeSync, cpSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type BuiltPackages, buildPackages } from '../emit/package/build-packages.js';
import { compiledToolkitPath, fixturePath, runCli, tempDir } from '../helpers.js';
import { runCliInProcess } from './in-process.js';
import { account, line, parseLines, writeFile } from './validate-input.js';

/**
 * `eventry validate` (run `npm run build:tool` first), against the small fixture's packages built into
 * a temporary folder (`--out`).
 */
let built: BuiltPackages;
let out: string[];
beforeAll(async () => {
  built = await buildPackages(fixturePath('small'));
  out = ['--out', built.out];
});

describe('eventry validate --ndjson', () => {
  it('prints one JSON line per input line, in order, and exits 1 when any is invalid', async () => {
    const input = [
      line('account.created-v1', account),
      line('account.created-v1', { account_number: 5 }),
      '{not json',
      '',
      line('account.creatd-v1', {}),
      '[1, 2]',
      line('billing.ledger.entry_posted-v1', { ledger: { account: {}, number: 'L' } }),
    ].join('\n');
    const { status, stdout, stderr } = await runCliInProcess(['validate', '--ndjson', '-', ...out], {
      input,
    });
    expect(stderr).toBe('');
    const lines = parseLines(stdout);
    expect(lines.map((l) => [l.line, l.event, l.valid, l.code])).toEqual([
      [1, 'account.created-v1', true, undefined],
      [2, 'account.created-v1', false, 'event_failed_validation'],
      [3, undefined, false, 'invalid_json'],
      [5, 'account.creatd-v1', false, 'unknown_event'],
      [6, undefined, false, 'invalid_line'],
      [7, 'billing.ledger.entry_posted-v1', false, 'event_failed_validation'],
    ]);
    expect(Object.keys(lines[0])).toEqual(['line', 'event', 'valid']);
    expect(Object.keys(lines[1])).toEqual(['line', 'event', 'valid', 'code', 'detail', 'errors']);
    expect(lines[1].errors).toEqual([
      {
        detail: '`account_user_emails` is required but missing.',
        code: 'required',
        attr: 'account_user_emails',
      },
      {
        detail: '`account_number` must be a string, not an integer.',
        code: 'invalid_type',
        attr: 'account_number',
      },
    ]);
    expect(lines[3].detail).toContain('Did you mean `account.created-v1`?');
    expect(lines[5].errors).toEqual([
      {
        detail: '`ledger.account.number` is required but missing.',
        code: 'required',
        attr: 'ledger.account.number',
      },
    ]);
    expect(status).toBe(1);
  });

  it('exits 0 when every line is valid, and reads a file as well as stdin', async () => {
    const file = writeFile(
      'events.ndjson',
      `${line('account.created-v1', account)}\n${line('meterpoint.gas.partial-v1', { mprn: 'M', x: 1 })}\n`,
    );
    const { status, stdout } = await runCliInProcess(['validate', '--ndjson', file, ...out]);
    expect(parseLines(stdout)).toEqual([
      { line: 1, event: 'account.created-v1', valid: true },
      { line: 2, event: 'meterpoint.gas.partial-v1', valid: true },
    ]);
    expect(status).toBe(0);
  });

  it('accepts undocumented fields with --mode tolerant only', async () => {
    const input = line('account.created-v1', { ...account, added_later: { x: 1 } });
    expect((await runCliInProcess(['validate', '--ndjson', '-', ...out], { input })).status).toBe(1);
    const tolerant = await runCliInProcess(['validate', '--ndjson', '-', '--mode', 'tolerant', ...out], {
      input,
    });
    expect(parseLines(tolerant.stdout)).toEqual([{ line: 1, event: 'account.created-v1', valid: true }]);
    expect(tolerant.status).toBe(0);
  });

  it('gives a human summary with --format text, without colour off a terminal', () => {
    const input = `${line('account.created-v1', account)}\n${line('account.created-v1', {})}\n`;
    const result = spawnSync(
      process.execPath,
      [compiledToolkitPath('scripts/eventry.js'), 'validate', '--ndjson', '-', '--format', 'text', ...out],
      {
        input,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '' },
      },
    );
    expect(result.stdout).toBe(
      [
        'line 2 (account.created-v1): invalid: The payload is not a valid `account.created-v1` event: 2 problems. [event_failed_validation]',
        '  account_number: `account_number` is required but missing. [required]',
        '  account_user_emails: `account_user_emails` is required but missing. [required]',
        '2 lines: 1 valid, 1 invalid',
        '',
      ].join('\n'),
    );
    expect(result.stdout).not.toContain('\u001b[');
    expect(result.status).toBe(1);
  });

  it('exits 2 with a message on stderr when the file cannot be read', async () => {
    const { status, stdout, stderr } = await runCliInProcess([
      'validate',
      '--ndjson',
      '/nonexistent/events.ndjson',
      ...out,
    ]);
    expect(status).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('eventry validate: cannot read /nonexistent/events.ndjson: ENOENT');
  });

  it('streams: a 40 MB input in a 32 MB heap', () => {
    const path = join(tempDir('eventry-stream-'), 'big.ndjson');
    const fd = openSync(path, 'w');
    const chunk = `${Array.from({ length: 1000 }, () => line('account.created-v1', { ...account, status: 'active', tags: [[1, 2, 3]] })).join('\n')}\n`;
    let lines = 0;
    for (let written = 0; written < 40 * 1024 * 1024; written += chunk.length) {
      writeSync(fd, chunk);
      lines += 1000;
    }
    closeSync(fd);
    const result = spawnSync(
      process.execPath,
      [
        '--max-old-space-size=32',
        compiledToolkitPath('scripts/eventry.js'),
        'validate',
        '--ndjson',
        path,
        '--format',
        'text',
        ...out,
      ],
      { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
    );
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(`${lines} lines: ${lines} valid, 0 invalid\n`);
    expect(result.status).toBe(0);
  }, 120_000);
});

describe('eventry validate KEY FILE...', () => {
  it('validates JSON files against one event', async () => {
    const good = writeFile('good.json', JSON.stringify(account));
    const bad = writeFile('bad.json', JSON.stringify({ ...account, status: 'open' }));
    const notJson = writeFile('broken.json', '{');
    const { status, stdout } = await runCliInProcess([
      'validate',
      'account.created-v1',
      good,
      bad,
      notJson,
      ...out,
    ]);
    expect(stdout).toContain(`${good}: valid\n`);
    expect(stdout).toContain(
      `${bad}: invalid: The payload is not a valid \`account.created-v1\` event: 1 problem.`,
    );
    expect(stdout).toContain('  status: `status` must be one of "active", "closed". [invalid_value]');
    expect(stdout).toContain(`${notJson}: invalid: The file is not JSON`);
    expect(stdout).toContain('3 files: 1 valid, 2 invalid');
    expect(status).toBe(1);
    expect((await runCliInProcess(['validate', 'account.created-v1', good, ...out])).status).toBe(0);
  });

  it('prints JSON lines with --format json', async () => {
    const good = writeFile('good.json', JSON.stringify(account));
    const { status, stdout } = await runCliInProcess([
      'validate',
      'account.created-v1',
      good,
      '--format',
      'json',
      ...out,
    ]);
    expect(parseLines(stdout)).toEqual([{ file: good, event: 'account.created-v1', valid: true }]);
    expect(status).toBe(0);
  });

  it('exits 2 for an unknown event or an unreadable file', async () => {
    const good = writeFile('good.json', JSON.stringify(account));
    const unknown = await runCliInProcess(['validate', 'account.creatd-v1', good, ...out]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain(
      'no event `account.creatd-v1` in the group packages. Did you mean `account.created-v1`?',
    );
    const missing = await runCliInProcess(['validate', 'account.created-v1', '/nonexistent.json', ...out]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('cannot read /nonexistent.json');
  });

  it('the summary counts an unreadable file as an error, never as valid, in every format', async () => {
    const good = writeFile('good.json', JSON.stringify(account));
    const dir = tempDir();
    const text = await runCliInProcess([
      'validate',
      'account.created-v1',
      good,
      '/nonexistent.json',
      dir,
      ...out,
    ]);
    expect(text.stdout).toContain('3 files: 1 valid, 0 invalid, 2 unreadable');
    expect(text.stderr).toContain(`cannot read ${dir}: it is a directory`);
    expect(text.status).toBe(2);
    const json = await runCliInProcess([
      'validate',
      'account.created-v1',
      good,
      '/nonexistent.json',
      '--format',
      'json',
      ...out,
    ]);
    expect(parseLines(json.stdout).map((l) => [l.file, l.valid, l.code])).toEqual([
      [good, true, undefined],
      ['/nonexistent.json', false, 'unreadable_file'],
    ]);
    expect(json.status).toBe(2);
  });

  it('stops with a clear error on an endless file (/dev/zero) instead of filling memory', () => {
    const { status, stdout, stderr } = runCli(['validate', 'account.created-v1', '/dev/zero', ...out]);
    expect(stderr).toContain('cannot read /dev/zero: it is larger than the 64 MiB limit (--max-bytes)');
    expect(stdout).toBe('');
    expect(status).toBe(2);
  });

  it('a file with a BOM is read; one that is not UTF-8 is invalid_encoding', async () => {
    const bom = writeFile('bom.json', `\ufeff${JSON.stringify(account)}`);
    const latin1 = writeFile('latin1.json', Buffer.from('{"account_number":"caf\xe9"}', 'latin1'));
    const { stdout } = await runCliInProcess([
      'validate',
      'account.created-v1',
      bom,
      latin1,
      '--format',
      'json',
      ...out,
    ]);
    expect(parseLines(stdout).map((l) => [l.valid, l.code])).toEqual([
      [true, undefined],
      [false, 'invalid_encoding'],
    ]);
  });

  it('packages outside a project (no ajv-formats above them) give a clear error, not "cannot read"', () => {
    const alone = join(tempDir(), 'packages');
    mkdirSync(alone);
    cpSync(built.out, alone, { recursive: true, dereference: true });
    const input = line('account.created-v1', account);
    const { status, stderr } = runCli(['validate', '--ndjson', '-', '--out', alone], { input });
    expect(stderr).not.toContain('cannot read');
    expect(stderr).toContain(`cannot load the group package in \`${join(alone, 'account')}\``);
    expect(status).toBe(2);
  });
});

describe('usage', () => {
  it.each([
    ['no arguments', ['validate']],
    ['a key without files', ['validate', 'account.created-v1']],
    ['a key and --ndjson', ['validate', 'account.created-v1', '--ndjson', '-']],
    ['an unknown mode', ['validate', '--ndjson', '-', '--mode', 'lenient']],
    ['an unknown format', ['validate', '--ndjson', '-', '--format', 'xml']],
  ])('exits 2 on %s, with the message on stderr', async (_name, args) => {
    const { status, stdout, stderr } = await runCliInProcess([...args, ...out], { input: '' });
    expect(status).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).not.toBe('');
  });

  it('says to build first when there are no packages', async () => {
    const { status, stderr } = await runCliInProcess(['validate', '--ndjson', '-', '--out', tempDir()], {
      input: '',
    });
    expect(status).toBe(2);
    expect(stderr).toContain('run `npm run build` first');
  });

  it('has --help', async () => {
    const { status, stdout } = await runCliInProcess(['validate', '--help']);
    expect(status).toBe(0);
    expect(stdout).toContain('Usage: eventry validate [options] [key] [files...]');
    expect(stdout).toContain('--ndjson <file>');
    expect(stdout).toContain('Exit status: 0 all valid, 1 some invalid, 2 usage or I/O error.');
  });
});

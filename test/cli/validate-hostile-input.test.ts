import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { beforeAll, describe, expect, it } from 'vitest';
import { type BuiltPackages, buildPackages } from '../emit/package/build-packages.js';
import { compiledToolkitPath, fixturePath } from '../helpers.js';
import { runCliInProcess } from './in-process.js';
import { account, line, parseLines, writeFile } from './validate-input.js';

/**
 * `eventry validate --ndjson` as a process under hostile input: a pipe left open, bare CRs, invalid
 * UTF-8, over-long and endless lines, a closed output (the line reader itself is in
 * test/validate/lines.test.ts).
 */
let out: string[];
beforeAll(async () => {
  const built: BuiltPackages = await buildPackages(fixturePath('small'));
  out = ['--out', built.out];
});

describe('eventry validate --ndjson under hostile input', () => {
  const cli = compiledToolkitPath('scripts/eventry.js');

  it('streams: prints each result while the input pipe is still open', async () => {
    const child = spawn(process.execPath, [cli, 'validate', '--ndjson', '-', ...out], {
      env: { ...process.env, NO_COLOR: '1' },
    });
    const results = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    // Each answer arrives before the next line is sent: were results held back until the end of the
    // input (or a full buffer), this would wait forever and the test time out.
    child.stdin.write(`${line('account.created-v1', account)}\n`);
    expect(JSON.parse((await results.next()).value)).toEqual({
      line: 1,
      event: 'account.created-v1',
      valid: true,
    });
    child.stdin.write(`${line('account.created-v1', {})}\n`);
    expect(JSON.parse((await results.next()).value)).toMatchObject({ line: 2, valid: false });
    child.stdin.end();
    const [status] = await once(child, 'close');
    expect(status).toBe(1);
  });

  it('a bare CR inside a line does not split it; CRLF line ends and a UTF-8 BOM are accepted', async () => {
    const withCr = `{"event":"account.created-v1",\r"payload":${JSON.stringify(account)}}`;
    const input = `\ufeff${line('account.created-v1', account)}\r\n${withCr}\r\n${line('account.created-v1', account)}\n`;
    const { status, stdout, stderr } = await runCliInProcess(['validate', '--ndjson', '-', ...out], {
      input,
    });
    expect(stderr).toBe('');
    expect(parseLines(stdout)).toEqual([
      { line: 1, event: 'account.created-v1', valid: true },
      { line: 2, event: 'account.created-v1', valid: true },
      { line: 3, event: 'account.created-v1', valid: true },
    ]);
    expect(status).toBe(0);
  });

  it('reports invalid UTF-8 as invalid_encoding instead of replacing it', async () => {
    const bad = Buffer.concat([
      Buffer.from('{"event":"account.created-v1","payload":{"account_number":"A-'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from(`","account_user_emails":["a@example.com"]}}\n${line('account.created-v1', account)}\n`),
    ]);
    const { status, stdout } = await runCliInProcess([
      'validate',
      '--ndjson',
      writeFile('bad.ndjson', bad),
      ...out,
    ]);
    const lines = parseLines(stdout);
    expect(lines.map((l) => [l.line, l.valid, l.code])).toEqual([
      [1, false, 'invalid_encoding'],
      [2, true, undefined],
    ]);
    expect(status).toBe(1);
  });

  it('a line over --max-bytes is an invalid_line record, and the lines after it are still checked', async () => {
    const long = line('account.created-v1', { ...account, padding: 'x'.repeat(300_000) });
    const input = `${long}\n${line('account.created-v1', account)}\n`;
    const { status, stdout, stderr } = await runCliInProcess(
      ['validate', '--ndjson', '-', '--max-bytes', '64KiB', ...out],
      {
        input,
      },
    );
    expect(stderr).toBe('');
    const lines = parseLines(stdout);
    expect(lines.map((l) => [l.line, l.valid, l.code])).toEqual([
      [1, false, 'invalid_line'],
      [2, true, undefined],
    ]);
    expect(lines[0].detail).toContain('longer than 64 KiB');
    expect(status).toBe(1);
  });

  it('an endless line (/dev/zero) is reported at once and memory stays bounded', async () => {
    const child = spawn(
      process.execPath,
      ['--max-old-space-size=32', cli, 'validate', '--ndjson', '/dev/zero', '--max-bytes', '1MiB', ...out],
      { env: { ...process.env, NO_COLOR: '1' } },
    );
    const results = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    expect(JSON.parse((await results.next()).value)).toMatchObject({ line: 1, code: 'invalid_line' });
    // Still running after the record (skipping the rest of the line), not crashed out of memory.
    expect(child.exitCode).toBeNull();
    child.kill();
    await once(child, 'close');
  });

  it('ends quietly when the output pipe closes (| head -1), never "cannot read"', async () => {
    const input = `${Array.from({ length: 50_000 }, () => line('account.created-v1', account)).join('\n')}\n`;
    const child = spawn(process.execPath, [
      cli,
      'validate',
      '--ndjson',
      writeFile('many.ndjson', input),
      ...out,
    ]);
    let stderr = '';
    child.stderr.on('data', (data) => {
      stderr += data;
    });
    await once(child.stdout, 'data');
    child.stdout.destroy();
    const [status] = await once(child, 'close');
    expect(stderr).toBe('');
    expect([0, 141]).toContain(status);
  });

  it('rejects a size that is not one', async () => {
    const { status, stderr } = await runCliInProcess(
      ['validate', '--ndjson', '-', '--max-bytes', 'lots', ...out],
      {
        input: '',
      },
    );
    expect(status).toBe(2);
    expect(stderr).toContain("option '--max-bytes <size>' argument 'lots' is invalid");
  });
});

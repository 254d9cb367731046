import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { type BuiltPackages, buildPackages } from '../emit/package/build-packages.js';
import { compiledToolkitPath, fixturePath } from '../helpers.js';

/**
 * `eventry fake` as a process: its lines stream (test/validate/fake-lines.test.ts holds how), and a
 * closed stdout (`| head -1`) ends it quietly.
 */
let built: BuiltPackages;
const KEY = 'account.created-v1';
beforeAll(async () => {
  built = await buildPackages(fixturePath('small'));
});

describe('eventry fake streams its lines', () => {
  it('`eventry fake -n 10000000 | head -1`: the first line comes at once, and a closed pipe ends the run quietly', async () => {
    const child = spawn(
      process.execPath,
      [compiledToolkitPath('scripts/eventry.js'), 'fake', KEY, '-n', '10000000', '--out', built.out],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
    );
    onTestFinished(() => {
      child.kill('SIGKILL');
    });
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    let stderr = '';
    child.stderr.on('data', (data: Buffer) => {
      stderr += data.toString();
    });
    const first = await new Promise<string>((resolve) => {
      let text = '';
      child.stdout.on('data', (data: Buffer) => {
        text += data.toString();
        if (text.includes('\n')) resolve(text.slice(0, text.indexOf('\n')));
      });
    });
    expect(JSON.parse(first)).toMatchObject({ event: KEY });
    // The reader goes away, as `head -1` does after its line.
    child.stdout.destroy();
    const [status, signal] = await exited;
    expect(signal).toBeNull();
    // 141 is the status a shell gives a process ended by SIGPIPE (generators/cli/main.ts).
    expect([0, 141]).toContain(status);
    expect(stderr).toBe('');
  }, 60_000);
});

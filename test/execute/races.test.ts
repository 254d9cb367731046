import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { LOCK_FILE, lockOutput, READERS_DIR } from '../../generators/execute/lock.js';
import { comparable, eventryAsync, readTree } from '../cli/output-tree.js';
import { describeGroup, fixturePath, REPO, tempDir } from '../helpers.js';

// Commands that read a build's output (validate, docs, publish) and a build writing it take turns:
// a reader waits while a build holds the output's lock, and a build's commit waits for the readers
// that started before it. Each test stands in for one side with this process (alive, so its files
// count) and runs the other side as the real CLI.

describe('readers of an output and the build writing it take turns', () => {
  const work = tempDir('eventry-races-');
  const catalogue = join(work, 'catalogue');
  const changed = join(work, 'changed', 'catalogue');
  const payload = join(work, 'payload.json');
  const build = (from: string, out: string, onStderr?: (stderr: string) => void) =>
    eventryAsync(['build', '--catalogue', from, '--out', out], onStderr ? { onStderr } : {});
  const validate = (out: string, onStderr?: (stderr: string) => void) =>
    eventryAsync(['validate', 'account.created-v1', payload, '--out', out], onStderr ? { onStderr } : {});
  let trial = 0;
  const builtOutput = async () => {
    const out = join(work, `out-${++trial}`);
    const built = await build(catalogue, out);
    expect(built.stderr).toBe('');
    return out;
  };

  beforeAll(() => {
    // The built packages import ajv at run time (`eventry validate` loads them).
    symlinkSync(join(REPO, 'node_modules'), join(work, 'node_modules'), 'dir');
    cpSync(fixturePath('small'), catalogue, { recursive: true });
    cpSync(fixturePath('small'), changed, { recursive: true });
    describeGroup(join(changed, 'groups/account.yaml'), 'Changed.');
    writeFileSync(payload, '{"account_number": "A-1", "account_user_emails": []}');
  });

  it('validate waits while a build holds the output, says so, and validates once it committed', async () => {
    const out = await builtOutput();
    const held = await lockOutput(out, () => undefined);
    let sawWait = false;
    const result = await validate(out, (stderr) => {
      if (sawWait || !stderr.includes(`waiting for a build (process ${process.pid})`)) return;
      sawWait = true;
      held.release();
    });
    expect(sawWait).toBe(true);
    expect(result.status).toBe(0);
    expect(readdirSync(out)).not.toContain(READERS_DIR);
  }, 60_000);

  it('a build commits only after the commands reading its output finished: nothing moves under a reader', async () => {
    const out = await builtOutput();
    const before = comparable(readTree(out));
    // A reader that started before the build: this process, reading.
    mkdirSync(join(out, READERS_DIR));
    const reader = join(out, READERS_DIR, `${process.pid}-test`);
    writeFileSync(reader, '');
    let sawWait = false;
    let unchangedWhileWaiting = false;
    const result = await build(changed, out, (stderr) => {
      if (sawWait || !/waiting for 1 command\(s\) reading .* to finish/.test(stderr)) return;
      sawWait = true;
      const now = comparable(new Map([...readTree(out)].filter(([path]) => !path.startsWith('.eventry-'))));
      const old = Object.fromEntries(
        Object.entries(before).filter(([path]) => !path.startsWith('.eventry-')),
      );
      unchangedWhileWaiting = JSON.stringify(now) === JSON.stringify(old);
      rmSync(reader);
    });
    expect(sawWait).toBe(true);
    expect(unchangedWhileWaiting).toBe(true);
    expect(result.status).toBe(0);
    expect(comparable(readTree(out))['account/README.md']).not.toBe(before['account/README.md']);
    expect(existsSync(join(out, READERS_DIR))).toBe(false);
  }, 60_000);

  it('a reader a dead process left does not hold a build back', async () => {
    const out = await builtOutput();
    mkdirSync(join(out, READERS_DIR));
    writeFileSync(join(out, READERS_DIR, '999999999-dead'), '');
    const result = await build(changed, out);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(existsSync(join(out, READERS_DIR))).toBe(false);
    expect(existsSync(join(out, LOCK_FILE))).toBe(false);
  }, 60_000);

  it('builds and validate runs at once: every validate run loads the packages (bounded: 4 rounds)', async () => {
    const out = await builtOutput();
    const failures: string[] = [];
    for (let round = 0; round < 4; round++) {
      const results = await Promise.all([
        build(round % 2 === 0 ? changed : catalogue, out),
        validate(out),
        validate(out),
        validate(out),
      ]);
      const [built, ...validated] = results;
      if (built!.status !== 0) failures.push(`build: ${built!.stderr}`);
      for (const run of validated) if (run.status !== 0) failures.push(`validate: ${run.stderr}`);
    }
    expect(failures).toEqual([]);
    expect(existsSync(join(out, READERS_DIR))).toBe(false);
  }, 120_000);
});

describe('eventry docs reads the packages as a reader', () => {
  it('waits while a build holds the packages folder, then writes the site', async () => {
    const site = join(tempDir('eventry-races-docs-'), 'site');
    // The repository's packages (built by the global set-up), held as a build would hold them.
    const held = await lockOutput(join(REPO, 'packages'), () => undefined);
    let sawWait = false;
    try {
      const result = await eventryAsync(['docs', '--out', site], {
        onStderr: (stderr) => {
          if (sawWait || !stderr.includes(`waiting for a build (process ${process.pid})`)) return;
          sawWait = true;
          expect(existsSync(site)).toBe(false);
          held.release();
        },
      });
      expect(sawWait).toBe(true);
      expect(result.status).toBe(0);
      expect(existsSync(join(site, 'index.html'))).toBe(true);
    } finally {
      held.release();
    }
  }, 120_000);

  it('two docs runs on one site take turns: the second waits for the first, then replaces the site whole', async () => {
    const site = join(tempDir('eventry-races-site-'), 'site');
    // This process stands for the first docs run, holding the lock beside the site.
    const held = await lockOutput(join(site, '..', '.site.lock'), () => undefined);
    let sawWait = false;
    try {
      const result = await eventryAsync(['docs', '--out', site], {
        onStderr: (stderr) => {
          if (sawWait || !stderr.includes(`waiting for another docs run (process ${process.pid})`)) return;
          sawWait = true;
          expect(existsSync(site)).toBe(false);
          held.release();
        },
      });
      expect(sawWait).toBe(true);
      expect(result.status).toBe(0);
      expect(existsSync(join(site, 'index.html'))).toBe(true);
      expect(existsSync(join(site, '..', '.site.lock'))).toBe(false);
    } finally {
      held.release();
    }
  }, 120_000);
});

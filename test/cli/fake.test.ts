import { beforeAll, describe, expect, it } from 'vitest';
import { type BuiltPackages, buildPackages } from '../emit/package/build-packages.js';
import { fixturePath, runCli } from '../helpers.js';

/**
 * `eventry fake` (run `npm run build:tool` first) against the small fixture's packages: what it writes,
 * `eventry validate --ndjson` accepts (the round trip), and its invalid payloads fail as promised.
 */
let built: BuiltPackages;
let out: string[];
beforeAll(async () => {
  built = await buildPackages(fixturePath('small'));
  out = ['--out', built.out];
});

const parseLines = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((text) => JSON.parse(text) as Record<string, unknown>);

describe('eventry fake', () => {
  it.each(['minimal', 'full', 'random'])(
    'writes NDJSON that eventry validate --ndjson accepts whole (variant %s)',
    (variant) => {
      const fake = runCli(['fake', 'account.created-v1', '--count', '50', '--variant', variant, ...out]);
      expect(fake.stderr).toBe('');
      expect(fake.status).toBe(0);
      const lines = parseLines(fake.stdout);
      expect(lines).toHaveLength(50);
      expect(lines.every((line) => line.event === 'account.created-v1')).toBe(true);
      const check = runCli(['validate', '--ndjson', '-', '--format', 'text', ...out], { input: fake.stdout });
      expect(check.stdout).toContain('50 lines: 50 valid, 0 invalid');
      expect(check.status).toBe(0);
    },
  );

  it('is repeatable with the same seed and differs with another', () => {
    const run = (seed: string) =>
      runCli(['fake', 'account.removed-v2', '-n', '5', '--seed', seed, ...out]).stdout;
    expect(run('7')).toBe(run('7'));
    expect(run('7')).not.toBe(run('8'));
  });

  it('--invalid writes payloads that each fail with exactly the promised error item', () => {
    const fake = runCli(['fake', 'account.created-v1', '--invalid', ...out]);
    expect(fake.status).toBe(0);
    const lines = parseLines(fake.stdout);
    expect(lines.length).toBeGreaterThan(10);
    const check = runCli(['validate', '--ndjson', '-', ...out], { input: fake.stdout });
    expect(check.status).toBe(1);
    const results = parseLines(check.stdout);
    results.forEach((result, i) => {
      const { code, attr } = lines[i]!.error as { code: string; attr: string };
      expect(
        (result.errors as { code: string; attr: string }[]).map((item) => `${item.code} ${item.attr}`),
        JSON.stringify(lines[i]),
      ).toEqual([`${code} ${attr}`]);
    });
  });

  it('refuses an unknown event key with a did-you-mean, and a bad count, as usage errors (exit 2)', () => {
    const unknown = runCli(['fake', 'account.creatd-v1', ...out]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain(
      'eventry fake: no event `account.creatd-v1` in the group packages. Did you mean `account.created-v1`?',
    );
    expect(unknown.stdout).toBe('');
    const count = runCli(['fake', 'account.created-v1', '--count', 'many', ...out]);
    expect(count.status).toBe(2);
    expect(count.stderr).toContain('give a whole number');
  });
});

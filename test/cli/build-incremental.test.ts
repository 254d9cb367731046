import { cpSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixturePath, tempDir } from '../helpers.js';
import { type CliResult, runCliInProcess } from './in-process.js';

describe('eventry build is incremental', () => {
  const work = tempDir();
  const catalogue = join(work, 'catalogue');
  const out = join(work, 'packages');
  const build = () => runCliInProcess(['build', '--catalogue', catalogue, '--out', out]);
  let first: CliResult;

  beforeAll(async () => {
    cpSync(fixturePath('small'), catalogue, { recursive: true });
    first = await build();
  });

  it('writes everything on the first build', async () => {
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/built 8 events in 2 groups: \d+ files written, 0 unchanged/);
  });

  it('rewrites nothing when nothing changed, and says so', async () => {
    const openapi = join(out, 'catalogue/openapi.json');
    const before = statSync(openapi).mtimeMs;
    const again = await build();
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/nothing to do: catalogue unchanged/);
    expect(statSync(openapi).mtimeMs).toBe(before);
  });

  it('rewrites only the files a change affects', async () => {
    const billing = join(catalogue, 'groups/billing.yaml');
    writeFileSync(
      billing,
      readFileSync(billing, 'utf8').replace(
        'closed_at: {type: string, required: true}',
        'closed_at: {type: string, required: true, description: When.}',
      ),
    );
    const accountSchema = join(out, 'catalogue/schemas/account.created-v1.json');
    const before = statSync(accountSchema).mtimeMs;
    const changed = await build();
    expect(changed.status).toBe(0);
    expect(changed.stdout).toMatch(/[1-9]\d* files written, [1-9]\d* unchanged/);
    expect(statSync(accountSchema).mtimeMs).toBe(before);
    expect(readFileSync(join(out, 'catalogue/schemas/ink.conversation.closed-v1.json'), 'utf8')).toContain(
      '"When."',
    );
  });

  it('rebuilds a generated file that was edited by hand', async () => {
    const openapi = join(out, 'catalogue/openapi.json');
    const good = readFileSync(openapi, 'utf8');
    writeFileSync(openapi, '{}');
    const repaired = await build();
    expect(repaired.stdout).toMatch(/built 8 events/);
    expect(readFileSync(openapi, 'utf8')).toBe(good);
  });
});

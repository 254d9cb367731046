import { cpSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeGroup, fixturePath, tempDir } from '../helpers.js';
import { type CliResult, runCliInProcess } from './in-process.js';
import { comparable, readTree } from './output-tree.js';

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

/**
 * The small fixture copied and built once (before the tests): `build` builds it again (into `out`, or
 * another folder), `visible` reads an output as a person sees it (without eventry's own files).
 */
function builtProject() {
  const work = tempDir();
  const catalogue = join(work, 'catalogue');
  const out = join(work, 'packages');
  const build = (to = out) => runCliInProcess(['build', '--catalogue', catalogue, '--out', to]);
  const visible = (dir: string) =>
    comparable(new Map([...readTree(dir)].filter(([path]) => !path.startsWith('.eventry'))));
  beforeAll(async () => {
    cpSync(fixturePath('small'), catalogue, { recursive: true });
    expect((await build()).status).toBe(0);
  });
  return { work, catalogue, out, build, visible };
}

describe('eventry build skips the group packages an edit does not touch', () => {
  const { work, catalogue, out, build, visible } = builtProject();

  it('an edit of one group writes exactly what a fresh build writes, other groups untouched', async () => {
    const accountTypes = join(out, 'account/types.d.ts');
    const before = statSync(accountTypes).mtimeMs;
    describeGroup(join(catalogue, 'groups/billing.yaml'), 'Edited.');
    const edited = await build();
    expect(edited.stderr).toBe('');
    expect(statSync(accountTypes).mtimeMs).toBe(before);
    const fresh = join(work, 'fresh');
    expect((await build(fresh)).status).toBe(0);
    expect(visible(out)).toEqual(visible(fresh));
  });

  it('a hand-edited file of an untouched group is repaired by the next edit build', async () => {
    const accountTypes = join(out, 'account/types.d.ts');
    const good = readFileSync(accountTypes, 'utf8');
    writeFileSync(accountTypes, '// edited by hand\n');
    const billing = join(catalogue, 'groups/billing.yaml');
    writeFileSync(
      billing,
      readFileSync(billing, 'utf8').replace('description: Edited.', 'description: Again.'),
    );
    const edited = await build();
    expect(edited.stdout).toMatch(/built 8 events/);
    expect(readFileSync(accountTypes, 'utf8')).toBe(good);
  });

  it('a group package deleted by hand comes back on the next edit build', async () => {
    rmSync(join(out, 'account/events'), { recursive: true });
    const billing = join(catalogue, 'groups/billing.yaml');
    writeFileSync(
      billing,
      readFileSync(billing, 'utf8').replace('description: Again.', 'description: Third.'),
    );
    expect((await build()).status).toBe(0);
    const fresh = join(work, 'fresh-3');
    expect((await build(fresh)).status).toBe(0);
    expect(visible(out)).toEqual(visible(fresh));
  });
});

describe('eventry build keeps the catalogue schemas an edit does not touch', () => {
  const { work, catalogue, out, build, visible } = builtProject();
  const edit = (file: string, from: string, to: string) => {
    const path = join(catalogue, file);
    const text = readFileSync(path, 'utf8');
    expect(text).toContain(from);
    writeFileSync(path, text.replace(from, to));
  };
  /** After an edit build: the output is what a fresh build of the same catalogue writes. */
  const expectFresh = async (name: string) => {
    const fresh = join(work, name);
    expect((await build(fresh)).status).toBe(0);
    expect(visible(out)).toEqual(visible(fresh));
  };

  it('an edit of a shape rewrites the schemas of the events that inline it', async () => {
    const schema = join(out, 'catalogue/schemas/billing.ledger.entry_posted-v1.json');
    expect(readFileSync(schema, 'utf8')).not.toContain('Where the ledger is kept.');
    edit('shapes.yaml', 'id: {type: string}', 'id: {type: string, description: Where the ledger is kept.}');
    expect((await build()).status).toBe(0);
    expect(readFileSync(schema, 'utf8')).toContain('Where the ledger is kept.');
    await expectFresh('fresh-shape');
  });

  it('a catalogue schema deleted by hand comes back on the next edit build', async () => {
    const schema = join(out, 'catalogue/schemas/account.created-v1.json');
    const good = readFileSync(schema, 'utf8');
    rmSync(schema);
    edit('groups/billing.yaml', 'title: ', 'description: Edited.\n  title: ');
    expect((await build()).status).toBe(0);
    expect(readFileSync(schema, 'utf8')).toBe(good);
    await expectFresh('fresh-deleted');
  });

  it('an event renamed (one removed, one added): the schemas are what a fresh build writes', async () => {
    edit('groups/billing.yaml', 'billing.ledger.entry_posted-v1:', 'billing.ledger.entry_reposted-v1:');
    expect((await build()).status).toBe(0);
    expect(existsSync(join(out, 'catalogue/schemas/billing.ledger.entry_posted-v1.json'))).toBe(false);
    await expectFresh('fresh-renamed');
  });
});

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { diffCatalogues } from '../../generators/diff/diff.js';
import { buildOpenApi } from '../../generators/emit/openapi.js';
import { resolveSource, type SourceResult } from '../../generators/sources/index.js';
import { fixturePath, loadValid, tempDir } from '../helpers.js';
import { makeRepo, type TestRepo } from './git-repo.js';

const small = loadValid(fixturePath('small'));

function source(result: SourceResult) {
  if (!result.ok) throw new Error(JSON.stringify(result));
  return result.source;
}

describe('resolveSource', () => {
  let repo: TestRepo;
  let first: string;
  beforeAll(() => {
    repo = makeRepo();
    repo.copy(fixturePath('small'), 'catalogue');
    repo.write('packages/account/package.json', '{"name": "@fixture-events/account", "version": "1.3.0"}\n');
    first = repo.commit('first');
    repo.write(
      'catalogue/groups/account.yaml',
      repo.git('show', 'HEAD:catalogue/groups/account.yaml').replace('      score: {type: number}\n', ''),
    );
    repo.write('catalogue/allow-breaking.yaml', 'allow: []\n');
    repo.commit('second');
    // The work tree moves on; git refs must not see it.
    repo.remove('catalogue/groups');
  });
  const options = () => ({ cwd: repo.dir, env: process.env, catalogue: 'catalogue' });

  it('reads a git ref from git objects, not from the work tree, with its package versions', () => {
    const old = source(resolveSource('HEAD~1', options()));
    expect(old.kind).toBe('git');
    expect(old.label).toBe(`HEAD~1 (${first.slice(0, 7)})`);
    expect(old.root).toBe('catalogue');
    expect(old.packageVersions).toEqual({ account: '1.3.0' });
    expect(diffCatalogues(small, old.catalogue)).toEqual([]);
    const now = source(resolveSource('main', options()));
    // `score` goes from account.created-v1 and from the two events composed of it.
    expect(diffCatalogues(old.catalogue, now.catalogue).map((c) => `${c.event} ${c.kind} ${c.attr}`)).toEqual(
      [
        'account.created-v1 field-removed score',
        'account.removed-v1 field-removed score',
        'account.removed-v2 field-removed score',
      ],
    );
    expect(now.allowList).toEqual({ path: 'allow-breaking.yaml', text: 'allow: []\n' });
  });

  it('reads a catalogue directory, or a folder holding catalogue/', () => {
    const dir = source(
      resolveSource(fixturePath('small'), { cwd: tempDir(), env: process.env, catalogue: 'catalogue' }),
    );
    expect(dir.kind).toBe('directory');
    expect(diffCatalogues(small, dir.catalogue)).toEqual([]);
    const parent = source(
      resolveSource(join(fixturePath('small'), '..'), {
        cwd: tempDir(),
        env: process.env,
        catalogue: 'catalogue',
      }),
    );
    expect(parent.catalogue.hash).toBe(small.hash);
  });

  it('reads a compiled OpenAPI document, with the versions of the packages beside it', () => {
    const out = tempDir();
    mkdirSync(join(out, 'packages/catalogue'), { recursive: true });
    mkdirSync(join(out, 'packages/billing'), { recursive: true });
    writeFileSync(join(out, 'packages/catalogue/openapi.json'), JSON.stringify(buildOpenApi(small), null, 2));
    writeFileSync(join(out, 'packages/billing/package.json'), '{"version": "2.1.0"}');
    const doc = source(
      resolveSource('packages/catalogue/openapi.json', {
        cwd: out,
        env: process.env,
        catalogue: 'catalogue',
      }),
    );
    expect(doc.kind).toBe('openapi');
    expect(doc.label).toBe('packages/catalogue/openapi.json');
    expect(doc.packageVersions).toEqual({ billing: '2.1.0' });
    expect(diffCatalogues(small, doc.catalogue)).toEqual([]);
  });

  it.each([
    ['a ref of HEAD that does not exist (first commit)', 'HEAD~5', 'absent', /`HEAD~5` names no commit/],
    [
      'a name that is nothing',
      'no-such-branch',
      'usage',
      /neither a catalogue directory, an OpenAPI document, nor a git ref/,
    ],
    ['a directory without a catalogue', '.git', 'usage', /directory without `eventry.config.yaml`/],
  ])('tells %s apart', (_name, spec, reason, message) => {
    const result = resolveSource(spec, options());
    expect(result).toMatchObject({ ok: false, reason, message: expect.stringMatching(message) });
  });

  it('says a commit without a catalogue is absent', () => {
    const bare = makeRepo();
    bare.write('README.md', 'hello\n');
    bare.commit('no catalogue yet');
    expect(resolveSource('HEAD', { cwd: bare.dir, env: process.env, catalogue: 'catalogue' })).toMatchObject({
      ok: false,
      reason: 'absent',
      message: expect.stringMatching(/has no catalogue in `catalogue\/`/),
    });
  });

  it('returns the problems of a catalogue that does not load, located', () => {
    const broken = tempDir();
    writeFileSync(join(broken, 'eventry.config.yaml'), 'title: x\nversion: 1.0.0\nscope: "@x"\n');
    writeFileSync(
      join(broken, 'g.yaml'),
      'group: {slug: g, title: G}\nevents:\n  a.b-v1: {fields: {x: {type: Strin}}}\n',
    );
    const result = resolveSource(broken, { cwd: tempDir(), env: process.env, catalogue: 'catalogue' });
    expect(result).toMatchObject({
      ok: false,
      reason: 'problems',
      problems: [{ code: 'unknown-shape', file: 'g.yaml', line: 3 }],
    });
  });
});

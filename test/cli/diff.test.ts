import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApi } from '../../generators/emit/openapi.js';
import { loadValid, REPO } from '../helpers.js';
import { makeRepo, type TestRepo } from '../sources/git-repo.js';
import { runCliInProcess } from './in-process.js';

const FIXTURE = join(REPO, 'test', 'fixtures', 'diff-report');
const golden = JSON.parse(readFileSync(join(FIXTURE, 'expected', 'report.json'), 'utf8'));

describe('eventry diff between two commits (compiled CLI)', () => {
  let repo: TestRepo;
  let ids: [string, string];
  const diff = (...args: string[]) => runCliInProcess(['diff', ...args], { cwd: repo.dir });

  beforeAll(() => {
    repo = makeRepo();
    repo.copy(join(FIXTURE, 'before'), 'catalogue');
    repo.write(
      'packages/orders/package.json',
      '{\n  "name": "@shop-events/orders",\n  "version": "1.4.2"\n}\n',
    );
    const first = repo.commit('before');
    repo.copy(join(FIXTURE, 'after'), 'catalogue');
    ids = [first.slice(0, 7), repo.commit('after').slice(0, 7)];
  });

  it('json: the same findings as the golden report, package versions read at the old commit; exit 1', async () => {
    const result = await diff('HEAD~1', 'HEAD', '--format', 'json');
    expect(result.stderr).toBe('');
    expect(result.status).toBe(1);
    const json = JSON.parse(result.stdout);
    expect(json.changes).toEqual(golden.changes);
    expect(json.packages).toEqual([
      { name: '@shop-events/orders', from: '1.4.2', to: '2.0.0', bump: 'major' },
      { name: '@shop-events/payments', from: '1.0.0', to: '2.0.0', bump: 'major' },
      { name: '@shop-events/returns', from: null, to: '1.0.0', bump: 'minor' },
    ]);
  });

  it('text is the default and names both commits', async () => {
    const result = await diff('HEAD~1', 'HEAD');
    expect(result.status).toBe(1);
    expect(result.stdout.split('\n').slice(0, 4)).toEqual([
      `Comparing HEAD~1 (${ids[0]}) → HEAD (${ids[1]}) (catalogue 1.4.0 → 1.4.0)`,
      '',
      '@shop-events/orders  1.4.2 → 2.0.0 (major)',
      '  order.placed-v1',
    ]);
    expect(result.stdout).toContain('10 changes: 5 breaking, 3 non-breaking, 2 docs.');
  });

  it('markdown and github', async () => {
    const markdown = await diff('main~1', 'main', '--format', 'markdown');
    expect(markdown.status).toBe(1);
    expect(markdown.stdout).toContain(
      '| Orders | `@shop-events/orders` | 1.4.2 → 2.0.0 | **major** | 4 | 2 | 1 |',
    );
    const github = await diff('HEAD~1', 'HEAD', '--format', 'github');
    expect(github.stdout).toContain(
      '::error file=catalogue/orders.yaml,line=18,col=7,title=breaking field-renamed%3A order.placed-v1::',
    );
  });

  it('--fail-on decides the exit code', async () => {
    expect((await diff('HEAD~1', 'HEAD', '--fail-on', 'never')).status).toBe(0);
    expect((await diff('HEAD', 'HEAD', '--fail-on', 'non-breaking')).status).toBe(0);
    expect((await diff('HEAD', 'HEAD~1', '--fail-on', 'breaking')).status).toBe(1);
  });

  it('compares a git ref with a directory or a compiled OpenAPI document, and leaves the work tree alone', async () => {
    const doc = join(repo.dir, 'openapi.json');
    writeFileSync(doc, JSON.stringify(buildOpenApi(loadValid(join(FIXTURE, 'before'))), null, 2));
    const fromDoc = await diff('openapi.json', 'HEAD', '--format', 'json');
    // A compiled document has no catalogue lines: the old side is located in the document instead.
    const newSide = (changes: Record<string, unknown>[]) =>
      changes.map(({ oldLocation: _, ...rest }) => rest);
    expect(newSide(JSON.parse(fromDoc.stdout).changes)).toEqual(newSide(golden.changes));
    const toDir = await diff('HEAD~1', 'catalogue', '--format', 'json');
    expect(JSON.parse(toDir.stdout).changes).toEqual(golden.changes);
    expect(repo.git('status', '--porcelain')).toBe('?? openapi.json');
  });

  it.each([
    ['an unknown ref', ['HEAD~1', 'nope'], /NEW: `nope` is neither a catalogue directory/],
    ['a missing argument', ['HEAD'], /missing required argument 'new'/],
    ['an unknown format', ['HEAD~1', 'HEAD', '--format', 'xml'], /argument 'xml' is invalid/],
    ['an unknown --fail-on', ['HEAD~1', 'HEAD', '--fail-on', 'docs'], /argument 'docs' is invalid/],
  ])('exits 2 on a usage error: %s', async (_name, args, message) => {
    const result = await diff(...args);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
  });

  it('exits 2 with located problems when a side does not load', async () => {
    repo.write(
      'catalogue/orders.yaml',
      'group: {slug: orders, title: Orders}\nevents:\n  order.placed-v1: {fields: {x: {type: Mony}}}\n',
    );
    const result = await diff('HEAD', 'catalogue');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      'catalogue/orders.yaml:3:40: error unknown-shape: Shape `Mony` is not defined.',
    );
    repo.git('checkout', '--', 'catalogue');
  });
});

describe('eventry diff npm:… chooses the registry like npm install does, or --registry', () => {
  // Nothing listens on these loopback ports: npm's refusal names the registry it asked.
  const CONFIGURED = 'http://127.0.0.1:7/';
  const GIVEN = 'http://127.0.0.1:9/';
  const run = async (cwd: string, ...args: string[]) => {
    const result = await runCliInProcess(['diff', ...args], { cwd, env: { npm_config_fetch_retries: '0' } });
    return { status: result.status, stderr: result.stderr };
  };
  let project: string;

  beforeAll(() => {
    const repo = makeRepo();
    repo.copy(join(FIXTURE, 'before'), 'catalogue');
    repo.write('.npmrc', `@shop-events:registry=${CONFIGURED}\n`);
    repo.commit('project with a scope registry');
    project = repo.dir;
  });

  it("honours the scope's registry from the project's npm config", async () => {
    const result = await run(project, 'npm:@shop-events/orders@1.0.0', 'HEAD');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`request to ${CONFIGURED}@shop-events%2forders failed`);
  });

  it('--registry wins over the configured scope registry', async () => {
    const result = await run(project, 'npm:@shop-events/orders@1.0.0', 'HEAD', '--registry', GIVEN);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`request to ${GIVEN}@shop-events%2forders failed`);
  });

  it('refuses a --registry that is not a URL, before asking npm', async () => {
    const result = await run(project, 'npm:@shop-events/orders@1.0.0', 'HEAD', '--registry', 'not a url');
    expect(result.status).toBe(2);
    expect(result.stderr).toBe('eventry: OLD: --registry `not a url` is not a URL.\n');
  });
});

import { cpSync, mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../generators/load/index.js';
import { buildPackages } from '../emit/package/build-packages.js';
import { fixturePath, runCli, tempDir } from '../helpers.js';

/**
 * The fault suite's symlinks and secrets: `ln -s /etc/shadow catalogue/groups/x.yaml` once made
 * `eventry check` print the file's lines inside "Unknown key" problems, and `validate` and `diff`
 * echoed the first characters of any file through JSON parse errors. A pull request that adds a link
 * must not make CI print a runner's secrets.
 */

const SECRET = 'SECRETHASHabcdefghijkl';
const SHADOW = `root:$6$${SECRET}:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n`;

/** A copy of the small fixture catalogue beside a secret file, in a fresh folder. */
function catalogueBesideSecret(): { dir: string; catalogue: string; secret: string } {
  const dir = tempDir();
  const catalogue = join(dir, 'catalogue');
  cpSync(fixturePath('small'), catalogue, { recursive: true });
  const secret = join(dir, 'shadow');
  writeFileSync(secret, SHADOW);
  return { dir, catalogue, secret };
}

const where = (problem: { file: string; line: number; column: number; code: string }) =>
  `${problem.file}:${problem.line}:${problem.column} ${problem.code}`;

describe('fault suite: symbolic links in the catalogue and files that are not what they seem', () => {
  it('a link to a file outside the catalogue is a located, coded problem, and the file is not read', () => {
    const { catalogue, secret } = catalogueBesideSecret();
    symlinkSync(secret, join(catalogue, 'groups', 'x.yaml'));
    symlinkSync('../../shadow', join(catalogue, 'groups', 'relative.yaml'));
    const result = loadCatalogue(catalogue);
    expect(result.ok).toBe(false);
    const problems = result.ok ? [] : result.problems;
    expect(problems.map(where)).toEqual([
      'groups/relative.yaml:1:1 symlink-outside-catalogue',
      'groups/x.yaml:1:1 symlink-outside-catalogue',
    ]);
    expect(JSON.stringify(problems)).not.toContain(SECRET);
    expect(JSON.stringify(problems)).not.toContain('daemon');
  });

  it('`eventry check`, `build` and `diff` over such a catalogue never print the file', () => {
    const { dir, catalogue, secret } = catalogueBesideSecret();
    symlinkSync(secret, join(catalogue, 'groups', 'x.yaml'));
    for (const args of [
      ['check', '--catalogue', catalogue],
      ['build', '--catalogue', catalogue, '--out', join(dir, 'out')],
      ['diff', fixturePath('small'), catalogue],
    ]) {
      const run = runCli(args, { cwd: dir });
      // diff says a side that does not load is unusable (2); check and build that the input has problems.
      expect(run.status, args[0]).toBe(args[0] === 'diff' ? 2 : 1);
      expect(run.stderr + run.stdout, args[0]).toContain('symlink-outside-catalogue');
      expect(run.stderr + run.stdout, args[0]).not.toContain(SECRET);
    }
  });

  it('a link that stays inside the catalogue is followed as before', () => {
    const { catalogue } = catalogueBesideSecret();
    mkdirSync(join(catalogue, '.kept'));
    renameSync(join(catalogue, 'groups', 'account.yaml'), join(catalogue, '.kept', 'account.yaml'));
    symlinkSync('../.kept/account.yaml', join(catalogue, 'groups', 'account.yaml'));
    const result = loadCatalogue(catalogue);
    expect(result.ok && Object.keys(result.catalogue.events)).toContain('account.created-v1');
  });

  it('`diff` given a secret file as a document, and `validate` given one as a payload, quote none of it', async () => {
    const { dir, secret } = catalogueBesideSecret();
    const json = join(dir, 'openapi.json');
    const yaml = join(dir, 'openapi.yaml');
    symlinkSync(secret, json);
    writeFileSync(yaml, `a: [\n${SHADOW}`);
    for (const args of [
      ['diff', json, fixturePath('small')],
      ['diff', fixturePath('small'), json],
      ['diff', yaml, fixturePath('small')],
    ]) {
      const run = runCli(args, { cwd: dir });
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(/Not valid (JSON|YAML)/);
      expect(run.stderr + run.stdout).not.toContain(SECRET);
      expect(run.stderr + run.stdout).not.toContain('root:');
    }
    const packages = (await buildPackages(fixturePath('small'))).out;
    const validate = runCli(['validate', '--out', packages, 'account.created-v1', secret], { cwd: dir });
    expect(validate.status).toBe(1);
    expect(validate.stdout + validate.stderr).toContain('not JSON: Unexpected token "r"');
    expect(validate.stdout + validate.stderr).not.toContain('root:');
    const ndjson = join(dir, 'lines.ndjson');
    writeFileSync(ndjson, SHADOW);
    const lines = runCli(['validate', '--out', packages, '--ndjson', ndjson], { cwd: dir });
    expect(lines.stdout + lines.stderr).toContain('invalid_json');
    expect(lines.stdout + lines.stderr).not.toContain(SECRET);
  });

  it('a complex YAML key is quoted on one line in a message (`? [a, b]` took four)', () => {
    const { catalogue } = catalogueBesideSecret();
    const long = ['a', 'b', 'c', 'd'].map((letter) => letter.repeat(30)).join(', ');
    writeFileSync(
      join(catalogue, 'groups', 'complex.yaml'),
      `? [${long}]\n: 1\n? {x: [1, 2], y: "a\\nb"}\n: 2\n`,
    );
    const result = loadCatalogue(catalogue);
    const messages = result.ok ? [] : result.problems.map((problem) => problem.message);
    expect(messages.some((message) => message.includes(`[ ${long} ]`))).toBe(true);
    for (const message of messages) expect(message).not.toContain('\n');
  });
});

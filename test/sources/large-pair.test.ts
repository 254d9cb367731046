import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeSyntheticCatalogue } from '../../scripts/bench/synthetic-catalogue.js';
import { runCliInProcess } from '../cli/in-process.js';
import { REPO, runCli, tempDir } from '../helpers.js';

// Two large catalogues (8 copies of the seed) resolved one after the other with a shared parse memo:
// the compiled CLI and the in-process run must agree, findings and located problems alike.
describe('eventry diff of two large catalogue folders', () => {
  let big: string;
  beforeAll(() => {
    big = writeSyntheticCatalogue(join(REPO, 'catalogue'), join(tempDir(), 'catalogue'), 8).dir;
  });

  it('prints the breaking finding, compiled as in process', async () => {
    const other = writeSyntheticCatalogue(join(REPO, 'catalogue'), join(tempDir(), 'catalogue'), 8).dir;
    const group = join(other, 'groups', 'billing-c1.yaml');
    writeFileSync(
      group,
      readFileSync(group, 'utf8').replace(/\n {6}\w+: \{ type: string, required: true \}/, ''),
    );
    const compiled = runCli(['diff', big, other, '--format', 'json']);
    const inProcess = await runCliInProcess(['diff', big, other, '--format', 'json']);
    expect(compiled.stderr).toBe('');
    expect(JSON.parse(compiled.stdout).changes).toContainEqual(
      expect.objectContaining({ severity: 'breaking' }),
    );
    expect(compiled).toEqual(inProcess);
  });

  it('with a YAML error in OLD exits 2 with the located problem, compiled as in process', async () => {
    const broken = join(tempDir(), 'catalogue');
    cpSync(big, broken, { recursive: true });
    writeFileSync(
      join(broken, 'groups', 'billing-c1.yaml'),
      'group: {slug: billing-c1, title: B}\nevents:\n  a: [\n',
    );
    const compiled = runCli(['diff', broken, big]);
    const inProcess = await runCliInProcess(['diff', broken, big]);
    expect(compiled.status).toBe(2);
    expect(compiled.stderr).toMatch(/groups\/billing-c1\.yaml:\d+:\d+/);
    expect(compiled.stderr).toContain('yaml-syntax');
    expect(compiled).toEqual(inProcess);
  });
});

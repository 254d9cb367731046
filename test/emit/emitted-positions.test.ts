import { describe, expect, it } from 'vitest';
import type { OutputFile } from '../../generators/emit/context.js';
import { emitAll } from '../../generators/execute/reference.js';
import {
  type CatalogueSourceFile,
  loadCatalogueFromSources,
  readCatalogueSources,
} from '../../generators/load/index.js';
import type { Catalogue } from '../../generators/model.js';
import { modelDigest } from '../../generators/model-digest.js';
import { REPO } from '../helpers.js';

/**
 * `modelDigest` leaves source positions out (an emitter's output may be reused across an edit that
 * only moves a definition): this holds every emitter to never writing a line or a column.
 */
describe('what the emitters write does not depend on where in its file a definition is written', () => {
  const seed = readCatalogueSources(`${REPO}catalogue`);
  // Every file one line lower and two columns further right: a root map may be indented as a whole.
  const moved: CatalogueSourceFile[] = seed.map((file) => ({
    ...file,
    text: `# moved\n${file.text
      .split('\n')
      .map((line) => (line === '' ? line : `  ${line}`))
      .join('\n')}`,
  }));

  const load = (files: CatalogueSourceFile[]): Catalogue => {
    const loaded = loadCatalogueFromSources(files);
    if (!loaded.ok) throw new Error(loaded.problems.map((problem) => problem.message).join('\n'));
    return loaded.catalogue;
  };
  const asText = (files: OutputFile[] | { emitter: string; error: unknown }) => {
    if (!Array.isArray(files)) throw files.error;
    return new Map(files.map((file) => [file.path, file.contents]));
  };

  it('every output file is the same, and so is every event’s and shape’s digest', async () => {
    const before = load(seed);
    const after = load(moved);
    const key = 'account.created-v1';
    expect(after.events[key]!.source.line).toBe(before.events[key]!.source.line + 1);
    expect(after.events[key]!.source.column).toBe(before.events[key]!.source.column + 2);
    expect(after.events[key]!.fields[0]!.source.line).toBe(before.events[key]!.fields[0]!.source.line + 1);
    for (const name of Object.keys(before.events))
      expect(modelDigest(after.events[name]!)).toBe(modelDigest(before.events[name]!));
    for (const name of Object.keys(before.shapes))
      expect(modelDigest(after.shapes[name]!)).toBe(modelDigest(before.shapes[name]!));
    // Anything else in the model (a description, a field) still changes it.
    const edited = load(
      seed.map((file) =>
        file.path === 'groups/account.yaml'
          ? { ...file, text: file.text.replace(`  ${key}:\n`, `  ${key}:\n    description: Edited.\n`) }
          : file,
      ),
    );
    expect(modelDigest(edited.events[key]!)).not.toBe(modelDigest(before.events[key]!));

    const first = asText(await emitAll(before, { versions: {} }));
    // The documents name the catalogue by the digest of its files' texts, which differ.
    const second = asText(await emitAll({ ...after, hash: before.hash }, { versions: {} }));
    expect([...second.keys()]).toEqual([...first.keys()]);
    for (const [path, contents] of first)
      expect({ path, contents: second.get(path) }).toEqual({ path, contents });
  }, 120_000);
});

import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { WriterFile } from '../../../generators/execute/commit-types.js';
import { Deferred } from '../../../generators/execute/fast/deferred-entries.js';
import { documentFiles, documentJson, documentYaml } from '../../../generators/execute/fast/document-text.js';
import { createDiskCache } from '../../../generators/execute/fast/emit-cache.js';
import type {
  FastContext as EmitContext,
  OutputSink,
} from '../../../generators/execute/fast/emit-context.js';
import {
  emitAsyncApiFast as emitAsyncApi,
  emitOpenApiFast as emitOpenApi,
} from '../../../generators/execute/fast/emitters.js';
import type { Catalogue } from '../../../generators/model.js';
import { keptOnlyCache, loadValid, REPO, tempDir } from '../../helpers.js';

// The catalogue documents are written entry by entry; with a cache, each event's entries are copied
// from the file the last build wrote when that event is as it was, so an edit of one group of 10,000
// events builds that group's entries only. The text must be exactly what a build without cache writes.

/** An output folder and an in-memory emit cache across "builds". */
function buildsInMemory() {
  const output = new Map<string, string>();
  const { cache } = keptOnlyCache();
  const context: EmitContext = { readExisting: (path) => output.get(path), cache };
  return {
    context,
    output,
    /** What a build writes: the files become the output. */
    commit(files: WriterFile[]) {
      for (const file of files) output.set(file.path, file.contents);
      return files;
    },
  };
}

const plain: EmitContext = { readExisting: () => undefined };

/** A sink that gathers a file's bytes in `pieces`, as a build's staging folder would hold them. */
function memorySink(pieces: Buffer[]): OutputSink {
  return {
    write: (bytes) => void pieces.push(Buffer.from(bytes)),
    truncate(length) {
      pieces.splice(0, pieces.length, Buffer.concat(pieces).subarray(0, length));
    },
    read: () => Buffer.concat(pieces),
  };
}

/** What a build writes: each file's path and text (documents come in pieces, with what the output held). */
function written(files: WriterFile[]): { path: string; contents: string }[] {
  return files.map(({ path, contents }) => ({ path, contents }));
}

/** Three deferred schemas, `a`, `b` and `c`, each counting in `built` when it is built. */
function countedSchemas(built: { count: number }): Record<string, Deferred> {
  return Object.fromEntries(
    ['a', 'b', 'c'].map((name) => [
      name,
      new Deferred(name, () => {
        built.count++;
        return { enum: [name] };
      }),
    ]),
  );
}

/** The model with one event's description changed (a copy: the loaded model is not touched). */
function withEdit(model: Catalogue, key: string): Catalogue {
  const event = model.events[key]!;
  return { ...model, events: { ...model.events, [key]: { ...event, description: 'Edited description.' } } };
}

describe('catalogue documents copy unchanged entries from the last build', () => {
  const model = loadValid(join(REPO, 'catalogue'));
  const keys = Object.keys(model.events);

  for (const [name, emit] of [
    ['OpenAPI', emitOpenApi],
    ['AsyncAPI', emitAsyncApi],
  ] as const) {
    it(`${name}: a first, a repeated and an edited build write what a build without cache writes`, async () => {
      const builds = buildsInMemory();
      const fresh = written(await emit(model, plain));
      expect(written(builds.commit(await emit(model, builds.context)))).toEqual(fresh);
      expect(written(builds.commit(await emit(model, builds.context)))).toEqual(fresh);
      const edited = withEdit(model, keys[7]!);
      const editedFresh = written(await emit(edited, plain));
      expect(editedFresh).not.toEqual(fresh);
      expect(written(builds.commit(await emit(edited, builds.context)))).toEqual(editedFresh);
      expect(written(builds.commit(await emit(model, builds.context)))).toEqual(fresh);
    });

    it(`${name}: an output file changed by hand since the last build is not copied from`, async () => {
      const builds = buildsInMemory();
      const fresh = written(builds.commit(await emit(model, builds.context)));
      for (const file of fresh) builds.output.set(file.path, file.contents.replaceAll('string', 'strung'));
      expect(written(await emit(model, builds.context))).toEqual(fresh);
    });
  }

  it('a rebuild says whether the output holds each document already, so the build need not read it back', async () => {
    const builds = buildsInMemory();
    const first = await emitOpenApi(model, builds.context);
    expect(first.map((file) => file.inOutput)).toEqual([undefined, undefined]);
    builds.commit(first);
    const again = await emitOpenApi(model, builds.context);
    expect(again.map((file) => file.inOutput)).toEqual(['same', 'same']);
    const edited = await emitOpenApi(withEdit(model, keys[3]!), builds.context);
    expect(edited.map((file) => file.inOutput)).toEqual(['different', 'different']);
    expect(written(edited)).toEqual(written(await emitOpenApi(withEdit(model, keys[3]!), plain)));
  });

  it('with a sink, a document is written piece by piece as made (never held), the same bytes, even when written whole', () => {
    const sunk = new Map<string, Buffer[]>();
    const context: EmitContext = {
      readExisting: () => undefined,
      openSink(path) {
        const pieces: Buffer[] = [];
        sunk.set(path, pieces);
        return memorySink(pieces);
      },
    };
    const shared = { type: 'string' };
    const chunked = {
      info: { title: 'x' },
      components: { schemas: { a: new Deferred('a', () => ({ x: 1 })) } },
    };
    // An object in two places inside an entry: found only once the entry is built, so what was already
    // written goes, and the document is written whole (with yaml's alias).
    const whole = {
      info: { title: 'x' },
      components: { schemas: { a: new Deferred('a', () => ({ x: shared, y: shared })) } },
    };
    for (const document of [chunked, whole]) {
      sunk.clear();
      const files = documentFiles('catalogue/doc', document, context);
      expect(files.map((file) => [file.path, file.sunk, file.pieces])).toEqual([
        ['catalogue/doc.json', true, undefined],
        ['catalogue/doc.yaml', true, undefined],
      ]);
      expect(files.map((file) => Buffer.concat(sunk.get(file.path)!).toString())).toEqual(
        written(documentFiles('catalogue/doc', document)).map((file) => file.contents),
      );
      expect(written(files)).toEqual(written(documentFiles('catalogue/doc', document)));
    }
    expect(Buffer.concat(sunk.get('catalogue/doc.yaml')!).toString()).toContain('*a1');
  });

  it('only the entries whose digest changed are built', () => {
    let builds = 0;
    const entry = (digest: string, value: unknown) =>
      new Deferred(digest, () => {
        builds++;
        return value;
      });
    const document = (b: string) => ({
      info: { title: 'x' },
      components: {
        schemas: {
          a: entry('a1', { type: 'string', description: 'A' }),
          b: entry(b, { type: 'object', properties: { n: { type: 'integer' } }, description: b }),
          c: entry('c1', { enum: ['x', 'y'] }),
        },
      },
    });
    const run = buildsInMemory();
    run.commit(documentFiles('catalogue/doc', document('b1'), run.context));
    expect(builds).toBe(3);
    builds = 0;
    const second = run.commit(documentFiles('catalogue/doc', document('b2'), run.context));
    expect(builds).toBe(1);
    builds = 0;
    expect(written(second)).toEqual(written(documentFiles('catalogue/doc', document('b2'))));
    expect(builds).toBe(3);
  });

  it('the YAML file’s entry ids are kept once, as the JSON file’s, and still find every YAML entry', () => {
    const built = { count: 0 };
    const document = { info: { title: 'x' }, components: { schemas: countedSchemas(built) } };
    const output = new Map<string, string>();
    const { cache, kept } = keptOnlyCache();
    const context: EmitContext = { readExisting: (path) => output.get(path), cache };
    for (const file of documentFiles('catalogue/doc', document, context))
      output.set(file.path, file.contents);
    const [json, yaml] = kept.get('document-catalogue-doc') as Record<string, unknown>[];
    // Three entries, three hashes each; the first of its map in JSON only.
    expect(json!.ids).toHaveLength(9);
    expect([...(json!.firsts as Uint32Array)]).toEqual([0]);
    expect(yaml).not.toHaveProperty('ids');
    built.count = 0;
    const again = documentFiles('catalogue/doc', document, context);
    expect(built.count).toBe(0);
    expect(again.map((file) => file.inOutput)).toEqual(['same', 'same']);
  });

  it('an index kept damaged or of another shape copies nothing: every entry is built, the text a fresh build’s', () => {
    const built = { count: 0 };
    const document = { components: { schemas: countedSchemas(built) } };
    const fresh = written(documentFiles('catalogue/doc', document));
    const damages: ((index: Record<string, unknown>) => void)[] = [
      (index) => {
        index.spans = (index.spans as Float64Array).subarray(2);
      },
      (index) => {
        index.ids = [...(index.ids as Uint32Array)];
      },
      (index) => {
        index.firsts = 'first';
      },
      (index) => {
        delete index.digest;
      },
    ];
    for (const damage of damages) {
      const output = new Map<string, string>();
      const { cache, kept } = keptOnlyCache();
      const context: EmitContext = { readExisting: (path) => output.get(path), cache };
      for (const file of documentFiles('catalogue/doc', document, context))
        output.set(file.path, file.contents);
      // The YAML file's index takes its ids from the JSON file's: damaging that one is enough for both.
      const [json] = kept.get('document-catalogue-doc') as Record<string, unknown>[];
      damage(json!);
      built.count = 0;
      const again = documentFiles('catalogue/doc', document, context);
      expect(built.count).toBe(3);
      expect(written(again)).toEqual(fresh);
    }
  });

  it('entries removed, added, moved or first in their map now: still what a build without cache writes', () => {
    let builds = 0;
    const entry = (name: string) =>
      new Deferred(name, () => {
        builds++;
        return { description: `entry ${name}`, enum: [name] };
      });
    const document = (names: string[]) => ({
      info: { title: 'x' },
      components: { schemas: Object.fromEntries(names.map((name) => [name, entry(name)])) },
    });
    const run = buildsInMemory();
    const orders = [
      ['a', 'b', 'c', 'd', 'e'],
      ['a', 'c', 'd', 'e'],
      ['c', 'd', 'x', 'e', 'a'],
      ['e', 'd', 'c', 'x', 'a', 'y'],
    ];
    for (const names of orders) {
      builds = 0;
      const files = run.commit(documentFiles('catalogue/doc', document(names), run.context));
      const built = builds;
      expect(written(files)).toEqual(written(documentFiles('catalogue/doc', document(names))));
      // Built anew: the new ones, and in JSON the entries that became or stopped being first.
      if (names === orders[1]) expect(built).toBe(0);
      if (names === orders[2]) expect(built).toBe(3);
      if (names === orders[3]) expect(built).toBe(3);
    }
  });

  it('documentJson writes JSON.stringify(document, null, 2) entry by entry', async () => {
    for (const emit of [emitOpenApi, emitAsyncApi]) {
      const [json] = await emit(model, plain);
      const document = JSON.parse(json!.contents) as unknown;
      expect(documentJson(document)).toBe(JSON.stringify(document, null, 2));
    }
    const odd = { a: { b: { c: [], d: {}, e: undefined, f: [1, { g: null }] } }, h: {}, '"q"': 'x\ny' };
    expect(documentJson(odd)).toBe(JSON.stringify(odd, null, 2));
    expect(documentJson({})).toBe('{}');
  });

  it('a deferred entry holding one object twice is written by yaml whole, with its alias', () => {
    const shared = { type: 'string' };
    const document = {
      components: {
        schemas: {
          a: new Deferred('a', () => ({ x: shared, y: shared })),
          b: new Deferred('b', () => ({ type: 'number' })),
        },
      },
    };
    const settled = { components: { schemas: { a: { x: shared, y: shared }, b: { type: 'number' } } } };
    expect(documentYaml(document)).toBe(stringify(settled, { lineWidth: 0 }));
    expect(documentYaml(document)).toContain('*a1');
  });
});

describe('what the disk cache keeps for the next build (createDiskCache: recall, keep)', () => {
  it('keeps one value per unit, per toolkit, one build deep', () => {
    const dir = tempDir('eventry-kept-');
    const cache = createDiskCache(dir, 'tool-1');
    expect(cache.recall!('document-a')).toBeUndefined();
    cache.keep!('document-a', [{ digest: 'x', entries: new Map([['e', [0, 4]]]) }]);
    cache.keep!('document-b', 'other unit');
    cache.keep!('document-a', [{ digest: 'y', entries: new Map([['e', [1, 5]]]) }]);
    expect(createDiskCache(dir, 'tool-1').recall!('document-a')).toEqual([
      { digest: 'y', entries: new Map([['e', [1, 5]]]) },
    ]);
    expect(createDiskCache(dir, 'tool-1').recall!('document-b')).toBe('other unit');
    expect(readdirSync(dir).filter((name) => name.startsWith('document-a'))).toHaveLength(1);
    expect(createDiskCache(dir, 'tool-2').recall!('document-a')).toBeUndefined();
  });

  it('a damaged file is nothing kept, not an error', () => {
    const dir = tempDir('eventry-kept-');
    createDiskCache(dir, 'tool').keep!('document-a', { a: 1 });
    const [file] = readdirSync(dir);
    writeFileSync(join(dir, file!), 'not v8 data');
    expect(createDiskCache(dir, 'tool').recall!('document-a')).toBeUndefined();
  });
});

describe('an edit reads the old document once, in ranges, and trusts a file it can identify', () => {
  /**
   * "Builds" with a sink whose files carry a stamp, as the staging folder's do (a rename into the output
   * keeps it), and an output read in ranges that counts the bytes read.
   */
  function stampedBuilds() {
    const output = new Map<string, { bytes: Buffer; stamp: string }>();
    const staged = new Map<string, Buffer[]>();
    let stamps = 0;
    let bytesRead = 0;
    const { cache } = keptOnlyCache();
    const context: EmitContext = {
      readExisting: () => {
        throw new Error('the writer reads the output in ranges');
      },
      openExisting(path) {
        const file = output.get(path);
        if (!file) return undefined;
        return {
          size: file.bytes.length,
          stamp: file.stamp,
          read(into, position) {
            const read = file.bytes.copy(
              into,
              0,
              position,
              Math.min(file.bytes.length, position + into.length),
            );
            bytesRead += read;
            return read;
          },
          close() {},
        };
      },
      openSink(path) {
        const pieces: Buffer[] = [];
        staged.set(path, pieces);
        return { ...memorySink(pieces), close: () => `stamp-${++stamps}` };
      },
      cache,
    };
    return {
      context,
      output,
      read: () => bytesRead,
      resetRead: () => {
        bytesRead = 0;
      },
      /** Moves what was staged into the output with its stamp, unless the output holds it already. */
      commit(files: WriterFile[]) {
        let n = stamps - files.length;
        for (const file of files) {
          n += 1;
          if (file.inOutput === 'same') continue;
          output.set(file.path, { bytes: Buffer.concat(staged.get(file.path)!), stamp: `stamp-${n}` });
        }
        return files;
      },
    };
  }
  const model = loadValid(join(REPO, 'catalogue'));
  const edited = withEdit(model, Object.keys(model.events)[5]!);

  it('with its stamp unchanged, only the entries copied are read, and the text is a fresh build’s', async () => {
    const builds = stampedBuilds();
    builds.commit(await emitOpenApi(model, builds.context));
    const sizes = [...builds.output.values()].reduce((sum, file) => sum + file.bytes.length, 0);
    builds.resetRead();
    const files = await emitOpenApi(edited, builds.context);
    expect(builds.read()).toBeGreaterThan(0);
    // Everything but the edited event's entries, each byte once: no pass over the whole file first.
    expect(builds.read()).toBeLessThan(sizes);
    expect(files.map((file) => Buffer.concat([Buffer.from(file.contents)]).toString())).toEqual(
      written(await emitOpenApi(edited, plain)).map((file) => file.contents),
    );
  });

  it('another file in its place (a new stamp) is read whole to check it before anything is copied', async () => {
    const builds = stampedBuilds();
    builds.commit(await emitOpenApi(model, builds.context));
    for (const [path, file] of builds.output) builds.output.set(path, { ...file, stamp: 'replaced' });
    const sizes = [...builds.output.values()].reduce((sum, file) => sum + file.bytes.length, 0);
    builds.resetRead();
    const same = await emitOpenApi(model, builds.context);
    // Same bytes under another stamp: checked by digest (every byte), then its entries copied.
    expect(same.map((file) => file.inOutput)).toEqual(['same', 'same']);
    expect(builds.read()).toBeGreaterThan(1.9 * sizes);
    for (const [path, file] of builds.output) {
      builds.output.set(path, {
        bytes: Buffer.from(file.bytes.toString().replaceAll('string', 'strung')),
        stamp: 'edited',
      });
    }
    const repaired = await emitOpenApi(model, builds.context);
    // Not the file the index describes: nothing is copied from it, and the build compares it itself.
    expect(repaired.map((file) => file.inOutput)).toEqual([undefined, undefined]);
    expect(written(repaired)).toEqual(written(await emitOpenApi(model, plain)));
  });
});

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serialize } from 'node:v8';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { FastLoad } from '../../../../generators/execute/fast/load/fast-load.js';
import {
  PARSE_CACHE_FILE,
  PARSE_DELTA_FILE,
  ParseCache,
} from '../../../../generators/execute/fast/load/parse-cache.js';
import { readPlainYaml } from '../../../../generators/execute/fast/load/yaml-fast.js';
import { loadCatalogueFromSources, readCatalogueSources } from '../../../../generators/load/index.js';
import { type PlainYaml, YamlSource } from '../../../../generators/load/yaml-source.js';
import { REPO, tempDir } from '../../../helpers.js';
import { expectSame, locationsOf, pathsOf } from '../../../load/yaml-paths.js';

// A build reads its parses back from the last build's cache file: the model, every location and every
// problem must be what parsing gives, and a cache file in any state must cost a parse, never the build.

const seed = readCatalogueSources(join(REPO, 'catalogue'));
/** The seed's files the fast path declines: read by `yaml`, never stored. */
const declined = seed.filter((file) => !readPlainYaml(file.text)).map((file) => file.path);
const TOOL = 'a toolkit fingerprint';

/** A parse function that fails the test if called: the cache must answer on its own. */
const notParsed = (text: string): PlainYaml | undefined => {
  throw new Error(`parsed again: ${text.slice(0, 40)}`);
};

/** A cache that must answer every file it is asked for from its file. */
class HitsOnly extends ParseCache {
  override read(text: string): PlainYaml | undefined {
    return super.read(text, notParsed);
  }
}

/** A cache folder filled by one load of `files`. */
function warmCache(files = seed, tool = TOOL): string {
  const dir = tempDir('eventry-parse-cache-');
  loadCatalogueFromSources(files, { accelerator: new FastLoad({ cache: new ParseCache(dir, tool) }) });
  return dir;
}

let sharedCache: string | undefined;

describe('the parse cache', () => {
  it('gives the model a load without it gives, from a cold and from a warm cache', () => {
    const dir = tempDir('eventry-parse-cache-');
    const plain = loadCatalogueFromSources(seed);
    expect(plain.ok).toBe(true);
    const cold = loadCatalogueFromSources(seed, {
      accelerator: new FastLoad({ cache: new ParseCache(dir, TOOL) }),
    });
    const written = readFileSync(join(dir, PARSE_CACHE_FILE));
    const warm = loadCatalogueFromSources(seed, {
      accelerator: new FastLoad({ cache: new ParseCache(dir, TOOL) }),
    });
    expectSame(cold, plain);
    expectSame(warm, plain);
    // Every file hit: a miss would have written the file again.
    expect(readFileSync(join(dir, PARSE_CACHE_FILE)).equals(written)).toBe(true);
  });

  it.each(seed.filter((file) => readPlainYaml(file.text)).map((file) => [file.path, file] as const))(
    '%s: same value and location for every path as a fresh parse',
    (_, file) => {
      sharedCache ??= warmCache();
      const dir = sharedCache;
      const fresh = YamlSource.parse(file).source!;
      const restored = new FastLoad({ cache: new HitsOnly(dir, TOOL) }).parse(file).source!;
      expectSame(restored.value, fresh.value);
      const paths = pathsOf(fresh.value);
      expect(locationsOf(restored, paths)).toEqual(locationsOf(fresh, paths));
    },
  );

  it('a broken file gives the same located problems with a warm cache as without one', () => {
    const broken = seed.map((file) =>
      file.path === 'groups/account.yaml'
        ? { ...file, text: file.text.replace('type: string', 'type: strnig') }
        : file,
    );
    const dir = warmCache(broken);
    const reference = loadCatalogueFromSources(broken);
    expect(reference.ok).toBe(false);
    const warm = loadCatalogueFromSources(broken, {
      accelerator: new FastLoad({ cache: new ParseCache(dir, TOOL) }),
    });
    expectSame(warm, reference);
  });

  it('parses an edited file again and reuses the others', () => {
    const dir = warmCache();
    const edited = seed.map((file) =>
      file.path === 'groups/account.yaml'
        ? { ...file, text: file.text.replace('title: ', 'description: Edited.\n  title: ') }
        : file,
    );
    const parsed: string[] = [];
    const cache = new ParseCache(dir, TOOL);
    for (const file of edited)
      cache.read(file.text, (text) => {
        parsed.push(file.path);
        return readPlainYaml(text);
      });
    expect(parsed).toEqual([...declined, 'groups/account.yaml'].sort());
    cache.save();
    expectSame(
      loadCatalogueFromSources(edited, { accelerator: new FastLoad({ cache: new ParseCache(dir, TOOL) }) }),
      loadCatalogueFromSources(edited),
    );
  });

  it('one cache for two loads: each gives its model, and the file holds the files of the last load', () => {
    const dir = tempDir('eventry-parse-cache-');
    const edited = seed.map((file) =>
      file.path === 'groups/account.yaml' ? { ...file, text: `${file.text}\n` } : file,
    );
    const cache = new ParseCache(dir, TOOL);
    expectSame(
      loadCatalogueFromSources(seed, { accelerator: new FastLoad({ cache }) }),
      loadCatalogueFromSources(seed),
    );
    expectSame(
      loadCatalogueFromSources(edited, { accelerator: new FastLoad({ cache }) }),
      loadCatalogueFromSources(edited),
    );
    const parsedFrom = (files: typeof seed) => {
      const parsed: string[] = [];
      const fresh = new ParseCache(dir, TOOL);
      for (const file of files)
        fresh.read(file.text, (text) => {
          parsed.push(file.path);
          return readPlainYaml(text);
        });
      return parsed;
    };
    expect(parsedFrom(edited)).toEqual(declined);
    // One file of the seed's changed: its new parse went to the delta file, and its old one stays in the
    // whole file until that is written again (going back to the old text is a hit).
    expect(existsSync(join(dir, PARSE_DELTA_FILE))).toBe(true);
    expect(parsedFrom(seed)).toEqual(declined);
  });

  it('the delta file keeps an edit small; the whole file is written again once many entries went unused', () => {
    const dir = warmCache();
    const whole = readFileSync(join(dir, PARSE_CACHE_FILE));
    const edited = seed.map((file) =>
      file.path === 'groups/billing.yaml' ? { ...file, text: `${file.text}\n` } : file,
    );
    expectSame(
      loadCatalogueFromSources(edited, { accelerator: new FastLoad({ cache: new ParseCache(dir, TOOL) }) }),
      loadCatalogueFromSources(edited),
    );
    expect(readFileSync(join(dir, PARSE_CACHE_FILE)).equals(whole)).toBe(true);
    expect(statSync(join(dir, PARSE_DELTA_FILE)).size).toBeLessThan(whole.length / 4);
    // Every group changed: most of the whole file's entries unused, so it is written again, delta gone.
    const all = seed.map((file) =>
      file.path.startsWith('groups/') ? { ...file, text: `${file.text}\n` } : file,
    );
    expectSame(
      loadCatalogueFromSources(all, { accelerator: new FastLoad({ cache: new ParseCache(dir, TOOL) }) }),
      loadCatalogueFromSources(all),
    );
    expect(existsSync(join(dir, PARSE_DELTA_FILE))).toBe(false);
    const cache = new HitsOnly(dir, TOOL);
    for (const file of all) if (!declined.includes(file.path)) expect(cache.read(file.text)).toBeDefined();
  });

  it('a file another toolkit wrote is not reused: a toolkit change never reads a stale parse', () => {
    const dir = warmCache(seed, 'the old toolkit');
    const parsedBy = (tool: string) => {
      const parsed: string[] = [];
      const cache = new ParseCache(dir, tool);
      for (const file of seed)
        cache.read(file.text, (text) => {
          parsed.push(file.path);
          return readPlainYaml(text);
        });
      return parsed;
    };
    expect(parsedBy('the old toolkit')).toEqual(declined);
    expect(parsedBy(TOOL)).toEqual(seed.map((file) => file.path));
  });

  it('drops the entries of files no longer in the catalogue when it is written again', () => {
    const dir = warmCache();
    const before = statSync(join(dir, PARSE_CACHE_FILE)).size;
    const fewer = seed.filter((file) => !file.path.startsWith('groups/a'));
    const edited = fewer.map((file) =>
      file.path === 'groups/billing.yaml' ? { ...file, text: `${file.text}\n` } : file,
    );
    loadCatalogueFromSources(edited, { accelerator: new FastLoad({ cache: new ParseCache(dir, TOOL) }) });
    expect(statSync(join(dir, PARSE_CACHE_FILE)).size).toBeLessThan(before);
    const removed = seed.find((file) => file.path.startsWith('groups/a'))!;
    const cache = new ParseCache(dir, TOOL);
    let parsedAgain = false;
    cache.read(removed.text, (text) => {
      parsedAgain = true;
      return readPlainYaml(text);
    });
    expect(parsedAgain).toBe(true);
  });

  it('keeps the -0 of `-0.0` exact by not storing a file JSON cannot carry', () => {
    const dir = tempDir('eventry-parse-cache-');
    const text = 'a: -0.0\n';
    const first = new ParseCache(dir, TOOL);
    const a = (plain: PlainYaml | undefined) => (plain!.value as { a: number }).a;
    expect(Object.is(a(first.read(text, readPlainYaml)), -0)).toBe(true);
    first.save();
    expect(Object.is(a(new ParseCache(dir, TOOL).read(text, readPlainYaml)), -0)).toBe(true);
  });
});

describe('the parse cache on generated YAML', () => {
  it('restores every value and location a fresh parse gives (empty, nested and mixed collections)', () => {
    // Values of any JSON shape, written in block and in flow style: the shapes the seed lacks.
    const texts = fc
      .sample(fc.record({ value: fc.jsonValue({ maxDepth: 5 }), flow: fc.boolean() }), {
        numRuns: 300,
        seed: 20_261_123,
      })
      .map(({ value, flow }) => stringify({ root: value }, flow ? { collectionStyle: 'flow' } : {}));
    const plain = texts.filter((text) => readPlainYaml(text));
    expect(plain.length).toBeGreaterThan(100);
    const dir = tempDir('eventry-parse-cache-');
    const filling = new ParseCache(dir, TOOL);
    for (const text of plain) filling.read(text, readPlainYaml);
    filling.save();
    const cache = new HitsOnly(dir, TOOL);
    for (const [index, text] of plain.entries()) {
      const file = { path: `generated-${index}.yaml`, text };
      const fresh = YamlSource.parse(file).source!;
      const restored = new FastLoad({ cache }).parse(file).source!;
      expectSame(restored.value, fresh.value);
      const paths = pathsOf(fresh.value);
      expect(locationsOf(restored, paths)).toEqual(locationsOf(fresh, paths));
    }
  });
});

describe('a damaged cache file costs a parse, never an error', () => {
  const valid = () => readFileSync(join(warmCache(), PARSE_CACHE_FILE));
  const cases: [string, () => Buffer | string][] = [
    ['truncated', () => valid().subarray(0, valid().length >> 1)],
    [
      'one byte flipped',
      () => {
        const bytes = valid();
        bytes[bytes.length - 100] = bytes[bytes.length - 100]! ^ 0xff;
        return bytes;
      },
    ],
    ['empty', () => Buffer.alloc(0)],
    ['text, not v8 data', () => 'group:\n  slug: not-a-cache\n'],
    [
      'v8 data of another program, with a valid checksum',
      () => {
        const payload = serialize({ some: 'thing', entries: [1, 2, 3] });
        return Buffer.concat([createHash('sha256').update(payload).digest(), payload]);
      },
    ],
  ];

  it.each(cases)('%s: the load gives the model and rewrites the file', (_, contents) => {
    const dir = tempDir('eventry-parse-cache-');
    writeFileSync(join(dir, PARSE_CACHE_FILE), contents());
    const reference = loadCatalogueFromSources(seed);
    expectSame(
      loadCatalogueFromSources(seed, { accelerator: new FastLoad({ cache: new ParseCache(dir, TOOL) }) }),
      reference,
    );
    // Rewritten whole: the next load hits every file.
    const cache = new ParseCache(dir, TOOL);
    for (const file of seed.filter((file) => readPlainYaml(file.text))) cache.read(file.text, notParsed);
    expect(readdirSync(dir)).toEqual([PARSE_CACHE_FILE]);
  });

  it('a folder where the file should be: the load gives the model, nothing is written', () => {
    const dir = tempDir('eventry-parse-cache-');
    mkdirSync(join(dir, PARSE_CACHE_FILE));
    expectSame(
      loadCatalogueFromSources(seed, { accelerator: new FastLoad({ cache: new ParseCache(dir, TOOL) }) }),
      loadCatalogueFromSources(seed),
    );
    expect(readdirSync(dir)).toEqual([PARSE_CACHE_FILE]);
  });
});

describe('the parse cache remembers the parses that passed the file-shape check', () => {
  it('a passing parse is not checked again; a failing one is, and reports the same problems each load', () => {
    const group = seed.find((file) => file.path.startsWith('groups/'))!;
    // An undocumented key: the shape check's problem, with its location.
    const broken = { ...group, text: group.text.replace(/^group:\n/m, 'group:\n  colour: blue\n') };
    expect(broken.text).not.toBe(group.text);
    const files = seed.map((file) => (file === group ? broken : file));
    const fresh = loadCatalogueFromSources(files);
    expect(fresh.ok).toBe(false);
    const dir = tempDir('eventry-parse-cache-');
    for (let load = 0; load < 3; load++) {
      const cache = new ParseCache(dir, TOOL);
      const loaded = loadCatalogueFromSources(files, { accelerator: new FastLoad({ cache }) });
      expect(loaded).toEqual(fresh);
    }
    const cache = new ParseCache(dir, TOOL);
    for (const file of files) {
      cache.read(file.text, readPlainYaml);
      // Every parsed file that passed is marked; the broken one never is, nor what the fast path declines.
      expect(cache.shapeChecked(file.text)).toBe(
        file !== broken && !declined.includes(file.path) && file.path !== 'eventry.config.yaml',
      );
    }
  });

  it('the mark is kept by save, for that text only', () => {
    const dir = tempDir('eventry-parse-cache-');
    const [a, b] = seed.filter((file) => readPlainYaml(file.text) && file.path.startsWith('groups/'));
    const first = new ParseCache(dir, TOOL);
    first.read(a!.text, readPlainYaml);
    first.read(b!.text, readPlainYaml);
    expect(first.shapeChecked(a!.text)).toBe(false);
    first.passedShapeCheck(a!.text);
    expect(first.shapeChecked(a!.text)).toBe(true);
    first.save();
    const second = new HitsOnly(dir, TOOL);
    second.read(a!.text);
    second.read(b!.text);
    expect(second.shapeChecked(a!.text)).toBe(true);
    expect(second.shapeChecked(b!.text)).toBe(false);
    // Another toolkit (another schema) reads none of it.
    const other = new ParseCache(dir, 'another toolkit');
    other.read(a!.text, readPlainYaml);
    expect(other.shapeChecked(a!.text)).toBe(false);
  });
});

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FastLoad } from '../../../../generators/execute/fast/load/index.js';
import { loadCatalogueFromSources, readCatalogueSources } from '../../../../generators/load/index.js';
import type { PlainYaml } from '../../../../generators/load/yaml-source.js';
import { REPO } from '../../../helpers.js';

// The two sides of a diff share most files: with one memo, each file both hold alike is parsed once.
// The models must be exactly what separate loads give, problems and locations included.

describe('loads sharing a parse memo', () => {
  const seed = readCatalogueSources(join(REPO, 'catalogue'));

  it('give the models separate loads give, and parse a shared file once', () => {
    const edited = seed.map((file) =>
      file.path === 'groups/account.yaml'
        ? { ...file, text: file.text.replace('title: ', 'description: Edited.\n  title: ') }
        : file,
    );
    const memo = new Map<string, PlainYaml>();
    const first = loadCatalogueFromSources(seed, { accelerator: new FastLoad({ memo }) });
    const parsed = memo.size;
    expect(parsed).toBeGreaterThan(15);
    const second = loadCatalogueFromSources(edited, { accelerator: new FastLoad({ memo }) });
    expect(first).toEqual(loadCatalogueFromSources(seed));
    expect(second).toEqual(loadCatalogueFromSources(edited));
    expect(second).not.toEqual(first);
    // The second load parsed the edited file only.
    expect(memo.size).toBe(parsed + 1);
  });

  it('a shared file with a problem reports it, located, in each catalogue', () => {
    const broken = seed.map((file) =>
      file.path === 'groups/account.yaml'
        ? { ...file, text: file.text.replace('type: string', 'type: strnig') }
        : file,
    );
    const memo = new Map<string, PlainYaml>();
    const once = loadCatalogueFromSources(broken, { accelerator: new FastLoad({ memo }) });
    const twice = loadCatalogueFromSources(broken, { accelerator: new FastLoad({ memo }) });
    expect(once.ok).toBe(false);
    expect(twice).toEqual(once);
    expect(twice).toEqual(loadCatalogueFromSources(broken));
  });
});

import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { OutputFile } from '../../../generators/emit/context.js';
import { emitGroupPackages } from '../../../generators/emit/package/index.js';
import {
  isCurrent,
  PRECOMPILED_TEMPLATES,
  type PrecompiledTemplates,
  templateDigest,
  templateNames,
  templateSource,
} from '../../../generators/emit/package/templates.js';
import { compiledToolkitPath, fixturePath, loadValid } from '../../helpers.js';

// The toolkit renders the group package templates precompiled (`npm run build:tool` writes them), run
// from dist/ or from its TypeScript source alike: both must write the same text, and a precompiled file
// that no longer matches the templates' text must never be used.
describe('precompiled package templates', () => {
  const compiledEmitter = compiledToolkitPath('generators/emit/package/index.js');
  const precompiledFile = compiledToolkitPath('generators', PRECOMPILED_TEMPLATES);

  it('`npm run build:tool` wrote one precompiled entry per template, from the text the sources hold now', () => {
    expect(existsSync(precompiledFile)).toBe(true);
    const precompiled = createRequire(import.meta.url)(precompiledFile) as PrecompiledTemplates;
    expect(Object.keys(precompiled).sort()).toEqual(templateNames());
    expect(isCurrent(precompiled, templateNames(), templateSource)).toBe(true);
  });

  it('the toolkit run from its TypeScript source writes the group packages the compiled toolkit writes', async () => {
    const model = loadValid(fixturePath('small'));
    const dist = (await import(pathToFileURL(compiledEmitter).href)) as {
      emitGroupPackages: typeof emitGroupPackages;
    };
    const text = (files: OutputFile[]) => files.map((file) => [file.path, file.contents]);
    const fromSource = text(await emitGroupPackages(model, { versions: {} }));
    expect(fromSource.length).toBeGreaterThan(10);
    expect(text(await dist.emitGroupPackages(model, { versions: {} }))).toEqual(fromSource);
  });

  it('a precompiled set is not current when a template changed, was added or was removed', () => {
    const names = ['a', 'b'];
    const texts: Record<string, string> = { a: '{{x}}', b: '{{y}}' };
    const entry = (text: string) => ({ digest: templateDigest(text), spec: {} as never });
    const precompiled: PrecompiledTemplates = { a: entry('{{x}}'), b: entry('{{y}}') };
    expect(isCurrent(precompiled, names, (name) => texts[name]!)).toBe(true);
    expect(isCurrent(precompiled, names, (name) => (name === 'b' ? '{{z}}' : texts[name]!))).toBe(false);
    expect(isCurrent(precompiled, [...names, 'c'], (name) => texts[name] ?? '')).toBe(false);
    expect(isCurrent(precompiled, ['a'], (name) => texts[name]!)).toBe(false);
    expect(isCurrent({ a: entry('{{x}}'), constructor: entry('') }, ['a', 'b'], (name) => texts[name]!)).toBe(
      false,
    );
  });
});

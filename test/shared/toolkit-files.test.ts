import { describe, expect, it } from 'vitest';
import { PRECOMPILED_META_CHECK } from '../../generators/emit/package/validators.js';
import {
  compiledToolkitFile,
  requirePrecompiled,
  ToolkitNotBuilt,
} from '../../generators/shared/toolkit-files.js';
import { compiledToolkitPath } from '../helpers.js';

describe('the compiled toolkit, one way from source and from dist/', () => {
  it('is found in dist/ from the TypeScript source too', () => {
    expect(compiledToolkitFile('load/index.js')).toBe(compiledToolkitPath('generators/load/index.js'));
    expect(compiledToolkitFile('../docs-assets')).toBe(compiledToolkitPath('docs-assets'));
  });

  it('a precompiled module that is missing is toolkit-not-built, never compiled on use', () => {
    const require = () => requirePrecompiled('emit/package/no-such.compiled.cjs', 'the precompiled thing');
    expect(require).toThrow(ToolkitNotBuilt);
    expect(require).toThrow('eventry: the precompiled thing is missing; run `npm run build:tool`.');
    expect(require).toThrow(expect.objectContaining({ code: 'toolkit-not-built' }));
  });

  it('a precompiled module compiled from other sources than the ones here is refused as out of date', () => {
    expect(requirePrecompiled(PRECOMPILED_META_CHECK, 'the check')).toBeTypeOf('function');
    expect(() => requirePrecompiled(PRECOMPILED_META_CHECK, 'the check', () => false)).toThrow(
      'eventry: the check is out of date; run `npm run build:tool`.',
    );
  });
});

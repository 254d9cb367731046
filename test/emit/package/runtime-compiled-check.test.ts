import { readdirSync, statSync, utimesSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  emitRuntimePackage,
  PRECOMPILED_RUNTIME_DIGESTS,
  runtimeSourceDigests,
} from '../../../generators/emit/package/runtime-package.js';
import { compiledToolkitPath, fixturePath, loadValid, REPO } from '../../helpers.js';

/**
 * A build checks that the compiled run time it ships is the one in the source tree by the sources'
 * digests, not by file times: npm unpacks an installed eventry in any order, so a source may be newer
 * than its compiled copy there.
 */
const RUNTIME_SOURCES = join(REPO, 'generators', 'runtime');

describe('the compiled run time check', () => {
  it('emits the run time package when the sources are newer than their compiled copies (an install)', () => {
    const sources = readdirSync(RUNTIME_SOURCES)
      .filter((name) => name.endsWith('.ts'))
      .map((name) => join(RUNTIME_SOURCES, name));
    const times = sources.map((file) => statSync(file));
    const later = new Date(Date.now() + 3_600_000);
    try {
      for (const file of sources) utimesSync(file, later, later);
      const files = emitRuntimePackage(loadValid(fixturePath('small')));
      expect(files.map((file) => file.path)).toContain('runtime/runtime.js');
    } finally {
      for (const [i, file] of sources.entries()) utimesSync(file, times[i]!.atime, times[i]!.mtime);
    }
  });

  it('compares the digests `npm run build:tool` recorded for every source with the sources now', () => {
    const recorded = createRequire(import.meta.url)(
      compiledToolkitPath('generators', PRECOMPILED_RUNTIME_DIGESTS),
    ) as Record<string, string>;
    const current = runtimeSourceDigests();
    expect(Object.keys(current)).toContain('runtime.ts');
    expect(recorded).toEqual(current);
  });
});

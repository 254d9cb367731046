import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { emitGroupPackages } from '../../../generators/emit/package/index.js';
import {
  emitRuntimePackage,
  RUNTIME_RANGE,
  RUNTIME_VERSION,
} from '../../../generators/emit/package/runtime-package.js';
import { buildCatalogue } from '../../../generators/execute/fast/build.js';
import { readCatalogueSources } from '../../../generators/load/index.js';
import { compiledToolkitPath, fixturePath, loadValid, REPO, tempDir } from '../../helpers.js';
import { type BuiltPackages, buildPackages } from './build-packages.js';

/**
 * The run time is shipped once, as `@<scope>/runtime`, and every group imports it: one
 * `EventValidationError` class and one matcher registry however many groups a project installs.
 */
const small = loadValid(fixturePath('small'));
const runtimeFiles = new Map(emitRuntimePackage(small).map((file) => [file.path, file.contents]));

describe('golden files: small fixture, run time package', () => {
  it.each(['runtime/package.json', 'runtime/README.md'])('%s', async (path) => {
    await expect(runtimeFiles.get(path)).toMatchFileSnapshot(`${REPO}/test/fixtures/small/expected/${path}`);
  });
});

describe('the run time package', () => {
  const pkg = JSON.parse(runtimeFiles.get('runtime/package.json')!) as Record<string, unknown>;

  it('is <scope>/runtime at the run time version, ESM, types first, and records its content hash', () => {
    expect(pkg).toMatchObject({
      name: '@fixture-events/runtime',
      version: RUNTIME_VERSION,
      type: 'module',
      exports: {
        '.': { types: './runtime.d.ts', default: './runtime.js' },
        './testing': { types: './testing.d.ts', default: './testing.js' },
        './fast-check': { import: { types: './fast-check.d.ts', default: './fast-check.js' } },
      },
      files: [
        'runtime.js',
        'runtime.d.ts',
        'types.js',
        'types.d.ts',
        'run.js',
        'run.d.ts',
        'error-items.js',
        'error-items.d.ts',
        'options.js',
        'options.d.ts',
        'suggest.js',
        'suggest.d.ts',
        'testing.js',
        'testing.d.ts',
        'testing-values.js',
        'testing-values.d.ts',
        'testing-rules.js',
        'testing-rules.d.ts',
        'testing-repair.js',
        'testing-repair.d.ts',
        'fast-check.js',
        'fast-check.d.ts',
        'standard.js',
        'standard.d.ts',
      ],
      peerDependenciesMeta: { 'fast-check': { optional: true } },
      eventry: { runtime: true },
    });
    expect(Object.keys((pkg.exports as Record<string, object>)['.']!)[0]).toBe('types');
    expect((pkg.eventry as { sourceHash: string }).sourceHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("ships tsc's compiled run time and declarations, not a hand-written copy", () => {
    const compiled = (name: string) => readFileSync(compiledToolkitPath('generators/runtime', name), 'utf8');
    expect(runtimeFiles.get('runtime/runtime.js')).toContain(compiled('runtime.js'));
    expect(runtimeFiles.get('runtime/runtime.d.ts')).toContain(compiled('runtime.d.ts'));
    expect(runtimeFiles.get('runtime/runtime.d.ts')).toContain(
      'export declare function defineEvent<T, K extends string>(',
    );
  });
});

describe('group packages and the run time', async () => {
  const groups = await emitGroupPackages(small, { versions: {} });

  it('ship no copy of the run time and import it by package name', () => {
    expect(groups.map((file) => file.path).filter((path) => /(^|\/)runtime\./.test(path))).toEqual([]);
    for (const file of groups.filter((f) => /\.(js|d\.ts)$/.test(f.path) && !f.path.endsWith('types.d.ts'))) {
      expect(file.contents, file.path).not.toContain('runtime.js');
      // The entry points import the run time; the chunks and the test data they import name no package.
      if (/\/chunks\/|\/testing-data\.js$/.test(file.path))
        expect(file.contents, file.path).not.toContain('@fixture-events/runtime');
      else expect(file.contents, file.path).toMatch(/"@fixture-events\/runtime(\/testing)?"/);
    }
  });

  it('depend on it with a caret range, so npm installs one copy for every group', () => {
    for (const slug of ['account', 'billing']) {
      const manifest = JSON.parse(groups.find((file) => file.path === `${slug}/package.json`)!.contents);
      expect(manifest.dependencies['@fixture-events/runtime'], slug).toBe(RUNTIME_RANGE);
      expect(manifest.files, slug).not.toContain('runtime.js');
    }
    expect(RUNTIME_RANGE).toBe(`^${RUNTIME_VERSION}`);
  });
});

describe('two installed groups share one run time', () => {
  let built: BuiltPackages;
  beforeAll(async () => {
    built = await buildPackages(fixturePath('small'));
  });

  it('an EventValidationError thrown by one group is instanceof the class the other exports', async () => {
    const account = (await built.importGroup('account')) as unknown as {
      assertEvent(key: string, payload: unknown): void;
      EventValidationError: new (...args: never[]) => Error;
    };
    const billing = (await built.importGroup('billing')) as unknown as {
      EventValidationError: new (...args: never[]) => Error;
    };
    const event = (await built.importEvent('billing', 'billing.ledger.entry_posted-v1')) as unknown as {
      EventValidationError: unknown;
    };
    let thrown: unknown;
    try {
      account.assertEvent('account.created-v1', {});
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(billing.EventValidationError);
    expect(account.EventValidationError).toBe(billing.EventValidationError);
    expect(event.EventValidationError).toBe(billing.EventValidationError);
  });
});

describe('packages used where they were built (eventry validate, the docs)', () => {
  it('find their run time package: the output holds node_modules/<scope>/runtime pointing at it', async () => {
    const root = tempDir('eventry-in-place-');
    const out = join(root, 'packages');
    const result = await buildCatalogue(readCatalogueSources(fixturePath('small')), out);
    expect(result.kind).toBe('built');
    // Only ajv-formats is installed above the output, as in this repository.
    mkdirSync(join(root, 'node_modules'));
    symlinkSync(join(REPO, 'node_modules', 'ajv-formats'), join(root, 'node_modules', 'ajv-formats'), 'dir');
    const group = async (slug: string) =>
      (await import(pathToFileURL(join(out, slug, 'index.js')).href)) as {
        EventValidationError: unknown;
        validate(key: string, payload: unknown): { valid: boolean };
      };
    const account = await group('account');
    const billing = await group('billing');
    expect(account.validate('account.created-v1', {}).valid).toBe(false);
    expect(account.EventValidationError).toBe(billing.EventValidationError);
  });
});

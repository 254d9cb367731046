import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { Catalogue } from '../../model.js';
import {
  compiledToolkitFile,
  readToolkitFile,
  requirePrecompiled,
  ToolkitNotBuilt,
} from '../../shared/toolkit-files.js';
import { generatedNote, jsonFile, type OutputFile } from '../context.js';
import { render } from './templates.js';

/** The folder (below `packages/`) and name (below the scope) of the run time package; no group may take it. */
export const RUNTIME_SLUG = 'runtime';

/**
 * The run time package's version, kept by hand with the run time (`generators/runtime/runtime.ts`):
 * patch for a fix, minor for something new that generated code may use, major when code generated for
 * the previous version cannot run on it. A changed run time under an unchanged version is refused by
 * `eventry publish`, as a changed group is.
 */
export const RUNTIME_VERSION = '1.7.1';

/**
 * The range every group package depends on: a caret, so that npm installs ONE copy of the run time for
 * all groups of a project (one `EventValidationError` class, one matcher registry) even when the groups
 * were built by different toolkit versions of the same major.
 */
export const RUNTIME_RANGE = `^${RUNTIME_VERSION}`;

/** The fast-check versions the run time's `arbitrary` is written for (their common API). */
const FAST_CHECK_RANGE = '^3.23.0 || ^4.0.0';

/** The npm name of the run time package: `<scope>/runtime`. */
export function runtimePackageName(model: Catalogue): string {
  return `${model.config.scope}/${RUNTIME_SLUG}`;
}

/** What the toolkit's tsc compiled from `generators/runtime/` (`npm run build:tool`): the entry, its modules. */
const COMPILED = [
  'runtime.js',
  'runtime.d.ts',
  'types.js',
  'types.d.ts',
  'run.js',
  'run.d.ts',
  'list.js',
  'list.d.ts',
  'event-api.js',
  'event-api.d.ts',
  'matchers.js',
  'matchers.d.ts',
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
  'migrate.js',
  'migrate.d.ts',
] as const;

/**
 * What every published package of a catalogue (each group and the run time) declares alike: one place,
 * so the packages never disagree on the Node versions or module format they support.
 */
export const SHARED_MANIFEST_FIELDS = {
  license: 'UNLICENSED',
  type: 'module',
  sideEffects: false,
  engines: { node: '>=18' },
} as const;

/**
 * `packages/runtime/`: the run time every group package imports, shipped once. Its files are the
 * compiled run time as tsc wrote them, each behind the generated-file note.
 */
export function emitRuntimePackage(model: Catalogue): OutputFile[] {
  const note = generatedNote('generators/runtime/runtime.ts');
  const files = COMPILED.map((name) => ({
    path: `${RUNTIME_SLUG}/${name}`,
    contents: render('copied', {
      note: generatedNote(`generators/runtime/${sourceOf(name)}`),
      text: readCompiledRuntime(name),
    }),
  }));
  const hash = createHash('sha256');
  for (const file of files) hash.update(`${file.path}\0${file.contents}\0`);
  const name = runtimePackageName(model);
  return [
    jsonFile(`${RUNTIME_SLUG}/package.json`, {
      name,
      version: RUNTIME_VERSION,
      description: `The run time of the group packages of the ${model.config.title}: validate, isEvent, assertEvent, EventValidationError, upcast and downcast, and the test matchers, shared by every group. ${note}`,
      ...SHARED_MANIFEST_FIELDS,
      exports: {
        '.': { types: './runtime.d.ts', default: './runtime.js' },
        './testing': { types: './testing.d.ts', default: './testing.js' },
        // ES import only, as the groups' `./testing`: a top-level await (docs/decisions/0086).
        './fast-check': { import: { types: './fast-check.d.ts', default: './fast-check.js' } },
        './package.json': './package.json',
      },
      types: './runtime.d.ts',
      files: [...COMPILED],
      // Only `arbitrary` of the groups' `testing` entry points needs it (see fast-check.ts).
      peerDependencies: { 'fast-check': FAST_CHECK_RANGE },
      peerDependenciesMeta: { 'fast-check': { optional: true } },
      eventry: { runtime: true, sourceHash: hash.digest('hex') },
    }),
    ...files,
    { path: `${RUNTIME_SLUG}/README.md`, contents: render('runtime-readme.md', { note, name }) },
    ...inPlaceLink(name, note),
  ];
}

/**
 * `node_modules/<scope>/runtime/` in the output folder: a stand-in that re-exports the run time package
 * beside it, so the group packages resolve their run time where they were built (`eventry validate`,
 * tests), as an install would. Same module, so one `EventValidationError` class. Never published.
 */
function inPlaceLink(name: string, note: string): OutputFile[] {
  const dir = `node_modules/${name}`;
  const modules = ['runtime', 'testing', 'fast-check'];
  const exports: Record<string, { types: string; default: string }> = {};
  const files: OutputFile[] = [];
  for (const module of modules) {
    const target = `${'../'.repeat(dir.split('/').length)}${RUNTIME_SLUG}/${module}.js`;
    const text = `// ${note}\nexport * from ${JSON.stringify(target)};\n`;
    exports[module === 'runtime' ? '.' : `./${module}`] = {
      types: `./${module}.d.ts`,
      default: `./${module}.js`,
    };
    files.push(
      { path: `${dir}/${module}.js`, contents: text },
      { path: `${dir}/${module}.d.ts`, contents: text },
    );
  }
  return [
    jsonFile(`${dir}/package.json`, {
      name,
      private: true,
      description: `Points at ../../../${RUNTIME_SLUG}/ for packages used where they were built. ${note}`,
      type: 'module',
      exports,
    }),
    ...files,
  ];
}

/** The source file in generators/runtime/ a compiled file comes from. */
function sourceOf(name: (typeof COMPILED)[number]): string {
  return name.replace(/\.d\.ts$|\.js$/, '.ts');
}

/**
 * Where `npm run build:tool` (`scripts/precompile.ts`) records, once tsc has compiled the run time, the
 * digest of each source file it compiled from: an installed eventry's files all carry the time npm
 * unpacked them, so the times cannot say which is newer.
 */
export const PRECOMPILED_RUNTIME_DIGESTS = 'emit/package/runtime-sources.compiled.cjs';

/**
 * Where `npm run build:tool` writes, with esbuild, the run time entry and the modules it imports as one
 * module: the copy each group package carries as `runtime.js` (docs/decisions/0175).
 */
export const PRECOMPILED_RUNTIME_COPY = 'runtime/group-copy/runtime.js';

/** The file name of the run time's copy in a group package, beside its `index.js`. */
export const GROUP_RUNTIME_FILE = 'runtime.js';

/**
 * What an event's own entry point takes from the run time: the part of it that `npm run build:tool`
 * bundles a second time, alone, for the event entry points (docs/decisions/0195).
 */
export const EVENT_RUNTIME_EXPORTS = ['defineEvent', 'EventValidationError', 'standardSchemaOf'] as const;

/** Where `npm run build:tool` writes that part of the run time, as one module. */
export const PRECOMPILED_EVENT_RUNTIME_COPY = 'runtime/group-copy/event-runtime.js';

/** Its file name in a group package, beside its `index.js`: what `events/<key>.js` imports. */
export const GROUP_EVENT_RUNTIME_FILE = 'event-runtime.js';

/**
 * The run time as one module, as each group package carries it: its entry points import it by a
 * relative path, which Node finds without resolving a package name (+3.7 ms of a cold start on its
 * own), and load one file for six (docs/decisions/0175). Refused when stale, as the run time package.
 */
export function runtimeCopy(): string {
  return readCompiledRuntime(PRECOMPILED_RUNTIME_COPY);
}

/**
 * The part of the run time an event's entry point needs (`EVENT_RUNTIME_EXPORTS`), as one module: what
 * each group package carries as `event-runtime.js`. The same sources as `runtime.js`, with what only the
 * group API, migrations and matchers use left out, so importing one event parses less (0195), and
 * event-entry.ts's `defineEvent`, which runs only code of the same build, minified (0198).
 */
export function eventRuntimeCopy(): string {
  return readCompiledRuntime(PRECOMPILED_EVENT_RUNTIME_COPY);
}

/** Sources in `generators/runtime/` that only the bundled copies use, not the run time package (0198). */
const BUNDLED_ONLY = ['event-entry.ts'] as const;

/** The digest of each source file of the run time in `generators/runtime/`, by file name. */
export function runtimeSourceDigests(): Record<string, string> {
  const digests: Record<string, string> = {};
  for (const source of [...COMPILED.map(sourceOf), ...BUNDLED_ONLY]) {
    digests[source] ??= createHash('sha256')
      .update(readToolkitFile(`runtime/${source}`))
      .digest('hex');
  }
  return digests;
}

/**
 * A compiled run time file from `dist/generators/runtime/`. Refused (`toolkit-not-built`) when missing
 * or compiled from other sources than the ones in the source tree now, so a build never ships a run
 * time that is not the one in the source tree.
 */
function readCompiledRuntime(
  name: (typeof COMPILED)[number] | typeof PRECOMPILED_RUNTIME_COPY | typeof PRECOMPILED_EVENT_RUNTIME_COPY,
): string {
  const what = 'the compiled package run time (dist/generators/runtime/)';
  const current = runtimeSourceDigests();
  requirePrecompiled<Record<string, string>>(PRECOMPILED_RUNTIME_DIGESTS, what, (recorded) =>
    Object.entries(current).every(([source, digest]) => recorded[source] === digest),
  );
  const compiled = compiledToolkitFile(name.includes('/') ? name : `runtime/${name}`);
  if (!existsSync(compiled)) throw new ToolkitNotBuilt(what);
  return readFileSync(compiled, 'utf8');
}

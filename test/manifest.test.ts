import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript-api';
import { describe, expect, inject, it } from 'vitest';
import { VENDORED } from '../generators/docs/package-files.js';
import { REPO, tempDir } from './helpers.js';

/**
 * The manifest is honest: every package the shipped code (the compiled `dist/` files reachable from the
 * bin, the thread modules and precompiled modules beside them) imports at run time is in `dependencies`,
 * and every dependency is imported. The group packages a build writes import only what their own
 * `package.json` declares. Read from the compiled JavaScript, parsed, so type-only imports (erased) never
 * count and dynamic `import()`, `require()` and `createRequire(...)(...)` do.
 */

interface Manifest {
  name?: string;
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/** What one module loads: the specifiers given as literals, and the loads whose specifier is computed. */
interface ModuleLoads {
  specifiers: string[];
  computed: string[];
}

const BUILTINS = new Set(builtinModules);

/** The package a bare specifier names (`@scope/name/sub` -> `@scope/name`), or undefined for a built-in. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('node:') || BUILTINS.has(specifier.split('/')[0]!)) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function isRelative(specifier: string): boolean {
  return specifier.startsWith('./') || specifier.startsWith('../');
}

/** `require`, `createRequire(...)` (called at once) or a `require.resolve`-style call on either. */
function isRequireCall(callee: ts.Expression): boolean {
  if (ts.isIdentifier(callee)) return callee.text === 'require';
  if (ts.isCallExpression(callee))
    return ts.isIdentifier(callee.expression) && callee.expression.text === 'createRequire';
  if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'resolve')
    return isRequireCall(callee.expression);
  return false;
}

/** The modules one JavaScript file loads: static imports and re-exports, `import()`, `require()`. */
function loadsOf(file: string, text = readFileSync(file, 'utf8')): ModuleLoads {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
  const loads: ModuleLoads = { specifiers: [], computed: [] };
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      const typeOnly = ts.isImportDeclaration(node) ? node.importClause?.isTypeOnly : node.isTypeOnly;
      if (!typeOnly && ts.isStringLiteral(node.moduleSpecifier))
        loads.specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node)) {
      const dynamic = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      if (dynamic || isRequireCall(node.expression)) {
        const [first] = node.arguments;
        if (first && ts.isStringLiteralLike(first)) loads.specifiers.push(first.text);
        else loads.computed.push(`${relative(REPO, file)}: ${node.getText(source).slice(0, 80)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return loads;
}

function filesUnder(dir: string, keep: (path: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .filter(keep)
    .sort();
}

const isModule = (path: string): boolean => /\.(c|m)?js$/.test(path);

/**
 * The bare specifiers of every module reachable from `roots` through relative loads, by package, with
 * the first module that loads each; `computed` lists loads whose specifier the code computes.
 */
function reachableImports(roots: readonly string[]): {
  packages: Map<string, string>;
  computed: string[];
  modules: Set<string>;
} {
  const packages = new Map<string, string>();
  const computed: string[] = [];
  const modules = new Set<string>();
  const queue = [...roots];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (modules.has(file)) continue;
    modules.add(file);
    const loads = loadsOf(file);
    computed.push(...loads.computed);
    for (const specifier of loads.specifiers) {
      if (isRelative(specifier)) {
        const target = resolve(dirname(file), specifier);
        if (!existsSync(target))
          throw new Error(`${relative(REPO, file)} loads ${specifier}, which is missing`);
        if (isModule(target)) queue.push(target);
        continue;
      }
      const name = packageOf(specifier);
      if (name !== undefined && !packages.has(name)) packages.set(name, relative(REPO, file));
    }
  }
  return { packages, computed, modules };
}

function readManifest(path: string): Manifest {
  return JSON.parse(readFileSync(path, 'utf8')) as Manifest;
}

/**
 * The modules eventry ships and runs: its bin, and every compiled module of `dist/generators/` (the thread
 * modules and the precompiled validators are loaded by path, not imported). The run time's own folder is
 * the template of the `@<scope>/runtime` package: its modules count only where eventry loads them.
 */
function eventryRoots(manifest: Manifest): string[] {
  const bins = Object.values(manifest.bin ?? {}).map((bin) => join(REPO, bin));
  const runtime = join(REPO, 'dist', 'generators', 'runtime');
  const modules = filesUnder(
    join(REPO, 'dist', 'generators'),
    (path) => isModule(path) && !path.startsWith(runtime),
  );
  return [...bins, ...modules];
}

describe('the import reader', () => {
  it('finds static, dynamic and required modules, by package, and computed loads', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'lib'));
    writeFileSync(
      join(dir, 'bin.js'),
      [
        "import { a } from './lib/a.js';",
        "import 'node:fs';",
        "export * from '@scope/re-exported/sub.js';",
        "const later = await import('dynamic-pkg');",
        "import { createRequire } from 'node:module';",
        "const cjs = createRequire(import.meta.url)('required-pkg/x.js');",
        "const where = createRequire(import.meta.url).resolve('resolved-pkg');",
        'const unknown = await import(process.argv[2]);',
      ].join('\n'),
    );
    writeFileSync(join(dir, 'lib', 'a.js'), "export const a = require('deep-pkg'); import('path');");
    const found = reachableImports([join(dir, 'bin.js')]);
    expect([...found.packages.keys()].sort()).toEqual([
      '@scope/re-exported',
      'deep-pkg',
      'dynamic-pkg',
      'required-pkg',
      'resolved-pkg',
    ]);
    expect(found.computed).toHaveLength(1);
    expect(found.computed[0]).toContain('process.argv[2]');
  });

  it('does not count type-only imports (erased when compiled)', () => {
    expect(
      loadsOf('types.js', "import type { X } from 'types-only';\nexport type { Y } from 'y';").specifiers,
    ).toEqual([]);
  });
});

describe("eventry's manifest", () => {
  const manifest = readManifest(join(REPO, 'package.json'));
  const shipped = reachableImports(eventryRoots(manifest));
  for (const specifier of VENDORED.keys()) {
    const name = packageOf(specifier)!;
    if (!shipped.packages.has(name)) shipped.packages.set(name, 'dist/generators/docs/package-files.js');
  }

  it('reaches the commands from the bin', () => {
    expect(shipped.modules).toContain(join(REPO, 'dist', 'generators', 'cli', 'main.js'));
    expect(shipped.modules).toContain(join(REPO, 'dist', 'generators', 'usage', 'scan.js'));
  });

  it('loads other packages only by name, or by a computed specifier this test knows', () => {
    // Each computed load, and what it loads: a new one must be added here with the packages it can load.
    const known = [
      // The precompiled modules of dist/generators/ (roots above).
      'dist/generators/shared/toolkit-files.js: require(file)',
      // The group packages the user built (their own dependencies, checked below).
      'dist/generators/validate/testing-entry.js: import(pathToFileURL(path).href)',
      'dist/generators/validate/group-packages.js: import(pathToFileURL(path).href)',
      // The modules the docs portal vendors for the browser (VENDORED, counted with the imports).
      'dist/generators/docs/package-files.js: createRequire(import.meta.url).resolve(specifier)',
      // @bufbuild/cel's builder, beside its entry, for the positions its parse drops (docs/decisions/0125).
      "dist/generators/cel/parse.js: require(join(dirname(require.resolve('@bufbuild/cel')), 'builder.js'))",
    ];
    expect(shipped.computed.filter((load) => !known.includes(load))).toEqual([]);
  });

  it('declares every package the shipped code loads in dependencies', () => {
    const declared = new Set(Object.keys(manifest.dependencies ?? {}));
    const missing = [...shipped.packages].filter(([name]) => !declared.has(name));
    expect(missing.map(([name, by]) => `${name} (loaded by ${by})`)).toEqual([]);
  });

  it('has no dependency the shipped code never loads', () => {
    const unused = Object.keys(manifest.dependencies ?? {}).filter((name) => !shipped.packages.has(name));
    expect(unused).toEqual([]);
  });

  it('keeps no package in both dependencies and devDependencies', () => {
    const dev = new Set(Object.keys(manifest.devDependencies ?? {}));
    expect(Object.keys(manifest.dependencies ?? {}).filter((name) => dev.has(name))).toEqual([]);
  });
});

describe('the generated packages', () => {
  const packages = inject('seedPackages');
  const folders = readdirSync(packages, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(packages, entry.name, 'package.json')))
    .map((entry) => join(packages, entry.name));

  it('are there to read', () => {
    expect(folders.length).toBeGreaterThan(2);
  });

  it.each(folders.map((folder) => [relative(packages, folder), folder]))(
    '%s loads only what its own package.json declares',
    (_name, folder) => {
      const own = readManifest(join(folder, 'package.json'));
      const declared = new Set([
        ...(own.name ? [own.name] : []),
        ...Object.keys(own.dependencies ?? {}),
        ...Object.keys(own.peerDependencies ?? {}),
      ]);
      const modules = filesUnder(folder, (path) => isModule(path) && !path.includes('node_modules'));
      const found = reachableImports(modules);
      expect(found.computed).toEqual([]);
      expect([...found.packages].filter(([name]) => !declared.has(name))).toEqual([]);
    },
  );
});

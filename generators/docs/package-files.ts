import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { interfaceName } from '../load/event-key.js';
import type { Group } from '../model.js';

/**
 * What the site takes from the BUILT group packages (`eventry build` output): the precompiled validator
 * modules and run time the playground runs (copied byte for byte: the same code the npm package ships),
 * the examples and the TypeScript interfaces. Nothing is regenerated here.
 */

/** A problem that stops the site from being written, with a stable code. */
export interface DocsProblem {
  code: 'docs-package-missing' | 'docs-package-stale' | 'docs-validator-import';
  /** The file concerned. */
  file: string;
  message: string;
}

/** One built group package, read lazily event by event. */
export interface BuiltPackage {
  name: string;
  dir: string;
  runtime: string;
  types: string;
}

/** The examples file of an event, as the package ships it. */
export interface Examples {
  minimal: unknown;
  full: unknown;
}

/** Reads a group's built package, or says why it cannot be used. */
export function openBuiltPackage(packagesDir: string, group: Group): BuiltPackage | DocsProblem {
  const dir = join(packagesDir, group.slug);
  const manifest = join(dir, 'package.json');
  let name: string;
  try {
    name = String((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name);
  } catch {
    return {
      code: 'docs-package-missing',
      file: manifest,
      message: `no built package for group \`${group.slug}\`; run \`eventry build\` first (or give --packages <dir>).`,
    };
  }
  try {
    return {
      name,
      dir,
      runtime: readFileSync(join(dir, 'runtime.js'), 'utf8'),
      types: readFileSync(join(dir, 'types.d.ts'), 'utf8'),
    };
  } catch (error) {
    return {
      code: 'docs-package-missing',
      file: dir,
      message: `the package of group \`${group.slug}\` is incomplete (${(error as Error).message}); run \`eventry build\`.`,
    };
  }
}

/** The validator module of one event, checked to import only the package's own run time. */
export function readValidatorModule(pkg: BuiltPackage, key: string): string | DocsProblem {
  const file = join(pkg.dir, 'events', `${key}.js`);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return {
      code: 'docs-package-stale',
      file,
      message: `the built package has no validator for \`${key}\`: it is older than the catalogue; run \`eventry build\`.`,
    };
  }
  // The browser resolves relative imports only (no bundler, no import map): anything else would fail there.
  for (const match of text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]/gm)) {
    if (match[1] !== '../runtime.js') {
      return {
        code: 'docs-validator-import',
        file,
        message: `the validator imports \`${match[1]}\`, which the site cannot ship to the browser.`,
      };
    }
  }
  return text;
}

/** The minimal and full examples the package ships for an event. */
export function readExamples(pkg: BuiltPackage, key: string): Examples | DocsProblem {
  const file = join(pkg.dir, 'examples', `${key}.json`);
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Examples;
    return { minimal: parsed.minimal, full: parsed.full };
  } catch {
    return {
      code: 'docs-package-stale',
      file,
      message: `the built package has no examples for \`${key}\`; run \`eventry build\`.`,
    };
  }
}

/** The event's interface declaration (with its doc comment) from the package's types.d.ts. */
export function interfaceText(pkg: BuiltPackage, key: string): string | undefined {
  const name = interfaceName(key);
  const lines = pkg.types.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`export interface ${name} `));
  if (start < 0) return undefined;
  let first = start;
  if (lines[start - 1]?.trim() === '*/') {
    while (first > 0 && !lines[first]!.startsWith('/**')) first--;
  }
  let end = start;
  while (end < lines.length && lines[end] !== '}') end++;
  return lines.slice(first, end + 1).join('\n');
}

/** Whether a value is a problem rather than what was read. */
export function isProblem(value: unknown): value is DocsProblem {
  return (
    typeof value === 'object' && value !== null && 'code' in value && 'message' in value && 'file' in value
  );
}

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { OutputFile } from '../generators/emit/context.js';
import { readEmitOptions } from '../generators/execute/package-versions.js';
import { emitAll } from '../generators/execute/reference.js';
import { loadValid, REPO } from './helpers.js';

const OUT = join(REPO, 'packages');

function git(args: string[], input?: string): string {
  const result = spawnSync('git', args, {
    cwd: REPO,
    encoding: 'utf8',
    ...(input === undefined ? {} : { input }),
  });
  // check-ignore exits 1 when no path is ignored; anything else but 0 is a real failure.
  if (result.status !== 0 && !(args[0] === 'check-ignore' && result.status === 1)) {
    throw new Error(`git ${args.join(' ')} failed: ${result.stderr}`);
  }
  return result.stdout;
}

/**
 * Git keeps of `packages/` only what people review and what history needs (.gitignore): each package's
 * package.json (its version) and CHANGELOG.md, and the compiled catalogue documents. Those must be exactly
 * what the committed catalogue generates: a stale one (someone edited the catalogue and forgot
 * `npm run build`, or edited a generated file by hand) fails here with the list of files that differ.
 */
describe('committed packages/', () => {
  let files: OutputFile[];
  let reviewed: string[];
  beforeAll(async () => {
    const model = loadValid(join(REPO, 'catalogue'));
    const emitted = await emitAll(model, readEmitOptions(model, OUT));
    if (!Array.isArray(emitted)) throw new Error(`emitter ${emitted.emitter} failed`);
    files = emitted;
    const ignored = new Set(
      git(['check-ignore', '--stdin'], files.map((file) => `packages/${file.path}`).join('\n'))
        .split('\n')
        .filter(Boolean),
    );
    reviewed = files.map((file) => `packages/${file.path}`).filter((path) => !ignored.has(path));
  }, 180_000);

  it('keeps only package.json, CHANGELOG.md and the catalogue documents; generated code is ignored', () => {
    const kinds = new Set(reviewed.map((path) => path.replace(/^packages\/[^/]+\//, '')));
    expect([...kinds].sort()).toEqual(['asyncapi.json', 'openapi.json', 'package.json']);
    expect(reviewed.filter((path) => path.endsWith('.json') && !path.endsWith('package.json'))).toEqual([
      'packages/catalogue/asyncapi.json',
      'packages/catalogue/openapi.json',
    ]);
    expect(
      files.some((file) => file.path.endsWith('/index.js')),
      'the build still writes the code',
    ).toBe(true);
  });

  it('is exactly what the catalogue generates, and has every file git keeps', () => {
    const committed = new Set(git(['ls-files', '--', 'packages']).split('\n').filter(Boolean));
    const contents = new Map(files.map((file) => [`packages/${file.path}`, file.contents]));
    const missing = reviewed.filter((path) => !committed.has(path));
    expect(missing, 'run `npm run build` and commit these').toEqual([]);
    const stale = [...committed].filter((path) => {
      if (path.endsWith('/CHANGELOG.md')) return false; // written by `eventry version`, not the build
      const expected = contents.get(path);
      if (expected === undefined) return true; // a removed group's leftovers
      try {
        return readFileSync(join(REPO, path), 'utf8') !== expected;
      } catch {
        return true;
      }
    });
    expect(stale, 'run `npm run build` and commit packages/').toEqual([]);
  });
});

import { cpSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { loadCatalogue } from '../../generators/load/index.js';
import { runCliInProcess } from '../cli/in-process.js';
import { tempDir } from '../helpers.js';

export const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
/** The small catalogue: groups `account` and `billing`, built as `@fixture-events/<group>`. */
export const SMALL_CATALOGUE = join(FIXTURES, 'small', 'catalogue');

export const TSCONFIG = JSON.stringify({
  compilerOptions: {
    strict: true,
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    noEmit: true,
    skipLibCheck: true,
  },
  include: ['src'],
});

/** A work folder: the small catalogue with a teams.yaml (team `ledger`), and its packages built. */
export interface UsageWork {
  work: string;
  catalogue: string;
  packages: string;
}

export async function usageWork(): Promise<UsageWork> {
  const work = tempDir('eventry-usage-');
  const catalogue = join(work, 'catalogue');
  cpSync(SMALL_CATALOGUE, catalogue, { recursive: true });
  writeFileSync(
    join(catalogue, 'teams.yaml'),
    'teams:\n  ledger: {name: Ledger, contact: ledger@example.com}\n  billing: {name: Billing, contact: billing@example.com}\n',
  );
  const packages = join(work, 'packages');
  const built = await runCliInProcess(['build', '--catalogue', SMALL_CATALOGUE, '--out', packages]);
  expect(built.status, built.stderr).toBe(0);
  return { work, catalogue, packages };
}

/** A consumer project in `dir` with `files` under src/, the group packages installed unless `installed: false`. */
export function makeProject(
  dir: string,
  packages: string,
  files: Record<string, string>,
  options: { installed?: boolean; tsconfig?: string } = {},
): string {
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'tsconfig.json'), options.tsconfig ?? TSCONFIG);
  writeFileSync(join(dir, 'package.json'), '{"name": "consumer", "private": true, "type": "module"}\n');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, 'src', name), text);
  if (options.installed !== false) {
    mkdirSync(join(dir, 'node_modules'), { recursive: true });
    symlinkSync(packages, join(dir, 'node_modules', '@fixture-events'));
  }
  return dir;
}

/** The problems the loader finds with `text` as the catalogue's `consumers/ledger.yaml` (none: it loads). */
export function declarationProblems(catalogue: string, text: string): string[] {
  mkdirSync(join(catalogue, 'consumers'), { recursive: true });
  writeFileSync(join(catalogue, 'consumers', 'ledger.yaml'), text);
  const loaded = loadCatalogue(catalogue);
  return loaded.ok ? [] : loaded.problems.map((p) => `${p.code}: ${p.message}`);
}

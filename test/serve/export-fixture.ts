import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type History, loadHistory } from '../../generators/schema-registry/history.js';
import { runCli, tempDir } from '../helpers.js';
import { releasedTwice } from '../schema-registry/released-repo.js';
import type { TestRepo } from '../sources/git-repo.js';

/** An event key with every kind of character a key may have: `_`, `.`, `-`, digits, upper case (semver pre-release). */
export const ODD_KEY = '_account.re-imported-2.0.0-RC-1.x';

/**
 * A repository with three releases (account.created-v1 has versions 1 and 2), an event with an odd key, and an unreleased edit in the working catalogue (account.removed-v2's version 2).
 */
export function exportRepo(): TestRepo {
  const repo = releasedTwice();
  const group = 'catalogue/groups/account.yaml';
  const text = readFileSync(join(repo.dir, group), 'utf8');
  repo.write(
    group,
    `${text}  ${ODD_KEY}:\n    description: An account was imported.\n    fields:\n      account_number: {type: string, required: true}\n`,
  );
  repo.write(
    'catalogue/eventry.config.yaml',
    readFileSync(join(repo.dir, 'catalogue/eventry.config.yaml'), 'utf8').replace(
      'version: 1.1.0',
      'version: 1.2.0',
    ),
  );
  repo.commit('release 1.2.0');
  const edited = readFileSync(join(repo.dir, group), 'utf8').replace(
    '      reason: {type: string, required: true}\n',
    '      reason: {type: string, required: true}\n      note: {type: string}\n',
  );
  repo.write(group, edited);
  return repo;
}

/** The history `serve` loads in `repo`. */
export function historyOf(repo: TestRepo): History {
  const result = loadHistory({ cwd: repo.dir, env: process.env, catalogue: 'catalogue' });
  if (!result.ok) throw new Error(`the fixture does not load: ${JSON.stringify(result)}`);
  return result.history;
}

/** Runs `eventry registry export --out <new folder>` in `repo`; the folder and the CLI's answer. */
export function exportOf(repo: TestRepo, out = join(tempDir('eventry-export-'), 'registry')) {
  const result = runCli(['registry', 'export', '--out', out, '--no-cache'], { cwd: repo.dir });
  if (result.status !== 0) throw new Error(`export failed: ${result.stderr}`);
  return { out, ...result };
}

/** One object of a release's `objects.json`. */
export interface ExportedObject {
  key: string;
  file: string;
  contentType: string;
  cacheControl: string;
}

/** The objects of the current release of an export. */
export function objectsOf(out: string): ExportedObject[] {
  return (
    JSON.parse(readFileSync(join(out, 'current', 'objects.json'), 'utf8')) as { objects: ExportedObject[] }
  ).objects;
}

/** The path a client requests for an object's key. */
export const pathOf = (object: ExportedObject): string =>
  `/${object.key
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/')}`;

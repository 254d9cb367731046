import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type History, loadHistory } from '../../generators/schema-registry/history.js';
import { SchemaRegistryState } from '../../generators/schema-registry/registry.js';
import { tempDir } from '../helpers.js';
import { releasedRules } from './released-repo.js';

/**
 * The release cache (`.eventry/registry/*.json`) keeps each release's data contracts beside its texts:
 * a start from the cache serves the same rules, versions and ids as a load from git, and a contract
 * edited in the cache is never believed.
 */

/** Every subject's versions, ids and contracts; `perVersion`: the event keys' subjects only (no type subjects). */
function served(history: History, perVersion = false) {
  const state = new SchemaRegistryState(history);
  const subjects = [...state.subjects].filter(([subject]) => !perVersion || !state.isTypeSubject(subject));
  return subjects.map(([subject, versions]) => [
    subject,
    versions.map((version) => [version.version, version.id, version.contractText ?? null]),
  ]);
}

describe('the release cache and data contracts', () => {
  const repo = releasedRules();
  const cacheDir = tempDir('eventry-contract-cache-');
  const load = () => {
    const result = loadHistory({ cwd: repo.dir, env: process.env, catalogue: 'catalogue', cacheDir });
    if (!result.ok) throw new Error(JSON.stringify(result));
    return result.history;
  };

  it('a start from the cache serves the contracts a load from git does', () => {
    const fresh = served(load());
    const files = readdirSync(cacheDir).filter((name) => name.endsWith('.json'));
    expect(files).toHaveLength(2);
    const cachedContracts = files.flatMap(
      (name) =>
        (JSON.parse(readFileSync(join(cacheDir, name), 'utf8')) as { contracts: unknown[] }).contracts,
    );
    // order.placed-v1 and refund.issued-v1 in both releases; order.cancelled-v1 in 1.1.0.
    expect(cachedContracts).toHaveLength(5);
    expect(served(load())).toEqual(fresh);
    expect(
      served(load(), true)
        .flatMap(([, versions]) => versions as unknown[][])
        .filter((v) => v[2] !== null),
    ).toHaveLength(3);
  });

  it('a contract edited in the cache is not served: the release is loaded from git again', () => {
    const fresh = served(load());
    for (const name of readdirSync(cacheDir).filter((file) => file.endsWith('.json'))) {
      const path = join(cacheDir, name);
      writeFileSync(path, readFileSync(path, 'utf8').replace('The amount must be positive.', 'Anything.'));
    }
    expect(JSON.stringify(served(load()))).not.toContain('Anything.');
    expect(served(load())).toEqual(fresh);
  });
});

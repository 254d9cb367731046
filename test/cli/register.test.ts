import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeConfluentRegistry } from '../schema-registry/fake-confluent.js';
import { releasedTwice, runCliAsync } from '../schema-registry/released-repo.js';
import type { TestRepo } from '../sources/git-repo.js';

/**
 * `eventry register` (compiled CLI) against a writable Confluent-compatible TEST DOUBLE
 * (test/schema-registry/fake-confluent.ts); it has not yet been run against a live Confluent, Apicurio or
 * Karapace. The repository's history: release 1.0.0, then 1.1.0 adding an optional field to
 * `account.created-v1` (and to the two events composed from it), so 8 subjects and 11 versions.
 */

let repo: TestRepo;
let target: FakeConfluentRegistry;
beforeEach(async () => {
  repo = releasedTwice();
  target = await new FakeConfluentRegistry().start();
});
afterEach(() => target.stop());

const register = (...args: string[]) =>
  runCliAsync(['register', '--registry', target.url, ...args], {
    cwd: repo.dir,
    env: { EVENTRY_REGISTRY_AUTH: '' },
  });
const writes = () =>
  target.requests.filter((request) => request.startsWith('PUT') || request.endsWith('/versions'));

describe('eventry register', { timeout: 60_000 }, () => {
  it('--dry-run prints the plan and writes nothing', async () => {
    const result = await register('--dry-run');
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(
      `eventry register → ${target.url}: 8 subject(s), 11 version(s); 0 present, 11 to register, 8 level(s) to set.`,
    );
    expect(result.stdout).toContain('  account.created-v1: register version 2 (id ');
    expect(result.stdout).toContain(
      '  account.created-v1: compatibility (registry default) → BACKWARD, policy (registry default) → STRICT',
    );
    expect(result.stdout).toContain('Dry run: nothing was changed.');
    expect(writes()).toEqual([]);
    expect(target.subjects.size).toBe(0);
  });

  it('registers every version in history order and sets levels; a second run finds everything and writes nothing', async () => {
    const first = await register();
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(first.stdout).toContain('Registered 11 version(s), set 8 level(s).');
    const created = target.subjects.get('account.created-v1')!;
    expect(created.map((version) => version.version)).toEqual([1, 2]);
    expect(created[0]!.schema).not.toContain('nickname');
    expect(created[1]!.schema).toContain('nickname');
    expect(target.config.get('account.created-v1')).toBe('BACKWARD');
    // History order: every 1.0.0 schema before any 1.1.0 one.
    const registrations = target.requests.filter((request) => request.endsWith('/versions'));
    expect(registrations.indexOf('POST /subjects/account.created-v1/versions')).toBeLessThan(
      registrations.indexOf('POST /subjects/meterpoint.gas.partial-v1/versions'),
    );
    expect(registrations.lastIndexOf('POST /subjects/account.created-v1/versions')).toBe(
      registrations.length - 3,
    );

    target.requests.length = 0;
    const second = await register('--json');
    expect(second.status).toBe(0);
    const json = JSON.parse(second.stdout) as {
      plan: { versions: { action: string }[] };
      outcome: { registered: unknown[] };
    };
    expect(json.plan.versions.every((version) => version.action === 'present')).toBe(true);
    expect(json.outcome.registered).toEqual([]);
    expect(writes()).toEqual([]);
  });

  it('stops at the first version the registry refuses, with its message and what was registered; a re-run registers the rest', async () => {
    target.refuse = (subject, schema) =>
      subject === 'account.created-v1' && schema.includes('nickname')
        ? 'Schema being registered is incompatible with an earlier schema for subject "account.created-v1"'
        : undefined;
    const failed = await register();
    expect(failed.status).toBe(1);
    expect(failed.stdout).toContain(
      'Stopped: the registry refused account.created-v1 version 2 (HTTP 409, error_code 409): Schema being registered is incompatible',
    );
    expect(failed.stdout).toMatch(
      /Already registered before it: account\.created-v1 v1 \(registry id \d+\), /,
    );
    expect(target.subjects.get('account.created-v1')).toHaveLength(1);

    target.refuse = undefined;
    const again = await register();
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('8 present, 3 to register');
    expect(target.subjects.get('account.created-v1')).toHaveLength(2);
  });

  it('pushes the compatibility policy with the level: set when the registry has another, warned when it cannot keep it', async () => {
    const config = join(repo.dir, 'catalogue/eventry.config.yaml');
    writeFileSync(config, `${readFileSync(config, 'utf8')}compatibility:\n  policy: LENIENT\n`);
    repo.commit('policy LENIENT');
    const first = await register('--subjects', 'account.created-v1');
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(target.config.get('account.created-v1')).toBe('BACKWARD');
    expect(target.policies.get('account.created-v1')).toBe('LENIENT');
    expect(first.stdout).not.toContain('Warning');

    // Level unchanged, policy changed in the registry: the policy alone is a reason to set the config.
    target.policies.set('account.created-v1', 'STRICT');
    const plan = await register('--subjects', 'account.created-v1', '--dry-run');
    expect(plan.stdout).toContain(
      '  account.created-v1: compatibility BACKWARD → BACKWARD, policy STRICT → LENIENT',
    );
    target.policies.delete('account.created-v1');
    target.globalPolicy = 'LENIENT';
    expect((await register('--subjects', 'account.created-v1')).stdout).toContain('0 level(s) to set');

    // A registry from before policies drops the field: said, not silently passed.
    target.globalPolicy = undefined;
    target.ignoresPolicy = true;
    const old = await register('--subjects', 'account.removed-v1');
    expect(old.status).toBe(0);
    expect(old.stdout).toContain(
      'Warning: the registry stored the level but not `compatibilityPolicy` for 1 subject(s) (account.removed-v1)',
    );
  });

  it('versions pushed by an eventry before the `$id` change count as present: no duplicate versions', async () => {
    // The texts and ids `serve` (and so `register`) used before served schemas lost their `$id`.
    const recorded = JSON.parse(
      readFileSync(new URL('../serve/fixtures/ids-served-before-1.json', import.meta.url), 'utf8'),
    ) as { versions: Record<string, number>; ids: Record<string, string> };
    const textOf = (label: string) =>
      (JSON.parse(recorded.ids[String(recorded.versions[label])]!) as { schema: string }).schema;
    target.subjects.set('account.created-v1', [
      { version: 1, id: 1, schema: textOf('account.created-v1@1') },
      { version: 2, id: 2, schema: textOf('account.created-v1@2') },
    ]);
    const result = await register('--json');
    expect(result.status, result.stderr).toBe(0);
    const json = JSON.parse(result.stdout) as {
      plan: { versions: { subject: string; action: string; registryId?: number }[] };
    };
    expect(json.plan.versions.filter((version) => version.subject === 'account.created-v1')).toMatchObject([
      { action: 'present', registryId: 1 },
      { action: 'present', registryId: 2 },
    ]);
    expect(target.subjects.get('account.created-v1')).toHaveLength(2);
    expect(target.subjects.get('account.removed-v2')?.[0]?.schema).not.toContain('"$id"');
  });

  it('pushes released versions only: a change of the working catalogue waits for its release', async () => {
    const path = join(repo.dir, 'catalogue/groups/billing.yaml');
    writeFileSync(
      path,
      readFileSync(path, 'utf8').replace(
        '  ink.conversation.closed-v1:',
        '  ink.conversation.closed-v1:\n    description: Unreleased wording.',
      ),
    );
    const result = await register();
    expect(result.status).toBe(0);
    expect(result.stderr).toBe(
      'eventry register: 1 version(s) of the working catalogue are not released yet and are left out (release with `eventry version` and commit).\n',
    );
    expect(target.subjects.get('ink.conversation.closed-v1')).toHaveLength(1);
    expect(target.subjects.get('ink.conversation.closed-v1')![0]!.schema).not.toContain('Unreleased wording');
  });

  it('--subjects selects subjects by glob', async () => {
    const result = await register('--subjects', 'billing.*', '--json');
    expect(result.status).toBe(0);
    expect([...target.subjects.keys()]).toEqual(['billing.ledger.entry_posted-v1']);
  });

  it('credentials from the environment or .npmrc are sent and never printed', async () => {
    target.requireAuthorization = `Basic ${Buffer.from('alice:s3cret-pw').toString('base64')}`;
    const refused = await register('--dry-run');
    expect(refused.status).toBe(1);
    expect(refused.stdout).toContain('(HTTP 401, error_code 401): Unauthorized');

    const withEnv = await runCliAsync(['register', '--registry', target.url, '--dry-run'], {
      cwd: repo.dir,
      env: { EVENTRY_REGISTRY_AUTH: 'alice:s3cret-pw' },
    });
    expect(withEnv.status).toBe(0);

    const host = new URL(target.url).host;
    writeFileSync(
      join(repo.dir, '.npmrc'),
      `//${host}/:_auth=${Buffer.from('alice:s3cret-pw').toString('base64')}\n`,
    );
    const withNpmrc = await register('--dry-run');
    expect(withNpmrc.status).toBe(0);

    const inUrl = await runCliAsync(
      [
        'register',
        '--registry',
        target.url.replace('http://', 'http://alice:s3cret-pw@'),
        '--json',
        '--dry-run',
      ],
      { cwd: repo.dir, env: { EVENTRY_REGISTRY_AUTH: '' } },
    );
    expect(inUrl.status).toBe(0);
    for (const output of [refused, withEnv, withNpmrc, inUrl]) {
      expect(output.stdout + output.stderr).not.toContain('s3cret');
      expect(output.stdout + output.stderr).not.toContain(Buffer.from('alice:s3cret-pw').toString('base64'));
    }
  });

  it('an unreachable registry exits 1 naming it; a URL that is not http(s) exits 2', async () => {
    await target.stop();
    const down = await register('--dry-run');
    expect(down.status).toBe(1);
    expect(down.stderr).toMatch(/eventry register: cannot reach http:\/\/127\.0\.0\.1:\d+: .*ECONNREFUSED/);
    const usage = await runCliAsync(['register', '--registry', 'ftp://x'], { cwd: repo.dir });
    expect(usage.status).toBe(2);
  });
});

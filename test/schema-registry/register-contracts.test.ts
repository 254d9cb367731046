import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadHistory } from '../../generators/schema-registry/history.js';
import { SchemaRegistryState } from '../../generators/schema-registry/registry.js';
import type { TestRepo } from '../sources/git-repo.js';
import { FakeConfluentRegistry } from './fake-confluent.js';
import { releasedRules, runCliAsync } from './released-repo.js';

/**
 * `eventry register` (compiled CLI) pushes each version's data contract (`ruleSet`, `metadata`) with its
 * text, to the writable TEST DOUBLE (fake-confluent.ts), which keeps them as Confluent does. History: the
 * rules fixture at 1.0.0, then 1.1.0 adding a rule to `order.cancelled-v1` with its schema unchanged.
 */

let repo: TestRepo;
let target: FakeConfluentRegistry;
let served: SchemaRegistryState;
beforeAll(async () => {
  repo = releasedRules();
  target = await new FakeConfluentRegistry().start();
  const history = loadHistory({ cwd: repo.dir, env: process.env, catalogue: 'catalogue' });
  if (!history.ok) throw new Error(JSON.stringify(history));
  served = new SchemaRegistryState(history.history);
});
afterAll(() => target.stop());

const register = (...args: string[]) =>
  runCliAsync(['register', '--registry', target.url, ...args], {
    cwd: repo.dir,
    env: { EVENTRY_REGISTRY_AUTH: '' },
  });

describe('eventry register pushes data contracts', { timeout: 60_000 }, () => {
  it('each version with rules goes with the ruleSet and metadata serve answers; one without, without', async () => {
    const first = await register();
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    for (const [subject, versions] of served.subjects) {
      // The event types' subjects are served, not pushed (docs/decisions/0170).
      if (served.isTypeSubject(subject)) continue;
      const pushed = target.subjects.get(subject)!;
      expect(pushed.map((version) => version.version)).toEqual(versions.map((version) => version.version));
      for (const [index, version] of versions.entries()) {
        expect(pushed[index]).toEqual({
          version: version.version,
          id: pushed[index]!.id,
          schema: version.schema,
          ...version.contract,
        });
      }
    }
    const placed = target.subjects.get('order.placed-v1')![0]!;
    expect(placed.metadata).toEqual({ tags: { '$.buyer.email': ['PII'] }, properties: { version: 'v1' } });
    // The rule added in 1.1.0 is a version of its own: the same text, another schema.
    const cancelled = target.subjects.get('order.cancelled-v1')!;
    expect(cancelled).toHaveLength(2);
    expect(cancelled[0]).not.toHaveProperty('ruleSet');
    expect(cancelled[1]!.schema).toBe(cancelled[0]!.schema);
    expect(cancelled[1]!.id).not.toBe(cancelled[0]!.id);
    expect(cancelled[1]!.ruleSet).toEqual({
      domainRules: [
        {
          name: 'order_id_named',
          kind: 'CONDITION',
          mode: 'WRITE',
          type: 'CEL',
          expr: 'size(message.order_id) > 0',
          doc: 'A cancelled order names its order.',
        },
      ],
    });
  });

  it('a second run finds every version, contracts and all, and registers nothing', async () => {
    const second = await register('--json');
    expect(second.status).toBe(0);
    const json = JSON.parse(second.stdout) as {
      plan: { versions: { subject: string; version: number; action: string }[] };
      outcome: { registered: unknown[] };
    };
    expect(json.plan.versions.filter((version) => version.action !== 'present')).toEqual([]);
    expect(json.outcome.registered).toEqual([]);
  });
});

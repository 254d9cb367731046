import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../../generators/execute/fast/build.js';
import { readCatalogueSources } from '../../../generators/load/index.js';
import { defineTesting, type TestingApi, type TestingData } from '../../../generators/runtime/testing.js';
import type { GroupApi } from '../../../generators/runtime/types.js';
import { fixturePath, tempDir } from '../../helpers.js';
import { type BuiltPackages, buildPackages } from './build-packages.js';

/** The `testing` entry point of the rules fixture's group: its payloads keep the rules, `invalid` breaks each. */
type Testing = TestingApi<Record<string, unknown>>;
let built: BuiltPackages;
let orders: GroupApi<Record<string, unknown>>;
let testing: Testing;
beforeAll(async () => {
  built = await buildPackages(fixturePath('rules'));
  orders = await built.importGroup('orders');
  testing = (await import(pathToFileURL(join(built.out, 'orders', 'testing.js')).href)) as Testing;
}, 120_000);

const RULED = ['order.placed-v1', 'refund.issued-v1'];
const SAMPLES = 500;

describe('test data of events with rules', () => {
  it.each(RULED)('fake gives %s payloads that keep every rule, in every variant', (key) => {
    for (const variant of ['minimal', 'full', 'random'] as const) {
      for (let seed = 0; seed < SAMPLES; seed++) {
        expect(orders.validate(key, testing.fake(key, { seed, variant }))).toEqual({ valid: true });
      }
    }
  });

  it.each(RULED)('arbitrary gives %s values that keep every rule', (key) => {
    for (const payload of fc.sample(testing.arbitrary(key, { fc }), { numRuns: SAMPLES, seed: 45 })) {
      expect(orders.validate(key, payload)).toEqual({ valid: true });
    }
  });

  it('shrinks a failing arbitrary value to one that still keeps every rule', () => {
    const result = fc.check(
      fc.property(
        testing.arbitrary('order.placed-v1', { fc }),
        (payload) => (payload as { amount: number }).amount < 50,
      ),
      { seed: 7 },
    );
    expect(result.failed).toBe(true);
    expect(orders.validate('order.placed-v1', result.counterexample![0])).toEqual({ valid: true });
  });

  it.each(RULED)('invalid gives one payload per rule of %s, breaking that rule alone', (key) => {
    const rules = [
      ...(built.catalogue.events[key]!.rules ?? []).map((rule) => rule.message),
      ...(built.catalogue.events[key]!.shapeRules ?? []).flatMap((place) =>
        (built.catalogue.shapes[place.shape]!.rules ?? []).map((rule) => rule.message),
      ),
    ];
    for (const seed of [0, 1, 2]) {
      const broken = testing.invalid(key, { seed }).filter((item) => item.problem === 'rule_violated');
      expect(broken.map((item) => item.description)).toHaveLength(rules.length);
      broken.forEach((item, n) => {
        const result = orders.validate(key, item.payload);
        expect(result.valid ? [] : result.error.errors).toEqual([
          { detail: rules[n], code: 'rule_violated', attr: item.error.attr },
        ]);
        expect(item.error.code).toBe('rule_violated');
      });
    }
  });

  it('gives every schema problem of an event with rules exactly its error item', () => {
    for (const item of testing.invalid('order.placed-v1')) {
      const result = orders.validate('order.placed-v1', item.payload);
      expect(result.valid ? [] : result.error.errors.map(({ code, attr }) => ({ code, attr }))).toEqual([
        item.error,
      ]);
    }
  });
});

describe('a rule the test data cannot keep', () => {
  it('fails the build, located at the rule, with its code', async () => {
    const dir = tempDir('eventry-rules-');
    cpSync(fixturePath('rules'), dir, { recursive: true });
    const file = join(dir, 'groups', 'orders.yaml');
    const text = readFileSync(file, 'utf8').replace(
      'size(message.reason) <= 20 &&',
      "size(message.reason) <= 20 && message.reason == 'x' + message.refund_id + 'y' &&",
    );
    writeFileSync(file, text);
    const line = text.split('\n').findIndex((row) => row.includes("+ message.refund_id + 'y'")) + 1;
    const result = await buildCatalogue(readCatalogueSources(dir), join(dir, 'out'));
    expect(result.kind).toBe('emitter-failed');
    const message = result.kind === 'emitter-failed' ? String((result.error as Error).message) : '';
    expect(message).toMatch(
      new RegExp(
        `^groups/orders\\.yaml:${line}:\\d+: error rule-unsatisfiable: fake of refund\\.issued-v1 found no payload that keeps rule \`reason_is_short\``,
      ),
    );
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });
});

describe('test data of events without rules, in a group with rules', () => {
  it('draws the payloads it drew before rules were checked', async () => {
    const { data } = (await import(pathToFileURL(join(built.out, 'orders', 'testing-data.js')).href)) as {
      data: TestingData;
    };
    const unchecked = defineTesting<Record<string, unknown>>('@fixture-rules/orders', data);
    expect(data.events['order.cancelled-v1']).not.toHaveProperty('r');
    for (const variant of ['minimal', 'full', 'random'] as const) {
      for (let seed = 0; seed < 50; seed++) {
        const options = { seed, variant };
        expect(testing.fake('order.cancelled-v1', options)).toEqual(
          unchecked.fake('order.cancelled-v1', options),
        );
      }
    }
    expect(testing.invalid('order.cancelled-v1')).toEqual(unchecked.invalid('order.cancelled-v1'));
  });
});

describe('a rule no payload breaks alone', () => {
  it('makes invalid() say so, naming the rule, rather than skip it', async () => {
    const { data } = (await import(pathToFileURL(join(built.out, 'orders', 'testing-data.js')).href)) as {
      data: TestingData;
    };
    // A second rule that only breaks when reason_is_short breaks too: `size(message.reason) <= 40`.
    const key = 'refund.issued-v1';
    const rules = [...data.events[key]!.r!, ['reason_below_40', 'At most 40.', 'reason'] as const];
    const withRule = { ...data, events: { ...data.events, [key]: { ...data.events[key]!, r: rules } } };
    const check = (eventKey: string, payload: unknown) => {
      const result = orders.validate(eventKey, payload);
      if ([...(payload as { reason: string }).reason].length <= 40) return result;
      const extra = { detail: 'At most 40.', code: 'rule_violated' as const, attr: 'reason' };
      const errors = result.valid ? [extra] : [...result.error.errors, extra];
      return {
        valid: false as const,
        error: { detail: 'x', code: 'event_failed_validation' as const, errors },
      };
    };
    const checked = defineTesting<Record<string, unknown>>('@fixture-rules/orders', withRule, fc, check);
    expect(() => checked.invalid(key)).toThrow(
      'eventry: invalid(refund.issued-v1) found no payload that passes the schema and breaks rule `reason_below_40` alone (rule_unbreakable)',
    );
  });
});

import { type CelInput, celEnv, isCelError, parse, plan } from '@bufbuild/cel';
import { STRINGS_EXT_FUNCS } from '@bufbuild/cel/ext/strings';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { RuleScope } from '../../generators/cel/types.js';
import { loadCatalogue } from '../../generators/load/index.js';
import type { Field } from '../../generators/model.js';
import { fixturePath } from '../helpers.js';
import { compiled } from './compiled.js';
import { LINE_RULES, ORDER_RULES } from './corpus.js';
import { ORDER, SHAPES, scopeOf } from './model-fixture.js';
import { payloadOf } from './payloads.js';

/** The environment the Confluent client's `CelExecutor` evaluates in: the standard library and the strings extension. */
const ENV = celEnv({ funcs: STRINGS_EXT_FUNCS });
const SEED = 4545;
const RUNS = 250;

const totals = { rules: 0, payloads: 0, broken: 0, kept: 0, errors: 0, bothVerdicts: 0 };

/** Holds the compiled rule to `@bufbuild/cel` on generated payloads; counts the verdicts. */
function agree(
  expr: string,
  scope: RuleScope,
  fields: readonly Field[],
  shapes: Record<string, Field[]>,
): void {
  const ours = compiled(expr, scope);
  const theirs = plan(ENV, parse(expr));
  const seen = { broken: 0, kept: 0 };
  fc.assert(
    fc.property(payloadOf(fields, shapes), (payload) => {
      const result = theirs({ [scope.variable]: payload as CelInput });
      // The client raises a RuleConditionError only for `false`: an error lets the payload through.
      const expected = result === false;
      if (isCelError(result)) totals.errors++;
      expect({ expr, payload, broken: ours(payload) }).toEqual({ expr, payload, broken: expected });
      seen[expected ? 'broken' : 'kept']++;
    }),
    { seed: SEED, numRuns: RUNS },
  );
  totals.rules++;
  totals.payloads += RUNS;
  totals.broken += seen.broken;
  totals.kept += seen.kept;
  if (seen.broken > 0 && seen.kept > 0) totals.bothVerdicts++;
}

describe('compiled rules agree with @bufbuild/cel (the Confluent client)', () => {
  for (const [construct, exprs] of Object.entries(ORDER_RULES)) {
    it.each(exprs)(`${construct}: %s`, (expr) => agree(expr, scopeOf(), ORDER, SHAPES));
  }

  it.each(LINE_RULES)('shape rule over this: %s', (expr) =>
    agree(expr, scopeOf(SHAPES.Line, 'this'), SHAPES.Line!, SHAPES),
  );

  it('on every rule of the rules fixture catalogue', () => {
    const loaded = loadCatalogue(fixturePath('rules'));
    if (!loaded.ok) throw new Error('the rules fixture does not load');
    const { events, shapes } = loaded.catalogue;
    const shapeFields = Object.fromEntries(
      Object.entries(shapes).map(([name, shape]) => [name, shape.fields]),
    );
    const lookup = (name: string) => shapeFields[name];
    for (const event of Object.values(events)) {
      const scope: RuleScope = {
        variable: 'message',
        name: event.key,
        fields: event.fields,
        shapeFields: lookup,
      };
      for (const rule of event.rules ?? []) agree(rule.expr, scope, event.fields, shapeFields);
    }
    for (const shape of Object.values(shapes)) {
      const scope: RuleScope = {
        variable: 'this',
        name: shape.name,
        fields: shape.fields,
        shapeFields: lookup,
      };
      for (const rule of shape.rules ?? []) agree(rule.expr, scope, shape.fields, shapeFields);
    }
  });

  afterAll(() => {
    // The corpus is only worth its count if most rules are both kept and broken by the payloads.
    console.log(
      `CEL agreement: ${totals.rules} rules x ${RUNS} payloads = ${totals.payloads} verdicts equal ` +
        `(${totals.broken} broken, ${totals.kept} kept, ${totals.errors} CEL errors); ` +
        `${totals.bothVerdicts} rules saw both verdicts`,
    );
    expect(totals.rules).toBeGreaterThanOrEqual(60);
    expect(totals.bothVerdicts).toBeGreaterThanOrEqual(totals.rules * 0.6);
  });
});

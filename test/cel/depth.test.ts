import { type CelInput, celEnv, parse, plan } from '@bufbuild/cel';
import { STRINGS_EXT_FUNCS } from '@bufbuild/cel/ext/strings';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkRule } from '../../generators/cel/check.js';
import { MAX_RULE_DEPTH } from '../../generators/cel/depth.js';
import { compiled } from './compiled.js';
import { ORDER, SHAPES, scopeOf } from './model-fixture.js';
import { payloadOf } from './payloads.js';

/**
 * How deep a rule may nest. The checker, the compiler and the test data recurse over an expression,
 * so the limit is what keeps a deep one from ending the build in a stack overflow: every expression
 * at the limit is accepted, compiled and agrees with `@bufbuild/cel`; one level past it is a located
 * `rule-too-deep`, never a crash.
 */

/** `message.amount > k` for k = 0, 1, 2...: terms a payload keeps or breaks apart. */
const terms = (count: number) => Array.from({ length: count }, (_, k) => `message.amount > ${k}.0`);

/** `n` additions nested to the right, compared: `message.amount + (message.amount + (...)) > 0.0`. */
const nestedSum = (n: number) => `${'message.amount + ('.repeat(n)}message.amount${')'.repeat(n)} > 0.0`;

/** A chain whose first term is a chain whose first term is a chain: each adds its terms as levels. */
const chainOfChains = (inner: number, outer: number) => {
  const innermost = terms(inner).join(' || ');
  const middle = [`(${innermost})`, ...terms(outer)].join(' && ');
  return [`(${middle})`, ...terms(outer)].join(' || ');
};

/** The deepest expressions eventry compiles, by kind of depth. */
const AT_THE_LIMIT: [string, string][] = [
  ['an && chain of 100 terms', terms(MAX_RULE_DEPTH).join(' && ')],
  ['an || chain of 100 terms', terms(MAX_RULE_DEPTH).join(' || ')],
  // `>` and the select's two levels besides: 97 additions are 100 levels of expressions.
  ['100 levels of nested expressions', nestedSum(MAX_RULE_DEPTH - 3)],
  ['chains within chains, 195 levels once folded', chainOfChains(10, 90)],
];

/** One past each limit, and where the problem points. */
const PAST_THE_LIMIT: [string, string, string][] = [
  ['an && chain of 101 terms', terms(MAX_RULE_DEPTH + 1).join(' && '), '101 terms with `&&`'],
  ['an || chain of 101 terms', terms(MAX_RULE_DEPTH + 1).join(' || '), '101 terms with `||`'],
  ['101 levels of nested expressions', nestedSum(MAX_RULE_DEPTH - 2), 'deeper than the 100 levels'],
  ['chains within chains past 200 levels once folded', chainOfChains(30, 90), '200 levels'],
  // The parser itself recurses per parenthesis: its stack overflow is the same problem.
  [
    'parentheses nested past what the parser can take',
    `${'('.repeat(5000)}message.amount > 0.0${')'.repeat(5000)}`,
    'too deeply to parse',
  ],
];

const ENV = celEnv({ funcs: STRINGS_EXT_FUNCS });

describe('how deep a rule may nest', () => {
  it.each(AT_THE_LIMIT)('%s is accepted, compiled, and agrees with @bufbuild/cel', (_, expr) => {
    const checked = checkRule(expr, scopeOf());
    expect(checked.ok ? [] : checked.problems).toEqual([]);
    const ours = compiled(expr, scopeOf());
    const theirs = plan(ENV, parse(expr));
    const verdicts = { broken: 0, kept: 0 };
    fc.assert(
      fc.property(payloadOf(ORDER, SHAPES), (payload) => {
        const result = theirs({ message: payload as CelInput });
        const broken = result === false;
        expect({ payload, broken: ours(payload) }).toEqual({ payload, broken });
        verdicts[broken ? 'broken' : 'kept']++;
      }),
      { seed: 4646, numRuns: 60 },
    );
    // The payloads tell the two verdicts apart, or agreement would prove little.
    expect(verdicts.broken).toBeGreaterThan(0);
    expect(verdicts.kept).toBeGreaterThan(0);
  });

  it.each(PAST_THE_LIMIT)('%s is a rule-too-deep problem, located', (_, expr, says) => {
    const checked = checkRule(expr, scopeOf());
    if (checked.ok) throw new Error('accepted');
    expect(checked.problems).toHaveLength(1);
    const [problem] = checked.problems;
    expect(problem!.code).toBe('rule-too-deep');
    expect(problem!.message).toContain(says);
    expect(problem!.offset).toBeGreaterThanOrEqual(0);
    expect(problem!.offset).toBeLessThanOrEqual(expr.length);
  });

  it('keeps the other RangeErrors of the parser syntax errors: a code point out of range is not depth', () => {
    const checked = checkRule('message.currency == "\\U00110000"', scopeOf());
    if (checked.ok) throw new Error('accepted');
    expect(checked.problems.map((problem) => problem.code)).toEqual(['rule-syntax-error']);
    expect(checked.problems[0]!.message).toContain('Invalid code point');
  });

  it('points at the expression that goes past the limit, not at the start', () => {
    const expr = `message.paid && ${nestedSum(MAX_RULE_DEPTH)}`;
    const checked = checkRule(expr, scopeOf());
    if (checked.ok) throw new Error('accepted');
    // Past 100 levels lies an operand deep in the sum, past its first 90 additions.
    const sum = expr.indexOf('message.amount');
    expect(checked.problems[0]!.offset).toBeGreaterThan(sum + 90 * 'message.amount + ('.length);
  });
});

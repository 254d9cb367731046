import { afterEach, describe, expect, it } from 'vitest';
import { type CandidateJob, judgeCandidate } from '../../generators/schema-registry/compatibility.js';
import {
  CompatibilityRunner,
  CompatibilityTimeout,
} from '../../generators/schema-registry/compatibility-runner.js';

/** A previous version with one long property name, and a candidate whose pattern backtracks on it. */
const backtracking: CandidateJob = {
  candidate: JSON.stringify({
    type: 'object',
    additionalProperties: false,
    patternProperties: { '^(a+)+$': { type: 'string' } },
  }),
  targets: [
    {
      version: 1,
      schema: JSON.stringify({ type: 'object', properties: { [`${'a'.repeat(40)}!`]: { type: 'string' } } }),
    },
  ],
  level: 'BACKWARD',
  policy: 'STRICT',
};

const plain: CandidateJob = {
  candidate: '{"type":"string"}',
  targets: [{ version: 1, schema: '{"type":"string","maxLength":3}' }],
  level: 'BACKWARD',
  policy: 'STRICT',
};

let runner: CompatibilityRunner | undefined;
afterEach(() => runner?.close());

describe('CompatibilityRunner: checks on a thread of their own', () => {
  it('answers what judgeCandidate answers on this thread', async () => {
    runner = new CompatibilityRunner();
    expect(await runner.judge(plain)).toEqual(judgeCandidate(plain));
    const cycle = { ...plain, candidate: '{"$ref":"#/$defs/a","$defs":{"a":{"$ref":"#"}}}' };
    expect(await runner.judge(cycle)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/\$ref cycle/),
    });
  });

  it('a check that outruns its time is stopped, and the checks queued behind it still run', async () => {
    runner = new CompatibilityRunner(1_000);
    const stuck = runner.judge(backtracking);
    const after = runner.judge(plain);
    await expect(stuck).rejects.toBeInstanceOf(CompatibilityTimeout);
    expect(await after).toEqual(judgeCandidate(plain));
  });
});

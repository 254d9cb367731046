import { describe, expect, it } from 'vitest';
import { EMITTERS, type EmitterName } from '../../generators/emit/index.js';
import type { BuildResult } from '../../generators/execute/executor.js';
import type { EmitTask } from '../../generators/execute/fast/emit-pool.js';
import { FAST_EMITTERS, fastEmitters } from '../../generators/execute/fast/emitters.js';

// Emitters are dispatched by name (the fast executor's tasks, a failed emitter in a build's result):
// the names are one union, so a misspelled one is a type error (`tsc -p tsconfig.test.json` checks
// the `@ts-expect-error` lines below), and both executors run the same emitters under the same names.

describe('emitter names', () => {
  it('are distinct, and the fast executor runs the same ones in the same order', () => {
    const names = EMITTERS.map((emitter) => emitter.name);
    expect(new Set(names).size).toBe(names.length);
    expect(FAST_EMITTERS.map((emitter) => emitter.name)).toEqual(names);
    expect(fastEmitters(new Set(['document-copy'])).map((emitter) => emitter.name)).toEqual(names);
  });

  it('do not compile when misspelled, in a task or a failed build', () => {
    // @ts-expect-error: no emitter is called `open-api`
    const name: EmitterName = 'open-api';
    // @ts-expect-error: a task names an emitter there is
    const task: EmitTask = { kind: 'emitter', name: 'asyncApi' };
    // @ts-expect-error: so does a failed build
    const failed: BuildResult = { kind: 'emitter-failed', emitter: 'group-package', error: undefined };
    const known: readonly string[] = EMITTERS.map((emitter) => emitter.name);
    expect(
      [
        name,
        task.kind === 'emitter' ? task.name : '',
        failed.kind === 'emitter-failed' ? failed.emitter : '',
      ].filter((n) => known.includes(n)),
    ).toEqual([]);
  });
});

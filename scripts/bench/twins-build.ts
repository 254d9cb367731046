/**
 * `node dist/scripts/bench/twins-build.js <variant> <catalogue> <out>`: one build as `eventry build`
 * runs it (under the output's lock, after any interrupted build is recovered), with the fast executor
 * as it is (`fast`), with one of its twins turned off (`no-<twin>`), or with the reference executor
 * (`reference`). The `twins` bench suite's process; no product command takes these switches.
 */
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import type { Executor } from '../../generators/execute/executor.js';
import { FAST_TWINS, type FastTwin, fastExecutor } from '../../generators/execute/fast/index.js';
import { runExecutor } from '../../generators/execute/run.js';

const [variant, catalogue, out] = process.argv.slice(2);
if (!variant || !catalogue || !out) {
  console.error('usage: twins-build.js fast|reference|no-<twin> <catalogue> <out>');
  process.exit(2);
}

async function executorOf(name: string): Promise<Executor> {
  if (name === 'reference') return (await import('../../generators/execute/reference.js')).referenceExecutor;
  const twin = name.startsWith('no-') ? name.slice(3) : undefined;
  if (name !== 'fast' && !FAST_TWINS.includes(twin as FastTwin)) {
    throw new Error(`unknown variant ${name}: fast, reference or no-<${FAST_TWINS.join('|')}>`);
  }
  // The CLI's defaults: the caches on, a thread per core when enough events are to be generated.
  return fastExecutor({
    cache: true,
    threads: availableParallelism(),
    ...(twin ? { off: [twin as FastTwin] } : {}),
  });
}

const result = await runExecutor(await executorOf(variant), {
  catalogueDir: resolve(catalogue),
  outDir: resolve(out),
  outGiven: out,
  cwd: process.cwd(),
});
if (result.kind !== 'built' && result.kind !== 'up-to-date') {
  console.error(`twins-build: ${variant} ended ${result.kind}`);
  process.exitCode = 1;
}
console.log(`twins-build: ${variant} ${result.kind}`);

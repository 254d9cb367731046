import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers.js';
import { type Edge, importGraph } from '../import-graph.js';

// The fast executor's seam (issue 44, item 3): the plain path and the fast path meet at two modules.
// - From outside `execute/fast/`, generators/ imports only its door: `fast/loader.ts` (the loader
//   factory every command takes its loader from) and the executor seam `fast/index.ts` (`eventry
//   build`'s `fastExecutor`, kept apart so that a no-op loads no loader).
// - The plain path (`execute/*.ts`) reaches nothing of `fast/`, not even through other modules.

const FAST = 'generators/execute/fast/';
/** The loader factory: any module may take a loader there. */
const LOADER = `${FAST}loader.ts`;
/** The executor seam, and the one command that runs the fast executor. */
const EXECUTOR_SEAM = { from: 'generators/cli/build.ts', to: `${FAST}index.ts` };

/** Every relative import of generators/, resolved to the file it names (the import-arrows reader). */
function generatorsGraph(): Edge[] {
  return importGraph().filter((edge) => edge.from.startsWith('generators/'));
}

/** Imports into `fast/` from outside it, but of the loader factory and the executor seam's. */
function leaksIn(edges: readonly Edge[]): string[] {
  return edges
    .filter(({ from, to }) => to.startsWith(FAST) && !from.startsWith(FAST) && to !== LOADER)
    .filter(({ from, to }) => from !== EXECUTOR_SEAM.from || to !== EXECUTOR_SEAM.to)
    .map(({ from, to }) => `${from} -> ${to}`)
    .sort();
}

/** Each plain-path module (`execute/*.ts`) that reaches `fast/`, with the path it takes. */
function plainReachesFast(edges: readonly Edge[]): string[] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const plain = [...next.keys()].filter((file) => /^generators\/execute\/[^/]+\.ts$/.test(file));
  const found: string[] = [];
  for (const start of plain.sort()) {
    // Breadth first, each file once, remembering how it was reached.
    const via = new Map<string, string>([[start, '']]);
    const queue = [start];
    while (queue.length > 0) {
      const file = queue.shift()!;
      if (file.startsWith(FAST)) {
        const path = [file];
        for (let at = via.get(file)!; at !== ''; at = via.get(at)!) path.unshift(at);
        found.push(path.join(' -> '));
        break;
      }
      for (const to of next.get(file) ?? []) {
        if (via.has(to)) continue;
        via.set(to, file);
        queue.push(to);
      }
    }
  }
  return found;
}

describe('the fast executor behind its seam', () => {
  const edges = generatorsGraph();

  it('reads the graph from the sources, the commands taking their loader from the factory', () => {
    expect(existsSync(join(REPO, LOADER))).toBe(true);
    expect(edges.some((edge) => edge.from === 'generators/cli/lint.ts' && edge.to === LOADER)).toBe(true);
    expect(edges.some((edge) => edge.from === EXECUTOR_SEAM.from && edge.to === EXECUTOR_SEAM.to)).toBe(true);
    expect(edges.some((edge) => edge.from === 'generators/execute/fast/build.ts')).toBe(true);
  });

  it('is entered from outside only through the loader factory and the executor seam', () => {
    expect(leaksIn(edges)).toEqual([]);
  });

  it('is out of reach of the plain path', () => {
    expect(plainReachesFast(edges)).toEqual([]);
  });
});

describe('the seam rules themselves', () => {
  const edge = (from: string, to: string): Edge => ({ from, to, dynamic: false });

  it('find an import into fast/ past its door, and allow the factory and the executor seam', () => {
    const edges = [
      edge('generators/cli/lint.ts', `${FAST}load/index.ts`),
      edge('generators/cli/lint.ts', LOADER),
      edge('generators/execute/durable.ts', `${FAST}file-system-sync.ts`),
      edge(`${FAST}build.ts`, 'generators/execute/write.ts'),
      edge('generators/cli/build.ts', `${FAST}index.ts`),
      edge('generators/cli/build.ts', `${FAST}build.ts`),
      edge('generators/cli/check.ts', `${FAST}index.ts`),
    ];
    expect(leaksIn(edges)).toEqual([
      `generators/cli/build.ts -> ${FAST}build.ts`,
      `generators/cli/check.ts -> ${FAST}index.ts`,
      `generators/cli/lint.ts -> ${FAST}load/index.ts`,
      `generators/execute/durable.ts -> ${FAST}file-system-sync.ts`,
    ]);
  });

  it('find the plain path reaching fast/ through another module, the factory too', () => {
    const edges = [
      edge('generators/execute/reference.ts', 'generators/execute/write.ts'),
      edge('generators/execute/write.ts', 'generators/shared/fs.ts'),
      edge('generators/shared/fs.ts', `${FAST}emit-context.ts`),
      edge('generators/execute/run.ts', LOADER),
    ];
    expect(plainReachesFast(edges)).toEqual([
      `generators/execute/reference.ts -> generators/execute/write.ts -> generators/shared/fs.ts -> ${FAST}emit-context.ts`,
      `generators/execute/run.ts -> ${LOADER}`,
      `generators/execute/write.ts -> generators/shared/fs.ts -> ${FAST}emit-context.ts`,
    ]);
  });
});

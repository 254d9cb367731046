import { describe, expect, it } from 'vitest';
import { figuresOf, floorsOf, stepsOf } from '../../scripts/walk.js';

/** A profile's call tree from paths of (room or library) frames; each sample names a path by its index. */
function profileOf(paths: readonly (readonly string[])[], samples: readonly number[]) {
  const nodes = [{ id: 1, callFrame: { url: '', functionName: '(root)' }, children: [] as number[] }];
  const leaf: number[] = [];
  for (const path of paths) {
    let at = nodes[0]!;
    for (const frame of path) {
      const child = at.children
        .map((id) => nodes[id - 1]!)
        .find((node) => node.callFrame.functionName === frame);
      if (child) {
        at = child;
        continue;
      }
      const node = { id: nodes.length + 1, callFrame: { url: frame, functionName: frame }, children: [] };
      nodes.push(node);
      at.children.push(node.id);
      at = node;
    }
    leaf.push(at.id);
  }
  return { nodes, samples: samples.map((index) => leaf[index]!) };
}

/** Frames named `room:fn` belong to the room; any other frame (a library's, the collector's) to none. */
const roomOf = (url: string) => (url.includes(':') ? url.slice(0, url.indexOf(':')) : undefined);

describe('the walk of a profile', () => {
  it('replays the returns and calls between two samples, skipping samples outside eventry', () => {
    const profile = profileOf(
      [
        ['cli:main'],
        ['cli:main', 'diff:gate', 'yaml-lib', 'load:parse'],
        ['(garbage collector)'],
        ['cli:main', 'release:base'],
      ],
      [0, 1, 2, 3],
    );
    expect(stepsOf(profile, roomOf)).toEqual([
      { from: 'cli', to: 'diff', by: 'call' },
      { from: 'diff', to: 'load', by: 'call' },
      { from: 'load', to: 'diff', by: 'return' },
      { from: 'diff', to: 'cli', by: 'return' },
      { from: 'cli', to: 'release', by: 'call' },
    ]);
  });

  it('counts a step up a floor as a climb back, and a call up as a callback', () => {
    const floors = floorsOf(
      new Map([
        ['cli', new Set(['diff', 'fast'])],
        ['fast', new Set(['load'])],
        ['diff', new Set(['load'])],
        ['load', new Set<string>()],
      ]),
    );
    const profile = profileOf([['cli:main', 'load:read', 'fast:parse'], ['cli:main']], [0, 1]);
    const figures = figuresOf(stepsOf(profile, roomOf), floors);
    expect(figures.rooms).toEqual(['cli', 'fast', 'load']);
    // cli -> load (down), load -> fast (a callback, up), fast -> load (return, down), load -> cli (return, up)
    expect([figures.steps, figures.climbs, figures.callbacks]).toEqual([4, 2, 1]);
  });

  it('puts rooms that import each other on one floor, a room above the highest it imports', () => {
    const floors = floorsOf(
      new Map([
        ['cli', new Set(['diff'])],
        ['diff', new Set(['release', 'load'])],
        ['release', new Set(['diff'])],
        ['load', new Set<string>()],
      ]),
    );
    expect(Object.fromEntries(floors)).toEqual({ cli: 2, diff: 1, release: 1, load: 0 });
  });
});

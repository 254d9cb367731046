import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { layoutGraph, wrapLabel } from '../../generators/docs/graph.js';
import { loadValid, REPO } from '../helpers.js';

// The issue: the producer/consumer graph cut event keys with an ellipsis (`billing.led…_posted-v1`) at
// every width. Labels now wrap between their parts and each box is sized to its text.

const seed = loadValid(join(REPO, 'catalogue'));

/**
 * Whether `lines` are `label` whole, each no longer than `wrap` unless it is one part (a closing `-v2` belongs
 * to the part before it), broken only after `.` `_` `-` or a space.
 */
function wrapsWell(label: string, lines: string[], wrap: number): boolean {
  if (lines.join('') !== label) return false;
  return lines.every((line, i) => {
    const onePart = line.trimEnd().split(/(?<=[._ ])|(?<=-)(?!v\d+$)/).length === 1;
    const breaksBetweenParts = i === lines.length - 1 || /[._\- ]$/.test(line);
    return (line.trimEnd().length <= wrap || onePart) && breaksBetweenParts && (line !== '' || label === '');
  });
}

describe('wrapLabel', () => {
  it.each([
    ['billing.ledger.entry_posted-v1', ['billing.ledger.', 'entry_posted-v1']],
    ['Collections', ['Collections']],
    ['billing.billing_document.issued-v1', ['billing.billing_', 'document.', 'issued-v1']],
    ['Customer communications', ['Customer ', 'communications']],
    ['ledger-service (Billing platform)', ['ledger-service ', '(Billing ', 'platform)']],
    ['averyveryverylongsinglewordlabel', ['averyveryverylongsinglewordlabel']],
    ['', ['']],
  ])('%s', (label, want) => {
    expect(wrapLabel(label)).toEqual(want);
  });

  it('keeps every event key, service and team name of the seed whole, broken only between parts', () => {
    const labels = [
      ...Object.keys(seed.events),
      ...Object.values(seed.ownership!.teams).map((team) => team.name),
      ...seed.groups.flatMap((group) =>
        Object.values(group.producers ?? {}).flatMap((list) => list.map((p) => `${p.service} (${p.team})`)),
      ),
    ];
    expect(labels.length).toBeGreaterThan(276);
    for (const label of labels) expect(wrapsWell(label, wrapLabel(label), 16), label).toBe(true);
  });

  it('wraps any label of words, dots, underscores and dashes whole', () => {
    const label = fc
      .array(fc.oneof(fc.stringMatching(/^[a-z0-9]{1,24}$/), fc.constantFrom('.', '_', '-', ' ', '-v2')), {
        maxLength: 20,
      })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(label, fc.integer({ min: 4, max: 30 }), (text, wrap) =>
        wrapsWell(text, wrapLabel(text, wrap), wrap),
      ),
    );
  });
});

describe('layoutGraph', () => {
  it('sizes each box to its longest line and the graph to its boxes, edges from box side to box side', () => {
    const key = 'account.communication_preferences.updated-v1';
    const graph = layoutGraph(
      'who',
      [
        [{ label: 'preferences-service (Customer accounts)' }],
        [{ label: key }],
        [{ label: 'Data platform' }],
      ],
      [
        [0, 0, 0],
        [1, 0, 0],
      ],
    );
    const [producer, event, consumer] = graph.nodes;
    expect(event!.lines.map((line) => line.text).join('')).toBe(key);
    for (const node of graph.nodes) {
      const longest = Math.max(...node.lines.map((line) => line.text.trimEnd().length));
      expect(node.width).toBeGreaterThanOrEqual(longest * 7.8);
      expect(node.height).toBeGreaterThanOrEqual(node.lines.length * 16);
      expect(node.x + node.width).toBeLessThanOrEqual(graph.width);
      expect(node.y + node.height).toBeLessThanOrEqual(graph.height);
    }
    expect(producer!.x + producer!.width).toBeLessThan(event!.x);
    expect(event!.x + event!.width).toBeLessThan(consumer!.x);
    expect(graph.edges[0]).toEqual({
      x1: producer!.x + producer!.width,
      y1: producer!.y + producer!.height / 2,
      x2: event!.x,
      y2: event!.y + event!.height / 2,
    });
  });
});

import { join } from 'node:path';
import fc from 'fast-check';
import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { searchIndexJson } from '../../generators/docs/search.js';
import { indexOptions, searchEvents, stem } from '../../generators/docs/search-query.js';
import { loadCatalogue } from '../../generators/load/index.js';
import { REPO } from '../helpers.js';

// Wider than the hand-written set: for every event of the seed, queries made of its key's words in a
// random order, a random subset of them (enough that at most five keys hold them all, else no search
// could put it in a top 5), with one typo in a word of five letters or more.

const seed = (() => {
  const loaded = loadCatalogue(join(REPO, 'catalogue'));
  if (!loaded.ok) throw new Error('the seed catalogue does not load');
  return loaded.catalogue;
})();
const index = MiniSearch.loadJSON(searchIndexJson(seed), indexOptions());

/** A key's words as a person reads them (`billing.ledger.entry_posted-v1`: billing ledger entry posted v1). */
const wordsOf = (key: string) => [...new Set(key.split(/[_.\-/]+/).filter((word) => word !== ''))];
const keys = Object.keys(seed.events).sort();
const keyWords = new Map(keys.map((key) => [key, new Set(wordsOf(key).map(stem))]));

/** How many keys hold every one of these words. */
const holders = (words: readonly string[]) =>
  keys.filter((key) => words.every((word) => keyWords.get(key)!.has(stem(word)))).length;

/** One edit (replace, insert or delete a letter) that leaves the word five letters or more. */
function typo(word: string, position: number, letter: string, edit: number): string {
  const at = position % word.length;
  if (edit === 0) return `${word.slice(0, at)}${letter}${word.slice(at + 1)}`;
  if (edit === 1 || word.length <= 5) return `${word.slice(0, at)}${letter}${word.slice(at)}`;
  return `${word.slice(0, at)}${word.slice(at + 1)}`;
}

/** The query for one draw: words shuffled, the shortest prefix of them that is specific, one typo. */
function queryFor(key: string, order: number[], position: number, letter: string, edit: number): string {
  const words = wordsOf(key);
  const shuffled = order.slice(0, words.length).map((_, i) => i);
  shuffled.sort((a, b) => (order[a] ?? 0) - (order[b] ?? 0));
  const all = shuffled.map((i) => words[i]!);
  let count = 1;
  while (count < all.length && holders(all.slice(0, count)) > 5) count++;
  const chosen = all.slice(0, count);
  const long = chosen.findIndex((word) => word.length >= 5 && /^\p{L}+$/u.test(word));
  if (long >= 0) chosen[long] = typo(chosen[long]!, position, letter, edit);
  return chosen.join(' ');
}

describe('every event of the seed, found by a random subset of its key words with a typo', () => {
  it('returns the event in its top 5 for every draw (5 per event)', () => {
    const draw = fc.tuple(
      fc.array(fc.nat(1000), { minLength: 12, maxLength: 12 }),
      fc.nat(40),
      fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'),
      fc.nat(2),
    );
    const misses: string[] = [];
    let total = 0;
    for (const [i, key] of keys.entries()) {
      for (const [order, position, letter, edit] of fc.sample(draw, { seed: 43 + i, numRuns: 5 })) {
        const query = queryFor(key, order, position, letter, edit);
        total++;
        const found = searchEvents(index, query)
          .slice(0, 5)
          .map((hit) => hit.id);
        if (!found.includes(key)) misses.push(`${key} <- "${query}": ${found.join(', ')}`);
      }
    }
    console.info(
      `search: ${total - misses.length}/${total} random key queries found their event in the top 5`,
    );
    expect(misses).toEqual([]);
  });
});

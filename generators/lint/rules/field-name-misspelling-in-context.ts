import type { FieldUse } from '../catalogue-index.js';
import { isLikelyMisspelling } from '../helpers.js';
import { at, code, type LintReport, type LintRule } from '../rule.js';

// A slip seen in context: two field lists that share most of their names, where one name of one list
// is within two edits (Damerau-Levenshtein, a swap counting as one) of a name of the other that it
// lacks. Any kind of slip counts here (a replaced letter, two slips), since the shared names make a
// coincidence unlikely; the context-free rule (field-name-near-duplicate) sees one-letter slips alone.
// See docs/decisions/0098-misspellings-in-context.md for the thresholds and the catalogue's findings.

/** The edits at most between the two names. */
const MAX_EDITS = 2;
/** Names shorter than this are not compared: short words differ by two letters all the time. */
const MIN_LENGTH = 5;
/** The names two lists must share besides the pair, at least. */
const MIN_SHARED = 2;
/** List pairs compared per name pair, at most: keeps the rule near-linear on a very large catalogue. */
const MAX_LIST_PAIRS = 20_000;

/**
 * The Damerau-Levenshtein distance (insertions, deletions, replacements and swaps of neighbours, each
 * one edit, a swapped pair edited again included), capped: `cap + 1` stands for anything more.
 */
export function editDistance(a: string, b: string, cap = MAX_EDITS): number {
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  const far = a.length + b.length;
  const width = b.length + 2;
  // d[(i + 1) * width + (j + 1)]: the distance of a's first i letters and b's first j letters.
  const d = new Array<number>((a.length + 2) * width).fill(far);
  for (let i = 0; i <= a.length; i++) d[(i + 1) * width + 1] = i;
  for (let j = 0; j <= b.length; j++) d[width + j + 1] = j;
  const lastRow = new Map<string, number>();
  for (let i = 1; i <= a.length; i++) {
    let lastColumn = 0;
    for (let j = 1; j <= b.length; j++) {
      const k = lastRow.get(b[j - 1]!) ?? 0;
      const l = lastColumn;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      if (cost === 0) lastColumn = j;
      d[(i + 1) * width + j + 1] = Math.min(
        d[i * width + j]! + cost,
        d[(i + 1) * width + j]! + 1,
        d[i * width + j + 1]! + 1,
        d[k * width + l]! + (i - k - 1) + 1 + (j - l - 1),
      );
    }
    lastRow.set(a[i - 1]!, i);
  }
  return Math.min(d[(a.length + 1) * width + b.length + 1]!, cap + 1);
}

/**
 * Whether two names may be one word misspelt rather than two words: long enough, not told apart by a
 * digit (`line1`, `line2`) or a plural ending (`reading`, `readings`), within two edits.
 */
function candidatePair(a: string, b: string): boolean {
  if (Math.min(a.length, b.length) < MIN_LENGTH) return false;
  if (a.replace(/\d/g, '') === b.replace(/\d/g, '')) return false;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  const words = (name: string) => name.split('_');
  const plural = (x: string, y: string) =>
    y === `${x}s` || y === `${x}es` || (x.endsWith('y') && y === `${x.slice(0, -1)}ies`);
  const [ws, wl] = [words(short), words(long)];
  if (ws.length === wl.length && ws.every((word, i) => word === wl[i] || plural(word, wl[i]!))) return false;
  return editDistance(a, b) <= MAX_EDITS;
}

/** Letter counts of a name: `a`-`z`, digits, `_`, anything else. */
function letterCounts(name: string): Int16Array {
  const counts = new Int16Array(38);
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    counts[c >= 97 && c <= 122 ? c - 97 : c >= 48 && c <= 57 ? 26 + c - 48 : c === 95 ? 36 : 37]!++;
  }
  return counts;
}

/** The bag distance: a lower bound of the edit distance (a swap keeps the letters), cheap to compute. */
function bagDistance(a: Int16Array, b: Int16Array): number {
  let more = 0;
  let less = 0;
  for (let i = 0; i < a.length; i++) {
    const d = a[i]! - b[i]!;
    if (d > 0) more += d;
    else less -= d;
  }
  return Math.max(more, less);
}

/**
 * Pairs of distinct names within two edits: compared within a window of lengths after sorting by
 * length, the letter counts ruling out most pairs before the edit distance is computed.
 */
function namePairs(names: readonly string[]): [string, string][] {
  const sorted = names
    .filter((name) => name.length >= MIN_LENGTH)
    .sort((x, y) => x.length - y.length || (x < y ? -1 : 1));
  const counts = sorted.map(letterCounts);
  const pairs: [string, string][] = [];
  for (let i = 0; i < sorted.length; i++) {
    for (let j = i + 1; j < sorted.length && sorted[j]!.length - sorted[i]!.length <= MAX_EDITS; j++) {
      if (bagDistance(counts[i]!, counts[j]!) > MAX_EDITS) continue;
      const [a, b] = [sorted[i]!, sorted[j]!];
      // The context-free rule reports these already: one finding per slip.
      if (candidatePair(a, b) && !isLikelyMisspelling(a, b)) pairs.push(a < b ? [a, b] : [b, a]);
    }
  }
  return pairs;
}

/** One field list: an event's or a shape's own fields, by name. */
interface FieldList {
  names: Set<string>;
  uses: Map<string, FieldUse>;
}

/** The field lists of the catalogue, keyed by owner, and the lists each name is in. */
function fieldLists(uses: readonly FieldUse[]): Map<string, FieldList[]> {
  const lists = new Map<string, FieldList>();
  for (const use of uses) {
    const owner = `${use.owner.kind} ${use.owner.name}`;
    let list = lists.get(owner);
    if (!list) {
      list = { names: new Set(), uses: new Map() };
      lists.set(owner, list);
    }
    list.names.add(use.field.name);
    list.uses.set(use.field.name, use);
  }
  const byName = new Map<string, FieldList[]>();
  for (const list of lists.values())
    for (const name of list.names) {
      const found = byName.get(name);
      if (found) found.push(list);
      else byName.set(name, [list]);
    }
  return byName;
}

/** How many names two lists share (the smaller one walked). */
function sharedCount(x: FieldList, y: FieldList): number {
  const [small, large] = x.names.size <= y.names.size ? [x, y] : [y, x];
  let count = 0;
  for (const name of small.names) if (large.names.has(name)) count++;
  return count;
}

/**
 * How many names `odd` (with `a`, not `b`) and `other` (with `b`, not `a`) share, when one of the two
 * shares most of its other names with the other (a short list inside a longer one counts); else
 * undefined.
 */
function inContext(odd: FieldList, other: FieldList, a: string, b: string): number | undefined {
  if (odd.names.has(b) || other.names.has(a)) return undefined;
  const shared = sharedCount(odd, other);
  const smaller = Math.min(odd.names.size, other.names.size) - 1;
  return shared >= MIN_SHARED && shared * 2 > smaller ? shared : undefined;
}

/** A field list that shares most of its names with another, but spells one of them two edits apart. */
export const fieldNameMisspellingInContext: LintRule = {
  id: 'field-name-misspelling-in-context',
  description:
    'A field list shares most of its names with another but spells one name within two edits of the other list’s: most likely a misspelling, whatever the slip.',
  severity: 'warning',
  hint: 'Spell the field as the other list does (in a new version), or rename one of them so the two clearly differ.',
  check(ctx) {
    const byName = fieldLists(ctx.index.uses);
    const found = new Map<FieldUse, { report: LintReport; shared: number }>();
    for (const [x, y] of namePairs([...byName.keys()])) {
      // The rarer spelling is the suspect; on a tie, the later one in the alphabet.
      const [a, b] = byName.get(x)!.length < byName.get(y)!.length ? [x, y] : [y, x];
      let compared = 0;
      for (const odd of byName.get(a)!) {
        for (const other of byName.get(b)!) {
          if (++compared > MAX_LIST_PAIRS) break;
          const shared = inContext(odd, other, a, b);
          if (shared === undefined) continue;
          const use = odd.uses.get(a)!;
          const match = other.uses.get(b)!;
          if ((found.get(use)?.shared ?? 0) >= shared) continue;
          found.set(use, {
            shared,
            report: {
              message: `Field ${code(a)} of ${use.owner.kind} ${code(use.owner.name)} (${at(use.field.source)}) looks like a misspelling of ${code(b)} of ${match.owner.kind} ${code(match.owner.name)} (${at(match.field.source)}): the two lists share ${shared} other field names.`,
              location: use.field.source,
              subject: use.subject,
            },
          });
        }
      }
    }
    return [...found.values()]
      .map((entry) => entry.report)
      .sort((p, q) => (p.subject < q.subject ? -1 : p.subject > q.subject ? 1 : 0));
  },
};

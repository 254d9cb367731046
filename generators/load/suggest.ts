import { distance } from 'fastest-levenshtein';

/** The closest candidate to a misspelt name, if it is close enough to be the likely intent. */
export function suggest(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  const lower = name.toLowerCase();
  for (const candidate of candidates) {
    const d = distance(lower, candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  const limit = Math.max(2, Math.floor(name.length / 3));
  return bestDistance <= limit ? best : undefined;
}

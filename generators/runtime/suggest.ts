/**
 * The closest of `candidates` to a mistyped `name`, if it is close enough to be the likely intent:
 * within a third of the name's length (at least 2) in Levenshtein distance, ignoring case. The loader
 * (generators/load/suggest.ts) uses this same function, so the toolkit and the packages agree.
 */
export function suggest(name: string, candidates: Iterable<string>): string | undefined {
  const lower = name.toLowerCase();
  const limit = Math.max(2, Math.floor(name.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    // The distance is at least the difference in length: a long hostile key costs nothing.
    if (Math.abs(candidate.length - name.length) >= bestDistance) continue;
    const d = distance(lower, candidate.toLowerCase(), bestDistance);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/** Levenshtein distance of `a` and `b`, or `cap` once it is certain to be at least that. */
function distance(a: string, b: string, cap: number): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row: number[] = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const d = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      row.push(d);
      if (d < rowMin) rowMin = d;
    }
    if (rowMin >= cap) return cap;
    previous = row;
  }
  return previous[b.length]!;
}

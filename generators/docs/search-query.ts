// The one search of the portal and of MCP: how text becomes terms, and how a query runs over the index.
// Imported by the index builder (search.ts), the MCP server and the search page's browser script
// (bundled into assets/search.js), so it imports no Node module and no MiniSearch at run time: the
// caller passes the MiniSearch it loaded. Why these rules: docs/decisions/0091-one-search.md.
import type MiniSearch from 'minisearch';
import type { Options, Query, SearchOptions, SearchResult } from 'minisearch';

/** One indexed event version: the parts a query is matched in, best-ranked first. */
export interface SearchDocument {
  /** The event key (not indexed: typed whole, it puts that event first). */
  id: string;
  /** The event key, indexed by its words (`billing ledger entry posted v1`). */
  key: string;
  /** Only when it is not the key itself. */
  title?: string;
  /** The group's title. */
  group: string;
  /** Field names, nested fields' too, separated by spaces, indexed by their words. */
  fields: string;
  /** The field and shape names again, each indexed whole (`source_reason`, `ledgerentry`). */
  names: string;
  /** The names of the shapes the event's fields use, indexed by their words. */
  shapes: string;
  /** The event's, its fields' and its shapes' descriptions. */
  text: string;
  /** Field paths (`lines[].amount`), stored (not indexed) to name and link the fields a hit matched. */
  paths: string;
  /** The start of `text`, stored (not indexed) for the result's snippet. */
  snippet?: string;
}

/** The stored fields a hit carries (the browser shows them without the model). */
export type StoredHit = SearchResult & Partial<Pick<SearchDocument, 'title' | 'paths' | 'snippet'>>;

/**
 * Ranking: the key's words count most, then the title, then field names, then shape names, then the
 * group's title, then descriptions. BM25 does the rest (a rare term counts more).
 */
const BOOST = { key: 10, title: 5, names: 3, fields: 2, shapes: 2, group: 1.5, text: 1 } as const;
/** The parts indexed by whole compounds; the others by words. */
const COMPOUND_FIELDS = ['names'];
/** How much more a key typed whole counts than any other match: it comes first. */
const EXACT_KEY = 1000;
const WORD_FIELDS = Object.keys(BOOST).filter((field) => !COMPOUND_FIELDS.includes(field));

/** Words of fewer letters match whole only (a one-letter prefix matched nearly every event). */
const MIN_PREFIX = 2;
/** Words of this many letters or more match with one typo (one edit); shorter ones exactly. */
const MIN_FUZZY = 5;

/** Where a chunk splits into words: the separators of keys and field names. */
const WORD = /[_./\-[\]]+/;
/** Case changes: `entryPosted` -> `entry Posted`, `HTTPServer` -> `HTTP Server`. */
const CAMEL = /(\p{Ll})(\p{Lu})|(\p{Lu})(\p{Lu}\p{Ll})/gu;
/** What separates chunks: anything but letters, digits and the key separators. */
const CHUNK = /[^\p{L}\p{N}_./\-[\]]+/u;

const lower = (text: string) => text.toLowerCase();
const trimSeparators = (chunk: string) => chunk.replace(/^[_./\-[\]]+|[_./\-[\]]+$/g, '');

/** The words of one chunk: split at `_ . - / [ ]` and case changes, lower case. */
function chunkWords(chunk: string): string[] {
  return chunk
    .replace(CAMEL, '$1$3 $2$4')
    .split(/\s+/)
    .flatMap((part) => part.split(WORD))
    .filter((word) => word !== '')
    .map(lower);
}

const unique = (terms: string[]) => [...new Set(terms)];

/** The chunks of a text (a key, a field name, a word of prose), separators trimmed. */
const chunks = (text: string) =>
  text
    .split(CHUNK)
    .map(trimSeparators)
    .filter((chunk) => chunk !== '');

/** The words of a text, each once (a word said twice in a key is no more relevant). */
export function words(text: string): string[] {
  return unique(chunks(text).flatMap(chunkWords));
}

/** The compounds of a text (`entry_posted`, `lines.amount`, `ledgerentry`): chunks of two words or more, whole. */
export function compounds(text: string): string[] {
  return unique(
    chunks(text)
      .filter((chunk) => chunkWords(chunk).length > 1)
      .map((chunk) => lower(chunk.replace(/\[\]/g, ''))),
  );
}

/**
 * The terms of one indexed part: whole compounds in `names`, words elsewhere, so a word's
 * prefix never also matches every compound that starts with it (which summed one word many times).
 */
function tokenize(text: string, fieldName?: string): string[] {
  return fieldName !== undefined && COMPOUND_FIELDS.includes(fieldName) ? compounds(text) : words(text);
}

/**
 * Plural and singular alike: Harman's "S" stemmer (1991), the lightest defensible one: `-ies` -> `-y`
 * (entries, entry), `-es` -> `-e` (unless `-aes -ees -oes`), `-s` dropped (unless `-us -ss`). Nothing
 * else: `posted` stays (a prefix search for `post` finds it); words under four letters stay (`vs`), and
 * so do compounds (`account_numbers` is a name, matched whole).
 */
export function stem(term: string): string {
  if (term.length < 4 || !/\p{L}$/u.test(term) || WORD.test(term)) return term;
  if (term.endsWith('ies') && !/[ae]ies$/.test(term)) return `${term.slice(0, -3)}y`;
  if (term.endsWith('es') && !/[aeo]es$/.test(term)) return term.slice(0, -1);
  if (term.endsWith('s') && !/(us|ss)$/.test(term)) return term.slice(0, -1);
  return term;
}

/** An indexed term is stored as written and, when that differs, as its stem (a typo in a plural still matches). */
function indexTerm(term: string): string | string[] {
  const stemmed = stem(term);
  return stemmed === term ? term : [term, stemmed];
}

/** The options to build the index with and to load it with: the same on both sides, always. */
export function indexOptions(): Options<SearchDocument> {
  return {
    idField: 'id',
    fields: Object.keys(BOOST),
    storeFields: ['title', 'paths', 'snippet'],
    tokenize,
    processTerm: indexTerm,
  };
}

/** A query term, as both its stem and itself when they differ, in the parts that index its kind. */
function termQuery(term: string, fields: string[]): Query {
  const stemmed = stem(term);
  return { combineWith: 'OR', fields, queries: stemmed === term ? [term] : [stemmed, term] };
}

/** Prefix from MIN_PREFIX letters, one edit from MIN_FUZZY, the boosts; terms are already processed. */
const QUERY_OPTIONS: SearchOptions = {
  tokenize: (term) => [term],
  processTerm: (term) => term,
  prefix: (term) => term.length >= MIN_PREFIX,
  fuzzy: (term) => (term.length >= MIN_FUZZY ? 1 : false),
  boost: { ...BOOST },
  // A typo is one edit in a word of five letters or more, so a fuzzy match is a likely one: weighted
  // above MiniSearch's default (0.45), a typed key word still outranks the right word in a field name.
  weights: { fuzzy: 0.7, prefix: 0.375 },
};

/**
 * The events a query finds, best first; a key typed whole first of all. When the query holds compounds
 * (`account_number`), first the events that have each compound (as a field or shape name) and the
 * query's other words: the compound's own words need no search of their own there, which keeps the
 * commonest words (`account`) out of the work. Else, or when none has them, the events with every word
 * (`ledger.entry_posted` as words), and when none has every word, those with any (a query with a word
 * the catalogue lacks still answers; MiniSearch multiplies a hit's score by the number of words it matched).
 */
export function searchEvents(index: MiniSearch, query: string): StoredHit[] {
  const exact = query.trim();
  const options: SearchOptions = index.has(exact)
    ? { ...QUERY_OPTIONS, boostDocument: (id) => (id === exact ? EXACT_KEY : 1) }
    : QUERY_OPTIONS;
  const plain = words(query);
  // Field and shape names hold no `.` or `/`: a typed path or key is searched by its segments' compounds.
  const whole = compounds(query.replace(/[./[\]]+/g, ' '));
  if (whole.length > 0) {
    const covered = new Set(whole.flatMap(words));
    const rest = plain.filter((term) => !covered.has(term));
    const queries = [
      ...whole.map((term) => termQuery(term, COMPOUND_FIELDS)),
      ...rest.map((term) => termQuery(term, WORD_FIELDS)),
    ];
    const hits = index.search({ combineWith: 'AND', queries }, options);
    if (hits.length > 0) return hits as StoredHit[];
  }
  // AND before OR, not OR filtered: MiniSearch builds a result object for every hit, and `v1` alone
  // has ~9,000 of them at 10k events.
  for (const combineWith of plain.length > 1 ? (['AND', 'OR'] as const) : (['AND'] as const)) {
    const queries = plain.map((term) => termQuery(term, WORD_FIELDS));
    const hits = index.search({ combineWith, queries }, options);
    if (hits.length > 0) return hits as StoredHit[];
  }
  return [];
}

/** The index terms a hit matched in one indexed part (`fields`, `text`, ...). */
export function termsMatchedIn(hit: SearchResult, part: keyof typeof BOOST): Set<string> {
  return new Set(
    Object.entries(hit.match)
      .filter(([, parts]) => parts.includes(part))
      .map(([term]) => term),
  );
}

/** The terms of a text as the index stores them (to compare with a hit's matched terms). */
export function indexTermsOf(text: string): string[] {
  return [...compounds(text), ...words(text)].flatMap(indexTerm);
}

/**
 * The field paths of a hit that the query matched: those whose own name holds the most of the query's
 * terms (`account_number` names that field, not every `account_*`; `reason` every `*_reason`), else,
 * for a prefix or a typo, those holding the most of the terms it matched in field names.
 */
export function matchedFields(hit: SearchResult, paths: readonly string[]): string[] {
  const inFields = new Set([...termsMatchedIn(hit, 'fields'), ...termsMatchedIn(hit, 'names')]);
  if (inFields.size === 0) return [];
  const own = paths.map((path) => new Set(indexTermsOf(path.slice(path.lastIndexOf('.') + 1))));
  const byQuery = own.map((terms) => hit.queryTerms.filter((term) => terms.has(term)).length);
  const counts =
    Math.max(...byQuery) > 0 ? byQuery : own.map((terms) => [...terms].filter((t) => inFields.has(t)).length);
  const best = Math.max(...counts);
  return best === 0 ? [] : paths.filter((_, i) => counts[i] === best);
}

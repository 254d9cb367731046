import { join } from 'node:path';
import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { searchIndexJson } from '../../generators/docs/search.js';
import {
  compounds,
  indexOptions,
  matchedFields,
  searchEvents,
  stem,
  words,
} from '../../generators/docs/search-query.js';
import { loadCatalogue } from '../../generators/load/index.js';
import type { Catalogue } from '../../generators/model.js';
import { REPO } from '../helpers.js';
import { SEARCH_CASES } from './search-queries.js';

// The portal's search as the browser runs it: the index serialised at build time, loaded with
// `MiniSearch.loadJSON` and queried through the module the search page bundles (search-query.ts).

const seed = (() => {
  const loaded = loadCatalogue(join(REPO, 'catalogue'));
  if (!loaded.ok) throw new Error('the seed catalogue does not load');
  return loaded.catalogue;
})();

/** The index as the search page loads it. */
function browserIndex(catalogue: Catalogue): MiniSearch {
  return MiniSearch.loadJSON(searchIndexJson(catalogue), indexOptions());
}

const index = browserIndex(seed);
const top = (query: string, n = 5) =>
  searchEvents(index, query)
    .slice(0, n)
    .map((hit) => hit.id as string);

describe('the tokenizer', () => {
  it('splits keys and field names on _ . - / and case changes into words, each once', () => {
    expect(words('billing.ledger.entry_posted-v1')).toEqual(['billing', 'ledger', 'entry', 'posted', 'v1']);
    expect(words('LedgerEntryRemoval HTTPServer fieldworks.fieldworks_appointment')).toEqual([
      'ledger',
      'entry',
      'removal',
      'http',
      'server',
      'fieldworks',
      'appointment',
    ]);
    expect(words('An account was created.')).toEqual(['an', 'account', 'was', 'created']);
  });

  it('keeps a key, a field name, a path or a shape name whole as a compound too', () => {
    expect(compounds('billing.ledger.entry_posted-v1 lines[].amount LedgerEntry a/b id')).toEqual([
      'billing.ledger.entry_posted-v1',
      'lines.amount',
      'ledgerentry',
      'a/b',
    ]);
  });

  it('takes plural and singular alike, and leaves short words, -us, -ss and compounds alone', () => {
    expect(
      ['entries', 'rebates', 'logins', 'addresses', 'status', 'class', 'vs', 'account_numbers'].map(stem),
    ).toEqual(['entry', 'rebate', 'login', 'addresse', 'status', 'class', 'vs', 'account_numbers']);
  });
});

describe('queries people type, on the seed catalogue (the browser module)', () => {
  it.each(SEARCH_CASES)('"$query" ($kind) returns $top5 in its top 5', ({ query, top5 }) => {
    expect(top(query)).toEqual(expect.arrayContaining([...top5]));
  });

  it(`the hit rate over all ${SEARCH_CASES.length} queries is 100%`, () => {
    expect(SEARCH_CASES.length).toBeGreaterThanOrEqual(30);
    const missed = SEARCH_CASES.filter(({ query, top5 }) => !top5.every((key) => top(query).includes(key)));
    console.info(
      `search: ${SEARCH_CASES.length - missed.length}/${SEARCH_CASES.length} queries hit (browser module)`,
    );
    expect(missed.map(({ query }) => query)).toEqual([]);
  });
});

describe('ranking', () => {
  it('a key typed whole comes first, even where another event has more of its words', () => {
    expect(top('billing.ledger.entry_posted-v1', 1)).toEqual(['billing.ledger.entry_posted-v1']);
    expect(top('agreement.revoked-v1', 1)).toEqual(['agreement.revoked-v1']);
    expect(top('account.created-v1', 1)).toEqual(['account.created-v1']);
  });

  it("the key's words before field names before descriptions", () => {
    const catalogue: Catalogue = structuredClone(seed);
    catalogue.events['contracts.expired-v1']!.description = 'The quokka contract ran out.';
    const withField = catalogue.events['contracts.revoked-v1']!;
    withField.fields = [...withField.fields, { ...withField.fields[0]!, name: 'quokka_id' }];
    const event = catalogue.events['agreement.created-v1']!;
    catalogue.events['agreement.created-v1'] = {
      ...event,
      key: 'agreement.quokka-v1',
      title: 'agreement.quokka-v1',
    };
    catalogue.events['agreement.quokka-v1'] = catalogue.events['agreement.created-v1']!;
    delete catalogue.events['agreement.created-v1'];
    const hits = searchEvents(browserIndex(catalogue), 'quokka');
    expect(hits.map((hit) => hit.id)).toEqual([
      'agreement.quokka-v1',
      'contracts.revoked-v1',
      'contracts.expired-v1',
    ]);
  });

  it('names the matched field: the whole name when typed whole, every field with a typed word', () => {
    const [hit] = searchEvents(index, 'source_reason');
    expect(hit!.id).toBe('billing.ledger.entry_removed-v2');
    const paths = (hit!.paths ?? '').split(' ');
    expect(matchedFields(hit!, paths)).toEqual(['entry.source_reason']);
    const [number] = searchEvents(index, 'account_number');
    expect(matchedFields(number!, (number!.paths ?? '').split(' '))).toEqual(['account_number']);
  });

  it('one typo from five letters, none below: `faild` finds login_failed, `lgin` finds no login event', () => {
    expect(top('login faild')).toContain('auth_server.account_user.login_failed-v1');
    expect(searchEvents(index, 'lgin').map((hit) => hit.id)).not.toContain(
      'auth_server.account_user.login_failed-v1',
    );
  });

  it('one letter is no prefix and no typo: `v` finds nothing, `v2` the second versions', () => {
    expect(searchEvents(index, 'v')).toEqual([]);
    expect(searchEvents(index, 'v2').length).toBeGreaterThan(0);
  });

  it('a word the catalogue lacks does not empty the answer: the events with the other words come first', () => {
    expect(top('ledger entry posted zyzzyva')).toEqual(
      expect.arrayContaining(['billing.ledger.entry_posted-v1', 'billing.ledger.entry_posted-v2']),
    );
  });
});

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_CASES } from '../docs/search-queries.js';
import { connectStdio } from './processes.js';

// The queries people type (test/docs/search-queries.ts), as an agent sends them: `search_events` of
// the compiled `eventry mcp` over stdio, limit 5, on the seed catalogue. The same module answers as on
// the portal's search page (test/docs/search.test.ts runs the set through that one).

interface Hit {
  key: string;
  fields: string[];
  matched: { term: string; in: string[] }[];
}

describe('search_events answers the queries people type', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectStdio();
  }, 60_000);
  afterAll(async () => {
    await client?.close();
  });

  const search = async (query: string) => {
    const result = (await client.callTool({
      name: 'search_events',
      arguments: { query, limit: 5 },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    return (result.structuredContent as { hits: Hit[] }).hits;
  };

  it(`returns each query's events in its top 5: ${SEARCH_CASES.length} queries, hit rate 100%`, async () => {
    const missed: string[] = [];
    for (const { query, top5 } of SEARCH_CASES) {
      const keys = (await search(query)).map((hit) => hit.key);
      if (!top5.every((key) => keys.includes(key))) missed.push(`"${query}": ${keys.join(', ')}`);
    }
    console.info(`search: ${SEARCH_CASES.length - missed.length}/${SEARCH_CASES.length} queries hit (MCP)`);
    expect(missed).toEqual([]);
  });

  it('names the field a field-name query matched, nested paths whole', async () => {
    const [hit] = await search('source_reason');
    expect(hit).toMatchObject({ key: 'billing.ledger.entry_removed-v2', fields: ['entry.source_reason'] });
    expect(hit!.matched).toContainEqual({ term: 'source_reason', in: ['names'] });
  });
});

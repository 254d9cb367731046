import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltPackages, buildPackages } from '../emit/package/build-packages.js';
import { compiledToolkitPath, fixturePath, REPO } from '../helpers.js';

// The MCP server on a catalogue with data rules (test/fixtures/rules): what an agent learns of them
// from `get_event`, and that `validate_payload` enforces them, over stdio with the SDK's own client.

let built: BuiltPackages;
let client: Client;
let tools: Tool[];
const ajv = new Ajv({ strict: false, allErrors: true });

beforeAll(async () => {
  built = await buildPackages(fixturePath('rules'));
  client = new Client({ name: 'eventry-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [
        compiledToolkitPath('scripts/eventry.js'),
        'mcp',
        '--catalogue',
        fixturePath('rules'),
        '--packages',
        built.out,
        '--no-cache',
      ],
      cwd: REPO,
      stderr: 'pipe',
    }),
  );
  tools = (await client.listTools()).tools;
}, 120_000);
afterAll(async () => {
  await client?.close();
});

/** Calls a tool; a successful result must match the tool's declared output schema. */
// biome-ignore lint/suspicious/noExplicitAny: each test reads the fields its tool declares; ajv checked them.
async function call(name: string, args: Record<string, unknown>): Promise<Record<string, any>> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  const check = ajv.compile(tools.find((tool) => tool.name === name)!.outputSchema!);
  expect(check(result.structuredContent), JSON.stringify(check.errors)).toBe(true);
  return { ...result.structuredContent, text: (result.content[0] as { text: string }).text };
}

const order = {
  order_id: 'o-1',
  amount: 12.5,
  currency: 'EUR',
  placed_at: '2024-01-31T10:00:00Z',
  buyer: { name: 'Ada' },
  lines: [{ sku: 'A-1', qty: 2, price: 5 }],
};

describe('the MCP server knows data rules', () => {
  it("get_event carries the event's rules and its shapes' rules at each place", async () => {
    const info = await call('get_event', { key: 'order.placed-v1' });
    expect(info.rules[0]).toEqual({
      name: 'amount_positive',
      expr: 'message.amount > 0',
      message: 'The amount must be positive.',
      attr: 'amount',
    });
    expect(info.rules).toContainEqual({
      name: 'qty_positive',
      expr: 'this.qty > 0',
      message: 'A line needs at least one item.',
      attr: 'lines[].qty',
      shape: { name: 'Line', at: 'lines[]' },
    });
    expect(info.text).toContain('rule amount_positive: message.amount > 0 (The amount must be positive.)');
    const none = await call('get_event', { key: 'order.cancelled-v1' });
    expect(none.rules).toBeUndefined();
  });

  it('validate_payload answers rule_violated items for the rules a payload breaks, in both modes', async () => {
    expect(await call('validate_payload', { key: 'order.placed-v1', payload: order })).toMatchObject({
      valid: true,
    });
    for (const mode of ['strict', 'tolerant']) {
      const bad = await call('validate_payload', {
        key: 'order.placed-v1',
        payload: { ...order, amount: -1, lines: [{ sku: 'A-1', qty: 0, price: 5 }] },
        mode,
      });
      expect(bad.valid).toBe(false);
      expect(bad.body.errors).toEqual(
        expect.arrayContaining([
          { detail: 'The amount must be positive.', code: 'rule_violated', attr: 'amount' },
          { detail: 'A line needs at least one item.', code: 'rule_violated', attr: 'lines.0.qty' },
        ]),
      );
      expect(bad.text).toContain('- amount: rule_violated: The amount must be positive.');
    }
  });
});

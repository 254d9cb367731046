import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogueView } from '../../generators/mcp/catalogue-view.js';
import { createMcpServer } from '../../generators/mcp/server.js';
import { smallWithMigrations, V1, V2 } from '../docs/migration-site.js';
import { writeModelPackages } from '../emit/package/build-packages.js';

// The MCP server's migrations (issue 46): `upcast_payload` converts with the catalogue's compiled steps
// and `get_event` lists them. The model is the small fixture with a migration attached by hand (the
// loader's `upgrade:` is not read yet), so the server runs in this process, over the SDK's in-memory pair.

let client: Client;
let tools: Tool[];
const stderr: string[] = [];
const ajv = new Ajv({ strict: false, allErrors: true });

beforeAll(async () => {
  const model = smallWithMigrations();
  const packagesDir = await writeModelPackages(model);
  const view = new CatalogueView({ catalogue: model, packagesDir });
  const server = createMcpServer(() => view, { write: (text) => stderr.push(text) });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: 'eventry-test', version: '1.0.0' });
  await client.connect(clientSide);
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

/** Calls a tool that must fail: its code and message. */
async function failure(
  name: string,
  args: Record<string, unknown>,
): Promise<{ code: string; message: string }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError).toBe(true);
  return (result._meta as Record<string, { code: string; message: string }>)['eventry/error']!;
}

const v1 = { account_number: 'A-9', account_user_emails: [], status: 'closed', score: 1.5 };
const v2 = {
  account_number: 'A-9',
  account_user_emails: [],
  reason: 'closed by A-9',
  changes: { migrated: true, status: 'closed' },
};

describe('upcast_payload', () => {
  it('converts a v1 payload to the newest version by default, one validate_payload accepts', async () => {
    const answer = await call('upcast_payload', { from: V1, payload: v1 });
    expect(answer).toMatchObject({ from: V1, to: V2, through: [V1, V2], payload: v2 });
    expect(answer.text).toContain(`${V1} -> ${V2}:`);
    const checked = await call('validate_payload', { key: V2, payload: answer.payload });
    expect(checked.valid).toBe(true);
  });

  it('converts back down with `to`, through the downgrade', async () => {
    const answer = await call('upcast_payload', { from: V2, payload: v2, to: V1 });
    expect(answer.payload).toEqual({ account_number: 'A-9', account_user_emails: [] });
    expect(answer.through).toEqual([V2, V1]);
  });

  it('an unknown key: unknown-event, with the closest key', async () => {
    expect(await failure('upcast_payload', { from: 'account.removed-v9', payload: v1 })).toMatchObject({
      code: 'unknown-event',
      message: expect.stringContaining('Did you mean `account.removed-v1`?'),
    });
    expect((await failure('upcast_payload', { from: V1, payload: v1, to: 'account.remove-v2' })).code).toBe(
      'unknown-event',
    );
  });

  it('no chain of migrations: no-migration-path, saying between what', async () => {
    const none = await failure('upcast_payload', { from: 'account.created-v1', payload: v1 });
    expect(none.code).toBe('no-migration-path');
    expect(none.message).toContain('No version upgrades from `account.created-v1`');
    const apart = await failure('upcast_payload', { from: V1, payload: v1, to: 'account.created-v1' });
    expect(apart).toMatchObject({ code: 'no-migration-path' });
    expect(apart.message).toContain('different event types');
  });

  it('a payload that is no JSON object: migration-failed, and the server goes on', async () => {
    for (const payload of [[1, 2], 'A-9', null, 3]) {
      const failed = await failure('upcast_payload', { from: V1, payload });
      expect(failed).toEqual({
        code: 'migration-failed',
        message: `The payload is not a JSON object: no payload of \`${V1}\`.`,
      });
    }
    expect((await call('upcast_payload', { from: V1, payload: v1 })).payload).toEqual(v2);
    expect(stderr).toEqual([]);
  });
});

describe('get_event carries the migration steps', () => {
  it('the upgrade and downgrade of v2, step by step; none for an event without', async () => {
    const info = await call('get_event', { key: V2 });
    expect(info.migrations).toHaveLength(2);
    expect(info.migrations[0]).toMatchObject({ direction: 'upgrade', from: V1, to: V2 });
    expect(info.migrations[0].steps[0]).toEqual({
      step: 1,
      action: 'set',
      fields: ['reason'],
      expression: "'closed by ' + message.account_number",
    });
    expect(info.migrations[0].steps[2]).toEqual({
      step: 3,
      action: 'rename',
      fields: ['status', 'changes.status'],
    });
    expect(info.text).toContain(`upgrade from ${V1} to ${V2}: 4 step(s)`);
    expect((await call('get_event', { key: 'account.created-v1' })).migrations).toBeUndefined();
  });
});

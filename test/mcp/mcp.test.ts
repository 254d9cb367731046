import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../generators/load/index.js';
import { shippedEventSchema } from '../../generators/schema/json-schema.js';
import { REPO } from '../helpers.js';
import { connectStdio, serve } from './processes.js';

// The MCP server as an agent meets it: the SDK's own client, over stdio (the compiled `eventry mcp`)
// and over streamable HTTP (`/mcp` of the compiled `eventry serve`), on the seed catalogue.

const seed = (() => {
  const loaded = loadCatalogue(join(REPO, 'catalogue'));
  if (!loaded.ok) throw new Error('the seed catalogue does not load');
  return loaded.catalogue;
})();

const TOOLS = [
  'check_compatibility',
  'consumers_of',
  'diff_versions',
  'fake_payload',
  'get_event',
  'lint_event',
  'list_versions',
  'search_events',
  'upcast_payload',
  'validate_payload',
];

/** An event type with two versions in the seed, for the version tools. */
const twoVersions = (() => {
  const byType = new Map<string, string[]>();
  for (const key of Object.keys(seed.events).sort()) {
    const type = seed.events[key]!.type;
    byType.set(type, [...(byType.get(type) ?? []), key]);
  }
  const [type, keys] = [...byType].find(([, keys]) => keys.length >= 2)!;
  return { type, keys };
})();

// The SDK declares tool schemas in draft-07.
const ajv = new Ajv({ strict: false, allErrors: true });

/** Calls a tool and checks a successful result against the tool's declared output schema. */
async function call(client: Client, tools: Tool[], name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (!result.isError) {
    const tool = tools.find((candidate) => candidate.name === name)!;
    const check = ajv.compile(tool.outputSchema!);
    expect(check(result.structuredContent), JSON.stringify(check.errors)).toBe(true);
    expect(result.content[0]).toMatchObject({ type: 'text' });
  }
  return result;
}

// biome-ignore lint/suspicious/noExplicitAny: each test reads the fields its tool declares; ajv checked them.
const structured = (result: CallToolResult) => result.structuredContent as Record<string, any>;

/** The text of a resource's content (a text resource, never a blob). */
function textOf(content: { text?: unknown; blob?: unknown } | undefined): string {
  expect(content?.text).toBeTypeOf('string');
  return String(content!.text);
}

/** A tool error's code and message, from its text (`code: message`) and its `_meta`. */
function toolError(result: CallToolResult): { code: string; message: string } {
  expect(result.isError).toBe(true);
  const error = result._meta?.['eventry/error'] as { code: string; message: string };
  expect((result.content[0] as { text: string }).text).toBe(`${error.code}: ${error.message}`);
  return error;
}

/** The whole tool and resource suite, over one connected client. */
function describeServer(transport: string, connect: () => Promise<Client>): void {
  describe(`eventry MCP server over ${transport}`, () => {
    let client: Client;
    let tools: Tool[];
    beforeAll(async () => {
      client = await connect();
      tools = (await client.listTools()).tools;
    }, 60_000);
    afterAll(async () => {
      await client?.close();
    });

    it('lists every tool, each with an input and an output schema, read-only', () => {
      expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS);
      for (const tool of tools) {
        expect(tool.inputSchema.type).toBe('object');
        expect(tool.outputSchema?.type).toBe('object');
        expect(tool.annotations?.readOnlyHint).toBe(true);
        expect(tool.description).toBeTruthy();
      }
    });

    it('search_events finds an event by a field name and says which field matched', async () => {
      const result = await call(client, tools, 'search_events', { query: 'account_number' });
      const hits = structured(result).hits as { key: string; fields: string[] }[];
      expect(hits.length).toBeGreaterThan(0);
      expect(hits[0]!.fields).toContain('account_number');
      expect(seed.events[hits[0]!.key]).toBeDefined();
    });

    it('get_event gives the fields, the shipped JSON Schema, the interface, the import line and the examples', async () => {
      const result = await call(client, tools, 'get_event', { key: 'account.created-v1' });
      const info = structured(result);
      expect(info.key).toBe('account.created-v1');
      expect(info.package).toBe('@platform-events/account');
      expect(info.jsonSchema).toEqual(shippedEventSchema(seed, 'account.created-v1'));
      expect(info.fields.map((f: { path: string }) => f.path)).toEqual(
        expect.arrayContaining(seed.events['account.created-v1']!.fields.map((f) => f.name)),
      );
      expect(info.typescript).toContain(`export interface ${info.interfaceName} `);
      expect(info.importLine).toBe(
        `import { validate, type ${info.interfaceName} } from '@platform-events/account';`,
      );
      expect(info.examples.full).toBeTypeOf('object');
    });

    it('list_versions and diff_versions compare two versions of an event type', async () => {
      const listed = structured(await call(client, tools, 'list_versions', { event_type: twoVersions.type }));
      expect(listed.versions.map((v: { key: string }) => v.key)).toEqual(twoVersions.keys);
      const [from, to] = twoVersions.keys;
      const diff = structured(await call(client, tools, 'diff_versions', { from, to }));
      expect(diff.summary.total).toBe(diff.changes.length);
      expect(diff.changes.length).toBeGreaterThan(0);
    });

    it('validate_payload answers valid for the full example and the platform 400 body for a wrong type', async () => {
      const info = structured(await call(client, tools, 'get_event', { key: 'account.created-v1' }));
      const ok = structured(
        await call(client, tools, 'validate_payload', {
          key: 'account.created-v1',
          payload: info.examples.full,
        }),
      );
      expect(ok).toMatchObject({ valid: true, mode: 'strict' });
      const bad = structured(
        await call(client, tools, 'validate_payload', {
          key: 'account.created-v1',
          payload: { ...info.examples.full, account_number: { nested: true }, stray: 1 },
        }),
      );
      expect(bad.valid).toBe(false);
      expect(bad.body.code).toBe('event_failed_validation');
      expect(bad.body.errors.map((e: { attr: string }) => e.attr)).toEqual(
        expect.arrayContaining(['account_number', 'stray']),
      );
      const tolerant = structured(
        await call(client, tools, 'validate_payload', {
          key: 'account.created-v1',
          payload: { ...info.examples.full, stray: 1 },
          mode: 'tolerant',
        }),
      );
      expect(tolerant.valid).toBe(true);
    });

    it('check_compatibility: the latest schema is compatible with itself; a retyped field is not, at BACKWARD', async () => {
      const schema = shippedEventSchema(seed, 'account.created-v1') as {
        properties: Record<string, Record<string, unknown>>;
      };
      const same = structured(
        await call(client, tools, 'check_compatibility', { subject: 'account.created-v1', schema }),
      );
      expect(same.compatible).toBe(true);
      const field = Object.keys(schema.properties).find(
        (name) => schema.properties[name]!.type === 'string',
      )!;
      const retyped = { ...schema, properties: { ...schema.properties, [field]: { type: 'boolean' } } };
      const verdict = structured(
        await call(client, tools, 'check_compatibility', {
          subject: 'account.created-v1',
          schema: JSON.stringify(retyped),
          level: 'BACKWARD',
          policy: 'STRICT',
        }),
      );
      expect(verdict).toMatchObject({ compatible: false, level: 'BACKWARD', policy: 'STRICT' });
      expect(verdict.messages.length).toBeGreaterThan(0);
    });

    it('lint_event gives the lint findings about an event, the baselined ones marked', async () => {
      const result = structured(
        await call(client, tools, 'lint_event', { key: 'collection_process.raised-v1' }),
      );
      const mismatch = (
        result.findings as { rule: string; baselined: boolean; location: string; hint: string }[]
      ).find((finding) => finding.rule === 'field-type-mismatch');
      expect(mismatch).toMatchObject({ baselined: true });
      expect(mismatch!.location).toMatch(/^groups\/.+\.yaml:\d+:\d+$/);
      expect(mismatch!.hint).toBeTruthy();
      expect(
        toolError(await call(client, tools, 'lint_event', { key: 'collection_process.raisd-v1' })).code,
      ).toBe('unknown-event');
    });

    it('consumers_of names the teams reading an event type, a version or a field, with owners and producers', async () => {
      const type = structured(
        await call(client, tools, 'consumers_of', { event: 'billing.billing_document.issued' }),
      );
      expect(type.consumers.map((c: { team: string }) => c.team)).toEqual(['collections', 'data-platform']);
      expect(type.versions.map((v: { key: string }) => v.key)).toEqual([
        'billing.billing_document.issued-v1',
        'billing.billing_document.issued-v2',
      ]);
      expect(type.versions[0]).toMatchObject({
        group: 'billing',
        owner: { team: 'billing-platform', codeOwner: '@platform/billing' },
        producers: [{ service: 'billing-documents', team: 'billing-platform' }],
      });
      // collections declares `versions: "2"`: it does not read v1.
      const v1 = structured(
        await call(client, tools, 'consumers_of', { event: 'billing.billing_document.issued-v1' }),
      );
      expect(v1.consumers).toEqual([
        expect.objectContaining({ team: 'data-platform', reader: 'tolerant', codeOwner: '@platform/data' }),
      ]);
      // A field: the declared paths inside it are matched; a field collections does not list is not.
      const entry = structured(
        await call(client, tools, 'consumers_of', { event: 'billing.ledger.entry_posted', field: 'entry' }),
      );
      expect(entry.consumers).toEqual([
        expect.objectContaining({
          team: 'collections',
          reader: 'strict',
          match: 'field',
          fields: ['entry.id', 'entry.is_payment'],
          reads: ['billing.ledger.entry_posted-v1', 'billing.ledger.entry_posted-v2'],
        }),
      ]);
      expect(entry.consumers[0].declaration).toMatch(/^consumers\/collections\.yaml:\d+:\d+$/);
      const unread = structured(
        await call(client, tools, 'consumers_of', {
          event: 'billing.ledger.entry_posted',
          field: 'entry.is_charge',
        }),
      );
      expect(unread.consumers).toEqual([]);
      const typo = toolError(
        await call(client, tools, 'consumers_of', {
          event: 'billing.ledger.entry_posted',
          field: 'entry.idd',
        }),
      );
      expect(typo).toMatchObject({ code: 'unknown-field' });
      expect(typo.message).toContain('Did you mean `entry.id`?');
      expect(
        toolError(await call(client, tools, 'consumers_of', { event: 'billing.ledger.entry_postd' })).code,
      ).toBe('unknown-event-type');
    });

    it("fake_payload draws repeatable payloads from the package's testing entry that the validator accepts, and invalid ones it rejects as promised", async () => {
      const key = 'account.created-v1';
      const full = structured(
        await call(client, tools, 'fake_payload', { key, variant: 'full', seed: 'mcp' }),
      );
      expect(full).toMatchObject({ key, seed: 'mcp', variant: 'full' });
      expect(full.payloads).toHaveLength(1);
      const again = structured(
        await call(client, tools, 'fake_payload', { key, variant: 'full', seed: 'mcp' }),
      );
      expect(again.payloads).toEqual(full.payloads);
      const valid = structured(
        await call(client, tools, 'validate_payload', { key, payload: full.payloads[0].payload }),
      );
      expect(valid.valid).toBe(true);
      const minimal = structured(await call(client, tools, 'fake_payload', { key, variant: 'minimal' }));
      const required = seed.events[key]!.fields.filter((f) => f.required).map((f) => f.name);
      expect(Object.keys(minimal.payloads[0].payload).sort()).toEqual(required.sort());
      const invalid = structured(await call(client, tools, 'fake_payload', { key, invalid: true }));
      expect(invalid.payloads.length).toBeGreaterThan(0);
      for (const one of invalid.payloads as { payload: unknown; error: { code: string; attr: string } }[]) {
        const verdict = structured(
          await call(client, tools, 'validate_payload', { key, payload: one.payload }),
        );
        expect(verdict.valid).toBe(false);
        expect(verdict.body.errors).toContainEqual(expect.objectContaining(one.error));
      }
      expect(
        toolError(await call(client, tools, 'fake_payload', { key: 'account.creatd-v1' })).message,
      ).toContain('Did you mean `account.created-v1`?');
    });

    it('unknown keys and oversized input are coded tool errors with a did-you-mean, and the server keeps answering', async () => {
      const unknown = await call(client, tools, 'get_event', { key: 'account.creatd-v1' });
      expect(toolError(unknown).code).toBe('unknown-event');
      expect(toolError(unknown).message).toContain('Did you mean `account.created-v1`?');
      const type = await call(client, tools, 'list_versions', { event_type: 'acount.created' });
      expect(toolError(type).code).toBe('unknown-event-type');
      const big = await call(client, tools, 'validate_payload', {
        key: 'account.created-v1',
        payload: { blob: 'x'.repeat((1 << 20) + 1) },
      });
      expect(toolError(big).code).toBe('input-too-large');
      const deep = await call(client, tools, 'check_compatibility', {
        subject: 'account.created-v1',
        schema: `${'{"a":'.repeat(100)}1${'}'.repeat(100)}`,
      });
      expect(toolError(deep).code).toBe('input-too-deep');
      const cycle = await call(client, tools, 'check_compatibility', {
        subject: 'account.created-v1',
        schema: '{"$ref":"#"}',
      });
      expect(toolError(cycle)).toMatchObject({
        code: 'invalid-schema',
        message: expect.stringMatching(/\$ref cycle/),
      });
      const mixed = await call(client, tools, 'diff_versions', {
        from: 'account.created-v1',
        to: twoVersions.keys[0]!,
      });
      expect(toolError(mixed).code).toBe('different-event-types');
      expect((await call(client, tools, 'search_events', { query: 'account' })).isError).toBeFalsy();
    });

    it('lists and reads every event version as a JSON Schema and a Markdown page', async () => {
      const { resources } = await client.listResources();
      const keys = Object.keys(seed.events).sort();
      expect(resources.map((r) => r.uri)).toEqual(
        expect.arrayContaining(keys.map((key) => `eventry://schemas/${key}.json`)),
      );
      expect(resources.filter((r) => r.uri.startsWith('eventry://events/'))).toHaveLength(keys.length);
      const schema = await client.readResource({ uri: 'eventry://schemas/account.created-v1.json' });
      expect(JSON.parse(textOf(schema.contents[0]))).toEqual(shippedEventSchema(seed, 'account.created-v1'));
      const page = await client.readResource({ uri: 'eventry://events/account.created-v1.md' });
      expect(page.contents[0]).toMatchObject({ mimeType: 'text/markdown' });
      expect(textOf(page.contents[0])).toMatch(/^# account\.created-v1\n/);
      await expect(client.readResource({ uri: 'eventry://events/no.such-v1.md' })).rejects.toThrow(
        /no\.such-v1/,
      );
    });
  });
}

describeServer('stdio (eventry mcp)', connectStdio);

let served: { url: string; child: ChildProcessWithoutNullStreams } | undefined;
afterAll(() => {
  served?.child.kill('SIGTERM');
});

describeServer('streamable HTTP (/mcp of eventry serve)', async () => {
  served = await serve();
  const client = new Client({ name: 'eventry-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', served.url)));
  return client;
});

describe('/mcp of eventry serve, as plain HTTP', () => {
  it('answers GET with 405 (stateless), a broken body with a JSON-RPC parse error, and keeps serving the registry', async () => {
    served ??= await serve();
    const get = await fetch(new URL('/mcp', served.url));
    expect(get.status).toBe(405);
    const broken = await fetch(new URL('/mcp', served.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc":',
    });
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { error: { code: number } }).error.code).toBe(-32700);
    const subjects = await fetch(new URL('/subjects', served.url));
    expect(subjects.status).toBe(200);
  }, 60_000);
});

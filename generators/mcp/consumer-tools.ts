import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import type { ToolContext } from './answer.js';

const team = z.object({
  team: z.string(),
  name: z.string(),
  contact: z.string(),
  codeOwner: z.string().optional(),
});

/** The tools about an event's consumers: who reads it (and a field of it), and test payloads of it. */
export function registerConsumerTools(server: McpServer, tools: ToolContext): void {
  registerConsumersOf(server, tools);
  registerFakePayload(server, tools);
}

/** consumers_of: the teams that read an event type, a version or a field of it. */
function registerConsumersOf(server: McpServer, { view, answer }: ToolContext): void {
  server.registerTool(
    'consumers_of',
    {
      title: 'Who reads an event or a field',
      description:
        'The teams that declare reading an event type (or one version, given its key) and, when a field is given, that field: their version range, reader mode, the declared fields that reach it and their code owners; with the owning team and the producers of each version.',
      inputSchema: {
        event: z
          .string()
          .min(1)
          .max(300)
          .describe('an event type (account.created) or one version key (account.created-v1)'),
        field: z.string().min(1).max(300).optional().describe('a field dot path, e.g. lines[].amount'),
      },
      outputSchema: {
        type: z.string(),
        field: z.string().optional(),
        versions: z.array(
          z.object({
            key: z.string(),
            group: z.string(),
            owner: team.optional(),
            producers: z.array(
              z.object({ service: z.string(), team: z.string(), codeOwner: z.string().optional() }),
            ),
          }),
        ),
        consumers: z.array(
          team.extend({
            versions: z.string(),
            reads: z.array(z.string()),
            reader: z.enum(['tolerant', 'strict']),
            services: z.array(z.string()),
            match: z.enum(['field', 'wildcard', 'no-field-detail', 'event']),
            fields: z.array(z.string()),
            declaration: z.string(),
          }),
        ),
      },
      annotations: { readOnlyHint: true },
    },
    ({ event, field }) =>
      answer(() => {
        const info = view().consumers(event, field);
        const what = `${info.type}${field === undefined ? '' : ` field ${field}`}`;
        const owners = [...new Set(info.versions.flatMap((v) => (v.owner ? [v.owner.team] : [])))];
        const text = [
          `${what}: owned by ${owners.join(', ') || 'no declared team'}; ${info.consumers.length} consuming team(s).`,
          ...info.consumers.map(
            (c) =>
              `- ${c.team} (${c.reader}, ${c.versions}: ${c.reads.join(', ')})${c.match === 'event' ? '' : ` ${c.match}`}${c.fields.length > 0 ? `: ${c.fields.join(', ')}` : ''}${c.codeOwner ? ` ${c.codeOwner}` : ''}`,
          ),
        ].join('\n');
        return { structured: { ...info }, text };
      }),
  );
}

/** fake_payload: test payloads from an event's group package, valid or each with one known problem. */
function registerFakePayload(server: McpServer, { view, answer }: ToolContext): void {
  server.registerTool(
    'fake_payload',
    {
      title: 'A generated test payload',
      description:
        "Test payloads from the event's group package's own `testing` entry point: one payload (minimal: required fields only; full: every field; random, the default), repeatable by seed; or with invalid, each payload carrying one known problem and the error item the validator returns for it.",
      inputSchema: {
        key: z.string().min(1).max(300),
        seed: z
          .union([z.string().max(200), z.number()])
          .optional()
          .describe('the same seed gives the same payload (default 0)'),
        variant: z.enum(['minimal', 'full', 'random']).optional(),
        invalid: z.boolean().optional(),
      },
      outputSchema: {
        key: z.string(),
        seed: z.string(),
        variant: z.enum(['minimal', 'full', 'random']).optional(),
        payloads: z.array(
          z.object({
            payload: z.unknown(),
            problem: z.string().optional(),
            description: z.string().optional(),
            error: z.object({ code: z.string(), attr: z.string() }).optional(),
          }),
        ),
      },
      annotations: { readOnlyHint: true },
    },
    ({ key, seed, variant, invalid }) =>
      answer(async () => {
        const chosen = { seed: String(seed ?? '0'), variant: variant ?? ('random' as const) };
        const made = await view().fake(key, { ...chosen, invalid: invalid === true });
        if (made.kind === 'invalid') {
          const text = [
            `${made.invalid.length} invalid payload(s) of ${key}:`,
            ...made.invalid.map((one) => `- ${one.problem} at ${one.error.attr}: ${one.error.code}`),
          ].join('\n');
          return { structured: { key, seed: chosen.seed, payloads: made.invalid }, text };
        }
        return {
          structured: { key, ...chosen, payloads: [{ payload: made.payload }] },
          text: JSON.stringify(made.payload, null, 2),
        };
      }),
  );
}

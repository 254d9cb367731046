import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { nestsDeeperThan } from '../schema-registry/schema-text.js';
import type { ToolContext } from './answer.js';
import { MAX_INPUT_BYTES } from './catalogue-view.js';
import { McpToolError } from './errors.js';

/** The deepest payload the tools read: far beyond any event's nesting, well inside the stack. */
const MAX_PAYLOAD_DEPTH = 64;

const field = z.object({
  path: z.string(),
  type: z.string(),
  required: z.boolean(),
  description: z.string().optional(),
  format: z.string().optional(),
  enum: z.string().optional(),
});
const rule = z.object({
  name: z.string(),
  expr: z.string(),
  message: z.string(),
  attr: z.string(),
  shape: z.object({ name: z.string(), at: z.string() }).optional(),
});
const migration = z.object({
  direction: z.enum(['upgrade', 'downgrade']),
  from: z.string(),
  to: z.string(),
  other: z.string(),
  steps: z.array(
    z.object({
      step: z.number().int(),
      action: z.enum(['set', 'rename', 'drop']),
      fields: z.array(z.string()),
      value: z.string().optional(),
      expression: z.string().optional(),
    }),
  ),
});
const change = z.object({ rule: z.string(), severity: z.string(), attr: z.string(), detail: z.string() });
const errorBody = z.object({
  detail: z.string(),
  code: z.string(),
  errors: z.array(z.object({ detail: z.string(), code: z.string(), attr: z.string() })),
});

/** The tools that read the catalogue: search, one event version, its versions, a diff, a validation. */
export function registerCatalogueTools(server: McpServer, tools: ToolContext): void {
  registerSearchEvents(server, tools);
  registerGetEvent(server, tools);
  registerListVersions(server, tools);
  registerDiffVersions(server, tools);
  registerValidatePayload(server, tools);
}

/** search_events: event versions by words of their keys, fields, shapes and descriptions. */
function registerSearchEvents(server: McpServer, { view, answer }: ToolContext): void {
  server.registerTool(
    'search_events',
    {
      title: 'Search event versions',
      description:
        'Find event versions by the words of their key, field names (nested paths too), shape names or description text: keys and names split at `_ . - /` and case changes, plural and singular alike, words of 2+ letters also match as prefixes, words of 5+ letters with one typo; every word must match when some event has them all. Best first: key words, then field names, then descriptions.',
      inputSchema: { query: z.string().min(1).max(500), limit: z.number().int().min(1).max(100).optional() },
      outputSchema: {
        hits: z.array(
          z.object({
            key: z.string(),
            title: z.string(),
            group: z.string(),
            score: z.number(),
            matched: z.array(z.object({ term: z.string(), in: z.array(z.string()) })),
            fields: z.array(z.string()),
          }),
        ),
      },
      annotations: { readOnlyHint: true },
    },
    ({ query, limit }) =>
      answer(() => {
        const hits = view().search(query, limit ?? 10);
        const text =
          hits.length === 0
            ? `No event matches "${query}".`
            : hits
                .map(
                  (hit) => `${hit.key}${hit.fields.length > 0 ? ` (fields: ${hit.fields.join(', ')})` : ''}`,
                )
                .join('\n');
        return { structured: { hits }, text };
      }),
  );
}

/** get_event: one event version in full. */
function registerGetEvent(server: McpServer, { view, answer }: ToolContext): void {
  server.registerTool(
    'get_event',
    {
      title: 'Get an event version',
      description:
        'One event version in full: its fields (types, required, descriptions), data rules (CEL conditions every payload must keep; validate_payload enforces them), migrations (the steps of its `upgrade` from an earlier version and `downgrade` back; upcast_payload runs them), JSON Schema, TypeScript interface, import line and examples.',
      inputSchema: { key: z.string().min(1).max(300).describe('event key, e.g. account.created-v1') },
      outputSchema: {
        key: z.string(),
        type: z.string(),
        version: z.string(),
        group: z.string(),
        package: z.string(),
        title: z.string(),
        description: z.string(),
        status: z.enum(['current', 'deprecated']),
        partial: z.boolean(),
        deprecated: z
          .object({ since: z.string(), replacedBy: z.string().optional(), note: z.string().optional() })
          .optional(),
        fields: z.array(field),
        rules: z.array(rule).optional(),
        migrations: z.array(migration).optional(),
        jsonSchema: z.record(z.string(), z.unknown()),
        interfaceName: z.string(),
        typescript: z.string().optional(),
        importLine: z.string(),
        examples: z.object({ minimal: z.unknown(), full: z.unknown() }).optional(),
      },
      annotations: { readOnlyHint: true },
    },
    ({ key }) =>
      answer(() => {
        const info = view().eventInfo(key);
        const required = info.fields.filter((f) => f.required && !f.path.includes('.')).map((f) => f.path);
        const text = [
          `${info.key} (${info.status}) in ${info.package}: ${info.fields.length} fields, required: ${required.join(', ') || 'none'}.`,
          ...(info.rules ?? []).map((r) => `rule ${r.name}: ${r.expr} (${r.message})`),
          ...(info.migrations ?? []).map(
            (m) => `${m.direction} from ${m.from} to ${m.to}: ${m.steps.length} step(s)`,
          ),
          info.importLine,
        ].join('\n');
        return { structured: { ...info }, text };
      }),
  );
}

/** list_versions: every version of an event type, oldest first. */
function registerListVersions(server: McpServer, { view, answer }: ToolContext): void {
  server.registerTool(
    'list_versions',
    {
      title: 'List the versions of an event type',
      description:
        'Every version of an event type (give the type, e.g. account.created, or any of its event keys), oldest first.',
      inputSchema: { event_type: z.string().min(1).max(300) },
      outputSchema: {
        type: z.string(),
        versions: z.array(
          z.object({
            key: z.string(),
            version: z.string(),
            status: z.enum(['current', 'deprecated']),
            fields: z.number().int(),
            replacedBy: z.string().optional(),
          }),
        ),
      },
      annotations: { readOnlyHint: true },
    },
    ({ event_type }) =>
      answer(() => {
        const versions = view().versions(event_type);
        const type = versions[0]!.type;
        const list = versions.map((event) => ({
          key: event.key,
          version: event.version,
          status: event.deprecated ? ('deprecated' as const) : ('current' as const),
          fields: event.fields.length,
          ...(event.deprecated?.replacedBy ? { replacedBy: event.deprecated.replacedBy } : {}),
        }));
        const text = `${type}: ${list.map((v) => `${v.key}${v.status === 'deprecated' ? ' (deprecated)' : ''}`).join(', ')}`;
        return { structured: { type, versions: list }, text };
      }),
  );
}

/** diff_versions: the semantic diff from one version of an event type to another. */
function registerDiffVersions(server: McpServer, { view, answer }: ToolContext): void {
  server.registerTool(
    'diff_versions',
    {
      title: 'Compare two versions of an event type',
      description:
        "eventry's semantic diff from one version of an event type to another: each change with its rule, severity and field.",
      inputSchema: { from: z.string().min(1).max(300), to: z.string().min(1).max(300) },
      outputSchema: {
        from: z.string(),
        to: z.string(),
        changes: z.array(change),
        summary: z.object({
          breaking: z.number().int(),
          nonBreaking: z.number().int(),
          total: z.number().int(),
        }),
      },
      annotations: { readOnlyHint: true },
    },
    ({ from, to }) =>
      answer(() => {
        const changes = view().diff(from, to);
        const breaking = changes.filter((c) => c.severity === 'breaking').length;
        const summary = { breaking, nonBreaking: changes.length - breaking, total: changes.length };
        const text =
          changes.length === 0
            ? `No change from ${from} to ${to}.`
            : [
                `${from} -> ${to}: ${changes.length} change(s), ${breaking} breaking.`,
                ...changes.map((c) => `- ${c.severity} ${c.rule} at ${c.attr || '(event)'}: ${c.detail}`),
              ].join('\n');
        return { structured: { from, to, changes, summary }, text };
      }),
  );
}

/** validate_payload: a payload checked by its group package's own validator. */
function registerValidatePayload(server: McpServer, { view, answer }: ToolContext): void {
  server.registerTool(
    'validate_payload',
    {
      title: 'Validate a payload',
      description:
        "Validate a payload with the group package's own validator: `valid`, or the platform's 400 body (detail, code, errors with dot-path attr).",
      inputSchema: {
        key: z.string().min(1).max(300),
        payload: z.unknown().describe('the payload as JSON (an object)'),
        mode: z
          .enum(['strict', 'tolerant'])
          .optional()
          .describe('strict (default): undocumented fields are errors'),
      },
      outputSchema: {
        key: z.string(),
        mode: z.enum(['strict', 'tolerant']),
        valid: z.boolean(),
        body: errorBody.optional(),
      },
      annotations: { readOnlyHint: true },
    },
    ({ key, payload, mode }) =>
      answer(async () => {
        limitSize(payload, 'payload');
        const chosen = mode ?? 'strict';
        const result = await view().validate(key, payload, chosen);
        const text = result.valid
          ? `valid (${chosen})`
          : [
              `invalid (${chosen}): ${result.body.detail}`,
              ...result.body.errors.map((e) => `- ${e.attr}: ${e.code}: ${e.detail}`),
            ].join('\n');
        return {
          structured: {
            key,
            mode: chosen,
            valid: result.valid,
            ...(result.valid ? {} : { body: result.body }),
          },
          text,
        };
      }),
  );
}

/** Refuses a value whose JSON is over the size `eventry serve` accepts. */
export function limitSize(value: unknown, what: string): void {
  // Depth first, without recursion: JSON.stringify and the validators recurse, and a payload thousands
  // of levels deep would overflow the stack (an "internal" error) instead of getting its code.
  if (nestsDeeperThan(value, MAX_PAYLOAD_DEPTH)) {
    throw new McpToolError('input-too-deep', `The ${what} nests deeper than ${MAX_PAYLOAD_DEPTH} levels.`);
  }
  const text = JSON.stringify(value) ?? '';
  if (Buffer.byteLength(text) > MAX_INPUT_BYTES) {
    throw new McpToolError('input-too-large', `The ${what} is over ${MAX_INPUT_BYTES} bytes.`);
  }
}

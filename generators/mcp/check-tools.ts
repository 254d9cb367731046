import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { COMPATIBILITY_LEVELS, type CompatibilityLevel } from '../model.js';
import { type CandidateVerdict, candidateJob } from '../schema-registry/compatibility.js';
import { CompatibilityRunner, CompatibilityTimeout } from '../schema-registry/compatibility-runner.js';
import type { SchemaRegistryState } from '../schema-registry/registry.js';
import { canonicalCandidate, MAX_SCHEMA_DEPTH, nestsDeeperThan } from '../schema-registry/schema-text.js';
import type { ToolContext } from './answer.js';
import { type CatalogueView, MAX_INPUT_BYTES } from './catalogue-view.js';
import { McpToolError } from './errors.js';

let runner: CompatibilityRunner | undefined;

/**
 * A check on the compatibility thread (docs/decisions/0093), one for the process: under `serve /mcp`
 * a heavy candidate never holds up the registry's reads; on stdio, other requests are answered meanwhile.
 */
async function judge(job: Parameters<CompatibilityRunner['judge']>[0]): Promise<CandidateVerdict> {
  runner ??= new CompatibilityRunner();
  try {
    return await runner.judge(job);
  } catch (error) {
    if (error instanceof CompatibilityTimeout) throw new McpToolError('input-too-large', error.message);
    throw error;
  }
}

/** The tools that judge: a candidate schema against the registry, and an event version's lint findings. */
export function registerCheckTools(server: McpServer, tools: ToolContext): void {
  registerCheckCompatibility(server, tools);
  registerLintEvent(server, tools);
}

/** A candidate for `check_compatibility`: the subject, the schema as text or object, the level and policy to judge at. */
interface Candidate {
  subject: string;
  schema: string | Record<string, unknown>;
  level?: CompatibilityLevel | undefined;
  policy?: 'STRICT' | 'LENIENT' | undefined;
}

/** check_compatibility: would the registry accept a schema as a subject's next version. */
function registerCheckCompatibility(server: McpServer, { view, answer }: ToolContext): void {
  server.registerTool(
    'check_compatibility',
    {
      title: 'Check a schema against the registry',
      description:
        "Would a Confluent schema registry accept this JSON Schema as the next version of the subject (an event key)? Compared with the subject's versions from the release history, at the subject's level or the one given.",
      inputSchema: {
        subject: z.string().min(1).max(300),
        schema: z
          .union([z.string(), z.record(z.string(), z.unknown())])
          .describe('the candidate JSON Schema, as text or object'),
        level: z.enum(COMPATIBILITY_LEVELS).optional(),
        policy: z.enum(['STRICT', 'LENIENT']).optional(),
      },
      outputSchema: {
        subject: z.string(),
        level: z.enum(COMPATIBILITY_LEVELS),
        policy: z.enum(['STRICT', 'LENIENT']),
        compatible: z.boolean(),
        messages: z.array(z.string()),
      },
      annotations: { readOnlyHint: true },
    },
    (candidate) => answer(() => checkCandidate(view(), candidate)),
  );
}

/** lint_event: what the lint pack finds about an event version. */
function registerLintEvent(server: McpServer, { view, answer }: ToolContext): void {
  server.registerTool(
    'lint_event',
    {
      title: 'Lint findings for an event version',
      description:
        "What eventry's lint pack finds about an event version (naming, consistency with the rest of the catalogue, types, versions, personal data), with a hint each; findings the catalogue's baseline records are marked.",
      inputSchema: { key: z.string().min(1).max(300) },
      outputSchema: {
        key: z.string(),
        findings: z.array(
          z.object({
            rule: z.string(),
            severity: z.string(),
            message: z.string(),
            hint: z.string(),
            location: z.string(),
            baselined: z.boolean(),
          }),
        ),
      },
      annotations: { readOnlyHint: true },
    },
    ({ key }) =>
      answer(() => {
        const findings = view().lint(key);
        const text =
          findings.length === 0
            ? `No lint finding about ${key}.`
            : findings
                .map((f) => `- ${f.severity} ${f.rule}${f.baselined ? ' (baselined)' : ''}: ${f.message}`)
                .join('\n');
        return { structured: { key, findings }, text };
      }),
  );
}

/** Judges a candidate against the registry of `view`: compatible, or the registry's messages. */
async function checkCandidate(
  view: CatalogueView,
  { subject, schema, level, policy }: Candidate,
): Promise<{ structured: Record<string, unknown>; text: string }> {
  const registry = view.sources.registry;
  if (!registry) {
    throw new McpToolError(
      'no-registry',
      "This server has no release history: run it inside the catalogue's git repository.",
    );
  }
  const versions = registry.subjects.get(subject);
  if (!versions) {
    throw new McpToolError(
      'unknown-subject',
      `No subject \`${subject}\` in the registry.${hintFor(view, subject)}`,
    );
  }
  const text = typeof schema === 'string' ? schema : JSON.stringify(schema);
  if (Buffer.byteLength(text) > MAX_INPUT_BYTES) {
    throw new McpToolError('input-too-large', `The schema is over ${MAX_INPUT_BYTES} bytes.`);
  }
  const canonical = canonicalCandidate(text);
  if (canonical === undefined) throw new McpToolError('invalid-schema', 'The schema is not a JSON object.');
  if (nestsDeeperThan(JSON.parse(canonical), MAX_SCHEMA_DEPTH)) {
    throw new McpToolError('input-too-deep', `The schema nests deeper than ${MAX_SCHEMA_DEPTH} levels.`);
  }
  const settings = withSettings(registry, level, policy);
  const verdict = await judge(candidateJob(settings, subject, canonical));
  if (!verdict.ok)
    throw new McpToolError(verdict.tooLarge ? 'input-too-large' : 'invalid-schema', verdict.error);
  const used = { level: settings.levelOf(subject), policy: settings.compatibility.policy };
  const summary = verdict.compatible
    ? `compatible at ${used.level} (${used.policy})`
    : [`incompatible at ${used.level} (${used.policy}):`, ...verdict.messages.map((m) => `- ${m}`)].join(
        '\n',
      );
  const { compatible, messages } = verdict;
  return { structured: { subject, ...used, compatible, messages }, text: summary };
}

function hintFor(view: CatalogueView, subject: string): string {
  try {
    view.event(subject);
    return '';
  } catch (error) {
    return error instanceof McpToolError ? ` ${error.message.replace(/^No event [^.]*\.\s*/, '')}` : '';
  }
}

/** The registry as it would judge at `level` and `policy` (each defaulting to the registry's own). */
function withSettings(
  state: SchemaRegistryState,
  level: CompatibilityLevel | undefined,
  policy: 'STRICT' | 'LENIENT' | undefined,
): SchemaRegistryState {
  if (level === undefined && policy === undefined) return state;
  const view = Object.create(state) as SchemaRegistryState;
  Object.defineProperty(view, 'compatibility', {
    value: { ...state.compatibility, ...(policy ? { policy } : {}) },
  });
  if (level !== undefined) Object.defineProperty(view, 'levelOf', { value: () => level });
  return view;
}

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { converterFor, MigrationFailed, NotAnObject } from '../migrate/convert.js';
import type { ToolContext } from './answer.js';
import { limitSize } from './catalogue-tools.js';
import type { CatalogueView } from './catalogue-view.js';
import { McpToolError } from './errors.js';

// The catalogue's migrations as a tool (issue 46): a payload of one event version converted to another
// by the same compiled steps the group packages' `upcast` runs.

/** The tools that convert payloads between versions: `upcast_payload`. */
export function registerMigrationTools(server: McpServer, tools: ToolContext): void {
  registerUpcastPayload(server, tools);
}

/** upcast_payload: a payload of `from` converted to `to` (by default the newest version it upgrades to). */
function registerUpcastPayload(server: McpServer, { view, answer }: ToolContext): void {
  server.registerTool(
    'upcast_payload',
    {
      title: 'Convert a payload to another version',
      description:
        "Convert a payload of one event version into one of another version of the same event type with the catalogue's migrations (`upgrade:` / `downgrade:` steps, chained across versions): by default to the newest version it upgrades to. The same steps the group package's `upcast` runs, verified at build; get_event lists them.",
      inputSchema: {
        from: z.string().min(1).max(300).describe('the event key the payload is a payload of'),
        payload: z.unknown().describe('the payload as JSON (an object)'),
        to: z
          .string()
          .min(1)
          .max(300)
          .optional()
          .describe('the event key to convert to (default: the newest version it upgrades to)'),
      },
      outputSchema: {
        from: z.string(),
        to: z.string(),
        through: z.array(z.string()),
        payload: z.unknown(),
      },
      annotations: { readOnlyHint: true },
    },
    ({ from, payload, to }) =>
      answer(() => {
        limitSize(payload, 'payload');
        const converted = convertOrThrow(view(), from, payload, to);
        const text = `${converted.through.join(' -> ')}:\n${JSON.stringify(converted.payload, null, 2)}`;
        return { structured: { ...converted }, text };
      }),
  );
}

/** The converted payload and the conversion's keys, or the coded error a caller can act on. */
function convertOrThrow(
  view: CatalogueView,
  from: string,
  payload: unknown,
  to: string | undefined,
): { from: string; to: string; through: string[]; payload: unknown } {
  const found = converterFor(view.catalogue, from, to);
  if (!found.ok) {
    const { problem } = found;
    if (problem.kind === 'unknown-event') view.event(problem.key); // throws `unknown-event`, with a guess
    throw new McpToolError('no-migration-path', noPathMessage(view, from, to));
  }
  const { converter } = found;
  try {
    const converted = converter.convert(payload);
    return { from, to: converter.to, through: converter.through, payload: converted };
  } catch (error) {
    if (error instanceof NotAnObject)
      throw new McpToolError(
        'migration-failed',
        `The payload is not a JSON object: no payload of \`${from}\`.`,
      );
    if (error instanceof MigrationFailed)
      throw new McpToolError(
        'migration-failed',
        `${capital(error.message)}; is it a payload of \`${from}\`? (validate_payload says)`,
      );
    throw error;
  }
}

/** Why there is no conversion. */
function noPathMessage(view: CatalogueView, from: string, to: string | undefined): string {
  const { events } = view.catalogue;
  if (to === undefined)
    return `No version upgrades from \`${from}\`: the catalogue declares no \`upgrade:\` from it (get_event lists an event's migrations).`;
  const apart =
    events[from]?.type === events[to]?.type ? '' : ' (they are versions of different event types)';
  return `No migration leads from \`${from}\` to \`${to}\`${apart}: the catalogue declares no chain of \`upgrade:\` / \`downgrade:\` steps between them.`;
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

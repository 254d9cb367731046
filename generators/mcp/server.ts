import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { answerer, type ErrorOutput } from './answer.js';
import { registerCatalogueTools } from './catalogue-tools.js';
import type { CatalogueView } from './catalogue-view.js';
import { registerCheckTools } from './check-tools.js';
import { registerConsumerTools } from './consumer-tools.js';
import { registerMigrationTools } from './migration-tools.js';

/** The server's name and version as MCP clients see them. */
const MCP_SERVER_INFO = { name: 'eventry', version: '1.0.0' } as const;

/** What the server tells a client it is for. */
const MCP_INSTRUCTIONS =
  'eventry: the event catalogue. Search event versions, read one (fields, JSON Schema, TypeScript interface, examples), ' +
  'compare two versions of an event type, validate a payload as the platform would (its 400 body), convert a payload to another version (its migrations), check a schema against the registry, ' +
  'lint an event, find the teams that read an event or a field, and draw test payloads.';

/**
 * The MCP server over a catalogue view: tools to search, read, compare and validate event versions
 * and to check a candidate schema's compatibility, and resources for every event version's JSON Schema
 * and Markdown page. Read-only: nothing it answers changes the catalogue. `view` is asked on every
 * call, so a server whose catalogue is reloaded answers from the new one. An internal error's cause
 * goes to `stderr` (the command's container), never to the client.
 */
export function createMcpServer(view: () => CatalogueView, stderr: ErrorOutput): McpServer {
  const server = new McpServer(MCP_SERVER_INFO, { instructions: MCP_INSTRUCTIONS });
  const tools = { view, answer: answerer(stderr) };
  registerCatalogueTools(server, tools);
  registerCheckTools(server, tools);
  registerConsumerTools(server, tools);
  registerMigrationTools(server, tools);
  registerSchemaResources(server, view);
  registerPageResources(server, view);
  return server;
}

/** `eventry://schemas/{key}.json`: every event version's JSON Schema. */
function registerSchemaResources(server: McpServer, view: () => CatalogueView): void {
  server.registerResource(
    'event-schema',
    new ResourceTemplate('eventry://schemas/{key}.json', {
      list: () => ({
        resources: Object.keys(view().catalogue.events)
          .sort()
          .map((key) => ({
            uri: `eventry://schemas/${key}.json`,
            name: `${key}.json`,
            mimeType: 'application/schema+json',
          })),
      }),
    }),
    { title: 'JSON Schema of an event version', mimeType: 'application/schema+json' },
    (uri, { key }) => {
      const info = view().eventInfo(String(key));
      return {
        contents: [
          {
            uri: uri.href,
            mimeType: 'application/schema+json',
            text: JSON.stringify(info.jsonSchema, null, 2),
          },
        ],
      };
    },
  );
}

/** `eventry://events/{key}.md`: every event version's Markdown page. */
function registerPageResources(server: McpServer, view: () => CatalogueView): void {
  server.registerResource(
    'event-page',
    new ResourceTemplate('eventry://events/{key}.md', {
      list: () => ({
        resources: Object.keys(view().catalogue.events)
          .sort()
          .map((key) => ({ uri: `eventry://events/${key}.md`, name: key, mimeType: 'text/markdown' })),
      }),
    }),
    { title: "An event version's page", mimeType: 'text/markdown' },
    (uri, { key }) => ({
      contents: [{ uri: uri.href, mimeType: 'text/markdown', text: view().markdown(String(key)) }],
    }),
  );
}

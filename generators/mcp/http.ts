import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { ErrorOutput } from './answer.js';
import type { CatalogueView } from './catalogue-view.js';
import { MAX_MESSAGE_BYTES } from './catalogue-view.js';
import { checkMessage, rpcError } from './jsonrpc.js';
import { createMcpServer } from './server.js';

/**
 * The MCP server over streamable HTTP, stateless: each POST gets a server and a transport of its own
 * (no session to keep or leak), answered as JSON. GET (a server-to-client stream) and DELETE (ending a
 * session) have nothing to do without sessions: 405, as the transport's specification allows. An
 * internal error's cause goes to `stderr` (the command's container).
 */
export function createMcpHttpHandler(
  view: () => CatalogueView,
  stderr: ErrorOutput,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST', 'content-type': 'application/json' });
      res.end(
        rpcError(-32000, null, 'Method not allowed: this MCP endpoint is stateless; POST JSON-RPC messages.'),
      );
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(await readLimited(req, MAX_MESSAGE_BYTES));
    } catch (error) {
      const tooLarge = error instanceof BodyTooLarge;
      res.writeHead(tooLarge ? 413 : 400, {
        'content-type': 'application/json',
        ...(tooLarge ? { connection: 'close' } : {}),
      });
      res.end(
        rpcError(
          -32700,
          null,
          tooLarge ? 'The request body is too large.' : 'Parse error: the body is not JSON.',
        ),
      );
      return;
    }
    const checked = (Array.isArray(body) ? body : [body]).map(checkMessage).find((entry) => !entry.ok);
    if (checked && !checked.ok) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(rpcError(-32600, checked.id, checked.error));
      return;
    }
    const server = createMcpServer(view, stderr);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };
}

class BodyTooLarge extends Error {}

function readLimited(req: IncomingMessage, max: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        req.pause();
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

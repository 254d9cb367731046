import { type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ErrorCode } from '../shared/error-codes.js';

// What both transports answer a message that is not JSON-RPC with, before the SDK sees it: the SDK's
// stdio transport drops such a line unanswered, and its HTTP one calls every one a parse error.

/** A JSON-RPC error code the transports answer with themselves. */
export type RpcErrorCode = ErrorCode<'mcp-http'>;

/** One parsed JSON value checked as a single JSON-RPC 2.0 message (the SDK's own schema decides). */
export type CheckedMessage =
  | { ok: true; message: JSONRPCMessage }
  | { ok: false; id: string | number | null; error: string };

/** A parsed JSON value as one JSON-RPC message, or why it is an Invalid Request and the id to answer. */
export function checkMessage(value: unknown): CheckedMessage {
  if (Array.isArray(value))
    return {
      ok: false,
      id: null,
      error: 'Invalid Request: batches are not supported; send one message at a time.',
    };
  let parsed: ReturnType<typeof JSONRPCMessageSchema.safeParse> | undefined;
  try {
    parsed = JSONRPCMessageSchema.safeParse(value);
  } catch {
    // Nested deeper than the schema check's stack: not a message this server can read.
  }
  if (parsed?.success) return { ok: true, message: parsed.data };
  return { ok: false, id: usableId(value), error: `Invalid Request: ${invalidReason(value)}` };
}

/**
 * A JSON-RPC error response. `id: null` is what JSON-RPC 2.0 asks for when the request's id cannot be
 * read (the SDK's types allow only strings and numbers, so it is written here).
 */
export function rpcError(code: RpcErrorCode, id: string | number | null, message: string): string {
  return JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } });
}

/** The request's id when JSON-RPC allows answering with it (a string or a number), else null. */
function usableId(value: unknown): string | number | null {
  if (value === null || typeof value !== 'object') return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

/** Why a parsed JSON value is not a JSON-RPC message, in the words a client developer needs. */
function invalidReason(value: unknown): string {
  if (value === null || typeof value !== 'object') return 'a message is a JSON object.';
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== '2.0') return '`jsonrpc` must be "2.0".';
  if ('id' in message && usableId(message) === null) return '`id` must be a string or a number.';
  if ('params' in message && (message.params === null || typeof message.params !== 'object'))
    return '`params` must be an object.';
  if (!('method' in message) && !('result' in message) && !('error' in message))
    return 'a message has a `method` (a request or notification), or a `result` or `error` (a response).';
  if ('method' in message && typeof message.method !== 'string') return '`method` must be a string.';
  return 'the message does not have the shape JSON-RPC 2.0 gives it.';
}

import type { ErrorCode } from '../shared/error-codes.js';

/**
 * The codes of the MCP server's tool errors: a tool call that cannot be answered returns `isError`
 * with `{ error: { code, message } }`, never a crash of the server.
 */
export type McpErrorCode = ErrorCode<'mcp'>;

/** A tool call that cannot be answered, with a stable code. */
export class McpToolError extends Error {
  constructor(
    readonly code: McpErrorCode,
    message: string,
  ) {
    super(message);
  }
}

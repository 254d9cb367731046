import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { McpToolError } from './errors.js';

/** A tool's answer: its structured result and a short text for chat, or a coded error. */
export async function answer(
  work: () =>
    | { structured: Record<string, unknown>; text: string }
    | Promise<{ structured: Record<string, unknown>; text: string }>,
): Promise<CallToolResult> {
  try {
    const { structured, text } = await work();
    return { structuredContent: structured, content: [{ type: 'text', text }] };
  } catch (error) {
    const known = error instanceof McpToolError;
    const code = known ? error.code : 'internal';
    const message = known ? error.message : 'Internal error: the tool could not answer.';
    if (!known) process.stderr.write(`eventry mcp: internal error: ${String(error)}\n`);
    // No structured content: clients check it against the tool's output schema even on an error.
    return {
      isError: true,
      content: [{ type: 'text', text: `${code}: ${message}` }],
      _meta: { 'eventry/error': { code, message } },
    };
  }
}

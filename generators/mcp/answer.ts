import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { CatalogueView } from './catalogue-view.js';
import { McpToolError } from './errors.js';

/** Where the server reports what no client should see (an internal error's cause): the container's stderr. */
export interface ErrorOutput {
  write(text: string): unknown;
}

/** A tool's work: its structured result and a short text for chat. */
type ToolWork = () =>
  | { structured: Record<string, unknown>; text: string }
  | Promise<{ structured: Record<string, unknown>; text: string }>;

/** Runs a tool's work into its answer: the result, or a coded error. */
export type Answer = (work: ToolWork) => Promise<CallToolResult>;

/** What every tool registration is given: the catalogue view (asked on every call) and `answer`. */
export interface ToolContext {
  readonly view: () => CatalogueView;
  readonly answer: Answer;
}

/**
 * `answer` for a server whose internal errors are reported on `stderr`: a tool's answer is its
 * structured result and a short text for chat, or a coded error; an error that is not a tool error
 * reaches the client as `internal` and its cause only `stderr`.
 */
export function answerer(stderr: ErrorOutput): Answer {
  return async (work) => {
    try {
      const { structured, text } = await work();
      return { structuredContent: structured, content: [{ type: 'text', text }] };
    } catch (error) {
      const known = error instanceof McpToolError;
      const code = known ? error.code : 'internal';
      const message = known ? error.message : 'Internal error: the tool could not answer.';
      if (!known) stderr.write(`eventry mcp: internal error: ${String(error)}\n`);
      // No structured content: clients check it against the tool's output schema even on an error.
      return {
        isError: true,
        content: [{ type: 'text', text: `${code}: ${message}` }],
        _meta: { 'eventry/error': { code, message } },
      };
    }
  };
}

// The contract between the playground (playground.ts) and its editor (editor.ts), which it loads
// on first use: each imports this, never the other, so the modules form no cycle.
import type { TextRange } from './json-path.js';

/** One error of the platform's 400 body. */
export interface ErrorItem {
  detail: string;
  code: string;
  attr: string;
}
export type Verdict =
  | { valid: true }
  | { valid: false; error: { detail: string; code: string; errors: ErrorItem[] } };
export type Validate = (payload: unknown, options: { mode: string }) => Verdict;
/** The group package's test data, as its `testing` entry defines it. */
export interface Testing {
  fake(key: string, options: { seed: number; variant: 'random' }): unknown;
}

/** What the editor needs from the playground. */
export interface PlaygroundHost {
  /** Validates `text`; shows the verdict and returns each error with where it is. */
  check(text: string): { item: ErrorItem; range: TextRange }[] | undefined;
  /** Whether the validator module is loaded (the editor checks again once it is). */
  readonly ready: Promise<void>;
}

/** What the editor module exports: it replaces the textarea and gives back how to re-check and select. */
export type MountEditor = (
  source: HTMLTextAreaElement,
  host: PlaygroundHost,
) => { recheck: () => void; select: (range: TextRange) => void };

/**
 * Parse errors as messages that quote nothing of the text. V8's `JSON.parse` message carries the
 * first characters of its input (`Unexpected token 'r', "root:$6$SE"... is not valid JSON`), and yaml's
 * a frame of source lines: for a file that is not what the user meant (a link to a secret, a key file
 * passed by mistake) that would print the secret into a CI log.
 */

/** The longest message kept from a parser, after its quoted input is cut. */
const MAX_MESSAGE = 200;

/** A `JSON.parse` failure without the input V8 quotes: `Unexpected token "r"`, `... at position 4`. */
export function describeJsonError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const token = /^Unexpected token '([\s\S]+?)', "[\s\S]*"(?:\.\.\.)? is not valid JSON$/.exec(message);
  if (token) return `Unexpected token ${JSON.stringify(token[1])}`;
  if (/^"[\s\S]*"(?:\.\.\.)? is not valid JSON$/.test(message)) return 'Unexpected token';
  return shorten(message.replace(/, "[\s\S]*"(?:\.\.\.)? is not valid JSON$/, ''));
}

/** A yaml parse failure: its first line only (the rest is a frame of the source), escaped and capped. */
export function describeYamlError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return shorten(message.split('\n')[0]!.trim().replace(/:$/, ''));
}

/** Control characters escaped, so a message is one line; capped at `MAX_MESSAGE` characters. */
function shorten(text: string): string {
  const escaped = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) =>
    JSON.stringify(c).slice(1, -1),
  );
  return escaped.length > MAX_MESSAGE ? `${escaped.slice(0, MAX_MESSAGE)}…` : escaped;
}

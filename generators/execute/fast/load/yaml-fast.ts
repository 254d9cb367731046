import {
  CORE_SCHEMA,
  constructFromEvents,
  type Event,
  getScalarValue,
  parseEvents,
  type ScalarEvent,
} from 'js-yaml';
import type { LocatedNode, PlainYaml } from '../../../load/yaml-source.js';

/** Nesting the fast path takes on; anything deeper goes to `yaml`, which reports what is too deep. */
const FAST_MAX_DEPTH = 32;

/** Characters the plain subset has no use for: tabs, CR, BOM, control and surrogate characters, Unicode line separators. */
const ODD_CHARACTER =
  /[\t\r\uFEFF\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u2028\u2029\uD800-\uDFFF]/;
/** A directive (`%`) or a document marker (`---`, `...`) at the start of a line. */
const DOCUMENT_SYNTAX = /^(?:%|---|\.\.\.)/m;
/** An anchor, alias, tag, explicit key or block scalar indicator where a token can start. */
const NODE_INDICATOR = /[\s[\]{},:-][&*!?|>]/;
const LEADING_INDICATOR = /^[&*!?|>]/;
/** Shorter than the 1024 characters either parser allows an implicit key. */
const MAX_LINE = 500;

/**
 * Whether `text` may hold something outside the plain subset the catalogue uses, where js-yaml and
 * yaml could disagree on value, location or error (merge keys `<<` too). Separate simple scans: one
 * regular expression with all the alternatives costs more than the parse.
 */
function outsidePlainSubset(text: string): boolean {
  if (ODD_CHARACTER.test(text) || DOCUMENT_SYNTAX.test(text) || text.includes('<<')) return true;
  if (NODE_INDICATOR.test(text) || LEADING_INDICATOR.test(text)) return true;
  for (let start = 0; ; ) {
    const end = text.indexOf('\n', start);
    if ((end === -1 ? text.length : end) - start >= MAX_LINE) return true;
    if (end === -1) return false;
    start = end + 1;
  }
}

/** Plain-scalar texts the core schema may read as something other than a string. */
const MAYBE_NOT_STRING = /^(?:[-+.0-9~]|(?:null|Null|NULL|true|True|TRUE|false|False|FALSE)$)/;
/** Of those, the ones both parsers are known to read alike: `~`, null, booleans, plain decimal numbers. */
const PLAIN_SCALAR = /^(?:~|null|true|false|0|-?[1-9][0-9]{0,14}|-?(?:0|[1-9][0-9]{0,14})\.[0-9]{1,15})$/;

/**
 * Reads `text` with js-yaml's event parser when it lies in the plain subset both parsers agree on;
 * `undefined` sends the file to the `yaml` path (which then reports whatever is wrong with it).
 */
export function readPlainYaml(text: string): PlainYaml | undefined {
  if (outsidePlainSubset(text)) return undefined;
  let events: Event[];
  let value: unknown;
  try {
    events = parseEvents(text, { maxDepth: FAST_MAX_DEPTH });
    const documents = constructFromEvents(events, { source: text, schema: CORE_SCHEMA });
    if (documents.length !== 1) return undefined;
    value = documents[0];
  } catch {
    // Any error js-yaml finds is reported by the `yaml` path, in its words and at its position.
    return undefined;
  }
  const root = locateEvents(text, events);
  return root ? { value, root } : undefined;
}

/** Builds the located tree from the events; `undefined` on any event outside the plain subset. */
function locateEvents(text: string, events: Event[]): LocatedNode | undefined {
  // events[0] opens the document; its content is one node, then the document's pop.
  if (events[0]?.type !== 1 || events[events.length - 1]?.type !== 6) return undefined;
  let next = 1;
  const read = (depth: number): LocatedNode | undefined => {
    const event = events[next++];
    if (!event || depth > FAST_MAX_DEPTH) return undefined;
    switch (event.type) {
      case 4: {
        if (!isPlainScalar(text, event)) return undefined;
        return { offset: scalarOffset(event) };
      }
      case 3: {
        if (event.anchorStart !== -1 || event.tagStart !== -1) return undefined;
        const entries = new Map<string, { key: number; value: LocatedNode }>();
        while (events[next]?.type !== 6) {
          const key = events[next++];
          if (key?.type !== 4 || !isPlainScalar(text, key)) return undefined;
          const name = getScalarValue(text, key);
          if (key.style === 1 && MAYBE_NOT_STRING.test(name)) return undefined;
          if (name === '__proto__') return undefined;
          const value = read(depth + 1);
          if (!value) return undefined;
          // js-yaml rejects duplicate keys, so the first occurrence is the only one.
          entries.set(name, { key: scalarOffset(key), value });
        }
        next++;
        return { offset: event.start, entries };
      }
      case 2: {
        if (event.anchorStart !== -1 || event.tagStart !== -1) return undefined;
        const items: LocatedNode[] = [];
        while (events[next]?.type !== 6) {
          const item = read(depth + 1);
          if (!item) return undefined;
          items.push(item);
        }
        next++;
        return { offset: event.start, items };
      }
      default:
        return undefined;
    }
  };
  const root = read(1);
  // Exactly one node and the document's end: anything else (an empty file, a second document) goes to yaml.
  return root && next === events.length - 1 ? root : undefined;
}

/** A scalar with text, no anchor or tag, not a block scalar, and (if plain) one both schemas read alike. */
function isPlainScalar(text: string, event: ScalarEvent): boolean {
  if (event.valueStart === -1 || event.anchorStart !== -1 || event.tagStart !== -1) return false;
  if (event.style === 4 || event.style === 5) return false;
  if (event.style !== 1) return true;
  const raw = text.slice(event.valueStart, event.valueEnd);
  return !MAYBE_NOT_STRING.test(raw) || PLAIN_SCALAR.test(raw);
}

/** yaml locates a quoted scalar at its opening quote; js-yaml's value starts after it. */
function scalarOffset(event: ScalarEvent): number {
  return event.style === 1 ? event.valueStart : event.valueStart - 1;
}

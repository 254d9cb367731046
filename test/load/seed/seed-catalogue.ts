/**
 * A parser of the platform's event catalogue as published (the seed markdown), written independently of
 * the YAML under catalogue/ and of the loader: the conformance test compares the two.
 *
 * It resolves every composition form the seed uses ("same as X", "fields of X, plus ...", a named shape as
 * the field list, "Shape, plus ...") into complete field lists. Relative references ("same as
 * cancellation-requested", "fields of v1", "same as the pre-discovery event") are resolved by one general
 * rule, never by a table of answers. Any line it does not understand throws a `SeedParseError` naming the
 * line, so that a new notation in the seed is noticed rather than silently skipped.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type OptionalResource, optionalResource } from '../../helpers.js';

/** The type of a field, as the seed notation writes it. */
export type SeedType =
  | { kind: 'string' | 'integer' | 'number' | 'boolean' | 'object' }
  | { kind: 'array'; items: SeedType }
  | { kind: 'shape'; name: string };

export interface SeedField {
  name: string;
  required: boolean;
  type: SeedType;
}

/** How the seed composed an event's field list (references resolved to event keys or shape names). */
export type SeedComposition =
  | { kind: 'fields' }
  | { kind: 'same_as'; of: string }
  | { kind: 'extends'; of: string; ofKind: 'event' | 'shape' };

export interface SeedEvent {
  /** The key as listed: `account.created-v1`, `lifecycle.support-site.sale-1.0.0`. */
  key: string;
  /** Event type: the key before its version. */
  type: string;
  /** Payload version: `v1` or a semver string. */
  version: string;
  /** Title of the section (group) that lists it. */
  group: string;
  /** The complete, resolved field list, in order. */
  fields: SeedField[];
  /** The seed lists only part of this event's fields. */
  partial: boolean;
  composition: SeedComposition;
  /** 1-based line in the seed. */
  line: number;
}

export interface SeedGroup {
  title: string;
  /** Event keys in the seed's order. */
  events: string[];
  line: number;
}

export interface SeedCatalogue {
  groups: SeedGroup[];
  /** Named shapes by name, each with its resolved field list. */
  shapes: Record<string, SeedField[]>;
  events: Record<string, SeedEvent>;
}

/** The variable naming the platform's catalogue document, for a checkout without `../shared` beside it. */
const SEED_ENV = 'EVENTRY_SEED_CATALOGUE';

/**
 * The platform's catalogue document: `EVENTRY_SEED_CATALOGUE` when set (and only it), else
 * `../shared/seeds/event-catalogue.md` beside the repository (as on developer machines and in CI).
 * Absent, the conformance tests are skipped with a notice; in CI absence throws.
 */
export function findSeedCatalogue(env: NodeJS.ProcessEnv = process.env): OptionalResource {
  return optionalResource(
    {
      what: "the platform's event catalogue document",
      envVar: SEED_ENV,
      candidates: [fileURLToPath(new URL('../../../../shared/seeds/event-catalogue.md', import.meta.url))],
      skips: 'the conformance tests',
      get: 'it is seeds/event-catalogue.md in the shared platform documents',
    },
    env,
  );
}

/** A line of the seed this parser does not understand (or that contradicts the rest of the seed). */
export class SeedParseError extends Error {
  constructor(
    message: string,
    readonly file: string,
    readonly line: number,
    readonly text: string,
  ) {
    super(`${file}:${line}: ${message}\n  > ${text}`);
    this.name = 'SeedParseError';
  }
}

/**
 * The Notation section this parser implements, verbatim. If the seed's notation changes, the parser
 * must be reviewed, so a difference throws.
 */
export const IMPLEMENTED_NOTATION: readonly string[] = [
  '- `name*` means the field is required. No star means optional.',
  '- Types: no suffix = string; `:i` integer; `:n` number; `:b` boolean; `:o` object without listed fields; `:[T]` array of T (`[str]` = array of strings, `[i]` = array of integers, `[o]` = array of objects); `:TypeName` = nested object of a named shape from the next section. Datetimes and dates are strings.',
  '- A line reads `event-version: field list`. A line marked `same as X` has the field list of X.',
];

const NOTATION_TITLE = 'Notation';
const SHAPES_TITLE = 'Named shapes';

const VERSION = String.raw`v\d+|\d+\.\d+\.\d+`;
const KEY_RE = new RegExp(String.raw`^([a-z0-9][a-z0-9_.\-]*?)-(${VERSION})$`);
const VERSION_ONLY_RE = new RegExp(`^(?:${VERSION})$`);
const HAS_VERSION_RE = new RegExp(`-(?:${VERSION})$`);
const SHAPE_NAME_RE = /^[A-Z][A-Za-z0-9]*$/;
const FIELD_RE = /^([a-z][a-z0-9_]*)(\*)?(?::(.+))?$/;
const DELIMITERS = new Set(['.', '-', '_']);

/** Reads and parses the seed at `path`. */
export function loadSeedCatalogue(path: string): SeedCatalogue {
  return parseSeedCatalogue(readFileSync(path, 'utf8'), basename(path));
}

type RawBody =
  | { kind: 'fields'; fields: SeedField[]; partial: boolean }
  | { kind: 'same_as'; ref: string }
  | { kind: 'extends-event'; ref: string; fields: SeedField[] }
  | { kind: 'extends-shape'; shape: string; fields: SeedField[] };

interface RawEvent {
  key: string;
  type: string;
  version: string;
  group: string;
  /** Index of the event in the seed, for "earlier event" references. */
  index: number;
  body: RawBody;
  line: number;
  text: string;
}

interface GroupNote {
  /** `join-supplier` in "Every join-supplier event carries ...". */
  subject: string;
  fields: SeedField[];
  exception?: { contains: string; version: string };
  group: string;
  line: number;
  text: string;
}

/** Parses the seed markdown. Throws `SeedParseError` on any line it does not understand. */
export function parseSeedCatalogue(markdown: string, file = 'event-catalogue.md'): SeedCatalogue {
  const lines = markdown.split(/\r?\n/);
  const fail = (message: string, index: number): never => {
    throw new SeedParseError(message, file, index + 1, lines[index] ?? '');
  };

  const groups: SeedGroup[] = [];
  const shapes: Record<string, SeedField[]> = {};
  const shapeLines: Record<string, number> = {};
  const raw: RawEvent[] = [];
  const rawByKey = new Map<string, RawEvent>();
  const notes: GroupNote[] = [];
  const notation: { text: string; index: number }[] = [];
  let notationIndex = -1;
  /** Field lists to check for references to undefined shapes once every shape is known. */
  const shapeUses: { fields: SeedField[]; index: number }[] = [];

  type Section =
    | { kind: 'preamble' | 'events-intro' | 'notation' | 'shapes' }
    | { kind: 'group'; group: SeedGroup };
  let section: Section = { kind: 'preamble' };
  let sawEvents = false;

  for (let i = 0; i < lines.length; i++) {
    const text = lines[i] ?? '';
    const line = text.trimEnd();
    if (line === '') continue;

    const heading = /^(#+) (.+)$/.exec(line);
    if (heading) {
      const level = heading[1]!.length;
      const title = heading[2]!;
      if (level === 1 && section.kind === 'preamble') continue;
      if (level === 2) {
        if (title === 'Events' && !sawEvents) {
          sawEvents = true;
          section = { kind: 'events-intro' };
          continue;
        }
        fail(`unexpected level-2 heading "${title}" (only "## Events" is expected, once)`, i);
      }
      if (level === 3 && sawEvents) {
        if (title === NOTATION_TITLE) {
          notationIndex = i;
          section = { kind: 'notation' };
        } else if (title === SHAPES_TITLE) {
          section = { kind: 'shapes' };
        } else {
          if (groups.some((g) => g.title === title)) fail(`duplicate section "${title}"`, i);
          const group: SeedGroup = { title, events: [], line: i + 1 };
          groups.push(group);
          section = { kind: 'group', group };
        }
        continue;
      }
      fail('unexpected heading', i);
    }

    switch (section.kind) {
      case 'preamble':
        continue; // The document's introduction, before "## Events".
      case 'events-intro':
        if (line.startsWith('- ')) fail('a list item before the first section of "## Events"', i);
        continue; // Prose about the events part as a whole.
      case 'notation':
        notation.push({ text: line, index: i });
        continue;
      case 'shapes': {
        const parsed = parseShapeLine(line, i, fail);
        if (parsed.name in shapes) fail(`shape ${parsed.name} is defined twice`, i);
        shapes[parsed.name] = parsed.fields;
        shapeLines[parsed.name] = i;
        shapeUses.push({ fields: parsed.fields, index: i });
        continue;
      }
      case 'group': {
        if (!line.startsWith('- ')) {
          notes.push(parseGroupNote(line, section.group.title, i, fail));
          continue;
        }
        const event = parseEventLine(line, section.group.title, raw.length, i, fail);
        if (rawByKey.has(event.key)) fail(`event ${event.key} is listed twice`, i);
        raw.push(event);
        rawByKey.set(event.key, event);
        section.group.events.push(event.key);
        if (event.body.kind !== 'same_as') shapeUses.push({ fields: event.body.fields, index: i });
        continue;
      }
    }
  }

  if (!sawEvents) throw new SeedParseError('no "## Events" heading', file, 1, lines[0] ?? '');
  if (notationIndex < 0) throw new SeedParseError('no "### Notation" section', file, 1, lines[0] ?? '');
  checkNotation(notation, notationIndex, fail);

  // Every `:TypeName` must name a shape of the seed.
  for (const use of shapeUses) {
    for (const field of use.fields) {
      for (const name of shapeNames(field.type)) {
        if (!(name in shapes)) fail(`field ${field.name} refers to undefined shape ${name}`, use.index);
      }
    }
  }

  // Only the last event listed may be partial: the seed says it "ends partway".
  raw.forEach((event, index) => {
    if (event.body.kind === 'fields' && event.body.partial && index !== raw.length - 1) {
      fail('only the last event listed can be listed in part', event.line - 1);
    }
  });

  // Resolve compositions.
  const resolved = new Map<string, { fields: SeedField[]; composition: SeedComposition }>();
  const resolving: string[] = [];
  const resolve = (event: RawEvent): { fields: SeedField[]; composition: SeedComposition } => {
    const done = resolved.get(event.key);
    if (done) return done;
    if (resolving.includes(event.key)) {
      fail(`composition cycle: ${[...resolving, event.key].join(' -> ')}`, event.line - 1);
    }
    resolving.push(event.key);
    let result: { fields: SeedField[]; composition: SeedComposition };
    const body = event.body;
    switch (body.kind) {
      case 'fields':
        result = { fields: body.fields, composition: { kind: 'fields' } };
        break;
      case 'same_as': {
        const target = resolveReference(body.ref, event, raw, rawByKey, fail);
        result = { fields: resolve(target).fields, composition: { kind: 'same_as', of: target.key } };
        break;
      }
      case 'extends-event': {
        const target = resolveReference(body.ref, event, raw, rawByKey, fail);
        result = {
          fields: concatFields(resolve(target).fields, body.fields, event, fail),
          composition: { kind: 'extends', of: target.key, ofKind: 'event' },
        };
        break;
      }
      case 'extends-shape': {
        const base = shapes[body.shape];
        if (!base) return fail(`${body.shape} is not a named shape`, event.line - 1);
        result = {
          fields: concatFields(base, body.fields, event, fail),
          composition: { kind: 'extends', of: body.shape, ofKind: 'shape' },
        };
        break;
      }
    }
    resolving.pop();
    resolved.set(event.key, result);
    return result;
  };

  const events: Record<string, SeedEvent> = {};
  for (const event of raw) {
    const { fields, composition } = resolve(event);
    events[event.key] = {
      key: event.key,
      type: event.type,
      version: event.version,
      group: event.group,
      fields: fields.map(cloneField),
      partial: event.body.kind === 'fields' && event.body.partial,
      composition,
      line: event.line,
    };
  }

  for (const note of notes) checkGroupNote(note, raw, events, fail);

  const clonedShapes: Record<string, SeedField[]> = {};
  for (const [name, fields] of Object.entries(shapes)) clonedShapes[name] = fields.map(cloneField);
  return { groups, shapes: clonedShapes, events };
}

type Fail = (message: string, index: number) => never;

function checkNotation(notation: { text: string; index: number }[], headingIndex: number, fail: Fail): void {
  for (let n = 0; n < Math.max(notation.length, IMPLEMENTED_NOTATION.length); n++) {
    const actual = notation[n];
    const expected = IMPLEMENTED_NOTATION[n];
    if (actual?.text === expected) continue;
    fail(
      actual
        ? `the Notation section differs from the notation this parser implements (review the parser); expected: ${expected ?? '(nothing more)'}`
        : `the Notation section lacks a line this parser implements: ${expected}`,
      actual?.index ?? headingIndex,
    );
  }
}

/** `- Name[ (shared by ...)]: field list[ (all optional|all required)]`. */
function parseShapeLine(line: string, index: number, fail: Fail): { name: string; fields: SeedField[] } {
  const m = /^- ([A-Za-z0-9_]+)(?: \(([^)]*)\))?: (.+)$/.exec(line);
  if (!m) return fail('not a named-shape line (`- Name: field list`)', index);
  const name = m[1]!;
  const annotation = m[2];
  let body = m[3]!;
  if (!SHAPE_NAME_RE.test(name)) fail(`shape name ${name} is not PascalCase`, index);
  if (annotation !== undefined && !/^shared by \S.*$/.test(annotation)) {
    fail(`unknown annotation "(${annotation})" on a shape name`, index);
  }
  let all: 'optional' | 'required' | undefined;
  const note = / \(all (optional|required)\)$/.exec(body);
  if (note) {
    all = note[1] as 'optional' | 'required';
    body = body.slice(0, note.index);
  }
  const fields = parseFieldList(body, index, fail);
  if (all) {
    const contradicting = fields.filter((f) => f.required !== (all === 'required'));
    if (contradicting.length > 0) {
      fail(`"(all ${all})" contradicts the stars on ${contradicting.map((f) => f.name).join(', ')}`, index);
    }
  }
  return { name, fields };
}

/** `- key[ (event type T, payload version V)]: body`. */
function parseEventLine(line: string, group: string, order: number, index: number, fail: Fail): RawEvent {
  const m = /^- ([^\s:()]+)(?: \(([^)]*)\))?: (.+)$/.exec(line);
  if (!m) return fail('not an event line (`- <event_type>-<version>: field list`)', index);
  const key = m[1]!;
  const annotation = m[2];
  const bodyText = m[3]!;
  const k = KEY_RE.exec(key);
  if (!k) return fail(`event key ${key} is not <event_type>-<version> (version vN or semver)`, index);
  const type = k[1]!;
  const version = k[2]!;
  if (annotation !== undefined) {
    const a = /^event type (\S+), payload version (\S+)$/.exec(annotation);
    if (!a) return fail(`unknown annotation "(${annotation})" on an event key`, index);
    if (a[1] !== type || a[2] !== version) {
      fail(
        `the annotation says type ${a[1]} version ${a[2]}, but the key reads type ${type} version ${version}`,
        index,
      );
    }
  }
  return {
    key,
    type,
    version,
    group,
    index: order,
    body: parseEventBody(bodyText, index, fail),
    line: index + 1,
    text: line,
  };
}

function parseEventBody(body: string, index: number, fail: Fail): RawBody {
  let m = /^same as (.+)$/.exec(body);
  if (m) return { kind: 'same_as', ref: m[1]! };
  m = /^fields of ([^,]+), plus (.+)$/.exec(body);
  if (m) return { kind: 'extends-event', ref: m[1]!, fields: parseFieldList(m[2]!, index, fail) };
  m = /^([A-Z][A-Za-z0-9]*), plus (.+)$/.exec(body);
  if (m) return { kind: 'extends-shape', shape: m[1]!, fields: parseFieldList(m[2]!, index, fail) };
  if (SHAPE_NAME_RE.test(body)) return { kind: 'extends-shape', shape: body, fields: [] };
  m = /^(.+?) (?:is the only field|are the only fields) listed; (.+)$/.exec(body);
  if (m) return { kind: 'fields', fields: parseFieldList(m[1]!, index, fail), partial: true };
  return { kind: 'fields', fields: parseFieldList(body, index, fail), partial: false };
}

function parseFieldList(list: string, index: number, fail: Fail): SeedField[] {
  const fields: SeedField[] = [];
  for (const item of list.split(', ')) {
    const m = FIELD_RE.exec(item);
    if (!m) return fail(`"${item}" is not a field (\`name\`, \`name*\`, \`name*:type\`)`, index);
    const name = m[1]!;
    if (fields.some((f) => f.name === name)) fail(`field ${name} is listed twice`, index);
    const type: SeedType = m[3] === undefined ? { kind: 'string' } : parseType(m[3], false, index, fail);
    fields.push({ name, required: m[2] === '*', type });
  }
  return fields;
}

/** A type suffix (after `:`), or an array's item type (inside `[...]`, where `str` is a string). */
function parseType(text: string, inArray: boolean, index: number, fail: Fail): SeedType {
  switch (text) {
    case 'i':
      return { kind: 'integer' };
    case 'n':
      return { kind: 'number' };
    case 'b':
      return { kind: 'boolean' };
    case 'o':
      return { kind: 'object' };
    case 'str':
      if (inArray) return { kind: 'string' };
      break;
  }
  const array = /^\[(.+)\]$/.exec(text);
  if (array) return { kind: 'array', items: parseType(array[1]!, true, index, fail) };
  if (SHAPE_NAME_RE.test(text)) return { kind: 'shape', name: text };
  return fail(`unknown type "${text}"`, index);
}

/** "Every <subject> event carries <fields>[ (exception: the `<x>` <version> events below use the field sets given)]." */
function parseGroupNote(line: string, group: string, index: number, fail: Fail): GroupNote {
  const m =
    /^Every (\S+) event carries (.+?)(?: \(exception: the `([^`]+)` (\S+) events below use the field sets given\))?\.$/.exec(
      line,
    );
  if (!m) return fail('prose this parser does not understand in an events section', index);
  const fields = parseFieldList(m[2]!.replace(/ and /g, ', '), index, fail);
  const note: GroupNote = { subject: m[1]!, fields, group, line: index + 1, text: line };
  if (m[3] !== undefined) {
    if (!VERSION_ONLY_RE.test(m[4]!)) fail(`"${m[4]}" is not a version`, index);
    note.exception = { contains: m[3], version: m[4]! };
  }
  return note;
}

/**
 * Checks a section's "Every X event carries ..." note against the events it covers: those of the section
 * whose key contains X as whole tokens (`-` and `_` treated alike), minus the stated exception.
 */
function checkGroupNote(
  note: GroupNote,
  raw: RawEvent[],
  events: Record<string, SeedEvent>,
  fail: Fail,
): void {
  const subject = tokens(note.subject.replace(/_/g, '-'));
  const covered = raw.filter(
    (e) =>
      e.group === note.group &&
      containsTokens(tokens(e.type.replace(/_/g, '-')), subject) &&
      !(note.exception && e.key.includes(note.exception.contains) && e.version === note.exception.version),
  );
  if (covered.length === 0) fail(`the note covers no event of the section`, note.line - 1);
  for (const e of covered) {
    const fields = events[e.key]!.fields;
    for (const claimed of note.fields) {
      const actual = fields.find((f) => f.name === claimed.name);
      if (!actual || actual.required !== claimed.required || !sameType(actual.type, claimed.type)) {
        fail(`${e.key} (line ${e.line}) does not carry ${claimed.name} as the note says`, note.line - 1);
      }
    }
  }
}

/**
 * Resolves the X of "same as X" / "fields of X, plus ..." to an event:
 * - an exact event key (anywhere in the seed);
 * - a bare version (`v1`): that version of the referring event's type;
 * - "the <words> event": the one earlier event of the same section whose type contains <words> as whole tokens;
 * - otherwise a suffix: the one earlier event of the same section whose key (when the reference carries a
 *   version) or type (when it does not) ends with the reference at a token boundary.
 * No match, or more than one, throws.
 */
function resolveReference(
  ref: string,
  from: RawEvent,
  raw: RawEvent[],
  byKey: Map<string, RawEvent>,
  fail: Fail,
): RawEvent {
  const here = from.line - 1;
  const exact = byKey.get(ref);
  if (exact) {
    if (exact === from) fail(`${from.key} refers to itself`, here);
    return exact;
  }
  if (VERSION_ONLY_RE.test(ref)) {
    const target = byKey.get(`${from.type}-${ref}`);
    if (target === from) fail(`${from.key} refers to itself`, here);
    if (!target) return fail(`there is no ${ref} of ${from.type} to refer to`, here);
    return target;
  }
  const earlier = raw.filter((e) => e.group === from.group && e.index < from.index);
  let candidates: RawEvent[];
  const phrase = /^the (.+) event$/.exec(ref);
  if (phrase) {
    const wanted = tokens(phrase[1]!);
    candidates = earlier.filter((e) => containsTokens(tokens(e.type), wanted));
  } else {
    if (!/^[a-z0-9][a-z0-9_.-]*$/.test(ref)) return fail(`"${ref}" is not an event reference`, here);
    const versioned = HAS_VERSION_RE.test(ref);
    candidates = earlier.filter((e) => endsAtBoundary(versioned ? e.key : e.type, ref));
  }
  if (candidates.length === 1) return candidates[0]!;
  if (candidates.length === 0) {
    return fail(`"${ref}" matches no earlier event of the section "${from.group}"`, here);
  }
  return fail(`"${ref}" is ambiguous: ${candidates.map((c) => c.key).join(', ')}`, here);
}

function concatFields(base: SeedField[], own: SeedField[], event: RawEvent, fail: Fail): SeedField[] {
  for (const field of own) {
    if (base.some((b) => b.name === field.name))
      fail(`field ${field.name} is already inherited`, event.line - 1);
  }
  return [...base, ...own];
}

function tokens(text: string): string[] {
  return text.split(/[.\-_]+/).filter((t) => t !== '');
}

function containsTokens(haystack: string[], needle: string[]): boolean {
  if (needle.length === 0) return false;
  for (let start = 0; start + needle.length <= haystack.length; start++) {
    if (needle.every((t, n) => haystack[start + n] === t)) return true;
  }
  return false;
}

function endsAtBoundary(text: string, suffix: string): boolean {
  if (!text.endsWith(suffix)) return false;
  if (text.length === suffix.length) return true;
  return DELIMITERS.has(text[text.length - suffix.length - 1]!);
}

function shapeNames(type: SeedType): string[] {
  if (type.kind === 'shape') return [type.name];
  if (type.kind === 'array') return shapeNames(type.items);
  return [];
}

function sameType(a: SeedType, b: SeedType): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function cloneField(field: SeedField): SeedField {
  return { name: field.name, required: field.required, type: structuredClone(field.type) };
}

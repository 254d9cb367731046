import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { LoadResult } from '../load/index.js';
import type { CatalogueProblem } from '../load/problem.js';
import {
  authoredDescription,
  type Catalogue,
  type Deprecation,
  type EventVersion,
  type Field,
  type FieldType,
  type Group,
  type Shape,
  type SourceLocation,
} from '../model.js';
import { readIfExists } from '../shared/fs.js';
import { describeJsonError, describeYamlError } from '../shared/parse-error.js';
import { displayPath, loaded, type SourceKind } from './source.js';

type Json = Record<string, unknown>;

/** A compiled OpenAPI document (`packages/catalogue/openapi.json` or its YAML copy). */
export const openApiSource: SourceKind = {
  name: 'openapi',
  claims: (spec, { cwd }) => existsSync(resolve(cwd, spec)) && statSync(resolve(cwd, spec)).isFile(),
  resolve(spec, { cwd }) {
    const path = resolve(cwd, spec);
    const shown = displayPath(cwd, path);
    // The build writes it to `<packages>/catalogue/openapi.json`, beside the group packages.
    const packages = dirname(dirname(path));
    return loaded(readOpenApiCatalogue(readFileSync(path, 'utf8'), shown), '', {
      kind: 'openapi',
      label: shown,
      root: '',
      readPackage: (slug) => readIfExists(join(packages, slug, 'package.json')),
    });
  },
};

const REF_PREFIX = '#/components/schemas/';
const SCALARS = new Set(['string', 'integer', 'number', 'boolean']);
const FORMATS = new Set(['date', 'date-time']);

/** Records a problem at the first place `needle` is written (the document's start without one). */
type Report = (message: string, needle?: string, hint?: string, code?: CatalogueProblem['code']) => void;

/**
 * Reads a compiled OpenAPI document (`packages/catalogue/openapi.json`, or its YAML copy) back into the
 * model, so a published build can be diffed like a catalogue. It inverts `buildOpenApi`: event schemas
 * carry `x-event-type`, `x-event-version`, `x-group`; every other component is a named shape. What the
 * document does not keep (compositions, source lines) is left neutral, which the diff ignores anyway.
 * A `$ref` into another file is refused (`external-ref`): eventry builds one self-contained document
 * (see docs/decisions/0122-openapi-input-one-document.md).
 */
export function readOpenApiCatalogue(text: string, path: string): LoadResult {
  const problems: CatalogueProblem[] = [];
  const lines = new LineFinder(text, path);
  const report: Report = (message, needle, hint, code = 'invalid-value') => {
    problems.push({ code, message, ...(hint ? { hint } : {}), ...lines.find(needle) });
  };
  const yaml = /\.ya?ml$/.test(path);
  const document = parseDocument(text, yaml, report);
  if (!document) return { ok: false, problems };
  const { info, schemas, tags } = document;
  const packageName = tags.find((tag) => typeof tag?.['x-npm-package'] === 'string')?.['x-npm-package'] as
    | string
    | undefined;
  const scope = packageName?.split('/')[0] ?? '';
  if (!scope.startsWith('@'))
    report('The document names no npm package (`tags[].x-npm-package`), so its scope is unknown.', '"tags"');
  const { shapes, events } = readComponents(
    schemas,
    new SchemaReader(schemas, report),
    lines,
    yaml,
    problems,
  );
  const groups = readGroups(tags, events, lines, report);
  if (problems.length > 0) return { ok: false, problems };
  const catalogue: Catalogue = {
    config: {
      title: typeof info.title === 'string' ? info.title : '',
      version: typeof info.version === 'string' ? info.version : '0.0.0',
      scope,
      ...(typeof info.description === 'string' ? { description: info.description } : {}),
    },
    groups,
    shapes,
    events,
    hash:
      typeof info['x-catalogue-hash'] === 'string'
        ? info['x-catalogue-hash']
        : createHash('sha256').update(text).digest('hex'),
  };
  return { ok: true, catalogue };
}

/** The parts of the document the reader needs, or undefined (with a problem) when it is not one. */
function parseDocument(
  text: string,
  yaml: boolean,
  report: Report,
): { info: Json; schemas: Json; tags: (Json | undefined)[] } | undefined {
  let document: Json | undefined;
  try {
    const parsed: unknown = yaml ? parseYaml(text) : JSON.parse(text);
    document = asObject(parsed);
  } catch (error) {
    const reason = yaml ? describeYamlError(error) : describeJsonError(error);
    report(`Not valid ${yaml ? 'YAML' : 'JSON'}: ${reason}`, undefined, undefined, 'yaml-syntax');
    return undefined;
  }
  const info = asObject(document?.info);
  const schemas = asObject(asObject(document?.components)?.schemas);
  if (!document || typeof document.openapi !== 'string' || !info || !schemas) {
    report(
      'This is not an OpenAPI document built by eventry (no `openapi`, `info` or `components.schemas`).',
      undefined,
      'Pass the `openapi.json` that `npm run build` writes, a catalogue directory or a git ref.',
    );
    return undefined;
  }
  const tags = Array.isArray(document.tags) ? document.tags.map(asObject) : [];
  return { info, schemas, tags };
}

/** Reads field types and field lists, the named shapes being every component that is not an event. */
class SchemaReader {
  readonly shapeNames: ReadonlySet<string>;

  constructor(
    schemas: Json,
    private readonly report: Report,
  ) {
    this.shapeNames = new Set(
      Object.keys(schemas).filter((name) => !asObject(schemas[name])?.['x-event-type']),
    );
  }

  /** Refuses a `$ref` into another file, located where it is written; true when it was one. */
  external(ref: string, where: string): boolean {
    if (ref.startsWith('#')) return false;
    const code: CatalogueProblem['code'] = 'external-ref';
    this.report(
      `${where}: \`$ref\` ${ref} points into another file; eventry reads one self-contained document.`,
      ref,
      'Pass the `openapi.json` that `npm run build` writes (it has no external `$ref`), a catalogue directory or a git ref.',
      code,
    );
    return true;
  }

  type(schema: Json, where: string): FieldType | undefined {
    if (typeof schema.$ref === 'string') {
      if (this.external(schema.$ref, where)) return undefined;
      const name = schema.$ref.startsWith(REF_PREFIX) ? schema.$ref.slice(REF_PREFIX.length) : '';
      if (this.shapeNames.has(name)) return { kind: 'shape', name };
      this.report(`${where}: \`$ref\` ${schema.$ref} names no shape of the document.`, `"${schema.$ref}"`);
      return undefined;
    }
    if (schema.type === 'array') {
      const items = asObject(schema.items);
      const type = items ? this.type(items, where) : undefined;
      if (!items) this.report(`${where}: an array without \`items\`.`, where);
      return type ? { kind: 'array', items: type } : undefined;
    }
    if (schema.type === 'object' && schema.properties === undefined) return { kind: 'object' };
    if (typeof schema.type === 'string' && SCALARS.has(schema.type)) {
      const format =
        typeof schema.format === 'string' && FORMATS.has(schema.format) ? schema.format : undefined;
      const values = Array.isArray(schema.enum) ? (schema.enum as (string | number)[]) : undefined;
      return {
        kind: schema.type as 'string',
        ...(format ? { format: format as 'date' } : {}),
        ...(values ? { enum: values } : {}),
      };
    }
    this.report(`${where}: a schema eventry does not emit (${JSON.stringify(schema).slice(0, 60)}).`, where);
    return undefined;
  }

  fields(schema: Json, owner: string, source: SourceLocation): Field[] {
    const properties = asObject(schema.properties) ?? {};
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    const fields: Field[] = [];
    for (const [name, raw] of Object.entries(properties)) {
      const property = asObject(raw) ?? {};
      const type = this.type(property, `${owner}.${name}`);
      if (!type) continue;
      fields.push({
        name,
        type,
        required: required.has(name),
        ...(typeof property.description === 'string' ? { description: property.description } : {}),
        source,
      });
    }
    return fields;
  }
}

/** The shapes and events of `components.schemas`, each located at its definition. */
function readComponents(
  schemas: Json,
  reader: SchemaReader,
  lines: LineFinder,
  yaml: boolean,
  problems: CatalogueProblem[],
): { shapes: Record<string, Shape>; events: Record<string, EventVersion> } {
  // Keyed by the document's component names: `__proto__` or `constructor` must be plain keys.
  const shapes: Record<string, Shape> = Object.create(null);
  const events: Record<string, EventVersion> = Object.create(null);
  for (const [name, raw] of Object.entries(schemas)) {
    const schema = asObject(raw) ?? {};
    const source = lines.findNext(name, yaml);
    // A component that is a whole `$ref` would read as a shape without fields: refused instead.
    if (typeof schema.$ref === 'string') {
      if (!reader.external(schema.$ref, name)) {
        const message = `${name}: a component that is only a \`$ref\` (${schema.$ref}), which eventry does not emit.`;
        problems.push({ code: 'invalid-value', message, ...source });
      }
      continue;
    }
    if (reader.shapeNames.has(name)) {
      shapes[name] = {
        name,
        ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
        fields: reader.fields(schema, name, source),
        source,
      };
      continue;
    }
    const event = readEvent(name, schema, source);
    if (typeof event === 'string') problems.push({ code: 'invalid-value', message: event, ...source });
    else events[name] = { ...event, fields: reader.fields(schema, name, source) };
  }
  return { shapes, events };
}

/** The groups: one per tag, with the events that name it; an event whose group is no tag is a problem. */
function readGroups(
  tags: readonly (Json | undefined)[],
  events: Record<string, EventVersion>,
  lines: LineFinder,
  report: Report,
): Group[] {
  const byGroup = new Map<string, string[]>();
  for (const event of Object.values(events)) {
    const keys = byGroup.get(event.group) ?? [];
    keys.push(event.key);
    byGroup.set(event.group, keys);
  }
  const groups: Group[] = [];
  for (const tag of tags) {
    if (!tag || typeof tag.name !== 'string') continue;
    const slug = tag.name;
    groups.push({
      slug,
      title: typeof tag.description === 'string' ? tag.description : slug,
      events: byGroup.get(slug) ?? [],
      source: lines.find(`"name": "${slug}"`),
    });
    byGroup.delete(slug);
  }
  groups.sort((a, b) => (a.slug < b.slug ? -1 : 1));
  for (const [slug, keys] of byGroup) {
    report(
      `Event \`${keys[0]}\` is in group \`${slug}\`, which is not among the document's \`tags\`.`,
      `"${keys[0]}"`,
    );
  }
  return groups;
}

/** An event version without its fields, or what is wrong with the schema. */
function readEvent(key: string, schema: Json, source: SourceLocation): Omit<EventVersion, 'fields'> | string {
  const type = schema['x-event-type'];
  const version = schema['x-event-version'];
  const group = schema['x-group'];
  if (typeof type !== 'string' || typeof version !== 'string' || typeof group !== 'string') {
    return `Event schema \`${key}\` lacks \`x-event-type\`, \`x-event-version\` or \`x-group\`.`;
  }
  const rawDeprecation = asObject(schema['x-deprecated']);
  const deprecated: Deprecation | undefined =
    rawDeprecation && typeof rawDeprecation.since === 'string'
      ? {
          since: rawDeprecation.since,
          ...(typeof rawDeprecation.replacedBy === 'string' ? { replacedBy: rawDeprecation.replacedBy } : {}),
          ...(typeof rawDeprecation.note === 'string' ? { note: rawDeprecation.note } : {}),
        }
      : undefined;
  const event: Omit<EventVersion, 'fields'> = {
    key,
    type,
    version,
    group,
    title: typeof schema.title === 'string' ? schema.title : key,
    composition: { kind: 'fields' },
    ...(typeof schema['x-partial'] === 'string' ? { partial: schema['x-partial'] } : {}),
    ...(deprecated ? { deprecated } : {}),
    source,
  };
  // The schema shows the description users see (notices appended, a default when the author wrote
  // none); the model says which part the author wrote, so the round trip is exact.
  const description =
    typeof schema.description === 'string' ? authoredDescription(event, schema.description) : undefined;
  return description === undefined ? event : { ...event, description };
}

/**
 * Turns offsets into lines. Component definitions are looked up in document order from a cursor, so
 * locating all of them is one pass over the text, not one per component.
 */
class LineFinder {
  private readonly starts: number[] = [0];
  private cursor = 0;

  constructor(
    private readonly text: string,
    private readonly file: string,
  ) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  /** Where `needle` first occurs (the document's start when it does not). */
  find(needle?: string): SourceLocation {
    return this.at(needle ? this.text.indexOf(needle) : -1);
  }

  /** Where the definition of component `name` is, searching on from the previous one. */
  findNext(name: string, yaml: boolean): SourceLocation {
    const needle = yaml ? `${name}:` : `"${name}":`;
    let index = this.text.indexOf(needle, this.cursor);
    if (index === -1) index = this.text.indexOf(needle);
    if (index !== -1) this.cursor = index + needle.length;
    return this.at(index);
  }

  private at(index: number): SourceLocation {
    if (index < 0) return { file: this.file, line: 1, column: 1 };
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.starts[middle]! <= index) low = middle;
      else high = middle - 1;
    }
    return { file: this.file, line: low + 1, column: index - this.starts[low]! + 1 };
  }
}

function asObject(value: unknown): Json | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
}

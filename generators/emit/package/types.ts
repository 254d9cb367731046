import { compile, type JSONSchema } from 'json-schema-to-typescript';
import { interfaceName } from '../../load/event-key.js';
import type { Catalogue, Group } from '../../model.js';
import { eventSchema, type SchemaOptions, shapeSchema, shapesUsedBy } from '../../schema/json-schema.js';
import { generatedNote } from '../context.js';

/** The interface name of an event version (defined with the key's syntax, which the loader checks). */
export { interfaceName } from '../../load/event-key.js';

/**
 * `types.d.ts` of a group package, by json-schema-to-typescript: one interface per event version and
 * per named shape the group uses (each emitted once, referenced by name), then `EventPayloadMap` and
 * `EventKey`. Interfaces are read from the closed (producers') schemas, so they list exactly the
 * documented fields; a partial event keeps its index signature.
 */
export async function emitGroupTypes(model: Catalogue, group: Group, packageName: string): Promise<string> {
  const options: SchemaOptions = { ref: (name) => `#/$defs/${name}`, mode: 'closed' };
  const defs: Record<string, JSONSchema> = {};
  const names = new Map<string, string>();
  const claim = (name: string, owner: string): void => {
    const other = names.get(name);
    if (other !== undefined && other !== owner) {
      throw new Error(
        `${owner} and ${other} would both be the TypeScript interface \`${name}\`; rename one of them`,
      );
    }
    names.set(name, owner);
  };
  const shapes = shapesUsedBy(
    model,
    group.events.flatMap((key) => model.events[key]!.fields),
  );
  for (const name of shapes) {
    claim(name, `shape ${name}`);
    defs[name] = shapeSchema(model.shapes[name]!, options) as JSONSchema;
  }
  const properties: Record<string, JSONSchema> = {};
  for (const key of group.events) {
    const name = interfaceName(key);
    claim(name, `event ${key}`);
    defs[key] = { ...eventSchema(model.events[key]!, options), title: name } as JSONSchema;
    properties[key] = { $ref: `#/$defs/${key}` };
  }
  claim('EventPayloadMap', 'the payload map');
  const root: JSONSchema = {
    title: 'EventPayloadMap',
    description: `Every event of ${packageName}: event key -> payload type.`,
    type: 'object',
    properties,
    required: [...group.events],
    additionalProperties: false,
    $defs: defs,
  };
  const compiled = await compile(renameObjectMembers(root) as JSONSchema, 'EventPayloadMap', {
    bannerComment: `/* ${generatedNote(`catalogue/${group.source.file}`)} */`,
    format: false,
    additionalProperties: true,
    declareExternallyReferenced: true,
    strictIndexSignatures: false,
    unknownAny: true,
  });
  const text = compiled.replace(new RegExp(`\\b${STANDIN}(\\w+)`, 'g'), (_standin: string, name: string) =>
    JSON.stringify(name),
  );
  for (const name of names.keys()) {
    if (!text.includes(`export interface ${name} {`)) {
      throw new Error(`json-schema-to-typescript did not name an interface \`${name}\` in ${packageName}`);
    }
  }
  return `${text.trimEnd()}\n\n/** The key of an event of ${packageName}. */\nexport type EventKey = keyof EventPayloadMap;\n`;
}

/**
 * Field names json-schema-to-typescript trips over: it reads schemas as plain objects, so a field called
 * `hasOwnProperty` or `__proto__` breaks it. They go through it under a stand-in name.
 */
const OBJECT_MEMBERS = new Set(Object.getOwnPropertyNames(Object.prototype));
const STANDIN = 'eventry_standin_';

/** The schema with each field named like an `Object.prototype` member renamed to its stand-in. */
function renameObjectMembers(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(renameObjectMembers);
  if (schema === null || typeof schema !== 'object') return schema;
  const rename = (field: string) => (OBJECT_MEMBERS.has(field) ? `${STANDIN}${field}` : field);
  const copy: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(schema)) {
    if (name === 'properties') {
      copy.properties = Object.fromEntries(
        Object.entries(value as object).map(([field, sub]) => [rename(field), renameObjectMembers(sub)]),
      );
    } else if (name === 'required') {
      copy.required = (value as string[]).map(rename);
    } else {
      copy[name] = renameObjectMembers(value);
    }
  }
  return copy;
}

import { compile, type JSONSchema } from 'json-schema-to-typescript';
import { interfaceName } from '../../load/event-key.js';
import type { Catalogue, Group } from '../../model.js';
import { generatedNote } from '../context.js';
import { eventSchema, type SchemaOptions, shapeSchema, shapesUsedBy } from '../json-schema.js';

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
  const text = await compile(root, 'EventPayloadMap', {
    bannerComment: `/* ${generatedNote(`catalogue/${group.source.file}`)} */`,
    format: false,
    additionalProperties: true,
    declareExternallyReferenced: true,
    strictIndexSignatures: false,
    unknownAny: true,
  });
  for (const name of names.keys()) {
    if (!text.includes(`export interface ${name} {`)) {
      throw new Error(`json-schema-to-typescript did not name an interface \`${name}\` in ${packageName}`);
    }
  }
  return `${text.trimEnd()}\n\n/** The key of an event of ${packageName}. */\nexport type EventKey = keyof EventPayloadMap;\n`;
}

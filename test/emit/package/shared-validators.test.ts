import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emitGroupPackages } from '../../../generators/emit/package/index.js';
import { compileEventValidators } from '../../../generators/emit/package/validators.js';
import type { Catalogue, EventVersion, Field } from '../../../generators/model.js';
import {
  standaloneEventSchema,
  VALIDATION_SCHEMA_ID,
  validationSchema,
} from '../../../generators/schema/json-schema.js';
import { loadValid, REPO } from '../../helpers.js';

// Events of a group with the same fields, types and shapes (an event and its `same_as` copy, a
// created/updated/removed trio) share one validator: compiled once, shipped once. What they share is
// decided by `validationSchema`, the closed schema without annotations; the ajv agreement test checks
// every event's shared validator against ajv compiling that event's own annotated schema.

const model = loadValid(join(REPO, 'catalogue'));

function withEvent(base: Catalogue, key: string, edit: (event: EventVersion) => EventVersion): Catalogue {
  const events = Object.assign(Object.create(null), base.events) as Catalogue['events'];
  events[key] = edit(base.events[key]!);
  return { ...base, events };
}

function withField(event: EventVersion, index: number, edit: (field: Field) => Field): EventVersion {
  return { ...event, fields: event.fields.map((field, i) => (i === index ? edit(field) : field)) };
}

/** The code that decides a verdict: the generated code without its embedded schema constants. */
const logic = (code: string) => code.replace(/^const schema\d+ = .*;\n/gm, '');

describe('validators shared by events of the same fields, types and shapes', async () => {
  const files = new Map((await emitGroupPackages(model, { versions: {} })).map((f) => [f.path, f.contents]));
  // The function an event's entry point hands `defineEvent` (its copy of the validator, 0195), and the
  // chunk of the group that holds that function.
  const entryOf = (group: string, key: string): [string, string, string] => {
    const id = /defineEvent\(key, (\w+)\);/.exec(files.get(`${group}/events/${key}.js`)!)![1]!;
    const [path] = [...files].find(
      ([file, text]) => file.startsWith(`${group}/chunks/`) && text.includes(`function ${id}(exports) {\n`),
    )!;
    return [key, id, path.slice(group.length + 1)];
  };

  it('the catalogue has such events, and each group ships one validator for each distinct schema', () => {
    let shipped = 0;
    for (const group of model.groups) {
      const byschema = new Map<string, string[]>();
      for (const key of group.events) {
        const text = JSON.stringify(validationSchema(model, key));
        byschema.set(text, [...(byschema.get(text) ?? []), key]);
      }
      for (const keys of byschema.values()) {
        // Every event of one schema has a copy of the same function of the same chunk, which holds it once.
        const [, id, chunk] = entryOf(group.slug, keys[0]!);
        for (const key of keys) expect(entryOf(group.slug, key).slice(1), key).toEqual([id, chunk]);
        const text = files.get(`${group.slug}/${chunk}`)!;
        expect(text.split(`function ${id}(exports) {\n`), `${group.slug} ${id}`).toHaveLength(2);
        expect(text).toContain(`/** ${keys.join(', ')}: ${keys.length > 1 ? 'their' : 'its'} validator`);
      }
      const code = [...files].filter(([path]) => path.startsWith(`${group.slug}/chunks/`));
      const count = code.reduce((n, [, text]) => n + (text.match(/^exports\.validate = /gm)?.length ?? 0), 0);
      expect(count, group.slug).toBe(byschema.size);
      shipped += count;
    }
    // 276 events, 225 distinct schemas when this was written: sharing is real, not a corner case.
    expect(shipped).toBeLessThan(Object.keys(model.events).length * 0.9);
  });

  it("each group's validators are in one chunk module, which only the group's index imports (0196)", () => {
    const largest = [...model.groups].sort((a, b) => b.events.length - a.events.length)[0]!;
    // Many events: chunks of a few would have made several modules.
    expect(largest.events.length).toBeGreaterThan(16);
    for (const group of model.groups) {
      const chunks = [...files.keys()].filter((path) => path.startsWith(`${group.slug}/chunks/`));
      expect(chunks, group.slug).toEqual([`${group.slug}/chunks/0.js`]);
      const index = files.get(`${group.slug}/index.js`)!;
      expect(index.match(/ from "\.\/chunks\/\d+\.js";/g), group.slug).toHaveLength(1);
    }
  });

  it('a schema differs by what validation reads, never by an annotation', () => {
    const key = model.groups
      .flatMap((group) => group.events)
      .find((k) => model.events[k]!.fields.length > 2)!;
    const of = (catalogue: Catalogue) => JSON.stringify(validationSchema(catalogue, key));
    const same = of(model);
    // Annotations: titles, descriptions, a deprecation.
    for (const edited of [
      withEvent(model, key, (event) => ({ ...event, title: 'Another title', description: 'Another text.' })),
      withEvent(model, key, (event) =>
        withField(event, 0, (field) => ({ ...field, description: 'Edited.' })),
      ),
      withEvent(model, key, (event) => ({ ...event, deprecated: { since: '2026-01-01', note: 'Old.' } })),
    ])
      expect(of(edited)).toBe(same);
    // What validation reads: a field's name, whether it is required, its type; an open (partial) event.
    for (const edited of [
      withEvent(model, key, (event) => withField(event, 0, (field) => ({ ...field, name: 'renamed' }))),
      withEvent(model, key, (event) =>
        withField(event, 0, (field) => ({ ...field, required: !field.required })),
      ),
      withEvent(model, key, (event) =>
        withField(event, 1, (field) => ({
          ...field,
          type: { kind: field.type.kind === 'integer' ? 'string' : 'integer' },
        })),
      ),
      withEvent(model, key, (event) => ({ ...event, partial: 'Listed in part.' })),
    ])
      expect(of(edited)).not.toBe(same);
  });

  it('fields called like annotations are fields: they stay in the validation schema', () => {
    const key = Object.keys(model.events)[0]!;
    const named = (name: string) =>
      validationSchema(
        withEvent(model, key, (event) => withField(event, 0, (field) => ({ ...field, name }))),
        key,
      ) as { properties: Record<string, unknown> };
    for (const name of ['description', 'title', '$comment', 'deprecated'])
      expect(Object.keys(named(name).properties), name).toContain(name);
    expect(JSON.stringify(named('description'))).not.toBe(JSON.stringify(named('title')));
  });

  it('compiles to the code each event’s own annotated schema compiles to, on every event', () => {
    for (const key of Object.keys(model.events)) {
      const own = { ...standaloneEventSchema(model, key, 'closed'), $id: VALIDATION_SCHEMA_ID };
      expect(logic(compileEventValidators(key, validationSchema(model, key)).code), key).toBe(
        logic(compileEventValidators(key, own).code),
      );
    }
  });

  it('names the event whose schema fails the meta-schema, though the schema has the shared $id', () => {
    const broken = { ...validationSchema(model, Object.keys(model.events)[0]!), required: 'account_number' };
    expect(() => compileEventValidators('account.broken-v1', broken)).toThrow(
      /^the schema of account\.broken-v1 is not valid JSON Schema 2020-12: \/required \(type\)/,
    );
  });
});

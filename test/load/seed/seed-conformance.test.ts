/**
 * The catalogue YAML, as the loader models it, must say exactly what the platform's published catalogue
 * (the seed markdown) says: the same events in the same groups, the same named shapes, and field by field
 * the same names, order, required flags and types.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../../generators/load/index.js';
import { formatProblem } from '../../../generators/load/problem.js';
import type { Catalogue, Field, FieldType } from '../../../generators/model.js';
import { describeWithResource } from '../../helpers.js';
import { findSeedCatalogue, loadSeedCatalogue, type SeedField, type SeedType } from './seed-catalogue.js';

/** The catalogue under test; `EVENTRY_CATALOGUE_ROOT` overrides it (to try the test on a modified copy). */
const CATALOGUE_ROOT =
  process.env.EVENTRY_CATALOGUE_ROOT ?? fileURLToPath(new URL('../../../catalogue', import.meta.url));

/** The model's field type as the seed notation would write it (format/enum are checked separately). */
function toSeedType(type: FieldType): SeedType {
  switch (type.kind) {
    case 'array':
      return { kind: 'array', items: toSeedType(type.items) };
    case 'shape':
      return { kind: 'shape', name: type.name };
    default:
      return { kind: type.kind };
  }
}

const toSeedFields = (fields: readonly Field[]): SeedField[] =>
  fields.map((f) => ({ name: f.name, required: f.required, type: toSeedType(f.type) }));

/** `name*:[Shape]`, the seed's own notation, for readable failure messages. */
function notation(field: SeedField): string {
  const type = (t: SeedType, inArray: boolean): string => {
    switch (t.kind) {
      case 'string':
        return inArray ? 'str' : '';
      case 'integer':
        return 'i';
      case 'number':
        return 'n';
      case 'boolean':
        return 'b';
      case 'object':
        return 'o';
      case 'array':
        return `[${type(t.items, true)}]`;
      case 'shape':
        return t.name;
    }
  };
  const suffix = type(field.type, false);
  return `${field.name}${field.required ? '*' : ''}${suffix ? `:${suffix}` : ''}`;
}

/** Asserts two field lists are equal, naming the first difference before the full diff. */
function expectSameFields(actual: SeedField[], expected: SeedField[], what: string): void {
  const a = actual.map(notation);
  const e = expected.map(notation);
  const first = Array.from({ length: Math.max(a.length, e.length) }, (_, i) => i).find((i) => a[i] !== e[i]);
  const message =
    first === undefined
      ? what
      : `${what}: field ${first + 1} is ${a[first] ?? '(none)'} in the catalogue but ${e[first] ?? '(none)'} in the seed`;
  expect(a, message).toEqual(e);
  expect(actual, message).toEqual(expected);
}

/** Names in `a` and not in `b`, sorted. */
const minus = (a: Iterable<string>, b: Iterable<string>): string[] => {
  const other = new Set(b);
  return [...a].filter((x) => !other.has(x)).sort();
};

/** Every field type in the model (fields of events and shapes, and array items), with where it is. */
function allTypes(model: Catalogue): { where: string; type: FieldType }[] {
  const out: { where: string; type: FieldType }[] = [];
  const visit = (where: string, type: FieldType): void => {
    out.push({ where, type });
    if (type.kind === 'array') visit(`${where}[]`, type.items);
  };
  for (const event of Object.values(model.events)) {
    for (const field of event.fields) visit(`${event.key}.${field.name}`, field.type);
  }
  for (const shape of Object.values(model.shapes)) {
    for (const field of shape.fields) visit(`${shape.name}.${field.name}`, field.type);
  }
  return out;
}

describeWithResource(
  'the catalogue conforms to the platform catalogue (seed)',
  findSeedCatalogue(),
  conformanceTests,
);

function conformanceTests(seedPath: string): void {
  const seed = loadSeedCatalogue(seedPath);
  const loaded = loadCatalogue(CATALOGUE_ROOT);
  const seedEventKeys = Object.keys(seed.events);
  const seedShapeNames = Object.keys(seed.shapes);

  /** The loaded catalogue; every comparison fails with this message when the loader reported problems. */
  const catalogue = (): Catalogue => {
    if (!loaded.ok) throw new Error('the catalogue did not load (see "loads without problems")');
    return loaded.catalogue;
  };

  it('loads without problems', () => {
    const problems = loaded.ok ? [] : loaded.problems.map((p) => formatProblem(p, 'catalogue'));
    expect(problems).toEqual([]);
  });

  it('has the same event keys', () => {
    const keys = Object.keys(catalogue().events);
    expect({ missing: minus(seedEventKeys, keys), extra: minus(keys, seedEventKeys) }).toEqual({
      missing: [],
      extra: [],
    });
    expect(keys).toHaveLength(276);
  });

  it('has the same 52 named shapes', () => {
    const names = Object.keys(catalogue().shapes);
    expect({ missing: minus(seedShapeNames, names), extra: minus(names, seedShapeNames) }).toEqual({
      missing: [],
      extra: [],
    });
    expect(names).toHaveLength(52);
  });

  it('has the same groups, by title', () => {
    const titles = catalogue().groups.map((g) => g.title);
    const seedTitles = seed.groups.map((g) => g.title);
    expect({ missing: minus(seedTitles, titles), extra: minus(titles, seedTitles) }).toEqual({
      missing: [],
      extra: [],
    });
    expect(titles).toHaveLength(seedTitles.length);
  });

  it('keys every event and shape by its own key and name', () => {
    const model = catalogue();
    const wrongEvents = Object.entries(model.events).filter(([key, e]) => e.key !== key);
    const wrongShapes = Object.entries(model.shapes).filter(([name, s]) => s.name !== name);
    expect(wrongEvents.map(([key, e]) => `${key} holds ${e.key}`)).toEqual([]);
    expect(wrongShapes.map(([name, s]) => `${name} holds ${s.name}`)).toEqual([]);
  });

  describe.each(seed.groups)('group "$title"', (seedGroup) => {
    it('holds the same events, in the seed order', () => {
      const group = catalogue().groups.find((g) => g.title === seedGroup.title);
      if (!group) throw new Error(`no group titled "${seedGroup.title}" in the catalogue`);
      expect({
        missing: minus(seedGroup.events, group.events),
        extra: minus(group.events, seedGroup.events),
      }).toEqual({
        missing: [],
        extra: [],
      });
      expect(group.events).toEqual(seedGroup.events);
    });
  });

  describe.each(seedEventKeys)('event %s', (key) => {
    const expected = seed.events[key]!;

    it('has the seed fields: names in order, required flags, types', () => {
      const event = catalogue().events[key];
      if (!event) throw new Error(`${key} (seed line ${expected.line}) is not in the catalogue`);
      expectSameFields(toSeedFields(event.fields), expected.fields, `${key} (seed line ${expected.line})`);
    });

    it('has the seed event type, version, group and partial flag', () => {
      const model = catalogue();
      const event = model.events[key];
      if (!event) throw new Error(`${key} (seed line ${expected.line}) is not in the catalogue`);
      const group = model.groups.find((g) => g.slug === event.group);
      expect({
        type: event.type,
        version: event.version,
        groupTitle: group?.title ?? `(no group with slug "${event.group}")`,
        listedInItsGroup: group?.events.includes(key) ?? false,
      }).toEqual({
        type: expected.type,
        version: expected.version,
        groupTitle: expected.group,
        listedInItsGroup: true,
      });
      if (expected.partial) {
        expect(event.partial, `${key} is listed only in part in the seed`).toEqual(expect.any(String));
        expect(event.partial?.trim()).not.toBe('');
      } else {
        expect(event.partial, `${key} is listed in full in the seed`).toBeUndefined();
      }
    });
  });

  describe.each(seedShapeNames)('shape %s', (name) => {
    it('has the seed fields: names in order, required flags, types', () => {
      const shape = catalogue().shapes[name];
      if (!shape) throw new Error(`shape ${name} is not in the catalogue`);
      expectSameFields(toSeedFields(shape.fields), seed.shapes[name]!, `shape ${name}`);
    });
  });

  it('declares no format or enum on any field (the seed declares none)', () => {
    const declaring = allTypes(catalogue())
      .filter(
        ({ type }) =>
          ('format' in type && type.format !== undefined) || ('enum' in type && type.enum !== undefined),
      )
      .map(({ where, type }) => `${where}: ${JSON.stringify(type)}`);
    expect(declaring).toEqual([]);
  });
}

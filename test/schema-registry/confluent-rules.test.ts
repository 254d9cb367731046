import { describe, expect, it } from 'vitest';
import {
  COMPATIBLE_CHANGES_LENIENT,
  COMPATIBLE_CHANGES_STRICT,
  DIFFERENCE_TYPES,
  LENIENT_EXTRA_BEFORE_DGS_24228,
} from '../../generators/schema-registry/confluent-diff/difference-types.js';
import { judgeDirection, loadSchemaText } from '../../generators/schema-registry/confluent-diff/verdict.js';

/**
 * Confluent's compatible-change sets as data, in the order of `SchemaDiff.java`'s static block
 * (confluentinc/schema-registry, json-schema-provider, io/confluent/kafka/schemaregistry/json/diff/,
 * commit 794611bd86d1, version 8.5.0-0; LENIENT as changed by DGS-24228, commit 014f07024e1, shipped in
 * 8.0.6, 8.1.4, 8.2.2 and 8.3+).
 */
const CONFLUENT_STRICT = [
  'ID_CHANGED',
  'DESCRIPTION_CHANGED',
  'TITLE_CHANGED',
  'DEFAULT_CHANGED',
  'SCHEMA_REMOVED',
  'TYPE_EXTENDED',
  'MAX_LENGTH_INCREASED',
  'MAX_LENGTH_REMOVED',
  'MIN_LENGTH_DECREASED',
  'MIN_LENGTH_REMOVED',
  'PATTERN_REMOVED',
  'MAXIMUM_INCREASED',
  'MAXIMUM_REMOVED',
  'MINIMUM_DECREASED',
  'MINIMUM_REMOVED',
  'EXCLUSIVE_MAXIMUM_INCREASED',
  'EXCLUSIVE_MAXIMUM_REMOVED',
  'EXCLUSIVE_MINIMUM_DECREASED',
  'EXCLUSIVE_MINIMUM_REMOVED',
  'MULTIPLE_OF_REDUCED',
  'MULTIPLE_OF_REMOVED',
  'REQUIRED_ATTRIBUTE_WITH_DEFAULT_ADDED',
  'REQUIRED_ATTRIBUTE_REMOVED',
  'DEPENDENCY_ARRAY_NARROWED',
  'DEPENDENCY_ARRAY_REMOVED',
  'DEPENDENCY_SCHEMA_REMOVED',
  'MAX_PROPERTIES_INCREASED',
  'MAX_PROPERTIES_REMOVED',
  'MIN_PROPERTIES_DECREASED',
  'MIN_PROPERTIES_REMOVED',
  'ADDITIONAL_PROPERTIES_ADDED',
  'ADDITIONAL_PROPERTIES_EXTENDED',
  'UNEVALUATED_PROPERTIES_ADDED',
  'UNEVALUATED_PROPERTIES_EXTENDED',
  'PROPERTY_WITH_EMPTY_SCHEMA_ADDED_TO_OPEN_CONTENT_MODEL',
  'REQUIRED_PROPERTY_WITH_DEFAULT_ADDED_TO_UNOPEN_CONTENT_MODEL',
  'OPTIONAL_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL',
  'PROPERTY_WITH_FALSE_REMOVED_FROM_CLOSED_CONTENT_MODEL',
  'PROPERTY_REMOVED_FROM_OPEN_CONTENT_MODEL',
  'PROPERTY_ADDED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL',
  'PROPERTY_REMOVED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL',
  'MAX_ITEMS_INCREASED',
  'MAX_ITEMS_REMOVED',
  'MIN_ITEMS_DECREASED',
  'MIN_ITEMS_REMOVED',
  'MAX_CONTAINS_INCREASED',
  'MAX_CONTAINS_REMOVED',
  'MIN_CONTAINS_DECREASED',
  'MIN_CONTAINS_REMOVED',
  'UNIQUE_ITEMS_REMOVED',
  'ADDITIONAL_ITEMS_ADDED',
  'ADDITIONAL_ITEMS_EXTENDED',
  'UNEVALUATED_ITEMS_ADDED',
  'UNEVALUATED_ITEMS_EXTENDED',
  'ITEM_WITH_EMPTY_SCHEMA_ADDED_TO_OPEN_CONTENT_MODEL',
  'ITEM_ADDED_TO_CLOSED_CONTENT_MODEL',
  'ITEM_WITH_FALSE_REMOVED_FROM_CLOSED_CONTENT_MODEL',
  'ITEM_REMOVED_FROM_OPEN_CONTENT_MODEL',
  'ITEM_ADDED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL',
  'ITEM_REMOVED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL',
  'ENUM_ARRAY_EXTENDED',
  'COMBINED_TYPE_EXTENDED',
  'PRODUCT_TYPE_NARROWED',
  'SUM_TYPE_EXTENDED',
  'NOT_TYPE_NARROWED',
];

/** What `COMPATIBLE_CHANGES_LENIENT` adds to STRICT after `COMPATIBLE_CHANGES_STRICT = ...`. */
const CONFLUENT_LENIENT_EXTRA = [
  'ADDITIONAL_PROPERTIES_NARROWED',
  'ADDITIONAL_PROPERTIES_REMOVED',
  'UNEVALUATED_PROPERTIES_NARROWED',
  'UNEVALUATED_PROPERTIES_REMOVED',
  'REQUIRED_PROPERTY_WITH_DEFAULT_ADDED_TO_OPEN_CONTENT_MODEL',
  'OPTIONAL_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL',
  'PROPERTY_REMOVED_FROM_OPEN_CONTENT_MODEL',
  'PROPERTY_REMOVED_FROM_CLOSED_CONTENT_MODEL',
  'PROPERTY_ADDED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL',
  'PROPERTY_REMOVED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL',
];

describe("Confluent's JSON Schema compatibility sets (SchemaDiff.java at 794611bd86d1)", () => {
  it("STRICT is exactly Confluent's set", () => {
    expect([...COMPATIBLE_CHANGES_STRICT].sort()).toEqual([...CONFLUENT_STRICT].sort());
  });

  it('LENIENT is STRICT plus exactly what Confluent adds', () => {
    expect([...COMPATIBLE_CHANGES_LENIENT].sort()).toEqual(
      // Java's HashSet: PROPERTY_REMOVED_FROM_OPEN_CONTENT_MODEL is added to both lists.
      [...new Set([...CONFLUENT_STRICT, ...CONFLUENT_LENIENT_EXTRA])].sort(),
    );
  });

  it('every type in the sets is a Difference.Type', () => {
    for (const type of [...CONFLUENT_STRICT, ...CONFLUENT_LENIENT_EXTRA, ...LENIENT_EXTRA_BEFORE_DGS_24228])
      expect(DIFFERENCE_TYPES).toContain(type);
  });

  it('LENIENT since DGS-24228: an optional property added to an open model and one removed from a closed model pass; a required one added to an open model does not', () => {
    expect(COMPATIBLE_CHANGES_LENIENT.has('OPTIONAL_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL')).toBe(true);
    expect(COMPATIBLE_CHANGES_LENIENT.has('PROPERTY_REMOVED_FROM_CLOSED_CONTENT_MODEL')).toBe(true);
    expect(COMPATIBLE_CHANGES_LENIENT.has('REQUIRED_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL')).toBe(false);
    // As first shipped (8.0.3 to 8.2.1) the removal from a closed model was not lenient-compatible.
    expect(LENIENT_EXTRA_BEFORE_DGS_24228).not.toContain('PROPERTY_REMOVED_FROM_CLOSED_CONTENT_MODEL');
  });
});

describe("the diff emits only Confluent's difference types, with its paths", () => {
  const load = (schema: unknown) => {
    const loaded = loadSchemaText(JSON.stringify(schema));
    if (!loaded.ok) throw new Error(loaded.error);
    return loaded.node;
  };
  it('a field renamed inside a named shape: removed from and added to the closed shape, under properties', () => {
    const doc = (name: string) => ({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { a: { $ref: '#/$defs/A' } },
      additionalProperties: false,
      $defs: {
        A: { type: 'object', additionalProperties: false, properties: { [name]: { type: 'string' } } },
      },
    });
    const verdict = judgeDirection(load(doc('old')), load(doc('new')), 'backward', 'STRICT');
    expect(verdict.incompatible).toEqual([
      { type: 'PROPERTY_REMOVED_FROM_CLOSED_CONTENT_MODEL', path: '#/properties/a/properties/old' },
    ]);
    expect(judgeDirection(load(doc('old')), load(doc('new')), 'backward', 'LENIENT').incompatible).toEqual(
      [],
    );
  });

  it('recursive-shape-stack-overflow: a shape that refers to itself loads once and its changes are seen', () => {
    const doc = (type: string) => ({
      $defs: {
        Node: { type: 'object', properties: { v: { type }, next: { $ref: '#/$defs/Node' } } },
      },
      $ref: '#/$defs/Node',
    });
    const verdict = judgeDirection(load(doc('string')), load(doc('integer')), 'backward', 'STRICT');
    // Confluent's second fixpoint pass feeds the incompatible pair back where the cycle re-enters it.
    expect(verdict.incompatible).toEqual([
      { type: 'TYPE_CHANGED', path: '#/properties/v' },
      { type: 'TYPE_CHANGED', path: '#/properties/next/properties/v' },
    ]);
  });

  it('a schema with a remote $ref is refused with where, not judged', () => {
    const loaded = loadSchemaText(
      JSON.stringify({ properties: { a: { $ref: 'https://example.com/a.json' } } }),
    );
    expect(loaded).toEqual({ ok: false, error: expect.stringContaining('#/properties/a/$ref') });
  });
});

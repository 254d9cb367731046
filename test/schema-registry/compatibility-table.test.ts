import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Catalogue, EventVersion, Field, FieldType } from '../../generators/model.js';
import { judgeCatalogues, type Policy } from '../../generators/schema-registry/compatibility.js';
import { REPO } from '../helpers.js';

/**
 * The change x level x policy table of generators/schema-registry/README.md is the contract: every cell is checked
 * against judgeCatalogues (the implementation behind `diff --level`, the same diff as `/compatibility`), for
 * each change the catalogue can express at the event's top level, in a named shape (`$defs`) and in the
 * shape of an array's items. The cells were derived by hand from Confluent's source (json/diff/*.java at
 * 794611bd86d1), not from the implementation.
 */

const source = { file: 'groups/shop.yaml', line: 1, column: 1 };
const field = (name: string, type: FieldType, required = false): Field => ({ name, type, required, source });
const KEY = 'shop.order-v1';

/** The fields every position starts with. */
const baseFields = (): Field[] => [
  field('id', { kind: 'string' }, true),
  field('note', { kind: 'string' }),
  field('count', { kind: 'integer' }, true),
  field('amount', { kind: 'number' }),
  field('status', { kind: 'string', enum: ['a', 'b'] }),
  field('day', { kind: 'string', format: 'date' }),
  field('address', { kind: 'shape', name: 'Address' }),
  field('meta', { kind: 'object' }),
];

interface Model {
  event: EventVersion;
  shapes: Record<string, Field[]>;
}

function baseModel(): Model {
  return {
    event: {
      key: KEY,
      type: 'shop.order',
      version: 'v1',
      group: 'shop',
      title: KEY,
      composition: { kind: 'fields' },
      source,
      fields: [
        ...baseFields(),
        field('parcel', { kind: 'shape', name: 'Parcel' }),
        field('lines', { kind: 'array', items: { kind: 'shape', name: 'Line' } }),
      ],
    },
    shapes: {
      Address: [field('street', { kind: 'string' }, true)],
      Parcel: baseFields(),
      Line: baseFields(),
    },
  };
}

function catalogue({ event, shapes }: Model): Catalogue {
  return {
    config: { title: 't', version: '1.0.0', scope: '@shop' },
    groups: [{ slug: 'shop', title: 'Shop', events: [KEY], source }],
    shapes: Object.fromEntries(
      Object.entries(shapes).map(([name, fields]) => [name, { name, fields, source }]),
    ),
    events: { [KEY]: event },
    hash: '',
  };
}

/** Where a field edit applies: the event's own fields, a shape's (`$defs`), an array item shape's. */
const POSITIONS = {
  'top level': (model: Model) => model.event.fields,
  'in a shape': (model: Model) => model.shapes.Parcel!,
  'in array items': (model: Model) => model.shapes.Line!,
} as const;
type Position = keyof typeof POSITIONS;

type Edit = (fields: Field[], model: Model) => void;
const partial: Edit = (_fields, model) => {
  model.event.partial = 'Only some fields are listed.';
};
const add =
  (name: string, required: boolean): Edit =>
  (fields) => {
    fields.push(field(name, { kind: 'string' }, required));
  };
const remove =
  (name: string): Edit =>
  (fields) => {
    fields.splice(
      fields.findIndex((f) => f.name === name),
      1,
    );
  };
const change =
  (name: string, edit: (f: Field) => void): Edit =>
  (fields) => {
    edit(fields.find((f) => f.name === name)!);
  };
const rename =
  (from: string, to: string): Edit =>
  (fields) => {
    fields.find((f) => f.name === from)!.name = to;
  };

/** Each row of the table: edits of the old and the new model; `event` rows apply to the top level only. */
const ROWS = new Map<string, { before?: Edit[]; after: Edit[]; event?: true }>([
  ['optional field added', { after: [add('gift', false)] }],
  ['required field added', { after: [add('gift', true)] }],
  [
    'optional field added to an open (partial) event',
    { before: [partial], after: [partial, add('gift', false)], event: true },
  ],
  [
    'required field added to an open (partial) event',
    { before: [partial], after: [partial, add('gift', true)], event: true },
  ],
  ['optional field removed', { after: [remove('note')] }],
  ['required field removed', { after: [remove('id')] }],
  [
    'optional field removed from an open event',
    { before: [partial], after: [partial, remove('note')], event: true },
  ],
  [
    'required field removed from an open event',
    { before: [partial], after: [partial, remove('id')], event: true },
  ],
  ['optional field renamed', { after: [rename('note', 'remark')] }],
  ['required field renamed', { after: [rename('id', 'ident')] }],
  ['optional field became required', { after: [change('note', (f) => (f.required = true))] }],
  ['required field became optional', { after: [change('id', (f) => (f.required = false))] }],
  ['type changed (string to integer)', { after: [change('id', (f) => (f.type = { kind: 'integer' }))] }],
  ['integer widened to number', { after: [change('count', (f) => (f.type = { kind: 'number' }))] }],
  ['number narrowed to integer', { after: [change('amount', (f) => (f.type = { kind: 'integer' }))] }],
  [
    'named shape to any object (`object`)',
    { after: [change('address', (f) => (f.type = { kind: 'object' }))] },
  ],
  [
    'any object (`object`) to a named shape',
    { after: [change('meta', (f) => (f.type = { kind: 'shape', name: 'Address' }))] },
  ],
  ['event closed (no longer partial)', { before: [partial], after: [], event: true }],
  ['event opened (made partial)', { after: [partial], event: true }],
  [
    'enum value added',
    { after: [change('status', (f) => (f.type = { kind: 'string', enum: ['a', 'b', 'c'] }))] },
  ],
  ['enum value removed', { after: [change('status', (f) => (f.type = { kind: 'string', enum: ['a'] }))] }],
  [
    'enum added to a field',
    { after: [change('note', (f) => (f.type = { kind: 'string', enum: ['x', 'y'] }))] },
  ],
  ['enum removed from a field', { after: [change('status', (f) => (f.type = { kind: 'string' }))] }],
  ['format added', { after: [change('note', (f) => (f.type = { kind: 'string', format: 'date' }))] }],
  ['format removed', { after: [change('day', (f) => (f.type = { kind: 'string' }))] }],
  ['format changed', { after: [change('day', (f) => (f.type = { kind: 'string', format: 'date-time' }))] }],
  [
    'description changed',
    {
      after: [
        (_fields, model) => {
          model.event.description = 'An order was placed.';
        },
      ],
      event: true,
    },
  ],
  [
    'deprecation added',
    {
      after: [
        (_fields, model) => {
          model.event.deprecated = { since: '1.1.0' };
        },
      ],
      event: true,
    },
  ],
]);

const COLUMNS = ['BACKWARD', 'FORWARD', 'FULL'].flatMap((level) =>
  (['STRICT', 'LENIENT'] as const).map((policy) => ({ level: level as 'BACKWARD', policy })),
);

/** The documented table: row name -> [Confluent differences, cells as booleans]. */
function documentedTable(): Map<string, { differences: string[]; cells: boolean[] }> {
  const doc = readFileSync(join(REPO, 'generators', 'schema-registry', 'README.md'), 'utf8');
  const table = /<!-- compatibility-table -->\n([\s\S]*?)<!-- \/compatibility-table -->/.exec(doc)![1]!;
  const rows = new Map<string, { differences: string[]; cells: boolean[] }>();
  for (const line of table.trim().split('\n').slice(2)) {
    const [name, differences, ...cells] = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
    rows.set(name!, {
      differences: differences!.replace(/`/g, '').split(/,\s*/).filter(Boolean),
      cells: cells.map((cell) => cell === '✓'),
    });
  }
  return rows;
}

function judge(
  row: { before?: Edit[]; after: Edit[] },
  position: Position,
  level: 'BACKWARD' | 'NONE',
  policy: Policy,
) {
  const before = baseModel();
  for (const edit of row.before ?? []) edit(POSITIONS[position](before), before);
  const after = baseModel();
  for (const edit of row.after) edit(POSITIONS[position](after), after);
  return judgeCatalogues(catalogue(before), catalogue(after), level, policy)[0]!;
}

const documented = documentedTable();

describe('generators/schema-registry/README.md compatibility table', () => {
  it('lists exactly the rows the test builds', () => {
    expect([...documented.keys()]).toEqual([...ROWS.keys()]);
  });

  const cases = [...ROWS].flatMap(([name, row]) =>
    (Object.keys(POSITIONS) as Position[])
      .filter((position) => !row.event || position === 'top level')
      .flatMap((position) => COLUMNS.map((column, index) => ({ name, row, position, ...column, index }))),
  );
  it.each(cases)('$name ($position), $level $policy', ({ name, row, position, level, policy, index }) => {
    const verdict = judge(row, position, level, policy);
    const expected = documented.get(name)!;
    expect(verdict.status === 'compatible').toBe(expected.cells[index]);
    // Every incompatibility is one of the differences the row names (Confluent's names).
    for (const incompatibility of verdict.incompatibilities)
      expect(expected.differences).toContain(incompatibility.difference);
  });

  it.each([...ROWS])('NONE accepts: %s', (_name, row) => {
    expect(judge(row, 'top level', 'NONE', 'STRICT').status).toBe('compatible');
  });
});

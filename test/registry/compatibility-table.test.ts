import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Catalogue, EventVersion, Field, FieldType } from '../../generators/model.js';
import { judgeCatalogues, type Policy } from '../../generators/registry/compatibility.js';
import { REPO } from '../helpers.js';

/**
 * The change kind x level x policy table of generators/registry/README.md is the contract: every cell is checked
 * against judgeCatalogues, the one implementation behind `/compatibility` and `diff --level`.
 */

const source = { file: 'groups/shop.yaml', line: 1, column: 1 };
const field = (name: string, type: FieldType, required = false): Field => ({ name, type, required, source });
const KEY = 'shop.order-v1';

function baseEvent(): EventVersion {
  return {
    key: KEY,
    type: 'shop.order',
    version: 'v1',
    group: 'shop',
    title: KEY,
    composition: { kind: 'fields' },
    source,
    fields: [
      field('id', { kind: 'string' }, true),
      field('note', { kind: 'string' }),
      field('count', { kind: 'integer' }, true),
      field('amount', { kind: 'number' }),
      field('status', { kind: 'string', enum: ['a', 'b'] }),
      field('day', { kind: 'string', format: 'date' }),
      field('address', { kind: 'shape', name: 'Address' }),
      field('meta', { kind: 'object' }),
    ],
  };
}

function catalogue(event: EventVersion): Catalogue {
  return {
    config: { title: 't', version: '1.0.0', scope: '@shop' },
    groups: [{ slug: 'shop', title: 'Shop', events: [KEY], source }],
    shapes: { Address: { name: 'Address', fields: [field('street', { kind: 'string' }, true)], source } },
    events: { [KEY]: event },
    hash: '',
  };
}

type Edit = (event: EventVersion) => void;
const partial: Edit = (event) => {
  event.partial = 'Only some fields are listed.';
};
const add =
  (name: string, required: boolean): Edit =>
  (event) => {
    event.fields.push(field(name, { kind: 'string' }, required));
  };
const remove =
  (name: string): Edit =>
  (event) => {
    event.fields = event.fields.filter((f) => f.name !== name);
  };
const change =
  (name: string, edit: (f: Field) => void): Edit =>
  (event) => {
    edit(event.fields.find((f) => f.name === name)!);
  };

/** Each row of the table: edits of the old and the new event. */
const ROWS = new Map<string, { before?: Edit[]; after: Edit[] }>([
  ['optional field added', { after: [add('gift', false)] }],
  ['required field added', { after: [add('gift', true)] }],
  [
    'optional field added to an open (partial) event',
    { before: [partial], after: [partial, add('gift', false)] },
  ],
  [
    'required field added to an open (partial) event',
    { before: [partial], after: [partial, add('gift', true)] },
  ],
  ['optional field removed', { after: [remove('note')] }],
  ['required field removed', { after: [remove('id')] }],
  ['optional field removed from an open event', { before: [partial], after: [partial, remove('note')] }],
  ['required field removed from an open event', { before: [partial], after: [partial, remove('id')] }],
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
  ['event closed (no longer partial)', { before: [partial], after: [] }],
  ['event opened (made partial)', { after: [partial] }],
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
        (event) => {
          event.description = 'An order was placed.';
        },
      ],
    },
  ],
  [
    'deprecation added',
    {
      after: [
        (event) => {
          event.deprecated = { since: '1.1.0' };
        },
      ],
    },
  ],
]);

const COLUMNS = ['BACKWARD', 'FORWARD', 'FULL'].flatMap((level) =>
  (['STRICT', 'LENIENT'] as const).map((policy) => ({ level: level as 'BACKWARD', policy })),
);

/** The documented table: row name -> [rule, cells as booleans]. */
function documentedTable(): Map<string, { rule: string; cells: boolean[] }> {
  const doc = readFileSync(join(REPO, 'generators', 'registry', 'README.md'), 'utf8');
  const table = /<!-- compatibility-table -->\n([\s\S]*?)<!-- \/compatibility-table -->/.exec(doc)![1]!;
  const rows = new Map<string, { rule: string; cells: boolean[] }>();
  for (const line of table.trim().split('\n').slice(2)) {
    const [name, rule, ...cells] = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
    rows.set(name!, { rule: rule!, cells: cells.map((cell) => cell === '✓') });
  }
  return rows;
}

function judge(row: { before?: Edit[]; after: Edit[] }, level: 'BACKWARD' | 'NONE', policy: Policy) {
  const before = baseEvent();
  for (const edit of row.before ?? []) edit(before);
  const after = baseEvent();
  for (const edit of row.after) edit(after);
  return judgeCatalogues(catalogue(before), catalogue(after), level, policy)[0]!;
}

const documented = documentedTable();

describe('generators/registry/README.md compatibility table', () => {
  it('lists exactly the rows the test builds', () => {
    expect([...documented.keys()]).toEqual([...ROWS.keys()]);
  });

  const cases = [...ROWS].flatMap(([name, row]) =>
    COLUMNS.map((column, index) => ({ name, row, ...column, index })),
  );
  it.each(cases)('$name, $level $policy', ({ name, row, level, policy, index }) => {
    const verdict = judge(row, level, policy);
    const expected = documented.get(name)!;
    expect(verdict.status === 'compatible').toBe(expected.cells[index]);
    // The rule column names the eventry finding behind the row.
    const rules = new Set(verdict.incompatibilities.map((incompatibility) => incompatibility.finding.rule));
    for (const rule of rules) expect(rule).toBe(expected.rule);
  });

  it.each([...ROWS])('NONE accepts: %s', (_name, row) => {
    expect(judge(row, 'NONE', 'STRICT').status).toBe('compatible');
  });
});

import { describe, expect, it } from 'vitest';
import { diffCatalogues, type ModelChange } from '../../generators/diff/diff.js';
import { fixFor } from '../../generators/diff/gate.js';
import { compareCatalogues } from '../../generators/diff/index.js';
import { loadCatalogueFromSources } from '../../generators/load/index.js';
import type { Catalogue } from '../../generators/model.js';

const CONFIG = 'title: T\nversion: 1.0.0\nscope: "@t"\n';

/** A catalogue from one group file's `events:` and `shapes:` text (YAML, indented as in a file). */
function catalogue(body: string, group = 'orders'): Catalogue {
  const result = loadCatalogueFromSources([
    { path: 'eventry.config.yaml', text: CONFIG },
    { path: 'group.yaml', text: `group:\n  slug: ${group}\n  title: Orders\n${body}` },
  ]);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.catalogue;
}

/** `kind attr` of each change, the shape of a diff at a glance. */
const summary = (changes: ModelChange[]) =>
  changes.map((change) => `${change.event} ${change.kind} ${change.attr ?? '-'}`);

describe('diffCatalogues: layout is not payload', () => {
  const cases: [string, { before: string; after: string }][] = [
    [
      'same_as replaced by the same fields written out',
      {
        before: `events:
  a.created-v1:
    fields: {id: {type: string, required: true}, note: {type: string}}
  a.removed-v1:
    same_as: a.created-v1
`,
        after: `events:
  a.created-v1:
    fields: {id: {type: string, required: true}, note: {type: string}}
  a.removed-v1:
    fields: {id: {type: string, required: true}, note: {type: string}}
`,
      },
    ],
    [
      'extends of a shape replaced by its fields (allOf flattened)',
      {
        before: `shapes:
  Base: {fields: {id: {type: integer, required: true}}}
events:
  a.created-v1:
    extends: Base
    fields: {at: {type: string, format: date}}
`,
        after: `shapes:
  Base: {fields: {id: {type: integer, required: true}}}
events:
  a.created-v1:
    fields: {id: {type: integer, required: true}, at: {type: string, format: date}}
`,
      },
    ],
    [
      'a shape renamed with the same fields ($ref target renamed)',
      {
        before: `shapes:
  Money: {fields: {amount: {type: integer, required: true}}}
events:
  a.created-v1:
    fields: {total: {type: [Money], required: true}}
`,
        after: `shapes:
  Amount: {fields: {amount: {type: integer, required: true}}}
events:
  a.created-v1:
    fields: {total: {type: [Amount], required: true}}
`,
      },
    ],
    [
      'fields reordered and enum values reordered',
      {
        before: `events:
  a.created-v1:
    fields: {a: {type: string, enum: [x, y]}, b: {type: integer}}
`,
        after: `events:
  a.created-v1:
    fields: {b: {type: integer}, a: {type: string, enum: [y, x]}}
`,
      },
    ],
    [
      'the default description written out',
      {
        before: `events:
  a.created-v1:
    fields: {a: {type: string}}
`,
        after: `events:
  a.created-v1:
    description: Payload of \`a.created\`, version v1.
    fields: {a: {type: string}}
`,
      },
    ],
  ];
  it.each(cases)('%s: no change', (_name, { before, after }) => {
    expect(diffCatalogues(catalogue(before), catalogue(after))).toEqual([]);
  });
});

describe('diffCatalogues: field by field, at any depth', () => {
  it('follows shapes inside arrays inside shapes, naming array items `[]`', () => {
    const shapes = (leaf: string) => `shapes:
  Trait: {fields: {data: {type: ${leaf}, required: true}}}
  Version: {fields: {traits: {type: [[Trait]], required: true}}}
events:
  g.created-v1:
    fields: {versions: {type: [Version], required: true}}
`;
    const changes = diffCatalogues(catalogue(shapes('object')), catalogue(shapes('string')));
    expect(summary(changes)).toEqual(['g.created-v1 type-changed versions[].traits[][].data']);
  });

  it('reports a change of a shared shape once in every event that uses it', () => {
    const text = (required: boolean) => `shapes:
  Money: {fields: {amount: {type: integer, required: ${required}}}}
events:
  a.created-v1: {fields: {total: {type: Money, required: true}}}
  b.created-v1: {fields: {price: {type: [Money], required: true}, tax: {type: Money}}}
`;
    expect(summary(diffCatalogues(catalogue(text(true)), catalogue(text(false))))).toEqual([
      'a.created-v1 required-changed total.amount',
      'b.created-v1 required-changed price[].amount',
      'b.created-v1 required-changed tax.amount',
    ]);
  });

  it('terminates on recursive shapes and still reports the change', () => {
    const text = (type: string) => `shapes:
  Node: {fields: {id: {type: ${type}, required: true}, children: {type: [Node], required: true}}}
events:
  tree.built-v1: {fields: {root: {type: Node, required: true}}}
`;
    expect(summary(diffCatalogues(catalogue(text('string')), catalogue(text('integer'))))).toEqual([
      'tree.built-v1 type-changed root.id',
    ]);
  });

  it('tells a free object, a shape, a scalar and an array apart', () => {
    const text = (a: string, b: string, c: string) => `shapes:
  S: {fields: {x: {type: string}}}
events:
  e.happened-v1: {fields: {a: {type: ${a}}, b: {type: ${b}}, c: {type: ${c}}}}
`;
    const changes = diffCatalogues(
      catalogue(text('object', 'S', 'string')),
      catalogue(text('S', 'object', '[string]')),
    );
    expect(
      changes.map((change) => change.kind === 'type-changed' && [change.attr, change.before, change.after]),
    ).toEqual([
      ['a', { kind: 'object' }, { kind: 'shape', name: 'S' }],
      ['b', { kind: 'shape', name: 'S' }, { kind: 'object' }],
      ['c', { kind: 'string' }, { kind: 'array', items: { kind: 'string' } }],
    ]);
  });

  it('reports a move between groups as one removal from one package, new in the other, with a fix that fits a move', () => {
    const text = 'events:\n  a.created-v1: {fields: {id: {type: string}}}\n';
    const before = catalogue(text, 'orders');
    const after = catalogue(text, 'billing');
    const changes = diffCatalogues(before, after);
    expect(changes.map((change) => [change.kind, change.group])).toEqual([
      ['event-removed', 'orders'],
      ['event-added', 'billing'],
    ]);
    const findings = compareCatalogues(before, after);
    expect(findings.map((f) => `${f.rule}: ${f.detail}`)).toEqual([
      "event-removed-without-deprecation: Event `a.created-v1` moved to group `billing` without being deprecated first: it is gone from this group's package.",
      'event-added: Event `a.created-v1` moved here from group `orders`.',
    ]);
    expect(fixFor(findings[0]!, before, after)).toMatch(
      /^Keep `a\.created-v1` in group `orders` and deprecate it there \(`deprecated: \{since, replaced_by\}`\); give group `billing` the next version `a\.created-v2` instead; remove it in a later release/,
    );
  });

  it('one removal is one finding: event-removed only when deprecated, event-removed-without-deprecation otherwise', () => {
    const kept = 'events:\n  a.created-v1: {fields: {id: {type: string}}}\n';
    const gone = 'events:\n  b.created-v1: {fields: {id: {type: string}}}\n';
    const deprecated =
      'events:\n  a.created-v1:\n    deprecated: {since: 1.0.0, note: Use b.created-v1}\n    fields: {id: {type: string}}\n';
    const abrupt = compareCatalogues(catalogue(kept), catalogue(gone)).filter(
      (f) => f.event === 'a.created-v1',
    );
    expect(abrupt.map((f) => f.rule)).toEqual(['event-removed-without-deprecation']);
    const noticed = compareCatalogues(catalogue(deprecated), catalogue(gone)).filter(
      (f) => f.event === 'a.created-v1',
    );
    expect(noticed.map((f) => f.detail)).toEqual([
      'Event `a.created-v1` was removed (deprecated since 1.0.0). Note: Use b.created-v1.',
    ]);
  });

  it('reports a removed field plus an added one of the same type in the same object as one likely rename', () => {
    const before = catalogue(
      'events:\n  a.created-v1: {fields: {note: {type: string}, n: {type: integer}}}\n',
    );
    const after = catalogue(
      'events:\n  a.created-v1: {fields: {remark: {type: string}, count: {type: string}}}\n',
    );
    expect(compareCatalogues(before, after).map((f) => `${f.rule} ${f.attr}: ${f.detail}`)).toEqual([
      'optional-field-added count: New field `count` (`string`, optional).',
      'field-renamed note: Field `note` (`string`, optional) was removed and `remark` (`string`, optional) added: likely a rename.',
      'field-removed n: Field `n` (`integer`, optional) was removed.',
    ]);
  });

  it('names the shape a change reaches an event through (innermost), with the detail said of the shape', () => {
    const shapes = (inner: string) =>
      `shapes:\n  Ledger: {fields: {account: {type: Account}}}\n  Account: {fields: {${inner}}}\nevents:\n  a.created-v1: {fields: {ledger: {type: Ledger}}}\n  b.created-v1: {fields: {entries: {type: [Ledger]}}}\n`;
    const findings = compareCatalogues(
      catalogue(shapes('number: {type: string}, iban: {type: string}')),
      catalogue(shapes('number: {type: string}')),
    );
    expect(findings.map((f) => [f.event, f.attr, f.via, f.detail])).toEqual([
      [
        'a.created-v1',
        'ledger.account.iban',
        { shape: 'Account', attr: 'iban', detail: 'Field `iban` (`string`, optional) was removed.' },
        'Field `ledger.account.iban` via shape `Account` (`string`, optional) was removed.',
      ],
      [
        'b.created-v1',
        'entries[].account.iban',
        { shape: 'Account', attr: 'iban', detail: 'Field `iban` (`string`, optional) was removed.' },
        'Field `entries[].account.iban` via shape `Account` (`string`, optional) was removed.',
      ],
    ]);
    expect(findings[0]!.oldLocation).toEqual({ file: 'group.yaml', line: 6, column: 46 });
  });

  it('points each change at the line of the new catalogue that holds it', () => {
    const before = catalogue('events:\n  a.created-v1:\n    fields:\n      id: {type: string}\n');
    const after = catalogue('events:\n  a.created-v1:\n    fields:\n      id: {type: integer}\n');
    expect(diffCatalogues(before, after)[0]?.location).toEqual({ file: 'group.yaml', line: 7, column: 7 });
  });
});

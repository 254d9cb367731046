import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  type CatalogueSourceFile,
  loadCatalogue,
  loadCatalogueFromSources,
  readCatalogueSources,
} from '../../generators/load/index.js';
import type { Catalogue, EventVersion, Field } from '../../generators/model.js';

const SMALL = fileURLToPath(new URL('../fixtures/small/catalogue/', import.meta.url));
const REAL = fileURLToPath(new URL('../../catalogue/', import.meta.url));

function load(sources: CatalogueSourceFile[]): Catalogue {
  const result = loadCatalogueFromSources(sources);
  if (!result.ok)
    throw new Error(`expected the catalogue to load, got ${JSON.stringify(result.problems, null, 2)}`);
  return result.catalogue;
}

const small = load(readCatalogueSources(SMALL));
const event = (key: string, catalogue = small): EventVersion => {
  const found = catalogue.events[key];
  if (!found) throw new Error(`no event ${key}`);
  return found;
};
const names = (fields: Field[]) => fields.map((f) => `${f.name}${f.required ? '*' : ''}`);
const at = (file: string, line: number, column: number) => ({ file, line, column });

describe('loadCatalogue: the small fixture', () => {
  it('reads the config, the groups (by slug, events in source order) and the shapes', () => {
    expect(small.config).toEqual({
      title: 'Small fixture catalogue',
      version: '1.0.0',
      scope: '@fixture-events',
    });
    expect(small.groups.map((g) => [g.slug, g.title, g.events])).toEqual([
      [
        'account',
        'Account and account user',
        [
          'account.created-v1',
          'account.removed-v1',
          'account.removed-v2',
          'lifecycle.support-site.sale-1.0.0',
        ],
      ],
      [
        'billing',
        'Billing and ledgers',
        [
          'billing.ledger.entry_posted-v1',
          'contract-groups.version-created-v1',
          'ink.conversation.closed-v1',
          'meterpoint.gas.partial-v1',
        ],
      ],
    ]);
    expect(Object.keys(small.shapes)).toEqual([
      'BillingAccount',
      'Ledger',
      'Period',
      'GroupTrait',
      'GroupVersion',
      'ConvBase',
    ]);
    expect(small.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('splits keys into type and version (vN and semver), defaults the title to the key, keeps descriptions', () => {
    expect(event('account.created-v1')).toMatchObject({
      key: 'account.created-v1',
      type: 'account.created',
      version: 'v1',
      group: 'account',
      title: 'account.created-v1',
      description: 'An account was created.',
      composition: { kind: 'fields' },
      source: at('groups/account.yaml', 6, 3),
    });
    expect(event('lifecycle.support-site.sale-1.0.0')).toMatchObject({
      type: 'lifecycle.support-site.sale',
      version: '1.0.0',
    });
    expect(small.shapes.Ledger).toMatchObject({
      description: 'A ledger and the account it belongs to.',
      source: at('shapes.yaml', 6, 3),
    });
  });

  it('reads scalar types, enum, format, nested arrays, required and field descriptions', () => {
    const fields = event('account.created-v1').fields;
    expect(fields.map((f) => [f.name, f.type, f.required])).toEqual([
      ['account_number', { kind: 'string' }, true],
      ['account_user_emails', { kind: 'array', items: { kind: 'string' } }, true],
      ['is_imported', { kind: 'boolean' }, false],
      ['status', { kind: 'string', enum: ['active', 'closed'] }, false],
      ['opened_on', { kind: 'string', format: 'date' }, false],
      ['score', { kind: 'number' }, false],
      ['tags', { kind: 'array', items: { kind: 'array', items: { kind: 'integer' } } }, false],
    ]);
    expect(fields[0]).toMatchObject({
      description: "The account's number, e.g. A-1234.",
      source: at('groups/account.yaml', 9, 7),
    });
    expect(fields.every((f) => f.inheritedFrom === undefined)).toBe(true);
    expect(small.shapes.Period?.fields.map((f) => f.type)).toEqual([
      { kind: 'string', format: 'date-time' },
      { kind: 'string', format: 'date-time' },
    ]);
  });

  it('same_as copies the exact field list, each field remembering where it came from', () => {
    const original = event('account.created-v1').fields;
    const copy = event('account.removed-v1');
    expect(copy.composition).toEqual({ kind: 'same_as', of: 'account.created-v1' });
    expect(copy.fields).toEqual(original.map((f) => ({ ...f, inheritedFrom: 'account.created-v1' })));
    // The source of a copied field is still its definition, so problems and docs point there.
    expect(copy.fields[0]?.source).toEqual(at('groups/account.yaml', 9, 7));
  });

  it('extends of an event: its fields (inherited), then the own fields', () => {
    const extended = event('account.removed-v2');
    expect(extended.composition).toEqual({ kind: 'extends', of: 'account.created-v1', ofKind: 'event' });
    expect(names(extended.fields)).toEqual([
      'account_number*',
      'account_user_emails*',
      'is_imported',
      'status',
      'opened_on',
      'score',
      'tags',
      'reason*',
      'changes*',
    ]);
    expect(extended.fields.map((f) => f.inheritedFrom)).toEqual([
      ...Array(7).fill('account.created-v1'),
      undefined,
      undefined,
    ]);
    expect(extended.fields.at(-1)).toMatchObject({
      type: { kind: 'object' },
      source: at('groups/account.yaml', 23, 7),
    });
  });

  it('extends of a shape: the shape fields are copied into the event, marked with the shape', () => {
    const closed = event('ink.conversation.closed-v1');
    expect(closed.composition).toEqual({ kind: 'extends', of: 'ConvBase', ofKind: 'shape' });
    expect(closed.fields.map((f) => [f.name, f.inheritedFrom, f.source])).toEqual([
      ['conversation_id', 'ConvBase', at('shapes.yaml', 28, 7)],
      ['account_number', 'ConvBase', at('shapes.yaml', 29, 7)],
      ['closed_at', undefined, at('groups/billing.yaml', 16, 7)],
    ]);
  });

  it('a field typed with a shape references it by name and never copies it', () => {
    expect(event('billing.ledger.entry_posted-v1').fields).toEqual([
      {
        name: 'ledger',
        type: { kind: 'shape', name: 'Ledger' },
        required: true,
        source: at('groups/billing.yaml', 8, 7),
      },
    ]);
    expect(event('contract-groups.version-created-v1').fields[1]?.type).toEqual({
      kind: 'array',
      items: { kind: 'shape', name: 'GroupVersion' },
    });
    expect(small.shapes.Ledger?.fields[0]?.type).toEqual({ kind: 'shape', name: 'BillingAccount' });
    expect(small.shapes.GroupVersion?.fields.map((f) => f.type)).toEqual([
      { kind: 'string' },
      { kind: 'shape', name: 'Period' },
      { kind: 'array', items: { kind: 'shape', name: 'GroupTrait' } },
    ]);
  });

  it('keeps partial and deprecated notices, only where they are written', () => {
    expect(event('meterpoint.gas.partial-v1').partial).toBe(
      'Only mprn is listed; the rest of the payload is not shown.',
    );
    expect(event('account.removed-v1').deprecated).toEqual({
      since: '1.0.0',
      replacedBy: 'account.removed-v2',
      note: 'Carries no reason.',
    });
    const others = Object.values(small.events).filter((e) => e.key !== 'meterpoint.gas.partial-v1');
    expect(others.filter((e) => e.partial !== undefined)).toEqual([]);
    expect(
      Object.values(small.events)
        .filter((e) => e.deprecated)
        .map((e) => e.key),
    ).toEqual(['account.removed-v1']);
  });

  it('a shape extending a shape, and an event extending an extended event, keep the original owner of each field', () => {
    const extra: CatalogueSourceFile = {
      path: 'more.yaml',
      text: [
        'shapes:',
        '  LedgerLine:',
        '    extends: Ledger',
        '    fields:',
        '      amount: {type: number, required: true}',
        'group: {slug: more, title: More}',
        'events:',
        '  account.removed-v3:',
        '    extends: account.removed-v2',
        '    fields:',
        '      line: {type: LedgerLine}',
        '',
      ].join('\n'),
    };
    const catalogue = load([...readCatalogueSources(SMALL), extra]);
    const line = catalogue.shapes.LedgerLine!;
    expect(line.extends).toBe('Ledger');
    expect(line.fields.map((f) => [f.name, f.inheritedFrom])).toEqual([
      ['account', 'Ledger'],
      ['number', 'Ledger'],
      ['id', 'Ledger'],
      ['amount', undefined],
    ]);
    const v3 = event('account.removed-v3', catalogue);
    expect(v3.fields.map((f) => f.inheritedFrom)).toEqual([
      ...Array(7).fill('account.created-v1'),
      'account.removed-v2',
      'account.removed-v2',
      undefined,
    ]);
    expect(v3.fields.at(-1)?.type).toEqual({ kind: 'shape', name: 'LedgerLine' });
  });

  it('gives the same model and hash whatever order the files come in', () => {
    const sources = readCatalogueSources(SMALL);
    expect(load([...sources].reverse())).toEqual(small);
    expect(
      load(sources.map((s) => (s.path === 'shapes.yaml' ? { ...s, text: `${s.text}\n` } : s))).hash,
    ).not.toBe(small.hash);
  });
});

describe('loadCatalogue: the real catalogue', () => {
  const result = loadCatalogue(REAL);

  it('loads with 276 events, 52 shapes and 19 groups', () => {
    if (!result.ok) throw new Error(`catalogue/ has problems:\n${JSON.stringify(result.problems, null, 2)}`);
    const { events, shapes, groups } = result.catalogue;
    expect(Object.keys(events)).toHaveLength(276);
    expect(Object.keys(shapes)).toHaveLength(52);
    expect(groups).toHaveLength(19);
    expect(groups.flatMap((g) => g.events).sort()).toEqual(Object.keys(events).sort());
    for (const group of groups) for (const key of group.events) expect(events[key]?.group).toBe(group.slug);
  });
});

import { describe, expect, it } from 'vitest';
import {
  type CatalogueProblem,
  formatProblem,
  loadCatalogueFromSources,
} from '../../generators/load/index.js';
import type { Catalogue } from '../../generators/model.js';
import { fixturePath, loadValid } from '../helpers.js';

const CONFIG = { path: 'eventry.config.yaml', text: 'title: T\nversion: 1.0.0\nscope: "@t"\n' };

const SHAPES = `shapes:
  Ledger:
    fields:
      number: {type: string, required: true}
      id: {type: string}
      account: {type: Account, required: true}
  Account:
    fields:
      number: {type: string, required: true}
      opened: {type: string, format: date}
  Other:
    fields:
      number: {type: string, required: true}
      id: {type: string}
      account: {type: Account, required: true}
`;

/** The old version's fields (`shop.sale-v1`), under `fields:`. */
const V1 = `      ledger: {type: Ledger, required: true}
      total: {type: number, required: true}
      note: {type: string}
      at: {type: string, format: date-time, required: true}
      tags: {type: [string], required: true}
      lines: {type: [Ledger], required: true}
      meta: {type: object}
`;

/** The new version's fields (`shop.sale-v2`). */
const V2 = `      ledger: {type: Ledger, required: true}
      total: {type: number, required: true}
      label: {type: string}
      count: {type: integer}
      day: {type: string, format: date}
      when: {type: string, format: date-time}
      kind: {type: string, enum: [a, b]}
      flags: {type: [boolean]}
      other: {type: Other}
      tags: {type: [string], required: true}
      lines: {type: [Ledger], required: true}
      at: {type: string, format: date-time, required: true}
`;

/** Loads `shop.sale-v1` and `shop.sale-v2` (with `extra` under v2: its upgrade, downgrade, ...). */
function load(
  extra: string,
  v2 = V2,
): { ok: true; catalogue: Catalogue } | { ok: false; problems: CatalogueProblem[] } {
  const group = `group: {slug: shop, title: Shop}
events:
  shop.sale-v1:
    fields:
${V1}  shop.sale-v2:
    fields:
${v2}${extra}`;
  return loadCatalogueFromSources([
    CONFIG,
    { path: 'groups/shop.yaml', text: group },
    { path: 'shapes.yaml', text: SHAPES },
  ]);
}

/** The problems of an upgrade of v2 from v1 with these steps (each a line of YAML list). */
function upgradeProblems(...steps: string[]): CatalogueProblem[] {
  const result = load(
    `    upgrade:\n      from: shop.sale-v1\n      steps:\n${steps.map((s) => `        - ${s}\n`).join('')}`,
  );
  return result.ok ? [] : result.problems;
}

/** The line of the first step in `upgradeProblems`' file. */
const FIRST_STEP_LINE = 5 + V1.split('\n').length - 1 + 2 + V2.split('\n').length - 1 + 3;

describe('migrations in the catalogue: the model', () => {
  it('reads the fixture: upgrades, a chain, a downgrade; paths as segments; where each is written', () => {
    const model = loadValid(fixturePath('migrations'));
    const removed = model.events['billing.ledger.entry_removed-v2']!;
    expect(removed.upgrade).toMatchObject({
      from: 'billing.ledger.entry_removed-v1',
      to: 'billing.ledger.entry_removed-v2',
      source: { file: 'groups/billing.yaml', line: 14, column: 5 },
    });
    expect(removed.upgrade!.steps.map(({ source: _, ...step }) => step)).toEqual([
      {
        kind: 'set',
        field: ['entry'],
        value: expect.objectContaining({ id: 0, source_reason: 'unknown' }),
      },
      { kind: 'set', field: ['entry', 'source_reason'], cel: "'migrated ' + message.ledger.number" },
      { kind: 'rename', from: ['ledger', 'id'], to: ['ledger', 'ledger_id'] },
      { kind: 'drop', fields: [['obsolete_note']] },
    ]);
    expect(removed.upgrade!.steps[2]!.source).toEqual({ file: 'groups/billing.yaml', line: 30, column: 11 });
    expect(removed.downgrade).toBeUndefined();
    const chain = ['v2', 'v3'].map(
      (v) => model.events[`billing.billing_document_representation.dispatched-${v}`]!.upgrade!.from,
    );
    expect(chain).toEqual([
      'billing.billing_document_representation.dispatched-v1',
      'billing.billing_document_representation.dispatched-v2',
    ]);
    const agreement = model.events['agreement.updated-v2']!;
    expect(agreement.downgrade).toMatchObject({ from: 'agreement.updated-v2', to: 'agreement.updated-v1' });
    expect(agreement.downgrade!.steps.at(-1)).toMatchObject({
      kind: 'drop',
      fields: [['details'], ['account_number'], ['revision']],
    });
    expect(model.events['agreement.updated-v1']!.upgrade).toBeUndefined();
  });

  it('keeps a constant as JSON, null included', () => {
    const result = load(
      '    upgrade:\n      from: shop.sale-v1\n      steps:\n        - set: {field: flags, value: [true, false]}\n',
    );
    expect(result.ok && result.catalogue.events['shop.sale-v2']!.upgrade!.steps[0]).toMatchObject({
      value: [true, false],
    });
  });
});

describe('`from`: an earlier version of the same event type', () => {
  const keyed = (keys: [string, string], from: string) => {
    const group = `group: {slug: shop, title: Shop}
events:
  ${keys[0]}:
    fields:
      a: {type: string, required: true}
  ${keys[1]}:
    fields:
      a: {type: string, required: true}
    upgrade: {from: ${from}, steps: []}
`;
    const result = loadCatalogueFromSources([CONFIG, { path: 'groups/shop.yaml', text: group }]);
    return result.ok ? [] : result.problems;
  };

  it('orders semver versions as semver (1.2.0 before 1.10.0), not as text', () => {
    expect(keyed(['shop.sale-1.2.0', 'shop.sale-1.10.0'], 'shop.sale-1.2.0')).toEqual([]);
    expect(keyed(['shop.sale-1.10.0', 'shop.sale-1.2.0'], 'shop.sale-1.10.0')).toMatchObject([
      { code: 'migration-invalid-from', line: 9, column: 21 },
    ]);
    expect(keyed(['shop.sale-v2', 'shop.sale-v10'], 'shop.sale-v2')).toEqual([]);
  });

  it('refuses itself, a later version, another type; names a missing one with a guess of the same type', () => {
    expect(keyed(['shop.sale-v1', 'shop.sale-v2'], 'shop.sale-v2')[0]!.message).toContain(
      'cannot upgrade from itself',
    );
    const other = keyed(['shop.sold-v1', 'shop.sale-v2'], 'shop.sold-v1');
    expect(other).toMatchObject([
      { code: 'migration-invalid-from', hint: 'Name an earlier version of `shop.sale`.' },
    ]);
    expect(keyed(['shop.sale-v1', 'shop.sale-v2'], 'shop.sale-v3')).toMatchObject([
      { code: 'unknown-event', line: 9, column: 21, hint: 'Did you mean `shop.sale-v1`?' },
    ]);
  });

  it('refuses a downgrade without an upgrade, at its key', () => {
    const result = load('    downgrade: {steps: []}\n');
    expect(result.ok ? [] : result.problems).toMatchObject([
      { code: 'migration-downgrade-alone', line: FIRST_STEP_LINE - 3, column: 5 },
    ]);
  });
});

describe('paths: each against the version it reads or writes', () => {
  it('checks set.field and rename.to against the new version, rename.from and drop against the old', () => {
    // `label` is only in v2, `note` only in v1.
    expect(
      upgradeProblems('set: {field: label, value: x}', 'rename: {from: note, to: label}', 'drop: [note]'),
    ).toEqual([]);
    const found = upgradeProblems(
      'set: {field: note, value: x}',
      'rename: {from: label, to: note}',
      'drop: [meta, label]',
    );
    expect(found.map((p) => [p.code, p.line - FIRST_STEP_LINE, p.column])).toEqual([
      ['migration-unknown-field', 0, 24],
      ['migration-unknown-field', 1, 26],
      ['migration-unknown-field', 1, 37],
      ['migration-unknown-field', 2, 24],
    ]);
    expect(found[0]!.message).toContain('not a field of `shop.sale-v2`');
    expect(found[1]!.message).toContain('not a field of `shop.sale-v1`');
  });

  it('goes through shapes, never through an array, into a free object or a scalar', () => {
    expect(upgradeProblems('set: {field: ledger.account.number, value: x}')).toEqual([]);
    const found = upgradeProblems(
      'set: {field: lines.number, value: x}',
      'drop: [meta.key]',
      'set: {field: total.value, value: 1}',
    );
    expect(found.map((p) => [p.code, p.column])).toEqual([
      ['migration-invalid-path', 24],
      ['migration-invalid-path', 18],
      ['migration-invalid-path', 24],
    ]);
    expect(found.map((p) => p.message)).toEqual([
      expect.stringContaining('an array ([Ledger]): a migration path never crosses an array'),
      expect.stringContaining('a free object'),
      expect.stringContaining('a number, which has no fields'),
    ]);
  });

  it('points at the segment that is wrong, with the whole path guessed', () => {
    const [problem] = upgradeProblems('rename: {from: ledger.acount.number, to: label}');
    expect(problem).toMatchObject({ code: 'migration-unknown-field', column: 33 });
    expect(problem!.hint).toBe('Did you mean `ledger.account`?');
  });
});

describe('a corpus of misspelt paths: each found, at its segment, with the path meant', () => {
  // Every field path of v1 through shapes, each misspelt at one segment in three ways.
  const paths = [
    'ledger',
    'ledger.number',
    'ledger.id',
    'ledger.account',
    'ledger.account.number',
    'ledger.account.opened',
    'total',
    'note',
    'tags',
    'lines',
    'meta',
  ];
  const misspell = (name: string): string[] => [
    name.slice(0, -1) + name.slice(-1).repeat(2),
    name.length > 3 ? name.slice(0, 1) + name.slice(2) : `${name}x`,
    name.length > 3 ? name.slice(0, 1) + name[2]! + name[1]! + name.slice(3) : `x${name}`,
  ];
  const cases = paths.flatMap((path) => {
    const segments = path.split('.');
    return segments.flatMap((segment, i) =>
      misspell(segment)
        .filter((wrong) => wrong !== segment)
        .map((wrong) => {
          const written = [...segments.slice(0, i), wrong, ...segments.slice(i + 1)].join('.');
          return {
            written,
            meant: segments.slice(0, i + 1).join('.'),
            offset: segments.slice(0, i).join('.').length + (i > 0 ? 1 : 0),
          };
        }),
    );
  });

  it.each(cases)('drop: [$written]', ({ written, meant, offset }) => {
    const [problem, ...rest] = upgradeProblems(`drop: [${written}]`);
    expect(rest).toEqual([]);
    expect(problem).toMatchObject({ code: 'migration-unknown-field', column: 18 + offset });
    expect(problem!.hint).toBe(`Did you mean \`${meant}\`?`);
  });
});

describe('set.value fits the field, checked with its JSON Schema', () => {
  it.each([
    ['count', '1', true],
    ['count', '1.5', false],
    ['count', '"1"', false],
    ['label', 'null', false],
    ['day', '"2024-02-29"', true],
    ['day', '"2023-02-29"', false],
    ['when', '"2024-01-31T12:00:00Z"', true],
    ['when', '"yesterday"', false],
    ['kind', 'a', true],
    ['kind', 'c', false],
    ['flags', '[true, 1]', false],
    ['flags', '[]', true],
    ['other', '{number: x, account: {number: y}}', true],
    ['other', '{number: x}', false],
    ['other', '{number: x, account: {number: y, opened: "2024-13-01"}}', false],
  ])('%s: %s (fits: %s)', (field, value, fits) => {
    const found = upgradeProblems(`set: {field: ${field}, value: ${value}}`);
    expect(found.map((p) => p.code)).toEqual(fits ? [] : ['migration-invalid-value']);
  });

  it('names the dot path of the misfit and points at it in the value', () => {
    const [problem] = upgradeProblems('set: {field: other, value: {number: x, account: {number: 1}}}');
    expect(problem).toMatchObject({ code: 'migration-invalid-value', column: 68 });
    expect(problem!.message).toContain('`other.account.number` must be string');
    const [missing] = upgradeProblems('set: {field: other, value: {account: {number: y}}}');
    expect(missing!.message).toContain('`other.number` is missing');
    const [unknown] = upgradeProblems(
      'set: {field: other, value: {number: x, account: {number: y}, idd: z}}',
    );
    expect(unknown).toMatchObject({ column: 72, hint: 'Did you mean `id`?' });
    expect(unknown!.message).toContain('`other.idd` is not a field');
  });
});

describe('set.cel: type-checked over the old payload, its result held to the field', () => {
  it.each([
    ['label', "'x' + message.ledger.number", true],
    ['total', 'message.total * 2.0', true],
    ['count', 'size(message.tags)', true],
    ['when', 'message.at', true],
    ['tags', 'message.tags', true],
    ['day', 'timestamp(message.at)', false],
    ['label', 'message.total', false],
    ['flags', 'message.tags', false],
    ['other', 'message.ledger', false],
    ['ledger', 'message.ledger', true],
    ['label', "has(message.note) ? message.note : ''", true],
  ])('%s = %s (fits: %s)', (field, cel, fits) => {
    const found = upgradeProblems(`set: {field: ${field}, cel: "${cel}"}`);
    expect(found.map((p) => p.code)).toEqual(fits ? [] : ['migration-type-mismatch']);
  });

  it('reports the rules’ codes inside the expression: unknown field, unguarded read, syntax, unsupported', () => {
    const found = upgradeProblems(
      'set: {field: label, cel: "message.ledger.numbr"}',
      'set: {field: label, cel: "message.note"}',
      'set: {field: label, cel: "message.note +"}',
      'set: {field: label, cel: "this.note"}',
    );
    expect(found.map((p) => [p.code, p.line - FIRST_STEP_LINE, p.column])).toEqual([
      ['rule-unknown-field', 0, 52],
      ['rule-unguarded-field', 1, 45],
      ['rule-syntax-error', 2, 50],
      ['rule-unknown-field', 3, 37],
    ]);
    expect(found[0]!.hint).toBe('Did you mean `number`?');
    expect(found[1]!.message).toContain('the migration would throw');
  });

  it('refuses what fits but the registry’s JSONata cannot say, at the expression', () => {
    const found = upgradeProblems(
      'set: {field: when, cel: "timestamp(message.at)"}',
      `set: {field: tags, cel: "message.tags.map(t, t + '!')"}`,
    );
    expect(found.map((p) => [p.code, p.line - FIRST_STEP_LINE])).toEqual([
      ['rule-unsupported', 0],
      ['rule-unsupported', 1],
    ]);
    expect(found[0]!.message).toContain('JSONata');
  });

  it('reads the old version, not the new one', () => {
    expect(upgradeProblems('set: {field: label, cel: "message.label"}')[0]!.message).toContain(
      '`shop.sale-v1` has no field `label`',
    );
  });
});

describe('a required field of the new version that nothing gives', () => {
  const v2With = (extra: string) => `${V2}${extra}`;
  const problemsWith = (fields: string, ...steps: string[]) => {
    const result = load(
      `    upgrade:\n      from: shop.sale-v1\n      steps:${steps.length === 0 ? ' []' : ''}\n${steps.map((s) => `        - ${s}\n`).join('')}`,
      v2With(fields),
    );
    return result.ok ? [] : result.problems;
  };

  it('is a problem naming it, at `upgrade:`, unless a step sets it or renames to it', () => {
    const found = problemsWith('      code: {type: string, required: true}\n');
    expect(found).toMatchObject([{ code: 'migration-required-unset', column: 5 }]);
    expect(formatProblem(found[0]!)).toContain('`code` is required in `shop.sale-v2`');
    expect(
      problemsWith('      code: {type: string, required: true}\n', 'set: {field: code, value: x}'),
    ).toEqual([]);
    expect(
      problemsWith('      code: {type: string, required: true}\n', 'rename: {from: note, to: code}'),
    ).toEqual([]);
  });

  it('follows a parent the steps create, and sees a field the steps drop', () => {
    const found = problemsWith(
      '      more: {type: Other, required: true}\n',
      'set: {field: more.number, value: x}',
    );
    expect(found.map((p) => p.message)).toEqual([expect.stringContaining('`more.account` is required')]);
    expect(problemsWith('', 'drop: [total]').map((p) => p.message)).toEqual([
      expect.stringContaining('`total` is required in `shop.sale-v2`, but the steps remove it'),
    ]);
  });

  it('checks a downgrade the other way: the old version’s required fields from the new payload', () => {
    const result = load(
      '    upgrade: {from: shop.sale-v1, steps: []}\n    downgrade:\n      steps:\n        - drop: [total]\n',
    );
    expect(result.ok ? [] : result.problems.map((p) => p.message)).toEqual([
      expect.stringContaining('`total` is required in `shop.sale-v1`, but the steps remove it'),
    ]);
  });
});

import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  joinPath,
  STANDARD_VENDOR,
  toPathSegments,
  type ValidateOptions,
} from '../../../generators/runtime/runtime.js';
import { fixturePath, REPO, typeCheckProject } from '../../helpers.js';
import { type BuiltPackages, buildPackages } from './build-packages.js';

/**
 * Each group package's events as Standard Schema V1 objects (`standardSchemas`, and `standardSchema` of
 * an event's entry point): `~standard.validate` gives `{ value }` for what `validate` accepts, and for
 * what it refuses one issue per error item, its `detail` as `message` and its `attr` as path segments
 * with array indexes as numbers; typed with the event's interface.
 */
type Schemas = Record<string, StandardSchemaV1<unknown, unknown>>;
interface GroupModule {
  eventKeys: readonly string[];
  validate(key: string, payload: unknown, options?: ValidateOptions): { valid: boolean; error?: unknown };
  standardSchemas: Schemas;
  tolerantStandardSchemas: Schemas;
}
interface EventModule {
  validate(payload: unknown, options?: ValidateOptions): { valid: boolean };
  standardSchema: StandardSchemaV1<unknown, unknown>;
  tolerantStandardSchema: StandardSchemaV1<unknown, unknown>;
}

let built: BuiltPackages;
let billing: GroupModule;
let account: GroupModule;
beforeAll(async () => {
  built = await buildPackages(fixturePath('small'));
  billing = (await built.importGroup('billing')) as unknown as GroupModule;
  account = (await built.importGroup('account')) as unknown as GroupModule;
}, 60_000);

const VERSIONS = 'contract-groups.version-created-v1';
const version = (traits: unknown[]) => ({
  identifier: 'v1',
  effective_period: { start: '2024-01-01T00:00:00Z', end: '2024-02-01T00:00:00Z' },
  traits,
});
const VALID = {
  contract_group_identifier: 'g',
  created_versions: [version([{ identifier: 't', data: {} }])],
};
/** Three problems deep in arrays of shapes, and an undocumented field inside one. */
const INVALID = {
  contract_group_identifier: 'g',
  created_versions: [
    version([]),
    version([
      { identifier: 't', data: {} },
      { identifier: 5, data: {}, extra: true },
    ]),
    { ...version([]), effective_period: { start: 'yesterday', end: '2024-02-01T00:00:00Z' } },
  ],
};

/** Validates synchronously (eventry's `~standard.validate` never returns a promise). */
function run(schema: StandardSchemaV1<unknown, unknown>, value: unknown, options?: StandardSchemaV1.Options) {
  const result = schema['~standard'].validate(value, options);
  if (result instanceof Promise) throw new Error('a promise');
  return result;
}

describe('standardSchemas of a group package', () => {
  it('has one schema per event key, version 1, vendor eventry', () => {
    expect(Object.keys(billing.standardSchemas)).toEqual([...billing.eventKeys]);
    expect(Object.keys(billing.tolerantStandardSchemas)).toEqual([...billing.eventKeys]);
    for (const schema of Object.values(billing.standardSchemas)) {
      expect(schema['~standard']).toMatchObject({ version: 1, vendor: STANDARD_VENDOR });
      expect(STANDARD_VENDOR).toBe('eventry');
    }
  });

  it('gives { value } with the payload itself for a valid payload', () => {
    const result = run(billing.standardSchemas[VERSIONS]!, VALID);
    expect(result.issues).toBeUndefined();
    expect((result as StandardSchemaV1.SuccessResult<unknown>).value).toBe(VALID);
  });

  it("gives the platform's details as messages and the attrs as segments, indexes as numbers", () => {
    const result = run(billing.standardSchemas[VERSIONS]!, INVALID);
    const body = billing.validate(VERSIONS, INVALID) as {
      error: { errors: { detail: string; attr: string }[] };
    };
    expect(result.issues?.map((issue) => issue.message)).toEqual(body.error.errors.map((e) => e.detail));
    expect(result.issues?.map((issue) => issue.path)).toEqual([
      ['created_versions', 1, 'traits', 1, 'extra'],
      ['created_versions', 1, 'traits', 1, 'identifier'],
      ['created_versions', 2, 'effective_period', 'start'],
    ]);
    expect(body.error.errors.map((e) => e.attr)).toContain('created_versions.1.traits.1.identifier');
  });

  it('is strict in standardSchemas and tolerant in tolerantStandardSchemas, or as libraryOptions say', () => {
    const withExtra = { ...VALID, sent_by: 'a newer producer' };
    expect(run(billing.standardSchemas[VERSIONS]!, withExtra).issues?.map((i) => i.path)).toEqual([
      ['sent_by'],
    ]);
    expect(run(billing.tolerantStandardSchemas[VERSIONS]!, withExtra)).toEqual({ value: withExtra });
    const tolerant = { libraryOptions: { mode: 'tolerant' } };
    expect(run(billing.standardSchemas[VERSIONS]!, withExtra, tolerant)).toEqual({ value: withExtra });
    const strict = { libraryOptions: { mode: 'strict' } };
    expect(run(billing.tolerantStandardSchemas[VERSIONS]!, withExtra, strict).issues).toHaveLength(1);
    // In tolerant mode the undocumented field deep down is no problem; the other two still are.
    expect(run(billing.tolerantStandardSchemas[VERSIONS]!, INVALID).issues).toHaveLength(2);
    const capped = run(billing.standardSchemas[VERSIONS]!, INVALID, { libraryOptions: { maxErrors: 1 } });
    expect(capped.issues?.map((issue) => issue.path)).toEqual([
      ['created_versions', 1, 'traits', 1, 'extra'],
      [],
    ]);
  });

  it('reports a payload that is not an object, and one whose reading throws, at the empty path', () => {
    expect(run(account.standardSchemas['account.created-v1']!, 'text').issues).toEqual([
      { message: 'The payload must be an object, not a string.', path: [] },
    ]);
    const hostile = {
      get account_number(): string {
        throw new Error('no');
      },
    };
    const issues = run(account.standardSchemas['account.created-v1']!, hostile).issues;
    expect(issues).toEqual([{ message: 'The payload could not be read (Error: no).', path: [] }]);
  });
});

describe('standardSchema of an event entry point', () => {
  it('is the same mapping, in both modes', async () => {
    const event = (await built.importEvent(
      'billing',
      'billing.ledger.entry_posted-v1',
    )) as unknown as EventModule;
    const payload = { ledger: { account: {}, number: 'L1', note: 'x' } };
    expect(run(event.standardSchema, payload).issues).toEqual([
      {
        message: '`ledger.note` is not a documented field; only documented fields may be sent.',
        path: ['ledger', 'note'],
      },
      { message: '`ledger.account.number` is required but missing.', path: ['ledger', 'account', 'number'] },
    ]);
    expect(run(event.tolerantStandardSchema, payload).issues?.map((i) => i.path)).toEqual([
      ['ledger', 'account', 'number'],
    ]);
    const valid = { ledger: { account: { number: 'A' }, number: 'L1' } };
    expect(run(event.standardSchema, valid)).toEqual({ value: valid });
    expect(event.standardSchema['~standard']).toMatchObject({ version: 1, vendor: 'eventry' });
  });
});

describe('toPathSegments', () => {
  it('reads quoted keys (dots, quotes, empty, digits) as keys and plain digits as indexes', () => {
    expect(toPathSegments('')).toEqual([]);
    expect(toPathSegments('entry.items.0.id')).toEqual(['entry', 'items', 0, 'id']);
    expect(toPathSegments('odds.10."a.b"')).toEqual(['odds', 10, 'a.b']);
    expect(toPathSegments('odds.0."\\"q".""')).toEqual(['odds', 0, '"q', '']);
    expect(toPathSegments('meta."0".x/y~z')).toEqual(['meta', '0', 'x/y~z']);
  });

  it('gives back the segments of any attr the run time writes (joinPath for keys, indexes as digits)', () => {
    const segment = fc.oneof(fc.string(), fc.nat(), fc.constantFrom('.', '"', '', '0', '01', 'a.b', '\\'));
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 6 }), (segments) => {
        const attr = segments.reduce<string>(
          (path, part) =>
            typeof part === 'number' ? (path === '' ? `${part}` : `${path}.${part}`) : joinPath(path, part),
          '',
        );
        expect(toPathSegments(attr)).toEqual(segments);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('types', () => {
  it("infer the event's interface, as @standard-schema/spec's own types read it", () => {
    for (const name of ['@standard-schema', 'fast-check']) {
      symlinkSync(join(REPO, 'node_modules', name), join(built.root, 'node_modules', name), 'dir');
    }
    writeFileSync(join(built.root, 'package.json'), '{ "private": true, "type": "module" }\n');
    writeFileSync(join(built.root, 'consumer.ts'), CONSUMER_TYPES);
    const checked = typeCheckProject(built.root, ['consumer.ts']);
    expect(checked.output).toBe('');
    expect(checked.errors).toEqual([]);
    expect(checked.status).toBe(0);
    // The checks can fail: a wrong interface is refused.
    writeFileSync(join(built.root, 'wrong.ts'), CONSUMER_TYPES.replaceAll('// @ts-expect-error: ', '// '));
    expect(typeCheckProject(built.root, ['wrong.ts']).errors).toEqual([
      'TS2322 (line 14)',
      'TS2322 (line 16)',
    ]);
  });
});

const CONSUMER_TYPES = `import type { StandardSchemaV1 } from '@standard-schema/spec';
import { type BillingLedgerEntryPostedV1, type ContractGroupsVersionCreatedV1, standardSchemas, tolerantStandardSchemas } from '@fixture-events/billing';
import { standardSchema } from '@fixture-events/billing/events/billing.ledger.entry_posted-v1';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Versions = StandardSchemaV1.InferOutput<(typeof standardSchemas)['contract-groups.version-created-v1']>;
type Posted = StandardSchemaV1.InferOutput<typeof standardSchema>;
type Tolerant = StandardSchemaV1.InferOutput<(typeof tolerantStandardSchemas)['billing.ledger.entry_posted-v1']>;
export const versions: Equal<Versions, ContractGroupsVersionCreatedV1> = true;
export const posted: Equal<Posted, BillingLedgerEntryPostedV1> = true;
export const tolerant: Equal<Tolerant, BillingLedgerEntryPostedV1> = true;
export const schema: StandardSchemaV1<unknown, ContractGroupsVersionCreatedV1> = standardSchemas['contract-groups.version-created-v1'];
// @ts-expect-error: another event's interface
export const other: Equal<Versions, BillingLedgerEntryPostedV1> = true;
// @ts-expect-error: another event's schema
export const wrong: StandardSchemaV1<unknown, BillingLedgerEntryPostedV1> = standardSchemas['contract-groups.version-created-v1'];
export async function read(input: unknown): Promise<string> {
  const result = await standardSchema['~standard'].validate(input);
  if (result.issues) return result.issues.map((issue) => \`\${issue.path?.join('.')}: \${issue.message}\`).join('; ');
  return result.value.ledger.number;
}
`;

import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CompiledExports,
  type CompiledValidator,
  defineEvent,
  defineGroup,
  type GroupApi,
  type ValidateOptions,
  type ValidatorContext,
} from '../../../generators/runtime/runtime.js';
import { fixturePath } from '../../helpers.js';
import { type BuiltPackages, buildPackages } from './build-packages.js';

/**
 * The run time makes the texts of an error once per place in the generated code (and kind of value, or
 * undocumented key) and reuses them: whatever a place reported before, each result says what this
 * payload did, and its items are its own objects.
 */
let built: BuiltPackages;
let account: GroupApi<Record<string, unknown>>;
let billing: GroupApi<Record<string, unknown>>;
beforeAll(async () => {
  built = await buildPackages(fixturePath('small'));
  account = await built.importGroup('account');
  billing = await built.importGroup('billing');
});

const valid = { account_number: 'A-1', account_user_emails: ['a@example.com'] };
const items = (group: GroupApi<Record<string, unknown>>, key: string, payload: unknown) => {
  const result = group.validate(key, payload);
  return result.valid ? [] : result.error.errors.map((item) => ({ ...item }));
};

describe('error texts made once per place', () => {
  it('a wrong type at one place says the kind of value of each payload', () => {
    const at = (value: unknown) => items(account, 'account.created-v1', { ...valid, account_number: value });
    const fraction = '`account_number` must be a string, not a number with a fraction.';
    expect(at(12.5)).toEqual([{ detail: fraction, code: 'invalid_type', attr: 'account_number' }]);
    expect(at(7)[0]!.detail).toBe('`account_number` must be a string, not an integer.');
    expect(at(null)[0]!.detail).toBe(
      '`account_number` must be a string, not null; null is never a value here: a required field needs a string, an optional field with no value is left out.',
    );
    expect(at([])[0]!.detail).toBe('`account_number` must be a string, not an array.');
    expect(at(12.5)[0]!.detail).toBe(fraction);
    // Kinds a JSON payload cannot have but an object can: each named, none taken for another.
    expect(at(Number.NaN)[0]!.detail).toBe('`account_number` must be a string, not NaN.');
    expect(at(-Infinity)[0]!.detail).toBe('`account_number` must be a string, not -Infinity.');
    expect(at({})[0]!.detail).toBe('`account_number` must be a string, not an object.');
    expect(at(true)[0]!.detail).toBe('`account_number` must be a string, not a boolean.');
    expect(at(10n)[0]!.detail).toBe('`account_number` must be a string, not a BigInt.');
    expect(at(7)[0]!.detail).toBe('`account_number` must be a string, not an integer.');
    expect(at(null)[0]!.detail).toContain('not null; null is never a value here');
  });

  it('an undocumented field at one place is named by each payload', () => {
    const long = `x${'y'.repeat(300)}`;
    for (const key of ['extra', 'other', long, 'extra', '0', 'a.b']) {
      const attr = key === '0' || key === 'a.b' ? JSON.stringify(key) : key;
      expect(items(account, 'account.created-v1', { ...valid, [key]: 1 })).toEqual([
        {
          detail: `\`${attr}\` is not a documented field; only documented fields may be sent.`,
          code: 'unknown_field',
          attr,
        },
      ]);
    }
  });

  it('paths with an array index are made for each payload', () => {
    const period = { start: '2024-01-01T00:00:00Z', end: '2024-02-01T00:00:00Z' };
    const version = (traits: unknown[]) => ({ identifier: 'v', effective_period: period, traits });
    const attrs = (index: number) => {
      const created_versions = [version([]), version([])];
      created_versions[index] = version([{ identifier: 't', data: {}, extra: 1 }]);
      const payload = { contract_group_identifier: 'g', created_versions };
      return items(billing, 'contract-groups.version-created-v1', payload).map((item) => item.attr);
    };
    expect(attrs(0)).toEqual(['created_versions.0.traits.0.extra']);
    expect(attrs(1)).toEqual(['created_versions.1.traits.0.extra']);
    expect(attrs(0)).toEqual(['created_versions.0.traits.0.extra']);
  });

  it('a null payload is not told what a null field is told, whichever came first', () => {
    const nullField = items(billing, 'billing.ledger.entry_posted-v1', { ledger: null });
    expect(nullField).toEqual([
      {
        detail:
          '`ledger` must be an object, not null; null is never a value here: a required field needs an object, an optional field with no value is left out.',
        code: 'invalid_type',
        attr: 'ledger',
      },
    ]);
    expect(items(billing, 'billing.ledger.entry_posted-v1', null)).toEqual([
      { detail: 'The payload must be an object, not null.', code: 'invalid_type', attr: '' },
    ]);
  });

  it("each result's items are its own: changing one changes no later result", () => {
    const payload = { account_user_emails: [], extra: 1 };
    const first = account.validate('account.created-v1', payload);
    if (first.valid) throw new Error('expected a failure');
    const before = structuredClone(first.error.errors);
    for (const item of first.error.errors) item.detail = 'changed';
    first.error.errors.length = 0;
    const second = account.validate('account.created-v1', payload);
    expect(second.valid ? [] : second.error.errors).toEqual(before);
  });

  it('the per-event entry point has texts of its own and agrees with the group', async () => {
    const event = await built.importEvent('account', 'account.created-v1');
    for (const value of [12.5, null, 'ok', true]) {
      const payload = { ...valid, account_number: value, added: 1 };
      expect(event.validate(payload)).toEqual(account.validate('account.created-v1', payload));
    }
  });
});

describe('code generated for run time 1.1.0', () => {
  it('still runs: required, unknown and type take whole paths', () => {
    const compile = (): CompiledValidator =>
      function (this: ValidatorContext, data: unknown): boolean {
        const payload = data as Record<string, unknown>;
        this.required('.meta.id');
        for (const key of Object.keys(payload)) this.unknown('.meta', key);
        this.type('.meta.count', 'integer', payload.count, false);
        this.type('.tags.0', 'string', null, true);
        return false;
      };
    const api = defineEvent('old.code-v1', compile);
    const result = api.validate({ count: 1.5 });
    expect(result).toEqual({
      valid: false,
      error: {
        detail: 'The payload is not a valid `old.code-v1` event: 4 problems.',
        code: 'event_failed_validation',
        errors: [
          { detail: '`meta.id` is required but missing.', code: 'required', attr: 'meta.id' },
          {
            detail: '`meta.count` is not a documented field; only documented fields may be sent.',
            code: 'unknown_field',
            attr: 'meta.count',
          },
          {
            detail: '`meta.count` must be an integer, not a number with a fraction.',
            code: 'invalid_type',
            attr: 'meta.count',
          },
          {
            detail: '`tags.0` must be a string, not null; an array holds no null items.',
            code: 'invalid_type',
            attr: 'tags.0',
          },
        ],
      },
    });
  });
});

describe('the run a validator is given', () => {
  /** The same checks as code generated for 1.2.0 (the run as `this`) and for 1.3.0 (as an argument). */
  function check(run: ValidatorContext, data: unknown): boolean {
    const payload = data as Record<string, unknown>;
    if (payload.id === undefined) run.missing('', '.id', 0);
    if (typeof payload.count !== 'number') run.mistyped('', '.count', 'integer', payload.count, false, 1);
    return false;
  }
  const expected = (key: string) => ({
    valid: false,
    error: {
      detail: `The payload is not a valid \`${key}\` event: 2 problems.`,
      code: 'event_failed_validation',
      errors: [
        { detail: '`id` is required but missing.', code: 'required', attr: 'id' },
        { detail: '`count` must be an integer, not a string.', code: 'invalid_type', attr: 'count' },
      ],
    },
  });

  it('is `this` for code generated for 1.2.0, which still runs', () => {
    const api = defineEvent(
      'old.code-v2',
      () =>
        function (this: ValidatorContext, data: unknown): boolean {
          return check(this, data);
        },
    );
    expect(api.validate({ count: 'x' })).toEqual(expected('old.code-v2'));
  });

  it('is the last argument for code that says `context: "argument"`, called with no `this`', () => {
    const thisSeen: unknown[] = [];
    const api = defineEvent('new.code-v1', (exports) => {
      exports.context = 'argument';
      return function (
        this: unknown,
        data: unknown,
        instancePath: string,
        _parent: unknown,
        run: ValidatorContext,
      ) {
        thisSeen.push(this, instancePath);
        return check(run, data);
      };
    });
    expect(api.validate({ count: 'x' })).toEqual(expected('new.code-v1'));
    expect(thisSeen).toEqual([undefined, '']);
  });

  it('is opened by code generated for 1.4.0 to 1.6.x (`context: "open"`, a reporter per kind of error)', () => {
    // That code's shape, as the generator wrote it before items were listed by the code (1.7.0).
    type Run = ValidatorContext | undefined;
    const api = defineEvent('open.code-v1', (exports) => {
      const { mode, thrown, failed, valid } = exports as Required<CompiledExports>;
      const report = exports.fail!([
        [0, '.id'],
        [2, '.count', 'integer', false],
      ]);
      const validate0 = (
        data: Record<string, unknown>,
        path: string,
        _p: unknown,
        run: Run,
        _t: boolean,
        options?: ValidateOptions,
      ) => {
        let opened = run;
        if (data.id === undefined) opened = report.missing(opened, options, 0, path);
        if (!Number.isInteger(data.count)) opened = report.mistyped(opened, options, 1, path, data.count);
        return opened;
      };
      exports.entry = (payload: unknown, options?: ValidateOptions) => {
        const tolerant = options === undefined ? false : mode(options);
        let run: Run;
        try {
          run = validate0(payload as Record<string, unknown>, '', undefined, undefined, tolerant, options);
        } catch (error) {
          return thrown(error);
        }
        return run === undefined ? valid : failed(run);
      };
      exports.context = 'open';
      return validate0 as unknown as CompiledValidator;
    });
    expect(api.validate({ count: 'x' })).toEqual(expected('open.code-v1'));
    expect(api.validate({ id: 1, count: 2 })).toEqual({ valid: true });
    const capped = api.validate({ count: 'x' }, { maxErrors: 1 });
    expect(capped.valid ? [] : capped.error.errors.map((item) => item.code)).toEqual([
      'required',
      'too_many_problems',
    ]);
  });

  it('a group package generated before 1.4.0 (no dispatch of its own) still finds its events', () => {
    const old = defineEvent('old.code-v2', () => (_data: unknown) => true);
    const group = defineGroup<Record<string, unknown>>('@old/group', [old]);
    expect(group.validate('old.code-v2', {})).toEqual({ valid: true });
    expect(group.validate('old.code-v2', {})).toEqual({ valid: true });
    const unknown = group.validate('old.code-v3', {});
    expect(unknown.valid ? undefined : unknown.error.code).toBe('unknown_event');
  });
});

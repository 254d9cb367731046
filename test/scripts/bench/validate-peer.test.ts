import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { standaloneEventSchema } from '../../../generators/schema/json-schema.js';
import { ajvOf } from '../../../scripts/bench/validate-worker.js';
import { fixturePath, loadValid } from '../../helpers.js';

/**
 * The validation bench's ajv peer is ajv as a user gets it (`new Ajv2020({ strict: false })` and
 * `ajv-formats`), not ajv with eventry's options: `ownProperties` alone made ajv slower on every field
 * read and flattered eventry's ratios. eventry's options stay as a separately labelled contender.
 */
const KEY = 'account.created-v1';
const schema = standaloneEventSchema(loadValid(fixturePath('small')), KEY, 'closed');
/** A payload whose required fields are inherited: only `ownProperties` rejects it. */
const inherited = Object.create({ account_number: 'A-1', account_user_emails: ['a@example.com'] }) as object;

/** The options ajv reports, bar the objects and functions every instance makes for itself. */
const scalarOptions = (ajv: Ajv2020.default) =>
  Object.fromEntries(
    Object.entries(ajv.opts).filter(([, value]) => typeof value !== 'object' && typeof value !== 'function'),
  );

describe("the validation bench's ajv peer, at ajv's defaults", () => {
  it.each(['ajv', 'ajv allErrors'] as const)(
    "%s is not given eventry's options (ownProperties counted inherited fields as missing)",
    (contender) => {
      const validate = ajvOf(contender).compile(schema);
      expect(validate(inherited)).toBe(true);
      expect(validate({ account_number: 1, account_user_emails: [] })).toBe(false);
      // ajv's default messages are on.
      expect(validate.errors?.[0]?.message).toEqual(expect.any(String));
    },
  );

  it.each([
    ['ajv', {}],
    ['ajv allErrors', { allErrors: true }],
  ] as const)("%s has ajv's default options but strict: false", (contender, extra) => {
    expect(scalarOptions(ajvOf(contender))).toEqual(
      scalarOptions(new Ajv2020.default({ strict: false, ...extra })),
    );
  });

  it.each(['ajv', 'ajv allErrors'] as const)('%s knows the formats of ajv-formats', (contender) => {
    const validate = ajvOf(contender).compile({ type: 'string', format: 'email' });
    expect(validate('a@example.com')).toBe(true);
    expect(validate('not an address')).toBe(false);
  });

  it("the contender labelled with eventry's options has them: inherited fields are missing", () => {
    expect(ajvOf('ajv eventry options').compile(schema)(inherited)).toBe(false);
  });
});

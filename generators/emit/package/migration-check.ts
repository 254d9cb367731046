import { fullFormats } from 'ajv-formats/dist/formats.js';
import { migrationFunction } from '../../migrate/compile-js.js';
import type { Catalogue, Group, Migration } from '../../model.js';
import { defineEvent } from '../../runtime/runtime.js';
import { defineTesting, type FastCheck } from '../../runtime/testing.js';
import type { CompiledExports, CompiledValidator, ValidationResult } from '../../runtime/types.js';
import { validationSchema } from '../../schema/json-schema.js';
import { testingData } from './testing.js';
import { compiledRuleCheck } from './testing-check.js';
import { eventRuleChecks } from './validator/rules.js';

/** How many payloads of the source version each migration is run on at build (issue 46: at least 200). */
export const MIGRATION_RUNS = 200;
/** The fixed seed of the property run: the same catalogue draws the same payloads in every build. */
export const MIGRATION_SEED = 46;

/** One migration verified: which, and on how many payloads. */
export interface MigrationVerified {
  migration: Migration;
  direction: 'upgrade' | 'downgrade';
  runs: number;
}

/**
 * A migration a payload disproves: the message is the build's located error line; the fields say the
 * same for a program (the field `attr`, the shrunk counterexample and what the migration made of it).
 */
export class MigrationUnverified extends Error {
  constructor(
    message: string,
    readonly migration: Migration,
    readonly counterexample: unknown,
    readonly outcome: Outcome,
  ) {
    super(message);
    this.name = 'MigrationUnverified';
  }
  /** The field the target version refused (the 400 body's first `attr`), or undefined when the migration threw. */
  get attr(): string | undefined {
    return this.outcome !== undefined && 'result' in this.outcome
      ? this.outcome.result.error.errors[0]?.attr
      : undefined;
  }
}

/** The validator code of an event as its package ships it (`compileEventValidators`), when already compiled. */
export type ValidatorCodeOf = (key: string) => string | undefined;

/**
 * Verifies each migration at build (issue 46, decision 0166): a property run with fast-check over the
 * source version's `arbitrary` (the run time's test data, its rules kept), a fixed seed and
 * `MIGRATION_RUNS` payloads, each migrated by the compiled code the package ships and validated by the
 * target version's own validator in strict mode, data rules included. A payload the target refuses,
 * or a migration that throws, fails the build (`migration-unverified`, located at `upgrade:` /
 * `downgrade:`) with the field (`attr`) and fast-check's shrunk counterexample and its migration as JSON.
 */
export async function verifyMigrations(
  model: Catalogue,
  group: Group,
  migrations: { upgrades: readonly Migration[]; downgrades: readonly Migration[] },
  codeOf: ValidatorCodeOf = () => undefined,
): Promise<MigrationVerified[]> {
  const all = [
    ...migrations.upgrades.map((migration) => ({ migration, direction: 'upgrade' as const })),
    ...migrations.downgrades.map((migration) => ({ migration, direction: 'downgrade' as const })),
  ];
  if (all.length === 0) return [];
  // fast-check is loaded only when some group declares a migration.
  const fc = (await import('fast-check')) as FastCheck;
  const validators = new Map<string, (payload: unknown) => ValidationResult>();
  let compile: typeof import('./validators.js').compileEventValidators | undefined;
  for (const { migration } of all) {
    const key = migration.to;
    if (validators.has(key)) continue;
    let code = codeOf(key);
    if (code === undefined) {
      // A target outside the group: its validator compiled here, as its own package gets it.
      compile ??= (await import('./validators.js')).compileEventValidators;
      code = compile(key, validationSchema(model, key), eventRuleChecks(model, key)).code;
    }
    validators.set(key, shippedValidator(key, code));
  }
  return all.map(({ migration, direction }) => ({
    migration,
    direction,
    runs: verifyOne(model, group, fc, { migration, direction }, validators.get(migration.to)!),
  }));
}

/** Runs one migration's property; the number of payloads run, or the located error. */
function verifyOne(
  model: Catalogue,
  group: Group,
  fc: FastCheck,
  which: { migration: Migration; direction: 'upgrade' | 'downgrade' },
  validate: (payload: unknown) => ValidationResult,
): number {
  const { migration } = which;
  const data = testingData(model, { ...group, events: [migration.from] });
  const rules = compiledRuleCheck(model, data);
  const testing = defineTesting<Record<string, unknown>>(group.slug, data, fc, rules?.check);
  const migrate = migrationFunction(model, migration);
  const outcome = (payload: unknown): Outcome => {
    let migrated: unknown;
    try {
      migrated = migrate(payload);
    } catch (error) {
      return { threw: error instanceof Error ? error.message : String(error) };
    }
    const result = validate(migrated);
    return result.valid ? undefined : { migrated, result };
  };
  const details = fc.check(
    fc.property(testing.arbitrary(migration.from), (payload) => outcome(payload) === undefined),
    { seed: MIGRATION_SEED, numRuns: MIGRATION_RUNS },
  );
  if (!details.failed) return details.numRuns;
  const counterexample = details.counterexample?.[0];
  const found = outcome(counterexample);
  throw new MigrationUnverified(
    unverified(which, counterexample, found, details.numRuns),
    migration,
    counterexample,
    found,
  );
}

/** Why a migrated payload failed: the migration threw, or the target refused its output. */
export type Outcome =
  | { threw: string }
  | { migrated: unknown; result: ValidationResult & { valid: false } }
  | undefined;

/** The build error of a migration a payload disproves, at its `upgrade:` / `downgrade:`. */
function unverified(
  which: { migration: Migration; direction: 'upgrade' | 'downgrade' },
  counterexample: unknown,
  outcome: Outcome,
  runs: number,
): string {
  const { migration, direction } = which;
  const where = `${migration.source.file}:${migration.source.line}:${migration.source.column}`;
  const what = `the ${direction} from ${migration.from} to ${migration.to}`;
  const shrunk = `shrunk counterexample (a payload of ${migration.from}; seed ${MIGRATION_SEED}, failing at run ${runs}): ${JSON.stringify(counterexample)}`;
  if (outcome === undefined || 'threw' in outcome) {
    const reason = outcome === undefined ? 'fails' : `throws (${outcome.threw})`;
    return `${where}: error migration-unverified: ${what} ${reason} on a valid payload; ${shrunk}.`;
  }
  const items = outcome.result.error.errors;
  const first = items[0]!;
  const field = first.attr === '' ? 'the payload' : `\`${first.attr}\``;
  const others =
    items.length > 1 ? ` (and ${items.length - 1} more problem${items.length > 2 ? 's' : ''})` : '';
  return `${where}: error migration-unverified: ${what} gives a payload ${migration.to} refuses at ${field}: ${first.detail} (${first.code})${others}; ${shrunk}; migrated: ${JSON.stringify(outcome.migrated)}.`;
}

/**
 * The strict `validate` of an event from the validator code its package ships (the same code, rules
 * included, set up by the run time's `defineEvent`): the build proves what consumers will run.
 */
function shippedValidator(key: string, code: string): (payload: unknown) => ValidationResult {
  const compile = new Function(
    'fullFormats',
    `return function (exports) {\n${code}\nexports.context = "list";\nreturn exports.validate;\n};`,
  )(fullFormats) as (exports: CompiledExports) => CompiledValidator;
  return defineEvent(key, compile).validate;
}

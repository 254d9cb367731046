import type { Catalogue, Migration } from '../../generators/model.js';
import { type History, type HistoryPoint, schemaTexts } from '../../generators/schema-registry/history.js';
import { fixturePath, loadValid } from '../helpers.js';

/**
 * The small fixture with a migration between `account.removed-v1` and `-v2` attached by hand (the
 * loader reads `upgrade:` later; the model is plain data): v2 adds a required `reason` and `changes`.
 */
const source = { file: 'catalogue/groups/account.yaml', line: 19, column: 3 };
export const FROM = 'account.removed-v1';
export const TO = 'account.removed-v2';
export const TYPE = 'account.removed';

/** The v1 -> v2 upgrade and its downgrade. */
export function migrations(): { upgrade: Migration; downgrade: Migration } {
  return {
    upgrade: {
      from: FROM,
      to: TO,
      source,
      steps: [
        { kind: 'set', field: ['reason'], cel: "'migrated from ' + message.account_number", source },
        { kind: 'set', field: ['changes'], value: { migrated: true }, source },
        { kind: 'rename', from: ['score'], to: ['changes', 'score'], source },
      ],
    },
    downgrade: {
      from: TO,
      to: FROM,
      source,
      steps: [{ kind: 'drop', fields: [['reason'], ['changes']], source }],
    },
  };
}

/**
 * The small fixture, with the migrations on `account.removed-v2` when `withMigrations`, and a rule on
 * `account.removed-v1` (so its own subject has a data contract its type subject's version has not).
 */
export function smallCatalogue(withMigrations = true): Catalogue {
  const catalogue = loadValid(fixturePath('small'));
  catalogue.events[FROM]!.rules = [
    { name: 'number_given', expr: "message.account_number != ''", message: 'A number.', attr: '', source },
  ];
  if (withMigrations) Object.assign(catalogue.events[TO]!, migrations());
  return catalogue;
}

function point(catalogue: Catalogue, label: string, commit?: string): HistoryPoint {
  const { warnings: _warnings, ...texts } = schemaTexts(catalogue);
  return { label, version: catalogue.config.version, ...(commit ? { commit } : {}), ...texts };
}

export const V3 = 'account.removed-v3';

/**
 * Adds `account.removed-v3`, v2's fields, whose upgrade from v2 upper-cases `reason` and whose
 * downgrade lower-cases it: a chain of two migrations for the client to walk.
 */
export function withV3(catalogue: Catalogue): Catalogue {
  const v2 = catalogue.events[TO]!;
  const steps = (cel: string) => [{ kind: 'set' as const, field: ['reason'], cel, source }];
  catalogue.events[V3] = {
    ...v2,
    key: V3,
    version: 'v3',
    upgrade: { from: TO, to: V3, source, steps: steps('message.reason.upperAscii()') },
    downgrade: { from: V3, to: TO, source, steps: steps('message.reason.lowerAscii()') },
  };
  return catalogue;
}

/**
 * A history of two points: a release of the small fixture without migrations (`withRelease`), then
 * the working catalogue with them.
 */
export function migrationHistory(withRelease = true, v3 = false): History {
  const current = v3 ? withV3(smallCatalogue(true)) : smallCatalogue(true);
  const points = [
    ...(withRelease ? [point(smallCatalogue(false), '1.0.0 (c0ffee0)', 'c0ffee0'.padEnd(40, '0'))] : []),
    point(current, 'working catalogue'),
  ];
  return { points, current, warnings: [] };
}

import type {
  Catalogue,
  EventVersion,
  JsonValue,
  Migration,
  MigrationStep,
  Rule,
} from '../../../generators/model.js';
import { fixturePath, loadValid } from '../../helpers.js';

/**
 * The small fixture's model with migrations attached by hand (the model is plain data): its
 * `account.removed` type has v1 and v2 (v2 adds a required `reason` string and `changes` object);
 * `withV3` adds a v3 (v2 plus a required `removed_by`), for chains across versions.
 */
export const V1 = 'account.removed-v1';
export const V2 = 'account.removed-v2';
export const V3 = 'account.removed-v3';
const at = (line: number) => ({ file: 'groups/account.yaml', line, column: 5 });

export const set = (field: string, value: JsonValue): MigrationStep => ({
  kind: 'set',
  field: field.split('.'),
  value,
  source: at(1),
});
export const setCel = (field: string, cel: string): MigrationStep => ({
  kind: 'set',
  field: field.split('.'),
  cel,
  source: at(1),
});
export const rename = (from: string, to: string): MigrationStep => ({
  kind: 'rename',
  from: from.split('.'),
  to: to.split('.'),
  source: at(1),
});
export const drop = (...fields: string[]): MigrationStep => ({
  kind: 'drop',
  fields: fields.map((field) => field.split('.')),
  source: at(1),
});

/** A migration of the model, located at `line` of groups/account.yaml. */
export function migration(from: string, to: string, steps: MigrationStep[], line = 30): Migration {
  return { from, to, steps, source: at(line) };
}

/** The good upgrade v1 -> v2 and its downgrade. */
export const GOOD_UP = (): Migration =>
  migration(V1, V2, [setCel('reason', "'migrated ' + message.account_number"), set('changes', {})], 30);
export const GOOD_DOWN = (): Migration => migration(V2, V1, [drop('reason', 'changes')], 40);

/** The small fixture's model, a fresh copy each call. */
export function smallModel(): Catalogue {
  return loadValid(fixturePath('small'));
}

/** Attaches `upgrade` (and `downgrade`) to the event `upgrade.to`. */
export function withMigration(model: Catalogue, upgrade: Migration, downgrade?: Migration): Catalogue {
  const event = model.events[upgrade.to]!;
  model.events[upgrade.to] = { ...event, upgrade, ...(downgrade ? { downgrade } : {}) };
  return model;
}

/** Adds `account.removed-v3` (v2 and a required `removed_by`), in the account group after v2. */
export function withV3(model: Catalogue): Catalogue {
  const v2 = model.events[V2]!;
  const removedBy = { ...v2.fields.find((field) => field.name === 'reason')!, name: 'removed_by' };
  const v3: EventVersion = { ...v2, key: V3, version: 'v3', fields: [...v2.fields, removedBy] };
  delete v3.upgrade;
  delete v3.downgrade;
  delete v3.deprecated;
  model.events[V3] = v3;
  const group = model.groups.find((one) => one.slug === v2.group)!;
  group.events.splice(group.events.indexOf(V2) + 1, 0, V3);
  return model;
}

/** Adds a rule to an event (the model is plain data; the loader is not asked). */
export function withRule(model: Catalogue, key: string, rule: Omit<Rule, 'source'>): Catalogue {
  const event = model.events[key]!;
  model.events[key] = { ...event, rules: [...(event.rules ?? []), { ...rule, source: at(20) }] };
  return model;
}

/**
 * The seed catalogue with a migration per version of each event type that has several (issue 46's
 * speed budget), made here until the catalogue declares its own: each version after the first gets an
 * `upgrade` from the one before, derived from the two versions' top-level fields, and a `downgrade`
 * back. A field both have with the same type (and not newly required) is kept; a required field the old
 * version lacks (or has with another type) is set: a plain string through CEL over the old payload
 * where the old one has a required plain string, else the new version's minimal example value; any
 * other field the target does not have is dropped.
 *
 * Run as a child process (`node migrate-catalogue.js without|upgrades|both`), it loads the catalogue, emits
 * every group package in this one thread and prints the milliseconds: the difference is what compiling
 * and verifying the migrations adds to the group packages of a build.
 */
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMap, parseDocument } from 'yaml';
import { exampleFor } from '../../generators/emit/package/examples.js';
import { emitGroupPackages } from '../../generators/emit/package/index.js';
import { loadCatalogue } from '../../generators/load/index.js';
import type { Catalogue, Field, FieldType, Migration, MigrationStep } from '../../generators/model.js';

export const CATALOGUE = fileURLToPath(new URL('../../../catalogue', import.meta.url));

/** The keys of each event type with several versions, oldest first (the catalogue lists them so). */
export function multiVersionTypes(model: Catalogue): string[][] {
  const byType = new Map<string, string[]>();
  for (const group of model.groups)
    for (const key of group.events) {
      const type = model.events[key]!.type;
      byType.set(type, [...(byType.get(type) ?? []), key]);
    }
  return [...byType.values()].filter((keys) => keys.length > 1);
}

/**
 * The model with an upgrade between each two consecutive versions of a type, and with `downgrades`
 * a downgrade back.
 */
export function withDerivedMigrations(
  model: Catalogue,
  downgrades = false,
): { model: Catalogue; migrations: Migration[] } {
  const events = { ...model.events };
  const migrations: Migration[] = [];
  for (const keys of multiVersionTypes(model)) {
    for (let i = 1; i < keys.length; i++) {
      const [from, to] = [keys[i - 1]!, keys[i]!];
      const event = events[to]!;
      const source = event.source;
      const upgrade: Migration = { from, to, steps: derivedSteps(model, from, to), source };
      const downgrade: Migration = { from: to, to: from, steps: derivedSteps(model, to, from), source };
      events[to] = downgrades ? { ...event, upgrade, downgrade } : { ...event, upgrade };
      migrations.push(...(downgrades ? [upgrade, downgrade] : [upgrade]));
    }
  }
  return { model: { ...model, events }, migrations };
}

function derivedSteps(model: Catalogue, from: string, to: string): MigrationStep[] {
  const source = model.events[to]!.source;
  const fields = model.events[from]!.fields;
  const before = new Map(fields.map((field) => [field.name, field]));
  const text = fields.find(isRequiredText);
  const example = exampleFor(model, to, 'minimal');
  const steps: MigrationStep[] = [];
  const drops: string[][] = [];
  for (const field of model.events[to]!.fields) {
    const old = before.get(field.name);
    before.delete(field.name);
    if (old && sameType(old.type, field.type) && (old.required || !field.required)) continue;
    if (!field.required) {
      if (old) drops.push([field.name]);
      continue;
    }
    steps.push(
      text && plainString(field.type)
        ? { kind: 'set', field: [field.name], cel: `'migrated ' + message.${text.name}`, source }
        : { kind: 'set', field: [field.name], value: example[field.name]!, source },
    );
  }
  drops.push(...[...before.keys()].map((name) => [name]));
  if (drops.length > 0) steps.push({ kind: 'drop', fields: drops, source });
  return steps;
}

function sameType(a: FieldType, b: FieldType): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function plainString(type: FieldType): boolean {
  return type.kind === 'string' && type.format === undefined && type.enum === undefined;
}

function isRequiredText(field: Field): boolean {
  return field.required && plainString(field.type);
}

/**
 * Copies the catalogue at `from` into `to` without its migrations (`upgrade:` / `downgrade:` removed from
 * every event): the same catalogue as a build that verifies nothing.
 */
export function copyWithoutMigrations(from: string, to: string): void {
  cpSync(from, to, { recursive: true });
  const groups = join(to, 'groups');
  for (const name of readdirSync(groups).filter((file) => file.endsWith('.yaml'))) {
    const document = parseDocument(readFileSync(join(groups, name), 'utf8'));
    const events = document.get('events');
    if (!isMap(events)) continue;
    for (const pair of events.items) {
      if (!isMap(pair.value)) continue;
      pair.value.delete('upgrade');
      pair.value.delete('downgrade');
    }
    writeFileSync(join(groups, name), document.toString());
  }
}

/**
 * Loads the seed catalogue (from the compiled bench by default) without the migrations it declares, the
 * base the derived ones are added to; refuses one that does not load.
 */
export function seedModel(dir = CATALOGUE): Catalogue {
  const loaded = loadCatalogue(dir);
  if (!loaded.ok) throw new Error('the seed catalogue does not load');
  const events = Object.fromEntries(
    Object.entries(loaded.catalogue.events).map(([key, { upgrade: _up, downgrade: _down, ...event }]) => [
      key,
      event,
    ]),
  );
  return { ...loaded.catalogue, events };
}

// The child: `node migrate-catalogue.js without|upgrades|both` prints the milliseconds of emitting every group.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const model = seedModel();
  const mode = process.argv[2];
  const built = mode === 'without' ? model : withDerivedMigrations(model, mode === 'both').model;
  const started = performance.now();
  await emitGroupPackages(built, { versions: {} });
  console.log((performance.now() - started).toFixed(1));
}

import { type Catalogue, type Group, groupPackageName } from '../../model.js';
import { shippedEventSchema, validationSchema } from '../../schema/json-schema.js';
import { type EmitOptions, generatedNote, jsonFile, type OutputFile } from '../context.js';
import { exampleFor } from './examples.js';
import { MIGRATION_SEED, verifyMigrations } from './migration-check.js';
import {
  type GroupMigrations,
  groupMigrations,
  hasMigrations,
  migrationsFile,
  versionTypes,
} from './migrations.js';
import { emitPackageJson, groupSourceHash, groupUsesFormats } from './package-json.js';
import { emitReadme } from './readme.js';
import {
  eventRuntimeCopy,
  GROUP_EVENT_RUNTIME_FILE,
  GROUP_RUNTIME_FILE,
  RUNTIME_SLUG,
  runtimeCopy,
  runtimePackageName,
} from './runtime-package.js';
import { render } from './templates.js';
import { emitTestingFiles } from './testing.js';
import { emitGroupTypes, interfaceName } from './types.js';
import { eventRuleChecks } from './validator/rules.js';

/**
 * Validators per chunk module: all of the group's in one. A module costs Node a fixed price to load
 * besides its size, and only the group's index imports the chunks: an event's entry point carries its
 * own validator (see docs/decisions/0196, which replaces 0007's chunks of 8).
 */
const CHUNK_SIZE = Number.POSITIVE_INFINITY;

/**
 * One npm package per event group, `packages/<slug>/`: types, precompiled validators with the
 * platform's error format, per-event entry points, JSON Schemas, examples, matchers, README. Never
 * writes `CHANGELOG.md` (`eventry version` keeps it); package.json carries the version the output has
 * (`EmitOptions.versions`).
 */
export async function emitGroupPackages(model: Catalogue, options: EmitOptions): Promise<OutputFile[]> {
  const files: OutputFile[] = [];
  for (const group of model.groups) {
    checkGroupSlug(group);
    const hashes = { sourceHash: groupSourceHash(model, group), usesFormats: groupUsesFormats(model, group) };
    files.push(emitPackageJson(model, group, options.versions[group.slug], hashes));
    files.push(...(await emitGroupPackage(model, group, hashes.usesFormats)));
  }
  return files;
}

/** Refuses the group slugs whose package folder would be another package's. */
export function checkGroupSlug(group: Group): void {
  if (group.slug === 'catalogue' || group.slug === RUNTIME_SLUG) {
    throw new Error(
      `a group may not be called \`${group.slug}\`: packages/${group.slug}/ holds the compiled catalogue or the run time`,
    );
  }
}

/** One validator of a group's package: its code, the events it checks, and the function that holds it. */
interface GroupValidator {
  /** The chunk function's name: `event<i>`, after the first event (in group order) it checks. */
  id: string;
  code: string;
  usesFormats: boolean;
  keys: string[];
}

/**
 * The files of one group's package, but package.json; `usesFormats` is `groupUsesFormats` of the group.
 * Events whose `validationSchema` is the same (same fields, types and shapes) share one validator,
 * compiled once and shipped once.
 */
export async function emitGroupPackage(
  model: Catalogue,
  group: Group,
  usesFormats: boolean,
): Promise<OutputFile[]> {
  const { distinct, ofEvent } = await compileGroupValidators(model, group);
  if (distinct.some((validator) => validator.usesFormats) !== usesFormats) {
    throw new Error(`the validators of ${group.slug} and its field formats disagree on ajv-formats`);
  }
  const chunks = chunkValidators(distinct);
  const names: PackageNames = {
    note: generatedNote(`catalogue/${group.source.file}`),
    packageName: groupPackageName(model, group),
    runtimeName: runtimePackageName(model),
  };
  const migrations = groupMigrations(model, group);
  const codes = new Map(group.events.map((key, i) => [key, ofEvent[i]!.code]));
  const verified = await verifyMigrations(model, group, migrations, (key) => codes.get(key));
  const runs = Math.min(...verified.map((one) => one.runs));
  return [
    ...entryPointFiles(model, group, names, chunks, ofEvent, migrations),
    ...(hasMigrations(migrations)
      ? [migrationsFile(model, group, names.note, migrations, { runs, seed: MIGRATION_SEED })]
      : []),
    // The run time as one module: what the entry points import (docs/decisions/0175).
    {
      path: `${group.slug}/${GROUP_RUNTIME_FILE}`,
      contents: render('copied', {
        note: generatedNote('generators/runtime/runtime.ts'),
        text: runtimeCopy(),
      }),
    },
    // The part of it an event's own entry point imports (docs/decisions/0195).
    {
      path: `${group.slug}/${GROUP_EVENT_RUNTIME_FILE}`,
      contents: render('copied', {
        note: generatedNote('generators/runtime/runtime.ts'),
        text: eventRuntimeCopy(),
      }),
    },
    ...chunks.map((chunk, n) => chunkFile(group.slug, names.note, chunk, n)),
    ...group.events.flatMap((key, i) => eventFiles(model, group.slug, names.runtimeName, key, ofEvent[i]!)),
  ];
}

/** The names every file of a group's package carries: its generated note, its own and the run time's. */
interface PackageNames {
  note: string;
  packageName: string;
  runtimeName: string;
}

/** A chunk module: its path from the package's root and the validators it holds. */
interface Chunk {
  module: string;
  validators: GroupValidator[];
}

/** The group's distinct validators (one per distinct `validationSchema`), and each event's, in group order. */
async function compileGroupValidators(
  model: Catalogue,
  group: Group,
): Promise<{ distinct: GroupValidator[]; ofEvent: GroupValidator[] }> {
  // ajv is loaded only when some validator is compiled.
  let compile: typeof import('./validators.js').compileEventValidators | undefined;
  const bySchema = new Map<string, GroupValidator>();
  const ofEvent: GroupValidator[] = [];
  for (const [i, key] of group.events.entries()) {
    const schema = validationSchema(model, key);
    // Events share a validator when their schemas and their data rules are the same.
    const rules = eventRuleChecks(model, key);
    const text = rules ? `${JSON.stringify(schema)}\0${rules.signature}` : JSON.stringify(schema);
    let validator = bySchema.get(text);
    if (validator === undefined) {
      compile ??= (await import('./validators.js')).compileEventValidators;
      validator = { id: `event${i}`, ...compile(key, schema, rules), keys: [] };
      bySchema.set(text, validator);
    }
    validator.keys.push(key);
    ofEvent.push(validator);
  }
  return { distinct: [...bySchema.values()], ofEvent };
}

/** The validators `CHUNK_SIZE` to a chunk module, in order: what the group's index imports. */
function chunkValidators(distinct: GroupValidator[]): Chunk[] {
  const chunks: Chunk[] = [];
  for (let start = 0; start < distinct.length; start += CHUNK_SIZE) {
    chunks.push({
      module: `./chunks/${chunks.length}.js`,
      validators: distinct.slice(start, start + CHUNK_SIZE),
    });
  }
  return chunks;
}

/** The package's README, types, index (which loads the chunks), matchers and testing entry point. */
function entryPointFiles(
  model: Catalogue,
  group: Group,
  names: PackageNames,
  chunks: Chunk[],
  ofEvent: GroupValidator[],
  migrations: GroupMigrations,
): OutputFile[] {
  const { slug } = group;
  const { note, packageName, runtimeName } = names;
  const upgrade = migrations.upgrades[0];
  const newest = migrations.versions.find((keys) => upgrade !== undefined && keys.includes(upgrade.to));
  return [
    emitReadme(
      model,
      group,
      upgrade && newest ? { from: upgrade.from, to: upgrade.to, newest: newest.at(-1)! } : undefined,
    ),
    { path: `${slug}/types.d.ts`, contents: emitGroupTypes(model, group, packageName) },
    {
      path: `${slug}/index.js`,
      contents: render('index.js', {
        note,
        packageName,
        runtimeName,
        chunks,
        events: group.events.map((key, i) => ({ key, id: ofEvent[i]!.id })),
        versions: migrations.versions,
        migrations: hasMigrations(migrations),
      }),
    },
    {
      path: `${slug}/index.d.ts`,
      contents: render('index.d.ts', {
        note,
        packageName,
        runtimeName,
        versionTypes: versionTypes(group, migrations),
      }),
    },
    { path: `${slug}/matchers.js`, contents: render('matchers.js', { note, packageName, runtimeName }) },
    { path: `${slug}/matchers.d.ts`, contents: render('matchers.d.ts', { note, runtimeName }) },
    ...emitTestingFiles(model, group, { note, packageName, runtimeName }),
  ];
}

/** Chunk module `n`: the code of its validators. */
function chunkFile(slug: string, note: string, chunk: Chunk, n: number): OutputFile {
  const contents = render('chunk.js', {
    note,
    usesFormats: chunk.validators.some((validator) => validator.usesFormats),
    validators: chunk.validators.map((validator) => ({
      id: validator.id,
      code: validator.code,
      checks: validator.keys.join(', '),
      shared: validator.keys.length > 1,
    })),
  });
  return { path: `${slug}/chunks/${n}.js`, contents };
}

/**
 * An event's entry point, its types, JSON Schema and examples. The entry point carries its own copy of
 * the event's validator and imports only the event part of the run time: one module besides itself
 * (docs/decisions/0195).
 */
function eventFiles(
  model: Catalogue,
  slug: string,
  runtimeName: string,
  key: string,
  validator: GroupValidator,
): OutputFile[] {
  const eventNote = generatedNote(`catalogue/${model.events[key]!.source.file}`);
  return [
    {
      path: `${slug}/events/${key}.js`,
      contents: render('event.js', {
        note: eventNote,
        runtimeName,
        key,
        runtime: `../${GROUP_EVENT_RUNTIME_FILE}`,
        usesFormats: validator.usesFormats,
        validator: {
          id: validator.id,
          code: validator.code,
          checks: validator.keys.join(', '),
          shared: validator.keys.length > 1,
        },
      }),
    },
    {
      path: `${slug}/events/${key}.d.ts`,
      contents: render('event.d.ts', {
        note: eventNote,
        runtimeName,
        key,
        interfaceName: interfaceName(key),
      }),
    },
    jsonFile(`${slug}/schemas/${key}.json`, shippedEventSchema(model, key)),
    jsonFile(`${slug}/examples/${key}.json`, {
      $comment: eventNote,
      minimal: exampleFor(model, key, 'minimal'),
      full: exampleFor(model, key, 'full'),
    }),
  ];
}

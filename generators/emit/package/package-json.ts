import { createHash } from 'node:crypto';
import { type Catalogue, type FieldType, type Group, groupPackageName } from '../../model.js';
import { shapesUsedBy, standaloneEventSchema } from '../../schema/json-schema.js';
import { generatedNote, jsonFile, type OutputFile } from '../context.js';
import { RUNTIME_RANGE, runtimePackageName, SHARED_MANIFEST_FIELDS } from './runtime-package.js';
import { ruleSignature } from './validator/rules.js';

/** The version of a package never built before; later builds carry the existing one forward. */
export const INITIAL_VERSION = '1.0.0';

/** The `ajv-formats` range a package depends on when its validators check formats. */
const AJV_FORMATS_RANGE = '^3.0.1';

/**
 * sha256 of a group's resolved content: its events' closed standalone schemas, by key. Per group, so a
 * change elsewhere in the catalogue leaves this package (and its published identity) untouched.
 */
export function groupSourceHash(model: Catalogue, group: Group): string {
  const hash = createHash('sha256');
  for (const key of [...group.events].sort()) {
    hash.update(`${key}\0${JSON.stringify(standaloneEventSchema(model, key, 'closed'))}\0`);
    // Data rules are code of the package too; an event without rules hashes as it always has.
    const rules = ruleSignature(model, key);
    if (rules !== undefined) hash.update(`${rules}\0`);
    // So are its migrations (their steps, not where they are written); an event without any hashes as before.
    const migrations = migrationSignature(model, key);
    if (migrations !== undefined) hash.update(`${migrations}\0`);
  }
  return hash.digest('hex');
}

/** An event's `upgrade` and `downgrade` as text, their source locations left out; undefined without either. */
function migrationSignature(model: Catalogue, key: string): string | undefined {
  const { upgrade, downgrade } = model.events[key]!;
  if (upgrade === undefined && downgrade === undefined) return undefined;
  return JSON.stringify({ upgrade, downgrade }, (name, value) => (name === 'source' ? undefined : value));
}

/** Whether any field of the group's events (shapes included) declares a format: then it needs ajv-formats. */
export function groupUsesFormats(model: Catalogue, group: Group): boolean {
  const fields = group.events.flatMap((key) => model.events[key]!.fields);
  const shapeFields = shapesUsedBy(model, fields).flatMap((name) => model.shapes[name]!.fields);
  return [...fields, ...shapeFields].some((field) => hasFormat(field.type));
}

function hasFormat(type: FieldType): boolean {
  if (type.kind === 'array') return hasFormat(type.items);
  return 'format' in type && type.format !== undefined;
}

/** Where a group's package.json goes, in the output. */
export function packageJsonPath(slug: string): string {
  return `${slug}/package.json`;
}

/**
 * `<slug>/package.json`. The version is the only hand-kept value (`eventry version` bumps it): the
 * executor reads it from the output (`versionOf`; undefined for a package not built before);
 * everything else is generated (`sourceHash` and `usesFormats` are `groupSourceHash` and
 * `groupUsesFormats` of the group, which the caller has already computed).
 */
export function emitPackageJson(
  model: Catalogue,
  group: Group,
  version: string | undefined,
  { sourceHash, usesFormats }: { sourceHash: string; usesFormats: boolean },
): OutputFile {
  // A group whose events declare migrations ships them compiled (`migrations.js`).
  const migrations = group.events.some((key) => {
    const event = model.events[key]!;
    return event.upgrade !== undefined || event.downgrade !== undefined;
  });
  return jsonFile(packageJsonPath(group.slug), {
    name: groupPackageName(model, group),
    version: version ?? INITIAL_VERSION,
    description: `${group.title}: TypeScript types and precompiled validators of ${group.events.length} events of the ${model.config.title}. ${generatedNote(`catalogue/${group.source.file}`)}`,
    ...SHARED_MANIFEST_FIELDS,
    exports: {
      '.': { types: './index.d.ts', default: './index.js' },
      './events/*': { types: './events/*.d.ts', default: './events/*.js' },
      './matchers': { types: './matchers.d.ts', default: './matchers.js' },
      // ES import only: the entry waits for fast-check at its top level, which `require` cannot load
      // (ERR_REQUIRE_ASYNC_MODULE); without a `require` match, a CommonJS `require` of it is a type error
      // under node16/nodenext and fails at once at run time (docs/decisions/0086).
      './testing': { import: { types: './testing.d.ts', default: './testing.js' } },
      './schemas/*': './schemas/*',
      './examples/*': './examples/*',
      './package.json': './package.json',
    },
    types: './index.d.ts',
    files: [
      'index.js',
      'index.d.ts',
      'types.d.ts',
      'matchers.js',
      'matchers.d.ts',
      'testing.js',
      'testing.d.ts',
      'testing-data.js',
      'runtime.js',
      'event-runtime.js',
      ...(migrations ? ['migrations.js'] : []),
      'events/',
      'chunks/',
      'schemas/',
      'examples/',
      'CHANGELOG.md',
    ],
    dependencies: {
      [runtimePackageName(model)]: RUNTIME_RANGE,
      ...(usesFormats ? { 'ajv-formats': AJV_FORMATS_RANGE } : {}),
    },
    eventry: {
      group: { slug: group.slug, title: group.title },
      sourceHash,
    },
  });
}

/**
 * The version a package.json in the output holds (its text, if any), to carry forward; undefined when
 * it has none a build can keep (then the package starts at `INITIAL_VERSION`).
 */
export function versionOf(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  try {
    const version = (JSON.parse(text) as { version?: unknown }).version;
    return typeof version === 'string' && version !== '' ? version : undefined;
  } catch {
    return undefined;
  }
}

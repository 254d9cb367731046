import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openEventSchema } from '../../generators/emit/package/validators.js';
import { loadCatalogue } from '../../generators/load/index.js';
import type { Catalogue } from '../../generators/model.js';
import { standaloneEventSchema } from '../../generators/schema/json-schema.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = join(REPO, 'dist/scripts/eventry.js');

/** The representative events: flat, wide (30 fields), nested (arrays of shapes). */
export const EVENTS = [
  ['flat', 'account.created-v1'],
  ['wide', 'fieldworks.water_meter_installation.completed-v1'],
  ['nested', 'contract-groups.version-created-v1'],
] as const;

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** The catalogue's group packages built into `work/packages`, importable as once installed. */
export function buildBenchPackages(work: string): { out: string; model: Catalogue; nodeModules: string } {
  const out = join(work, 'packages');
  const build = spawnSync(
    process.execPath,
    [CLI, 'build', '--catalogue', join(REPO, 'catalogue'), '--out', out],
    {
      encoding: 'utf8',
    },
  );
  if (build.status !== 0) throw new Error(`build failed: ${build.stderr}`);
  const loaded = loadCatalogue(join(REPO, 'catalogue'));
  if (!loaded.ok) throw new Error('the catalogue does not load');
  const model = loaded.catalogue;
  // The packages import ajv-formats and their shared run time package by name, as once installed.
  const nodeModules = join(work, 'node_modules');
  mkdirSync(join(nodeModules, model.config.scope), { recursive: true });
  symlinkSync(join(REPO, 'node_modules', 'ajv-formats'), join(nodeModules, 'ajv-formats'), 'dir');
  symlinkSync(join(out, 'runtime'), join(nodeModules, model.config.scope, 'runtime'), 'dir');
  return { out, model, nodeModules };
}

/** An event's bench payloads (from its shipped full example) and the schemas the peers compile. */
export function benchPayloads(model: Catalogue, out: string, key: string) {
  const slug = model.events[key]!.group;
  const examples = JSON.parse(readFileSync(join(out, slug, 'examples', `${key}.json`), 'utf8')) as {
    full: Json;
  };
  const valid = widen(examples.full);
  return {
    valid,
    invalid: breakPayload(valid),
    undocumented: addUndocumented(valid),
    schemas: {
      strict: standaloneEventSchema(model, key, 'closed'),
      tolerant: openEventSchema(model, key),
    },
  };
}

/** Arrays of objects get three items each, at every depth: a fuller nested payload. */
function widen(value: Json): Json {
  if (Array.isArray(value)) {
    const items = value.map(widen);
    return items.length === 1 && typeof items[0] === 'object' && items[0] !== null
      ? [items[0], items[0], items[0]]
      : items;
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, widen(v)]));
  }
  return value;
}

/**
 * Three problems (strict; two in tolerant mode): a wrong type, a missing field, an undocumented field.
 * Built as a new object without the field, as `JSON.parse` or an object literal makes one: deleting the
 * field from a copy would leave the object in V8's dictionary mode, which no parsed payload is in, and
 * V8 then compiles a validator's later field reads (of valid payloads too) as generic lookups.
 */
function breakPayload(valid: Json): Json {
  const entries = Object.entries(structuredClone(valid) as { [key: string]: Json });
  const [[wrong, value], missing] = [entries[0]!, entries[1]!];
  const broken = entries.filter((entry) => entry !== missing);
  broken[0] = [wrong, typeof value === 'number' ? 'x' : 12.5];
  return Object.fromEntries([...broken, ['undocumented_field', true]]);
}

/** The valid payload with fields the catalogue does not list, at the top and in the first nested object. */
function addUndocumented(valid: Json): Json {
  const copy = structuredClone(valid) as { [key: string]: Json };
  copy.added_later = 'x';
  for (const value of Object.values(copy)) {
    const nested = Array.isArray(value) ? value[0] : value;
    if (nested !== null && typeof nested === 'object' && !Array.isArray(nested)) {
      (nested as { [key: string]: Json }).added_later = { any: 1 };
      break;
    }
  }
  return copy;
}

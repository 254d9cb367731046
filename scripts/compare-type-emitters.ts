/**
 * `node dist/scripts/compare-type-emitters.js [catalogue]`: the group packages' `types.d.ts` as eventry
 * writes them (`emitGroupTypes`) beside what json-schema-to-typescript writes from the same model's JSON
 * Schemas, on the seed catalogue by default. Prints the shape of each output (interfaces, aliases,
 * `extends`, doc comments, index signatures), whether the two give the same type for every event and
 * shape (checked by tsc, both ways), the time to emit them and the time `tsc --noEmit` takes over each.
 * The figures are in docs/decisions/0121-own-typescript-emitter.md.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compile, type JSONSchema } from 'json-schema-to-typescript';
import { emitGroupTypes, interfaceName } from '../generators/emit/package/types.js';
import { loadCatalogue } from '../generators/load/index.js';
import { type Catalogue, type Group, groupPackageName } from '../generators/model.js';
import { eventSchema, shapeSchema, shapesUsedBy } from '../generators/schema/json-schema.js';
import { formatMs, machineLine, median } from './bench/measure.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const RUNS = 5;

/** One JSON Schema for a group: its payload map, every event and every shape it reaches under `$defs`. */
function groupSchema(model: Catalogue, group: Group): JSONSchema {
  const options = { ref: (name: string) => `#/$defs/${name}`, standard: true };
  const defs: Record<string, unknown> = {};
  const addShape = (name: string): void => {
    if (defs[name]) return;
    const shape = model.shapes[name]!;
    defs[name] = shapeSchema(shape, options);
    for (const used of shapesUsedBy(model, shape.fields)) addShape(used);
  };
  for (const key of group.events) {
    const event = model.events[key]!;
    // The title names the interface in json-schema-to-typescript: the name eventry gives it.
    defs[interfaceName(key)] = { ...eventSchema(event, options), title: interfaceName(key) };
    for (const used of shapesUsedBy(model, event.fields)) addShape(used);
  }
  const keys = group.events;
  return {
    title: 'EventPayloadMap',
    type: 'object',
    properties: Object.fromEntries(keys.map((key) => [key, { $ref: `#/$defs/${interfaceName(key)}` }])),
    required: [...keys],
    additionalProperties: false,
    $defs: defs,
  } as JSONSchema;
}

/** How the output reads: counts of the constructs a reader meets. */
function shapeOf(text: string): Record<string, number> {
  const count = (pattern: RegExp): number => text.match(pattern)?.length ?? 0;
  return {
    lines: count(/\n/g),
    interfaces: count(/^export interface /gm),
    'type aliases': count(/^export type /gm),
    extends: count(/^export interface \w+ extends /gm),
    'doc comments': count(/\/\*\*/g),
    'index signatures': count(/\[k: string\]: unknown/g),
    'optional members': count(/^\s*[\w'"]+\?: /gm),
  };
}

/** Both emitters over every group, timed; the texts of the last run. */
async function emitBoth(
  model: Catalogue,
  format: boolean,
): Promise<{ ours: string[]; theirs: string[]; ms: [number, number] }> {
  const oursMs: number[] = [];
  const theirsMs: number[] = [];
  let ours: string[] = [];
  let theirs: string[] = [];
  for (let run = 0; run < RUNS; run++) {
    let started = performance.now();
    ours = model.groups.map((group) => emitGroupTypes(model, group, groupPackageName(model, group)));
    oursMs.push(performance.now() - started);
    started = performance.now();
    theirs = [];
    for (const group of model.groups) {
      theirs.push(await compile(groupSchema(model, group), 'EventPayloadMap', { bannerComment: '', format }));
    }
    theirsMs.push(performance.now() - started);
  }
  return { ours, theirs, ms: [median(oursMs), median(theirsMs)] };
}

/** A check file: every interface both outputs export is the same type, both ways. */
function sameTypes(slug: string, ours: string, theirs: string): string {
  const names = (text: string) =>
    new Set([...text.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]!));
  const shared = [...names(ours)].filter((name) => names(theirs).has(name) && name !== 'EventKey');
  const lines = [
    `import type * as O from '../ours/${slug}.js';`,
    `import type * as T from '../theirs/${slug}.js';`,
  ];
  lines.push('type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;');
  for (const name of shared) lines.push(`export const ${name}: Same<O.${name}, T.${name}> = true;`);
  return `${lines.join('\n')}\n`;
}

/** Median wall time of `tsc -p` over a project, and its output when it fails. */
function timeTsc(dir: string, project: string): { ms: number; errors: string } {
  const tsc = join(REPO, 'node_modules', '.bin', 'tsc');
  const times: number[] = [];
  let errors = '';
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    const result = spawnSync(tsc, ['-p', project], { cwd: dir, encoding: 'utf8' });
    times.push(performance.now() - started);
    if (result.status !== 0) errors = result.stdout;
  }
  return { ms: median(times), errors };
}

function writeProject(dir: string, name: string, include: string[]): string {
  const compilerOptions = { strict: true, noEmit: true, skipLibCheck: false, types: [], module: 'nodenext' };
  writeFileSync(join(dir, `tsconfig.${name}.json`), JSON.stringify({ compilerOptions, include }));
  return `tsconfig.${name}.json`;
}

async function main(): Promise<void> {
  const root = process.argv[2] ?? join(REPO, 'catalogue');
  const loaded = loadCatalogue(root);
  if (!loaded.ok) throw new Error(`${root} does not load`);
  const model = loaded.catalogue;
  const { ours, theirs, ms } = await emitBoth(model, false);
  const formatted = await emitBoth(model, true);
  const dir = mkdtempSync(join(tmpdir(), 'eventry-types-'));
  try {
    for (const side of ['ours', 'theirs', 'same']) mkdirSync(join(dir, side));
    writeFileSync(join(dir, 'package.json'), '{"type": "module"}');
    model.groups.forEach((group, i) => {
      writeFileSync(join(dir, 'ours', `${group.slug}.d.ts`), ours[i]!);
      writeFileSync(join(dir, 'theirs', `${group.slug}.d.ts`), theirs[i]!);
      writeFileSync(join(dir, 'same', `${group.slug}.ts`), sameTypes(group.slug, ours[i]!, theirs[i]!));
    });
    const oursTsc = timeTsc(dir, writeProject(dir, 'ours', ['ours']));
    const theirsTsc = timeTsc(dir, writeProject(dir, 'theirs', ['theirs']));
    const same = timeTsc(dir, writeProject(dir, 'same', ['same']));
    const a = shapeOf(ours.join('\n'));
    const b = shapeOf(theirs.join('\n'));
    console.log(
      `${model.groups.length} groups, ${Object.keys(model.events).length} events. ${machineLine()}`,
    );
    console.log('| | eventry | json-schema-to-typescript |\n|---|---|---|');
    for (const key of Object.keys(a)) console.log(`| ${key} | ${a[key]} | ${b[key]} |`);
    console.log(`| emit, all groups (median of ${RUNS}) | ${formatMs(ms[0])} | ${formatMs(ms[1])} |`);
    console.log(`| emit with prettier (its default) | | ${formatMs(formatted.ms[1])} |`);
    console.log(`| tsc --noEmit (median of ${RUNS}) | ${formatMs(oursTsc.ms)} | ${formatMs(theirsTsc.ms)} |`);
    const checks = (same.errors.match(/error TS/g) ?? []).length;
    console.log(`\nSame type both ways: ${checks === 0 ? 'every shared name' : `${checks} names differ`}.`);
    if (checks > 0) console.log(same.errors.split('\n').slice(0, 8).join('\n'));
    if (oursTsc.errors || theirsTsc.errors) console.log(`tsc errors:\n${oursTsc.errors}${theirsTsc.errors}`);
    if (process.env.KEEP_TYPES) console.log(`kept in ${dir}`);
  } finally {
    if (!process.env.KEEP_TYPES) rmSync(dir, { recursive: true, force: true });
  }
}

await main();

import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAjv, openEventSchema } from '../../../generators/emit/package/validators.js';
import type { Catalogue, Field, FieldType } from '../../../generators/model.js';
import type { GroupApi, ValidationResult } from '../../../generators/runtime/runtime.js';
import { toErrorItems } from '../../../generators/runtime/runtime.js';
import { standaloneEventSchema } from '../../../generators/schema/json-schema.js';
import { loadValid, REPO } from '../../helpers.js';
import { type BuiltPackages, buildPackages } from './build-packages.js';

/**
 * For every event of the real catalogue, the generated (standalone) validators agree with ajv
 * compiling the same JSON Schema at run time, in both modes: the same verdict and, through the same
 * mapping, the same error items, on the shipped examples and on invalid variants of them (each field
 * missing, of a wrong type, null; an undocumented field in every object).
 */
const model = loadValid(join(REPO, 'catalogue'));
const keys = Object.keys(model.events).sort();

// ajv at run time, as a consumer without eventry would use it: one instance per option set.
const full = createAjv({ allErrors: true });
const fast = createAjv({ allErrors: false });

let built: BuiltPackages;
const groups = new Map<string, GroupApi<Record<string, unknown>>>();
beforeAll(async () => {
  built = await buildPackages(join(REPO, 'catalogue'));
  for (const group of model.groups) groups.set(group.slug, await built.importGroup(group.slug));
}, 180_000);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
interface Variant {
  name: string;
  payload: Json;
  /** The item the strict result must contain (besides agreeing with ajv), or `valid`. */
  expect: { code: string; attr: string } | 'valid' | 'unknown-field';
}

describe.each(keys)('%s', (key) => {
  const event = model.events[key]!;
  let variants: Variant[];
  let runtime: { strict: ValidateFunction; tolerant: ValidateFunction; strictFast: ValidateFunction };
  beforeAll(() => {
    const examples = JSON.parse(
      readFileSync(join(built.out, event.group, 'examples', `${key}.json`), 'utf8'),
    );
    variants = [
      { name: 'minimal example', payload: examples.minimal, expect: 'valid' },
      { name: 'full example', payload: examples.full, expect: 'valid' },
      ...invalidVariants(model, event.fields, examples.full, [], event.partial !== undefined),
    ];
    runtime = {
      strict: full.compile(standaloneEventSchema(model, key, 'closed')),
      tolerant: full.compile(openEventSchema(model, key)),
      strictFast: fast.compile(standaloneEventSchema(model, key, 'closed')),
    };
  });

  it('the generated validators agree with ajv at run time, in both modes', () => {
    const validate = groups.get(event.group)!.validate;
    expect(variants.length).toBeGreaterThan(2);
    for (const variant of variants) {
      for (const mode of ['strict', 'tolerant'] as const) {
        const reference = runtime[mode];
        const ok = reference(variant.payload);
        const want: ValidationResult = ok
          ? { valid: true }
          : {
              valid: false,
              error: {
                detail: expect.any(String) as unknown as string,
                code: 'event_failed_validation',
                errors: toErrorItems(reference.errors!, variant.payload, false),
              },
            };
        expect(validate(key, variant.payload, { mode }), `${variant.name} (${mode})`).toEqual(want);
      }
      expect(runtime.strictFast(variant.payload), variant.name).toBe(runtime.strict(variant.payload));
    }
  });

  it('reports each invalid variant with the expected code and attr', () => {
    const validate = groups.get(event.group)!.validate;
    for (const variant of variants) {
      const strict = validate(key, variant.payload);
      const tolerant = validate(key, variant.payload, { mode: 'tolerant' });
      if (variant.expect === 'valid') {
        expect(strict, variant.name).toEqual({ valid: true });
        expect(tolerant, variant.name).toEqual({ valid: true });
      } else if (variant.expect === 'unknown-field') {
        expect(strict.valid ? [] : strict.error.errors, variant.name).toEqual([
          expect.objectContaining({ code: 'unknown_field', attr: variant.name.split(' ').at(-1) }),
        ]);
        expect(tolerant, variant.name).toEqual({ valid: true });
      } else {
        expect(strict.valid ? [] : strict.error.errors, variant.name).toEqual([
          expect.objectContaining(variant.expect),
        ]);
      }
    }
  });
});

describe('every group package of the real catalogue, from a consumer', () => {
  it('type-checks with tsc --noEmit, declaration files included', () => {
    const lines = model.groups.flatMap((group, i) => {
      const name = `${model.config.scope}/${group.slug}`;
      const key = JSON.stringify(group.events[0]);
      return [
        `import * as g${i} from '${name}';`,
        `export const r${i}: boolean = g${i}.validate(${key}, {}).valid && g${i}.isEvent(${key}, {});`,
        `export type P${i} = g${i}.EventPayloadMap[${key}];`,
      ];
    });
    writeFileSync(join(built.root, 'package.json'), '{ "type": "module", "private": true }\n');
    writeFileSync(join(built.root, 'consumer.ts'), `${lines.join('\n')}\n`);
    writeFileSync(
      join(built.root, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'NodeNext',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: [],
          lib: ['ES2022'],
        },
        files: ['consumer.ts'],
      }),
    );
    const tsc = spawnSync(join(REPO, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json'], {
      cwd: built.root,
      encoding: 'utf8',
    });
    expect(`${tsc.stdout}${tsc.stderr}`).toBe('');
    expect(tsc.status).toBe(0);
  });
});

/** Invalid (and optional-field-missing) variants of a valid payload, for every object in it. */
function invalidVariants(
  model: Catalogue,
  fields: Field[],
  example: Json,
  path: string[],
  open: boolean,
): Variant[] {
  const variants: Variant[] = [];
  const at = (name: string) => [...path, name].join('.');
  const extra = at('undocumented_field');
  variants.push({
    name: `undocumented field ${extra}`,
    payload: setAt(example, [...path, 'undocumented_field'], 1, undefined),
    expect: open ? 'valid' : 'unknown-field',
  });
  const object = getAt(example, path) as { [key: string]: Json };
  for (const field of fields) {
    if (!(field.name in object)) continue;
    const fieldPath = [...path, field.name];
    variants.push({
      name: `missing ${at(field.name)}`,
      payload: setAt(example, fieldPath, undefined, undefined),
      expect: field.required ? { code: 'required', attr: at(field.name) } : 'valid',
    });
    variants.push({
      name: `wrong type ${at(field.name)}`,
      payload: setAt(example, fieldPath, wrongValue(field.type), undefined),
      expect: { code: 'invalid_type', attr: at(field.name) },
    });
    if (!field.required) {
      variants.push({
        name: `null ${at(field.name)}`,
        payload: setAt(example, fieldPath, null, undefined),
        expect: { code: 'invalid_type', attr: at(field.name) },
      });
    }
    const shape = shapeOf(field.type);
    if (shape) {
      const inner = field.type.kind === 'array' ? [...fieldPath, '0'] : fieldPath;
      variants.push(...invalidVariants(model, model.shapes[shape]!.fields, example, inner, false));
    }
  }
  return variants;
}

function shapeOf(type: FieldType): string | undefined {
  if (type.kind === 'shape') return type.name;
  if (type.kind === 'array' && type.items.kind === 'shape') return type.items.name;
  return undefined;
}

/** A value of the wrong JSON type for a field (a fraction for an integer). */
function wrongValue(type: FieldType): Json {
  switch (type.kind) {
    case 'integer':
      return 1.5;
    case 'string':
      return 7;
    case 'array':
    case 'shape':
      return 'not an object or array';
    default:
      return [];
  }
}

function getAt(value: Json, path: string[]): Json {
  let current = value;
  for (const part of path) current = (current as { [key: string]: Json })[part]!;
  return current;
}

/** A deep copy of `value` with the value at `path` set (or removed when `to` is undefined). */
function setAt(value: Json, path: string[], to: Json | undefined, _unused: undefined): Json {
  const copy = structuredClone(value);
  const parent = getAt(copy, path.slice(0, -1)) as { [key: string]: Json };
  const last = path.at(-1)!;
  if (to === undefined) delete parent[last];
  else parent[last] = to;
  return copy;
}

import Ajv2020, { _, type CodeKeywordDefinition, type Name } from 'ajv/dist/2020.js';
import Ajv07 from 'ajv/dist/ajv.js';
import { not, or } from 'ajv/dist/compile/codegen/index.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import type { Catalogue } from '../../model.js';
import { EXTENSION_KEYWORDS, standaloneEventSchema } from '../json-schema.js';

/** The generated validator code of one event, to be placed in a function scope taking `exports`. */
export interface EventValidatorCode {
  /** Defines `exports.strict` and `exports.tolerant`: first-error validators of the closed and open schema. */
  fast: string;
  /** Defines `exports.full`: the all-errors validator of the closed schema, run only after a failure. */
  full: string;
  /** Whether the code reads `fullFormats` (imported from `ajv-formats` by the module around it). */
  usesFormats: boolean;
}

/**
 * The one ajv configuration of eventry's validators: the generated code, the agreement test and the
 * benchmark all use it. Strict mode (a misspelled keyword fails the build), eventry's extension
 * keywords as annotations, formats from ajv-formats. `messages` is off: the run time writes its own.
 */
export function createAjv(options: { allErrors: boolean }): Ajv2020.default {
  return configure(new Ajv2020.default(ajvOptions(options.allErrors, false)), false);
}

function ajvOptions(allErrors: boolean, standalone: boolean) {
  return {
    strict: true,
    // Checking schemas against the 2020-12 meta-schema costs ~50 ms an instance to compile: the
    // standalone instances skip it (`compileEventValidators` checks each schema once beforehand).
    validateSchema: !standalone,
    allErrors,
    messages: false,
    // Standalone code reads formats from `fullFormats`, which the generated module imports.
    code: standalone ? { source: true, esm: false, lines: true, formats: _`fullFormats` } : {},
  };
}

function configure<T extends Ajv2020.default | Ajv07.default>(ajv: T, standalone: boolean): T {
  for (const keyword of EXTENSION_KEYWORDS) ajv.addKeyword(keyword);
  for (const [name, format] of Object.entries(fullFormats)) ajv.addFormat(name, format);
  if (standalone) ajv.removeKeyword('additionalProperties').addKeyword(CLOSED_OBJECT);
  return ajv;
}

/**
 * The ajv that writes the shipped code: ajv's draft-07 class. The catalogue's schemas use only keywords
 * whose meaning 2020-12 and draft-07 share (type, properties, required, additionalProperties, items
 * with one schema, enum, format, `$ref` into `$defs`), and Ajv2020 always supports `unevaluated*` and
 * `$dynamicRef`: every function it writes resets `evaluated` bookkeeping and takes `dynamicAnchors` on
 * each call. The draft-07 code skips both. The schemas are checked against the 2020-12 meta-schema
 * first, their `$schema` is dropped for this compile only, and the agreement test compares the result
 * with Ajv2020 on every event.
 */
function createStandaloneAjv(allErrors: boolean): Ajv07.default {
  return configure(new Ajv07.default(ajvOptions(allErrors, true)), true);
}

/**
 * `additionalProperties: false` as a chain of `key === "name"` comparisons for any number of
 * properties. ajv's own code switches to `hasOwnProperty` on the schema's `properties` above 8
 * properties, which makes a closed 30-field event 3-4 times slower to check (and embeds the whole
 * schema in the generated code). Same placement, errors and parameters as ajv's keyword; the agreement
 * test compares the two on every event.
 */
const CLOSED_OBJECT: CodeKeywordDefinition = {
  keyword: 'additionalProperties',
  type: 'object',
  schemaType: 'boolean',
  trackErrors: true,
  before: 'properties',
  error: {
    message: 'must NOT have additional properties',
    params: ({ params }) => _`{additionalProperty: ${params.additionalProperty}}`,
  },
  code(cxt) {
    const { gen, schema, parentSchema, data, errsCount, it } = cxt;
    if (schema !== false || parentSchema.patternProperties !== undefined || errsCount === undefined) {
      throw new Error(
        'eventry validators support `additionalProperties: false` (and no patternProperties) only',
      );
    }
    it.props = true;
    const names = Object.keys(parentSchema.properties ?? {}).filter((name) => name !== '__proto__');
    gen.forIn('key', data, (key: Name) => {
      const report = (): void => {
        cxt.setParams({ additionalProperty: key });
        cxt.error();
        if (!it.allErrors) gen.break();
      };
      if (names.length === 0) report();
      else gen.if(not(or(...names.map((name) => _`${key} === ${name}`))), report);
    });
    cxt.ok(_`${errsCount} === errors`);
  },
};

let metaChecker: Ajv2020.default | undefined;

function checkAgainstMetaSchema(schema: Record<string, unknown>): void {
  metaChecker ??= createAjv({ allErrors: true });
  if (!metaChecker.validateSchema(schema)) {
    throw new Error(
      `schema ${String(schema.$id)} is not valid JSON Schema 2020-12: ${metaChecker.errorsText()}`,
    );
  }
}

/** The `$id` of an event's open (tolerant) schema, beside the closed one's `<key>.json`. */
function openSchemaId(key: string): string {
  return `${key}.open.json`;
}

/** An event's open (tolerant) standalone schema, under its own `$id`. */
export function openEventSchema(model: Catalogue, key: string): Record<string, unknown> {
  return { ...standaloneEventSchema(model, key, 'open'), $id: openSchemaId(key) };
}

/**
 * Compiles one event's validators to standalone code, from its closed `standaloneEventSchema` (which
 * the caller also ships) and its `openEventSchema`. The code is ajv's CommonJS-style output
 * (`exports.x = ...`, no `require` allowed): a generated module places each of the two outputs in its
 * own function scope, because two ajv instances (first-error and all-errors) name their functions alike.
 */
export function compileEventValidators(
  key: string,
  closed: Record<string, unknown>,
  open: Record<string, unknown>,
): EventValidatorCode {
  checkAgainstMetaSchema(closed);
  checkAgainstMetaSchema(open);
  // Fresh instances per event, so function names do not depend on other events (stable diffs); the
  // meta-schema check is done once above by a shared instance, strict mode still applies to each compile.
  const fastAjv = createStandaloneAjv(false);
  fastAjv.addSchema(draft07(closed)).addSchema(draft07(open));
  const fullAjv = createStandaloneAjv(true);
  fullAjv.addSchema(draft07(closed));
  const fast = slim(standaloneCode.default(fastAjv, { strict: `${key}.json`, tolerant: openSchemaId(key) }));
  const full = slim(standaloneCode.default(fullAjv, { full: `${key}.json` }));
  for (const code of [fast, full]) {
    if (/\brequire\(/.test(code)) {
      throw new Error(
        `the validator code of ${key} needs an ajv run-time module, which packages do not ship`,
      );
    }
  }
  const usesFormats = /\bfullFormats\b/.test(fast);
  return { fast, full, usesFormats };
}

/** The schema without its `$schema` (2020-12, which ajv's draft-07 class does not know). */
function draft07(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

/**
 * ajv's standalone output, less what a package never reads: every compiled schema's declaration
 * (`const schema0 = {...}`) that its code does not read (a closed event embedded its whole schema
 * twice), the `sourceURL` comments, and each error's `schemaPath` (the run time maps keyword, instance
 * path and parameters only); the all-errors code appends each error in one statement instead of five.
 * A group package's import parses all of it, so its size is start-up time.
 */
function slim(code: string): string {
  const declarations = code.replace(/^const (schema\d+) = .*;\n/gm, (line: string, name: string) =>
    new RegExp(`\\b${name}\\b`).test(code.replace(line, '')) ? line : '',
  );
  return declarations
    .replace(/^\/\*# sourceURL=.*\*\/;\n/gm, '')
    .replace(/,schemaPath:"(?:[^"\\\n]|\\.)*"/g, '')
    .replace(
      /if\(vErrors === null\)\{\nvErrors = \[(err\d+)\];\n\}\nelse \{\nvErrors\.push\(\1\);\n\}\n/g,
      '(vErrors ??= []).push($1);\n',
    );
}

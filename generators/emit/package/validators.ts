import { createRequire } from 'node:module';
import Ajv2020, { _ } from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import type { Catalogue } from '../../model.js';
import { EXTENSION_KEYWORDS, standaloneEventSchema } from '../../schema/json-schema.js';
import { requirePrecompiled } from '../../shared/toolkit-files.js';
import type { RuleChecks } from './validator/rules.js';
import { readSchemaTree } from './validator/schema-tree.js';
import { writeValidatorCode } from './validator/write-code.js';

/**
 * The generated validator code of one event, to be placed in a function scope taking `exports`: it
 * defines `exports.validate`, the all-errors validator of the closed schema, called with a run as its
 * last argument whose `tolerant` says whether undocumented fields are allowed and whose methods
 * receive each error as found (see `writeValidatorCode`). On a valid payload it does the work a
 * first-error validator does, so one function serves valid and invalid payloads in both modes.
 */
export interface EventValidatorCode {
  /** The validator's code. */
  code: string;
  /** Whether the code reads `fullFormats` (imported from `ajv-formats` by the module around it). */
  usesFormats: boolean;
}

/**
 * The ajv that the generated code is held to (the agreement tests, the labelled bench peer) and that
 * checks schemas against the meta-schema: strict mode, eventry's extension keywords as annotations,
 * formats from ajv-formats, no messages (the run time writes its own), own properties only (a getter
 * on a class's prototype does not satisfy `required`), and a long enum checked by a loop (ajv's one
 * `||` expression per value stops building at a few thousand values).
 */
export function createAjv(options: { allErrors: boolean }): Ajv2020.default {
  return configure(new Ajv2020.default(ajvOptions(options.allErrors)));
}

function ajvOptions(allErrors: boolean) {
  return { strict: true, allErrors, messages: false, ownProperties: true, loopEnum: 32 };
}

function configure(ajv: Ajv2020.default): Ajv2020.default {
  for (const keyword of EXTENSION_KEYWORDS) ajv.addKeyword(keyword);
  for (const [name, format] of Object.entries(fullFormats)) ajv.addFormat(name, format);
  return ajv;
}

/** A compiled check of schemas against the 2020-12 meta-schema, as ajv's standalone code exports it. */
type MetaSchemaCheck = ((schema: unknown) => boolean) & {
  errors?: { instancePath: string; keyword: string }[] | null;
};

/**
 * Where `npm run build:tool` (`scripts/precompile.ts`) writes the meta-schema check, below `generators/`
 * in the compiled toolkit: compiling the 2020-12 meta-schema cost every process that builds a group package.
 */
export const PRECOMPILED_META_CHECK = 'emit/package/meta-schema-check.compiled.cjs';

/** The 2020-12 meta-schema check as standalone code, with eventry's keywords and formats: what the build writes. */
export function metaSchemaCheckCode(): string {
  const ajv = configure(
    new Ajv2020.default({
      ...ajvOptions(true),
      code: { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` },
    }),
  );
  const check = ajv.getSchema(META_SCHEMA)!;
  return `${standaloneCode.default(ajv, check)}\nmodule.exports.ajvVersion = ${JSON.stringify(ajvVersion())};\n`;
}

const META_SCHEMA = 'https://json-schema.org/draft/2020-12/schema';
/** The installed ajv's version, which a precompiled check must have been written by. */
function ajvVersion(): string {
  return (createRequire(import.meta.url)('ajv/package.json') as { version: string }).version;
}

let metaCheck: MetaSchemaCheck | undefined;

/** The meta-schema check, precompiled by the ajv installed now (else `toolkit-not-built`). */
function metaSchemaCheck(): MetaSchemaCheck {
  metaCheck ??= requirePrecompiled<MetaSchemaCheck & { ajvVersion?: string }>(
    PRECOMPILED_META_CHECK,
    'the precompiled meta-schema check',
    (module) => module.ajvVersion === ajvVersion(),
  );
  return metaCheck;
}

function checkAgainstMetaSchema(key: string, schema: Record<string, unknown>): void {
  const check = metaSchemaCheck();
  if (!check(schema)) {
    const problems = (check.errors ?? []).map((error) => `${error.instancePath || '/'} (${error.keyword})`);
    throw new Error(`the schema of ${key} is not valid JSON Schema 2020-12: ${problems.join(', ')}`);
  }
}

/** The `$id` of an event's open (tolerant) schema, beside the closed one's `<key>.json`. */
function openSchemaId(key: string): string {
  return `${key}.open.json`;
}

/** An event's open (tolerant) standalone schema, under its own `$id`: what ajv checks at run time in tolerant mode. */
export function openEventSchema(model: Catalogue, key: string): Record<string, unknown> {
  return { ...standaloneEventSchema(model, key, 'open'), $id: openSchemaId(key) };
}

/**
 * An event's validator as code, from its `validationSchema` (the closed schema without annotations,
 * under an `$id` every event shares): written once for each distinct schema, shared by the events of
 * a group that have it. `key` names the event in errors. Tolerant mode is the same code with the walk
 * over undocumented keys switched off at run time, and a valid payload costs the all-errors code what
 * it costs first-error code (no error to collect, nothing to stop early for), so no separate
 * first-error validator is needed. The code sets `exports.validate` and requires nothing: a generated
 * module places it in a function scope of its own per validator.
 */
export function compileEventValidators(
  key: string,
  schema: Record<string, unknown>,
  rules?: RuleChecks,
): EventValidatorCode {
  checkAgainstMetaSchema(key, schema);
  const written = writeValidatorCode(readSchemaTree(key, schema), rules !== undefined);
  return rules ? { ...written, code: `${written.code}\n${rules.code}` } : written;
}

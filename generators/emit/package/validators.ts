import { createRequire } from 'node:module';
import Ajv2020, { _, type CodeKeywordDefinition, Name } from 'ajv/dist/2020.js';
import Ajv07 from 'ajv/dist/ajv.js';
import { getProperty, not, or, ValueScope } from 'ajv/dist/compile/codegen/index.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import type { Catalogue } from '../../model.js';
import { EXTENSION_KEYWORDS, standaloneEventSchema } from '../../schema/json-schema.js';
import { requirePrecompiled } from '../../shared/toolkit-files.js';
import { withOneWalkNameCount } from './name-count.js';

/**
 * The generated validator code of one event, to be placed in a function scope taking `exports`: it
 * defines `exports.validate`, ajv's all-errors validator of the closed schema, called with a run as its
 * last argument (`RUN`) whose `tolerant` says whether undocumented fields are allowed and whose
 * methods receive each error as found. On a valid payload it does the work a first-error validator
 * does, so one function serves valid and invalid payloads in both modes.
 */
export interface EventValidatorCode {
  /** The validator's code. */
  code: string;
  /** Whether the code reads `fullFormats` (imported from `ajv-formats` by the module around it). */
  usesFormats: boolean;
}

/**
 * The one ajv configuration of eventry's validators: the generated code, the agreement test and the
 * benchmark all use it. Strict mode (a misspelled keyword fails the build), eventry's extension
 * keywords as annotations, formats from ajv-formats. `messages` is off: the run time writes its own.
 * Only a payload's own properties count (a getter on a class's prototype does not satisfy `required`;
 * `constructor` or `toString` are read from the payload, never from `Object.prototype`): ajv's
 * `ownProperties` here, and `OWN_FIELDS` in the generated code, which costs far less. `loopEnum`: a long enum is a loop over its values, not one `||` expression
 * per value (which stops building at a few thousand values).
 */
export function createAjv(options: { allErrors: boolean }): Ajv2020.default {
  return configure(new Ajv2020.default(ajvOptions(options.allErrors, false)), false);
}

/** Enums from this many values on are checked by a loop (shorter ones by inline comparisons, faster). */
const LOOP_ENUM = 32;

/**
 * The run-time object each generated function takes as its last argument: `tolerant` (skip the walk
 * over undocumented keys) and the methods that receive each error as found and stop the run once
 * enough are found: see `Run` in `generators/runtime/runtime.ts`. An argument, not `this` (ajv's
 * `passContext`, which 1.2.0 code used): the run time then calls the event's function directly, which V8
 * compiles to a plain call, where `validate.call(run, ...)` went through a generic one on every payload.
 */
const RUN = 'run';

function ajvOptions(allErrors: boolean, standalone: boolean) {
  return {
    strict: true,
    // Checking schemas against the 2020-12 meta-schema costs ~50 ms an instance to compile: the
    // standalone instances skip it (`compileEventValidators` checks each schema once beforehand).
    validateSchema: !standalone,
    allErrors,
    messages: false,
    // Each all-errors error carries the value it is about (`data`): the run time describes it without
    // walking the payload again (`slim` drops the schema references verbose mode adds with it).
    verbose: standalone && allErrors,
    ownProperties: !standalone,
    loopEnum: LOOP_ENUM,
    // The one pattern property eventry writes repeats a `properties` entry on purpose (`__proto__`).
    allowMatchingProperties: standalone,
    // Nested validators get the caller's `this` (the mode and the error sink), which
    // `argumentContext` turns into the argument `RUN`.
    passContext: standalone,
    // Standalone code reads formats from `fullFormats`, which the generated module imports.
    code: standalone
      ? { source: true, esm: false, lines: true, formats: _`fullFormats`, process: skipEvaluation }
      : {},
  };
}

/**
 * The source ajv evaluates after generating it, replaced by a function that is never called: the build
 * only writes the code (`standaloneCode` reads what ajv generated, not what it evaluated), and V8
 * compiling each event's code into a function took a tenth of a 10,000-event build.
 */
function skipEvaluation(): string {
  return 'return function notEvaluated() { throw new Error("eventry builds validator code only"); }';
}

function configure<T extends Ajv2020.default | Ajv07.default>(ajv: T, standalone: boolean): T {
  for (const keyword of EXTENSION_KEYWORDS) ajv.addKeyword(keyword);
  for (const [name, format] of Object.entries(fullFormats)) ajv.addFormat(name, format);
  if (standalone) ajv.removeKeyword('additionalProperties').addKeyword(CLOSED_OBJECT).addKeyword(OWN_FIELDS);
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
function createStandaloneAjv(): Ajv07.default {
  return configure(new Ajv07.default(ajvOptions(true, true)), true);
}

let reusedAjv: Ajv07.default | undefined;

/**
 * The standalone ajv, emptied as if new: configuring an instance (vocabularies, formats, keywords)
 * cost 7% of a build when made afresh for each event. Emptying removes every schema and replaces the
 * code scope, which is where ajv numbers the names it generates (`validate10`, `schema31`); the
 * instance's configuration adds nothing to that scope, so the code is the same as a new instance's (the
 * golden packages and `reused-ajv.test.ts` check it).
 */
function standaloneAjv(): Ajv07.default {
  if (!reusedAjv) {
    reusedAjv = createStandaloneAjv();
    return reusedAjv;
  }
  const ajv = reusedAjv;
  ajv.removeSchema();
  const { es5, lines } = ajv.opts.code;
  const prefixes = (ajv.scope as unknown as { _prefixes?: Set<string> })._prefixes;
  (ajv as { scope: ValueScope }).scope = new ValueScope({
    scope: {},
    ...(prefixes ? { prefixes } : {}),
    ...(es5 !== undefined ? { es5 } : {}),
    ...(lines !== undefined ? { lines } : {}),
  });
  return ajv;
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
    const patterns = Object.keys(parentSchema.patternProperties ?? {});
    if (
      schema !== false ||
      errsCount === undefined ||
      patterns.some((pattern) => pattern !== PROTO_PATTERN)
    ) {
      throw new Error(
        'eventry validators support `additionalProperties: false` (and no patternProperties) only',
      );
    }
    it.props = true;
    const names = Object.keys(parentSchema.properties ?? {});
    const walk = (): void => {
      const each = (key: Name): void => {
        const report = (): void => {
          cxt.setParams({ additionalProperty: key });
          cxt.error();
          if (!it.allErrors) gen.break();
        };
        if (names.length === 0) report();
        else gen.if(not(or(...names.map((name) => _`${key} === ${name}`))), report);
      };
      if (names.length <= WIDE_OBJECT) {
        gen.forIn('key', data, each);
        return;
      }
      // A wide object has no undocumented key when it has as many keys as documented fields with a
      // value: one count instead of comparing each key with every name. Only otherwise are its keys
      // walked, over that same `Object.keys` (for-in re-checks every key of an object in dictionary
      // mode, one a field was deleted from).
      const keys = gen.const('keys', _`Object.keys(${data})`);
      const present = names.map((name) => _`(${data}${getProperty(name)} !== undefined)`);
      gen.if(_`${keys}.length !== ${present.reduce((sum, one) => _`${sum} + ${one}`)}`, () =>
        gen.forOf('key', keys, each),
      );
    };
    // One compiled function serves both modes: in tolerant mode it skips the walk over the keys, so a
    // payload with a million undocumented fields costs nothing there.
    gen.if(_`!${new Name(RUN)}.tolerant`, walk);
    cxt.ok(_`${errsCount} === errors`);
  },
};

/** Objects with more documented fields than this are checked by counting their keys (see `CLOSED_OBJECT`). */
const WIDE_OBJECT = 8;

/** The keyword `prepareSchema` puts on every object schema with fields; see `OWN_FIELDS`. */
const OWN = 'x-eventry-own-fields';
/** Field names that a plain object inherits from `Object.prototype`. */
const OBJECT_MEMBERS = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * Own properties only, for the price of one prototype check per object. ajv's `ownProperties` adds a
 * `hasOwnProperty` call to every field read and an `Object.keys` array to every key walk (3 to 4 times
 * slower on valid payloads). Instead, an object whose prototype is not `Object.prototype` (a class
 * instance, `Object.create(proto)`) is read through a copy of its own properties on a null prototype,
 * where every read is an own read; a plain object is read as it is, since reading a field from it can
 * only reach `Object.prototype`, which has no field of that name. When the schema has a field named
 * like an `Object.prototype` member (the keyword's value is `true`), plain objects are copied too.
 * The plain-object test reads `__proto__`, which V8 compiles to a load from the object's map, where
 * Node 20's `Object.getPrototypeOf` is a call (6 ns per object, a fifth of a small valid payload's
 * validation). The two differ only for an object with an own `__proto__` (which `JSON.parse` makes
 * from a `"__proto__"` key): it is copied, unless that own value is `Object.prototype` itself, which
 * only code that builds the object can arrange (as a `Proxy` can lie about any of its reads), never
 * a parsed payload. `getPrototypeOf` stays where the schema has member-named fields, `__proto__` among them.
 */
const OWN_FIELDS: CodeKeywordDefinition = {
  keyword: OWN,
  type: 'object',
  schemaType: 'boolean',
  before: 'required',
  code(cxt) {
    const { gen, data, schema } = cxt;
    const proto = gen.const('proto', schema ? _`Object.getPrototypeOf(${data})` : _`${data}.__proto__`);
    const foreign = schema ? _`${proto} !== null` : _`${proto} !== Object.prototype`;
    gen.if(foreign, () =>
      gen.assign(
        data,
        _`Object.defineProperties(Object.create(null), Object.getOwnPropertyDescriptors(${data}))`,
      ),
    );
  },
};

/** A field called `__proto__`: ajv skips it in `properties` (a guard for schemas built from user JSON). */
const PROTO = '__proto__';
/** Where `__proto__`'s schema goes as well: a pattern property matching that one own key. */
const PROTO_PATTERN = '^__proto__$';

/**
 * The schema as the generated code is compiled from: every object schema with fields marked for
 * `OWN_FIELDS`, and every `properties.__proto__` also under `patternProperties`, so that a catalogue
 * field called `__proto__` is checked like any other (ajv's `properties` skips that name; `required`
 * and `additionalProperties` still see it there). The pattern is matched against own keys only (the
 * object is read through its null-prototype copy).
 */
function prepareSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(prepareSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  const copy: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(schema)) {
    const prepared = name === 'enum' || name === 'required' ? value : prepareSchema(value);
    // A `properties` key `__proto__` is defined, not assigned, so that it stays a key.
    if (name === PROTO)
      Object.defineProperty(copy, name, {
        value: prepared,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else copy[name] = prepared;
  }
  const properties = copy.properties as Record<string, unknown> | undefined;
  if (properties !== undefined && Object.hasOwn(properties, PROTO)) {
    copy.patternProperties = { [PROTO_PATTERN]: properties[PROTO] };
  }
  if (properties !== undefined || copy.required !== undefined) {
    const names = [...Object.keys(properties ?? {}), ...((copy.required as string[] | undefined) ?? [])];
    copy[OWN] = names.some((name) => OBJECT_MEMBERS.has(name));
  }
  return copy;
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
      ...ajvOptions(true, false),
      code: { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` },
    }),
    false,
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
 * Compiles an event's validator to standalone code, from its `validationSchema` (the closed schema
 * without annotations, under an `$id` every event shares): one ajv compile for each distinct schema,
 * shared by the events of a group that have it. `key` names the event in errors. Tolerant mode is the
 * same code with the walk over undocumented keys switched off at run time, and a valid payload costs
 * the all-errors code what it costs first-error code (no error to collect, nothing to stop early for),
 * so no separate first-error validator is needed. The code is ajv's CommonJS-style output
 * (`exports.validate = ...`, no `require` allowed), which a generated module places in a function
 * scope of its own per validator.
 */
export function compileEventValidators(key: string, schema: Record<string, unknown>): EventValidatorCode {
  checkAgainstMetaSchema(key, schema);
  // Each event starts from an emptied instance, so function names do not depend on other events
  // (stable diffs); the meta-schema check is done once above by a shared instance, strict mode still
  // applies to each compile.
  const ajv = standaloneAjv();
  ajv.addSchema(draft07(schema));
  const id = String(schema.$id);
  const generated = withOneWalkNameCount(() => standaloneCode.default(ajv, { validate: id }));
  const code = argumentContext(
    key,
    readFieldsOnce(key, reportEachError(key, dotPaths(key, slim(generated)))),
  );
  if (/\brequire\(/.test(code)) {
    throw new Error(`the validator code of ${key} needs an ajv run-time module, which packages do not ship`);
  }
  return { code, usesFormats: /\bfullFormats\b/.test(code) };
}

/**
 * The schema without its `$schema` (2020-12, which ajv's draft-07 class does not know), prepared for
 * own-property reads (`prepareSchema`).
 */
function draft07(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = schema;
  return prepareSchema(rest) as Record<string, unknown>;
}

/** The start of an object's checks in the generated code: `OWN_FIELDS`'s prototype check of `data<n>`. */
const OBJECT_START =
  /^const (proto\d+) = (?:Object\.getPrototypeOf\((data\d*)\)|(data\d*)\.__proto__);\nif\(\1 !== [^\n]*\)\{\n(?:\2|\3) = Object\.defineProperties\([^\n]*\);\n\}\n/gm;

/**
 * The code with each field of an object read once, into a local, where its checks start: ajv reads a
 * field up to three times (`required`, then `properties`' presence test and value). A read is a hash
 * lookup on a payload in dictionary mode (one a field was deleted from), and V8 then also makes the
 * validator's other reads of that field generic for later payloads; one read per field divides both
 * costs. A field's getter, if a payload has one, runs once instead of up to three times.
 */
function readFieldsOnce(key: string, code: string): string {
  const starts = [...code.matchAll(OBJECT_START)].reverse();
  let out = code;
  for (const start of starts) {
    const name = (start[2] ?? start[3])!;
    const from = start.index + start[0].length;
    const to = blockEnd(out, from);
    if (to === -1)
      throw new Error(`the validator code of ${key} has an object block the build cannot delimit`);
    const locals = new Map<string, string>();
    const reads = new RegExp(
      `(?<![\\w$.])${name}(?:\\.([A-Za-z_$][\\w$]*)|\\[(${STRING})\\])(?!\\s*=[^=])`,
      'g',
    );
    const body = out.slice(from, to).replace(reads, (_read: string, field?: string, quoted?: string) => {
      const access = field === undefined ? `[${quoted}]` : `.${field}`;
      let local = locals.get(access);
      if (local === undefined) {
        local = `${name}$${locals.size}`;
        locals.set(access, local);
      }
      return local;
    });
    if (new RegExp(`(?<![\\w$.])${name}(?:\\.[A-Za-z_$]|\\["|\\s*=[^=])`).test(body)) {
      throw new Error(
        `the validator code of ${key} writes or reads ${name} in a way the build does not follow`,
      );
    }
    const declarations = [...locals]
      .map(([access, local]) => `const ${local} = ${name}${access};\n`)
      .join('');
    out = out.slice(0, from) + declarations + body + out.slice(to);
  }
  return out;
}

/** Where the block that `from` is inside ends (its `}`), skipping string literals; -1 if it does not. */
function blockEnd(code: string, from: number): number {
  let depth = 1;
  for (let i = from; i < code.length; i++) {
    const c = code[i];
    if (c === '"') {
      for (i++; i < code.length && code[i] !== '"'; i++) if (code[i] === '\\') i++;
    } else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return -1;
}

/** A JavaScript string literal as ajv writes it (JSON-escaped). */
const STRING = '"(?:[^"\\\\\\n]|\\\\.)*"';
/** An expression of ajv's generated code up to the next top-level comma: names, property reads, literals. */
const EXPRESSION = `(?:[^",{}\\n]|${STRING})*`;

/** How ajv's functions take their context: an object, destructured on every call. */
const CONTEXT_PARAMETER =
  /^function (validate\d+)\(data, \{instancePath="", parentData, parentDataProperty, rootData=data\}=\{\}\)\{$/gm;
/** How ajv's code calls a nested function: with a new context object (a `$ref` to a shape, each array item). */
const NESTED_CALL = new RegExp(
  `\\.call\\(this, (${EXPRESSION}), \\{instancePath:(${EXPRESSION}),parentData:(${EXPRESSION}),parentDataProperty:${EXPRESSION},rootData\\}\\)`,
  'g',
);

/**
 * The code with each function taking its instance path, parent and run as arguments, not as an object
 * and `this`: ajv builds an object per nested call (for every array item of a shape, valid or not) and
 * each function reads four fields of it, three of them missing when the run time calls the event's own
 * function. Nothing reads `parentDataProperty` or `rootData` (eventry's schemas have no `$ref` to their
 * root). The run time calls the event's function as `validate(payload, "", undefined, run)`.
 */
function argumentContext(key: string, code: string): string {
  const out = code
    .replace(CONTEXT_PARAMETER, `function $1(data, instancePath, parentData, ${RUN}){`)
    .replace(NESTED_CALL, `($1, $2, $3, ${RUN})`);
  if (/\b(?:parentDataProperty|rootData)\b/.test(out)) {
    throw new Error(`the validator code of ${key} passes its context in a way the build does not follow`);
  }
  // Outside its string literals (field names), the code names no `this` left to rewrite.
  if (/\bthis\b/.test(out.replace(new RegExp(STRING, 'g'), '""'))) {
    throw new Error(`the validator code of ${key} reads \`this\` in a way the build does not follow`);
  }
  return out;
}

/**
 * The all-errors code with each error handed to the run time as it is found, which lets it stop the walk
 * once it has enough (a payload with a million problems costs as much as one with ten thousand) and
 * build each platform item there and then. The common errors go to a method of their own with only what
 * the item needs, so no error object is made for them: `run.missing(...)` (the attr with a leading
 * `.`, its last key quoted at build time), `run.undocumented(...)`, `run.mistyped(...)` (see
 * `reportCall`); any other error goes to `run.report(error)` as ajv wrote it. ajv's own error list
 * (`vErrors`, `validate.errors`) is dropped: nothing reads it, and a nested validator's failure only
 * needs to count. The run time lists the errors in the order found, which is ajv's own order only while
 * the code never takes an error back: it does not for the keywords eventry emits (no `anyOf`, `oneOf`,
 * `not`, `if`), and this checks it.
 */
function reportEachError(key: string, code: string): string {
  if (/vErrors\.length\s*=[^=]|vErrors\.splice|\bvErrors = null;\n(?<!let vErrors = null;\n)/.test(code)) {
    throw new Error(`the all-errors validator of ${key} takes errors back, which the run time cannot follow`);
  }
  const pushes = (code.match(/\bvErrors\b.*\.push\(/g) ?? []).length;
  let reported = 0;
  const out = code
    .replace(ERROR_PUSH, (_line: string, name: string, literal: string) => {
      // Each place numbered in the order of the code: `site` (see `ValidatorContext`).
      reported += 1;
      return reportCall(name, literal, reported - 1);
    })
    // A nested validator has reported its own errors; the caller only counts that it failed.
    .replace(
      /^vErrors = vErrors === null \? (validate\d+)\.errors : vErrors\.concat\(\1\.errors\);\nerrors = vErrors\.length;\n/gm,
      'errors++;\n',
    )
    .replace(/^validate\d+\.errors = vErrors;\n/gm, '')
    .replace(/^let vErrors = null;\n/gm, '');
  if (reported !== pushes || /\bvErrors\b/.test(out)) {
    throw new Error(`the all-errors validator of ${key} adds errors in a way the run time does not see`);
  }
  return out;
}

/** One error of ajv's all-errors code (after `slim` and `dotPaths`): its object and where it goes. */
const ERROR_PUSH = /^const (err\d+) = (\{[^\n]*\});\n\(vErrors \?\?= \[\]\)\.push\(\1\);\n/gm;

/** The error object of ajv's code, for the errors that get a call of their own (see `reportCall`). */
const ERROR_LITERAL = new RegExp(
  `^\\{instancePath(?::(${EXPRESSION}))?,keyword:"(required|additionalProperties|type)",(?:item:(${EXPRESSION}),)?params:\\{(missingProperty|additionalProperty|type): (${EXPRESSION})\\},data(?::(\\w+))?\\}$`,
);

/**
 * The statement that hands one error to the run time (see `reportEachError`), from the place numbered
 * `site`. The path goes in two parts (`ValidatorContext`): the function's own `instancePath`, and the
 * rest as one string literal, made at build time. A path with an array index in it is made by the code,
 * whole, with an empty rest.
 */
function reportCall(name: string, literal: string, site: number): string {
  const match = ERROR_LITERAL.exec(literal);
  const keyword = match?.[2];
  if (match === null || (keyword === 'type') !== (match[3] !== undefined)) {
    return `const ${name} = ${literal};\n${RUN}.report(${name});\n`;
  }
  const path = match[1] ?? 'instancePath';
  const param = match[5]!;
  const fixed = FIXED_PATH.exec(path);
  const rest = fixed ? (fixed[1] === undefined ? '' : (JSON.parse(fixed[1]) as string)) : undefined;
  // The path's two parts, with what follows the rest (the field, for a missing one).
  const parts = (more = '') =>
    rest === undefined
      ? `${more === '' ? path : `${path}+${JSON.stringify(more)}`}, ""`
      : `instancePath, ${JSON.stringify(rest + more)}`;
  switch (keyword) {
    case 'required': {
      const field = JSON.parse(param) as string;
      // The run time's `joinPath`, at build time: an all-digit field name is a key, not an index.
      const part = /^\d+$/.test(field) ? JSON.stringify(field) : dotPathKey(field);
      return `${RUN}.missing(${parts(`.${part}`)}, ${site});\n`;
    }
    case 'additionalProperties':
      return `${RUN}.undocumented(${parts()}, ${param}, ${site});\n`;
    default:
      return `${RUN}.mistyped(${parts()}, ${param}, ${match[6] ?? 'data'}, ${match[3]}, ${site});\n`;
  }
}

/** A path expression that is the function's `instancePath` and at most one string literal after it. */
const FIXED_PATH = new RegExp(`^instancePath(?:\\+(${STRING}))?$`);

/**
 * ajv's standalone output, less what a package never reads: every compiled schema's declaration
 * (`const schema0 = {...}`) that its code does not read (a closed event embedded its whole schema
 * twice), the `sourceURL` comments, and each error's `schemaPath` (the run time maps keyword, instance
 * path and parameters only); the all-errors code appends each error in one statement instead of five.
 * A group package's import parses all of it, so its size is start-up time.
 */
function slim(generated: string): string {
  const code = generated
    .replace(/^\/\*# sourceURL=.*\*\/;\n/gm, '')
    // A long enum's loop compares with ajv's deep-equal module, which packages do not ship; catalogue
    // enums hold strings and numbers only, for which this is the same comparison (NaN equals NaN).
    .replaceAll('require("ajv/dist/runtime/equal").default', '((a, b) => a === b || (a !== a && b !== b))')
    .replace(/,schemaPath:"(?:[^"\\\n]|\\.)*"/g, '')
    // Verbose mode's schema references; `data` stays.
    .replace(new RegExp(`,schema:${EXPRESSION},parentSchema:${EXPRESSION},data\\b`, 'g'), ',data')
    .replace(
      /if\(vErrors === null\)\{\nvErrors = \[(err\d+)\];\n\}\nelse \{\nvErrors\.push\(\1\);\n\}\n/g,
      '(vErrors ??= []).push($1);\n',
    );
  // A declaration stays when its name is read anywhere but in its own line: the names are counted in
  // one pass over the code (testing the code without each line in turn made this quadratic in the
  // number of declarations, a tenth of the validators' own share of a 10,000-event build).
  const uses = new Map<string, number>();
  for (const [name] of code.matchAll(SCHEMA_NAME)) uses.set(name, (uses.get(name) ?? 0) + 1);
  return code.replace(/^const (schema\d+) = .*;\n/gm, (line: string, name: string) => {
    let own = 0;
    for (const [used] of line.matchAll(SCHEMA_NAME)) if (used === name) own++;
    return uses.get(name)! > own ? line : '';
  });
}

/** A compiled schema's name in ajv's code (`schema31`), as a whole word. */
const SCHEMA_NAME = /\bschema\d+\b/g;

/**
 * A path expression of ajv's code: `instancePath` followed by JSON Pointer fragments (string literals),
 * array indexes (`+ i0`) and, for `__proto__`'s pattern property, an escaped key (`+ key0.replace(...)`).
 */
const PATH = new RegExp(
  `\\binstancePath\\+(${STRING}(?: \\+ (?:i\\d+|key\\d+\\.replace\\(/~/g, "~0"\\)\\.replace\\(/\\\\//g, "~1"\\))(?:\\+${STRING})?)*)`,
  'g',
);
const PATH_PART = new RegExp(`(${STRING})|( \\+ i\\d+)|( \\+ (key\\d+)\\.replace\\([^\\n]*?"~1"\\))`, 'g');

/**
 * The all-errors code with each error's `instancePath` built as the platform's dot path, each part
 * led by a `.` (`.meta."a.b".0`), instead of a JSON Pointer: the run time takes the attr as it is
 * (`toDotPath` costs a third of an invalid payload's mapping otherwise). Keys are quoted at build time
 * exactly as `toDotPath` quotes them. A `type` error also says whether its value is an array item
 * (`item`), which the run time cannot tell from the path.
 */
function dotPaths(key: string, code: string): string {
  const out = code
    .replace(PATH, (_match: string, expression: string) => {
      const parts = [...expression.matchAll(PATH_PART)];
      const written = parts.map((part, i) => {
        if (part[1] === undefined) return part[2] ?? ` + ${part[4]}`;
        const pointer = JSON.parse(part[1]) as string;
        const beforeIndex = i + 1 < parts.length;
        // Each fragment starts with the `/` before its first key and, before an index, ends with the `/` before it.
        const keys = (beforeIndex ? pointer.slice(0, -1) : pointer).split('/').slice(1);
        const text = keys
          .map((k) => `.${dotPathKey(k.replaceAll('~1', '/').replaceAll('~0', '~'))}`)
          .join('');
        return `${i === 0 ? '' : '+'}${JSON.stringify(beforeIndex ? `${text}.` : text)}`;
      });
      return `instancePath+${written.join('')}`;
    })
    .replace(
      new RegExp(`\\{instancePath(:instancePath\\+${EXPRESSION})?,keyword:"type",`, 'g'),
      (match: string, path: string | undefined) =>
        `${match}item:${path === undefined ? 'Array.isArray(parentData)' : / \+ i\d+$/.test(path)},`,
    );
  if (/\binstancePath\+"\//.test(out) || /"~1"/.test(out)) {
    throw new Error(`the all-errors validator of ${key} builds an instance path the run time cannot read`);
  }
  return out;
}

/** One key of a dot path, quoted when it would otherwise read as something else (as `toDotPath` does). */
function dotPathKey(name: string): string {
  return name === '' || name.includes('.') || name.startsWith('"') ? JSON.stringify(name) : name;
}

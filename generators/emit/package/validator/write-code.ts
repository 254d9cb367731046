import {
  _,
  type Code,
  CodeGen,
  getProperty,
  Name,
  not,
  or,
  stringify,
  ValueScope,
} from 'ajv/dist/compile/codegen/index.js';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import type { Place } from '../../../runtime/types.js';
import { indexPath, keyPath, missingKey, type Path, pathExpression, rootPath } from './paths.js';
import { plainFields, WIDE_OBJECT, writeQuickCheck } from './quick-check.js';
import { hasRef, type ObjectRules, type SchemaNode, type SchemaTree, type ValueNode } from './schema-tree.js';
import { hasTypeKeywords, isType } from './type-tests.js';

/** The code of one event's validator and whether it reads `fullFormats` (see `EventValidatorCode`). */
export interface WrittenValidator {
  code: string;
  usesFormats: boolean;
}

/** The names every generated function uses: its parameters, and what the run time gives it. */
const DATA = new Name('data');
const INSTANCE_PATH = new Name('instancePath');
const PARENT_DATA = new Name('parentData');
const RUN = new Name('run');
const TOLERANT = new Name('tolerant');
const OPTIONS = new Name('options');
const OPEN = new Name('open');
/** What the run time gives the entry point (see `CompiledExports`). */
const MODE = new Name('mode');
const THROWN = new Name('thrown');
const FAILED = new Name('failed');
const VALID = new Name('valid');
const PAYLOAD = new Name('payload');
const FULL_FORMATS = new Name('fullFormats');
/** The run time's functions each error place calls, by kind of error (see `Place`). */
const MISSING = new Name('missing');
const UNDOCUMENTED = new Name('undocumented');
const MISTYPED = new Name('mistyped');
/** The run an error goes to: the function's, or one opened at the payload's first error. */
const OPENED = _`(${RUN} ??= ${OPEN}(${OPTIONS}))`;

/** Enums from this many values on are checked by a loop (shorter ones by inline comparisons, faster). */
const LOOP_ENUM = 32;

/**
 * Writes an event's validator with ajv's code builder (`CodeGen`, whose `_` template escapes every
 * value it is given): `exports.validate`, the all-errors check of the schema, called as
 * `validate(payload, instancePath, parentData, run, tolerant, options)` with no run, which returns
 * none for a valid payload. It checks what ajv's all-errors code of the same schema checks, in ajv's
 * order (the agreement tests compare the two on every event), and hands each error as found to a run
 * opened at the first one: the common ones through the run time's `missing`, `undocumented` and
 * `mistyped` (from `exports.fail(places)`, each place a number into one table of its texts; `Reporter`
 * in generators/runtime/types.ts), any other to the run's `report` as ajv's error object (the run from
 * `exports.open(options)`). `tolerant` switches off the walk over undocumented keys. A valid payload
 * touches nothing but its own locals (see docs/decisions/0066); a wide object's fields of a type alone
 * are tested by a quick pass first, and its full checks run only when that stops (docs/decisions/0069).
 */
export function writeValidatorCode(tree: SchemaTree, withRules = false): WrittenValidator {
  return new ValidatorWriter(tree).write(withRules);
}

class ValidatorWriter {
  /** Declarations ahead of the functions: formats, enum values, the export. */
  private readonly head = new CodeGen(new ValueScope({ scope: {} }), { lines: true });
  /** The functions. Its names (`data0`, `i0`) never share a prefix with the head's. */
  private readonly body = new CodeGen(new ValueScope({ scope: {} }), { lines: true });
  /** The function of each `$defs` entry that gets one, and those still to write. */
  private readonly functions = new Map<string, Name>();
  private readonly pending: [SchemaNode, Name][] = [];
  private readonly formats = new Map<string, Name>();
  private readonly enums = new Map<string, Name>();
  private copy: Name | undefined;
  /** The places that report an error, by number (the run time's `site`). */
  private readonly places: Place[] = [];

  constructor(private readonly tree: SchemaTree) {}

  write(withRules: boolean): WrittenValidator {
    const { head } = this;
    head.code(_`${'use strict'}`);
    for (const name of [OPEN, MODE, THROWN, FAILED, VALID]) head.const(name, _`exports.${name}`);
    const main = head.name('validate');
    head.assign(_`exports.validate`, main);
    const entry = head.name('entry');
    head.assign(_`exports.entry`, entry);
    this.entry(entry, main, withRules);
    this.pending.push([this.tree.root, main]);
    for (let next = this.pending.shift(); next; next = this.pending.shift()) this.func(...next);
    const report = head.const('report', _`exports.fail(${stringify(this.places)})`);
    for (const name of [MISSING, UNDOCUMENTED, MISTYPED]) head.const(name, _`${report}.${name}`);
    return { code: `${head.toString()}\n${this.body.toString()}`, usesFormats: this.formats.size > 0 };
  }

  /**
   * The event's `validate(payload, options)`, code of its own for each event rather than one function of
   * the run time's for all: V8 then keeps what it learns of this event's calls apart from every other's,
   * and compiles the validator into it (see docs/decisions/0066).
   */
  private entry(name: Name, main: Name, withRules: boolean): void {
    const gen = this.body;
    gen.func(name, _`${PAYLOAD}, ${OPTIONS}`, false, () => {
      const tolerant = gen.const('tolerant', _`${OPTIONS} === undefined ? false : ${MODE}(${OPTIONS})`);
      const run = gen.let('run');
      const call = _`${main}(${PAYLOAD}, "", undefined, undefined, ${tolerant}, ${OPTIONS})`;
      gen.try(
        () => gen.assign(run, withRules ? _`${call} ?? rules(${PAYLOAD}, ${OPTIONS})` : call),
        (error) => gen.return(_`${THROWN}(${error})`),
      );
      gen.return(_`${run} === undefined ? ${VALID} : ${FAILED}(${run})`);
    });
  }

  private func(node: SchemaNode, name: Name): void {
    const gen = this.body;
    const parameters = _`${DATA}, ${INSTANCE_PATH}, ${PARENT_DATA}, ${RUN}, ${TOLERANT}, ${OPTIONS}`;
    gen.func(name, parameters, false, () => {
      this.value(node, DATA, rootPath(INSTANCE_PATH), PARENT_DATA);
      gen.return(RUN);
    });
  }

  /** The checks of `node` on the value in the variable `data`, found at `path` in `parentData`. */
  private value(node: SchemaNode, data: Name, path: Path, parentData: Code): void {
    const gen = this.body;
    if (node.kind === 'ref') {
      const def = this.tree.defs.get(node.name)!;
      // ajv's own choice: a shape that refers to no other is inlined, any other is a function of its own.
      if (!hasRef(def)) {
        this.value(def, data, path, parentData);
        return;
      }
      const fn = this.functionOf(node.name, def);
      gen.assign(
        RUN,
        _`${fn}(${data}, ${pathExpression(path)}, ${parentData}, ${RUN}, ${TOLERANT}, ${OPTIONS})`,
      );
      return;
    }
    // ajv's order: a type without keywords of its own is checked first, then `enum`; otherwise `enum`
    // comes first, then the keywords of the type under its check, with the type error in its `else`.
    // A value of the wrong type is one problem (the mapping drops its enum error), so there `enum` is
    // checked under the type's check, which ajv's order would have report first.
    if (!hasTypeKeywords(node)) {
      gen.if(not(isType(node.type, data)), () => this.mistyped(node.type, data, path));
      if (node.enum) this.enumCheck(node.enum, data, path);
      return;
    }
    gen.if(
      isType(node.type, data),
      () => {
        if (node.enum) this.enumCheck(node.enum, data, path);
        this.typeKeywords(node, data, path);
      },
      () => this.mistyped(node.type, data, path),
    );
  }

  private typeKeywords(node: ValueNode, data: Name, path: Path): void {
    const gen = this.body;
    if (node.format !== undefined) {
      const format = this.formatOf(node.format);
      gen.if(not(format(data)), () => this.report(path, 'format', _`{format: ${node.format}}`, data));
    }
    if (node.items) {
      const items = node.items;
      const length = gen.const('len', _`${data}.length`);
      gen.forRange('i', 0, length, (i) => {
        const item = gen.let('data', _`${data}[${i}]`);
        this.value(items, item, indexPath(path, i), data);
      });
    }
    if (node.object) this.objectKeywords(node.object, data, path);
  }

  private objectKeywords(rules: ObjectRules, data: Name, path: Path): void {
    const gen = this.body;
    // Own properties only: an object whose prototype is not `Object.prototype` (or, when a field is
    // named like one of its members, not null) is read through a copy of its own properties.
    if (rules.own !== 'none') {
      const foreign =
        rules.own === 'members'
          ? _`Object.getPrototypeOf(${data}) !== null`
          : _`${data}.__proto__ !== Object.prototype`;
      gen.if(foreign, () => gen.assign(data, _`${this.ownCopy()}(${data})`));
    }
    // Each field read once, into a local: one hash lookup per field on a payload in dictionary mode,
    // and a field's getter runs once. A wide object's plain fields are read by its quick pass.
    const plain = plainFields(rules);
    const plainNames = new Set(plain?.map(([name]) => name));
    const locals = new Map<string, Name>();
    for (const name of [...rules.properties.map(([field]) => field), ...rules.required]) {
      if (locals.has(name)) continue;
      const read = plainNames.has(name) ? undefined : _`${data}${getProperty(name)}`;
      locals.set(name, gen.let('data', read));
    }
    const quick = plain && writeQuickCheck(gen, rules, plain, data, TOLERANT, locals);
    // The checks the quick pass covers (all but the other kinds of fields' own) wait here, to be written
    // in blocks that run only when it stopped; the other fields are checked in between, in ajv's order.
    let pending: (() => void)[] = [
      () => {
        quick?.restore();
        for (const name of rules.required) {
          gen.if(_`${locals.get(name)!} === undefined`, () => {
            const { prefix, suffix } = this.parts(path, `.${missingKey(name)}`);
            const site = this.place([0, suffix]);
            gen.assign(RUN, _`${MISSING}(${RUN}, ${OPTIONS}, ${site}, ${prefix})`, true);
          });
        }
        if (rules.closed) {
          const names = rules.properties.map(([name]) => name);
          gen.if(_`${TOLERANT} !== true`, () => this.closedObject(names, locals, data, path, quick?.count));
        }
      },
    ];
    const flush = (): void => {
      const checks = pending;
      pending = [];
      if (checks.length === 0) return;
      const write = (): void => {
        for (const check of checks) check();
      };
      if (quick === undefined) write();
      else gen.if(quick.failed, write);
    };
    const field = ([name, schema]: [string, SchemaNode]): void => {
      gen.if(_`${locals.get(name)!} !== undefined`, () =>
        this.value(schema, locals.get(name)!, keyPath(path, name), data),
      );
    };
    let proto: SchemaNode | undefined;
    for (const [name, schema] of rules.properties) {
      // ajv's `properties` skips a field called `__proto__`, which `patternProperties` checks last.
      if (name === '__proto__') {
        proto = schema;
        continue;
      }
      if (plainNames.has(name)) {
        pending.push(() => field([name, schema]));
        continue;
      }
      flush();
      field([name, schema]);
    }
    flush();
    if (proto !== undefined) {
      const schema = proto;
      gen.forIn('key', data, (key) =>
        gen.if(_`${key} === ${'__proto__'}`, () => {
          const value = gen.let('data', _`${data}[${key}]`);
          this.value(schema, value, keyPath(path, '__proto__'), data);
        }),
      );
    }
  }

  /**
   * `additionalProperties: false` as comparisons of each key with the field names. A wide object has no
   * undocumented key when it has as many keys as documented fields with a value: one count instead of
   * comparing each key with every name; only otherwise are its keys walked, over that same `Object.keys`.
   */
  private closedObject(
    names: string[],
    locals: Map<string, Name>,
    data: Name,
    path: Path,
    counted: Name | undefined,
  ): void {
    const gen = this.body;
    const each = (key: Name): void => {
      const report = (): void => {
        const { prefix, suffix } = this.parts(path, '');
        const site = this.place([1, suffix]);
        gen.assign(RUN, _`${UNDOCUMENTED}(${RUN}, ${OPTIONS}, ${site}, ${prefix}, ${key})`, true);
      };
      if (names.length === 0) report();
      else gen.if(not(or(...names.map((name) => _`${key} === ${name}`))), report);
    };
    if (names.length <= WIDE_OBJECT) {
      gen.forIn('key', data, each);
      return;
    }
    const keys = gen.const('keys', _`Object.keys(${data})`);
    // After a quick pass that stopped, an optional plain field before the stop has no local: the pass
    // counted those present (`counted`).
    const present = names.map((name) => _`(${locals.get(name)!} !== undefined)`);
    if (counted !== undefined) present.unshift(_`${counted}`);
    gen.if(_`${keys}.length !== ${present.reduce((sum, one) => _`${sum} + ${one}`)}`, () =>
      gen.forOf('key', keys, each),
    );
  }

  private enumCheck(values: readonly (string | number)[], data: Name, path: Path): void {
    const gen = this.body;
    const allowed = this.enumOf(values);
    if (values.length < LOOP_ENUM) {
      const match = values.length === 0 ? _`false` : or(...values.map((value) => _`${data} === ${value}`));
      gen.if(not(match), () => this.report(path, 'enum', _`{allowedValues: ${allowed}}`, data));
      return;
    }
    // As ajv's deep equality compares strings and numbers: NaN equals NaN.
    const valid = gen.let('valid', false);
    gen.forOf('v', allowed, (v) =>
      gen.if(_`${v} === ${data} || (${v} !== ${v} && ${data} !== ${data})`, () =>
        gen.assign(valid, true).break(),
      ),
    );
    gen.if(not(valid), () => this.report(path, 'enum', _`{allowedValues: ${allowed}}`, data));
  }

  private mistyped(type: string, data: Name, path: Path): void {
    const { prefix, suffix } = this.parts(path, '');
    if (path.last === 'root') {
      const site = this.place([2, suffix, type, null]);
      const call = _`${MISTYPED}(${RUN}, ${OPTIONS}, ${site}, ${prefix}, ${data}, ${PARENT_DATA})`;
      this.body.assign(RUN, call, true);
      return;
    }
    const site = this.place([2, suffix, type, path.last === 'index']);
    this.body.assign(RUN, _`${MISTYPED}(${RUN}, ${OPTIONS}, ${site}, ${prefix}, ${data})`, true);
  }

  /** Any other error, as ajv's error object (with its value, as in ajv's `verbose` mode). */
  private report(path: Path, keyword: string, params: Code, data: Name): void {
    this.place(null);
    this.body.code(
      _`${OPENED}.report({instancePath: ${pathExpression(path)}, keyword: ${keyword}, params: ${params}, data: ${data}})`,
    );
  }

  /**
   * The function that copies an object's own fields into one without a prototype, declared once (out of
   * the validator, whose code V8 then compiles into its caller when it is small).
   */
  private ownCopy(): Name {
    this.copy ??= this.head.const(
      'own',
      _`(data) => Object.defineProperties(Object.create(null), Object.getOwnPropertyDescriptors(data))`,
    );
    return this.copy;
  }

  /** Numbers a place that reports an error. */
  private place(place: Place): number {
    this.places.push(place);
    return this.places.length - 1;
  }

  /**
   * A path's two parts for the run's methods, with `more` (a literal) after it: the function's own
   * `instancePath` and the rest as one literal; a path through an array index is all in the first.
   */
  private parts(path: Path, more: string): { prefix: Code; suffix: string } {
    if (path.index.length === 0) return { prefix: INSTANCE_PATH, suffix: path.suffix + more };
    const whole = pathExpression({ ...path, suffix: path.suffix + more });
    return { prefix: whole, suffix: '' };
  }

  private functionOf(defName: string, def: SchemaNode): Name {
    let name = this.functions.get(defName);
    if (name === undefined) {
      name = this.head.name('validate');
      this.functions.set(defName, name);
      this.pending.push([def, name]);
    }
    return name;
  }

  /** The format's check on `data`, declared once (`const formats0 = fullFormats.date`). */
  private formatOf(format: string): (data: Name) => Code {
    const definition = (fullFormats as Record<string, unknown>)[format];
    if (definition === undefined) throw new Error(`unknown format "${format}"`);
    let name = this.formats.get(format);
    if (name === undefined) {
      name = this.head.const('formats', _`${FULL_FORMATS}${getProperty(format)}`);
      this.formats.set(format, name);
    }
    const declared = name;
    if (definition instanceof RegExp) return (data) => _`${declared}.test(${data})`;
    if (typeof definition === 'function') return (data) => _`${declared}(${data})`;
    const validate = (definition as { validate?: unknown }).validate;
    if (validate instanceof RegExp) return (data) => _`${declared}.validate.test(${data})`;
    return (data) => _`${declared}.validate(${data})`;
  }

  /** An enum's values, declared once for every enum with the same values. */
  private enumOf(values: readonly (string | number)[]): Name {
    const text = JSON.stringify(values);
    let name = this.enums.get(text);
    if (name === undefined) {
      name = this.head.const('enum', stringify(values));
      this.enums.set(text, name);
    }
    return name;
  }
}

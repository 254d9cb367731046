import {
  _,
  type Code,
  CodeGen,
  type Name,
  not,
  stringify,
  ValueScope,
} from 'ajv/dist/compile/codegen/index.js';
import type { Place } from '../../../runtime/types.js';
import type { KeywordContext, ValidatorScope } from './keyword.js';
import { FORMATS } from './keywords/format.js';
import { KEYWORDS } from './keywords/index.js';
import { isType, writeTypeError } from './keywords/type.js';
import {
  ADD,
  CAUGHT,
  DATA,
  FAILED_WITH,
  INSTANCE_PATH,
  MISSING,
  MISTYPED,
  MODE,
  OPTIONS,
  PARENT_DATA,
  PAYLOAD,
  REPORTED,
  RUN,
  TOLERANT,
  UNDOCUMENTED,
  VALID,
} from './names.js';
import { type Path, pathExpression, rootPath } from './paths.js';
import { hasRef, type SchemaNode, type SchemaTree } from './schema-tree.js';

/** The code of one event's validator and whether it reads `fullFormats` (see `EventValidatorCode`). */
export interface WrittenValidator {
  code: string;
  usesFormats: boolean;
}

/**
 * Writes an event's validator with ajv's code builder (`CodeGen`, whose `_` template escapes every
 * value it is given): `exports.validate`, the all-errors check of the schema, called as
 * `validate(payload, instancePath, parentData, run, tolerant, options)` with no run, which returns
 * none for a valid payload. It checks what ajv's all-errors code of the same schema checks, in ajv's
 * order (the agreement tests compare the two on every event), and lists each error's platform item as
 * found, in the array `run` it starts at the first one (`exports.add`; generators/runtime/list.ts,
 * docs/decisions/0191): a literal where the place's path is known as the code is written, else the item
 * the run time's makers give (`missing`, `undocumented`, `mistyped`, `reported`, from
 * `exports.items(places)`, each place a number into one table of its texts; `ItemMakers` in
 * generators/runtime/types.ts). `tolerant` switches off the walk over undocumented keys. A valid payload
 * touches nothing but its own locals (see docs/decisions/0066); a wide object's fields of a type alone
 * are tested by a quick pass first, and its full checks run only when that stops (docs/decisions/0069).
 *
 * This file is the walk: functions, `$ref`s and the `type` test; each keyword's checks are its own
 * file under `keywords/`, found in the table `KEYWORDS` (as ajv's vocabularies are).
 */
export function writeValidatorCode(tree: SchemaTree, withRules = false): WrittenValidator {
  return new ValidatorWriter(tree).write(withRules);
}

class ValidatorWriter implements ValidatorScope {
  /** Declarations ahead of the functions: formats, enum values, the export. */
  private readonly head = new CodeGen(new ValueScope({ scope: {} }), { lines: true });
  /** The functions. Its names (`data0`, `i0`) never share a prefix with the head's. */
  private readonly body = new CodeGen(new ValueScope({ scope: {} }), { lines: true });
  /** The function of each `$defs` entry that gets one, and those still to write. */
  private readonly functions = new Map<string, Name>();
  private readonly pending: [SchemaNode, Name][] = [];
  /** The constants the keywords declared, by prefix, then by key (`declare`). */
  private readonly constants = new Map<string, Map<string, Name>>();
  /** The places that report an error, by number (the run time's `site`). */
  private readonly places: Place[] = [];
  /** The event's own function, whose `instancePath` is the payload's (`""`). */
  private main: Name | undefined;

  constructor(private readonly tree: SchemaTree) {}

  write(withRules: boolean): WrittenValidator {
    const { head } = this;
    head.code(_`${'use strict'}`);
    for (const name of [MODE, VALID, ADD, FAILED_WITH, CAUGHT]) head.var(name, _`exports.${name}`);
    const main = head.name('validate');
    this.main = main;
    head.assign(_`exports.validate`, main);
    const entry = head.name('entry');
    head.assign(_`exports.entry`, entry);
    this.entry(entry, main, withRules);
    this.pending.push([this.tree.root, main]);
    for (let next = this.pending.shift(); next; next = this.pending.shift()) this.func(...next);
    const makers = head.var('makers', _`exports.items(${stringify(this.places)})`);
    for (const name of [MISSING, UNDOCUMENTED, MISTYPED, REPORTED]) head.var(name, _`${makers}.${name}`);
    return { code: `${head.toString()}\n${this.body.toString()}`, usesFormats: this.constants.has(FORMATS) };
  }

  /**
   * The event's `validate(payload, options)`, code of its own for each event rather than one function of
   * the run time's for all: V8 then keeps what it learns of this event's calls apart from every other's,
   * and compiles the validator into it (see docs/decisions/0066).
   */
  private entry(name: Name, main: Name, withRules: boolean): void {
    const gen = this.body;
    gen.func(name, _`${PAYLOAD}, ${OPTIONS}`, false, () => {
      const tolerant = gen.const('tolerant', _`${OPTIONS} == null ? false : ${MODE}(${OPTIONS})`);
      const run = gen.let('run');
      const call = _`${main}(${PAYLOAD}, "", undefined, undefined, ${tolerant}, ${OPTIONS})`;
      gen.try(
        () => gen.assign(run, withRules ? _`${call} ?? rules(${PAYLOAD}, ${OPTIONS})` : call),
        (error) => gen.return(_`${CAUGHT}(${error}, ${OPTIONS})`),
      );
      gen.return(_`${run} === undefined ? ${VALID} : ${FAILED_WITH}(${run}, ${OPTIONS})`);
    });
  }

  private func(node: SchemaNode, name: Name): void {
    const gen = this.body;
    const parameters = _`${DATA}, ${INSTANCE_PATH}, ${PARENT_DATA}, ${RUN}, ${TOLERANT}, ${OPTIONS}`;
    gen.func(name, parameters, false, () => {
      this.value(node, DATA, rootPath(INSTANCE_PATH, name === this.main), PARENT_DATA);
      gen.return(RUN);
    });
  }

  /** The checks of `node` on the value in the variable `data`, found at `path` in `parentData`. */
  value(node: SchemaNode, data: Name, path: Path, parentData: Code): void {
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
    const cxt: KeywordContext = { gen, node, data, path, writer: this };
    const keywords = KEYWORDS.filter((keyword) => keyword.applies(node));
    const check = (): void => {
      for (const keyword of keywords) keyword.code(cxt);
    };
    // ajv's order: a type without keywords of its own is checked first, then `enum`; otherwise `enum`
    // comes first, then the keywords of the type under its check, with the type error in its `else`.
    // A value of the wrong type is one problem (the mapping drops its enum error), so `enum` is checked
    // only on a value of the right type: after the type error's place here, under the type's check there.
    if (!keywords.some((keyword) => keyword.of === 'type')) {
      if (keywords.length === 0) gen.if(not(isType(node.type, data)), () => writeTypeError(cxt));
      else gen.if(not(isType(node.type, data)), () => writeTypeError(cxt), check);
      return;
    }
    gen.if(isType(node.type, data), check, () => writeTypeError(cxt));
  }

  isPlain(node: SchemaNode): boolean {
    return node.kind === 'value' && !KEYWORDS.some((keyword) => keyword.applies(node));
  }

  place(place: Place): number {
    this.places.push(place);
    return this.places.length - 1;
  }

  declare(prefix: string, key: string, code: () => Code): Name {
    let declared = this.constants.get(prefix);
    if (declared === undefined) {
      declared = new Map();
      this.constants.set(prefix, declared);
    }
    let name = declared.get(key);
    if (name === undefined) {
      name = this.head.var(prefix, code());
      declared.set(key, name);
    }
    return name;
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
}

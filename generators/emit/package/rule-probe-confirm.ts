import { checkRule } from '../../cel/check.js';
import { rulesOverMessage } from '../../cel/over-message.js';
import { fieldsRead } from '../../cel/reads.js';
import type { Catalogue } from '../../model.js';
import type { FieldSpec, TestingData, TypeSpec } from '../../runtime/testing.js';
import { ruleOf } from '../../runtime/testing-rules.js';
import type { ValidationResult } from '../../runtime/types.js';

/** The rules' check the test data runs (`compiledRuleCheck`). */
export type RuleCheck = (key: string, payload: unknown) => ValidationResult;

/** How many payloads the second look tries for one rule, at most. */
const MAX_TRIES = 4000;
/** How many values of each field are crossed with another field's, for a rule reading several. */
const CROSSED = 10;

/**
 * A second look at a rule `invalid`'s random search did not break alone, before the lint says no
 * payload breaks it: payloads made from ones that keep every rule (`bases`), with the fields the rule
 * reads (`fieldsRead` of its checked tree, over `message`) set to values its literals suggest (the
 * literal, twice over, beside a letter or a space, one character of it, numbers around it), one field
 * at a time and then two at once. True when one such payload breaks that rule and no other. Every
 * value is of the field's type, enum and format, so the payload passes the schema.
 */
export function breaksAlone(
  model: Catalogue,
  key: string,
  data: TestingData,
  check: RuleCheck,
  target: string,
  bases: readonly unknown[],
): boolean {
  const spec = data.events[key];
  const event = model.events[key];
  const specs = spec?.r ?? [];
  const index = specs.findIndex(([name]) => name === target);
  if (!spec || !event || index < 0) return false;
  // `rulesOverMessage` lists the rules in the order the test data does: own rules, then place by place.
  const served = rulesOverMessage(event, model.shapes)[index];
  const scope = {
    variable: 'message' as const,
    name: key,
    fields: event.fields,
    shapeFields: (name: string) => model.shapes[name]?.fields,
  };
  const checked = served ? checkRule(served.expr, scope) : undefined;
  if (!checked?.ok) return false;
  const literals = spec.k ?? [];
  const slots = fieldsRead(checked.node)
    .map((path) => ({ path, values: valuesOf(typeAt(spec.f, data.shapes, path), literals) }))
    .filter((slot) => slot.values.length > 0);
  const alone = (payload: unknown): boolean => {
    const result = check(key, payload);
    if (result.valid) return false;
    return result.error.errors.every((item) => ruleOf(specs, item) === index);
  };
  let tries = 0;
  for (const base of bases) {
    for (const assignment of assignments(slots)) {
      if (++tries > MAX_TRIES) return false;
      const payload = JSON.parse(JSON.stringify(base)) as unknown;
      for (const [path, value] of assignment) setAt(payload, path.split('.'), value);
      if (alone(payload)) return true;
    }
  }
  return false;
}

/** One field at a time with each of its values, then each two fields with their first values crossed. */
function* assignments(
  slots: readonly { path: string; values: readonly Value[] }[],
): Generator<[string, Value][]> {
  for (const slot of slots) for (const value of slot.values) yield [[slot.path, value]];
  for (let a = 0; a < slots.length; a++)
    for (let b = a + 1; b < slots.length; b++)
      for (const x of slots[a]!.values.slice(0, CROSSED))
        for (const y of slots[b]!.values.slice(0, CROSSED))
          yield [
            [slots[a]!.path, x],
            [slots[b]!.path, y],
          ];
}

/** A value to set, or `ABSENT` to leave an optional field out. */
type Value = unknown;
const ABSENT = Symbol('absent');

/** The type of the field at a path read (`lines[].sku`), with whether it may be absent; undefined if unknown. */
function typeAt(
  fields: readonly FieldSpec[],
  shapes: TestingData['shapes'],
  path: string,
): { type: TypeSpec; optional: boolean } | undefined {
  let list: readonly FieldSpec[] | undefined = fields;
  let found: { type: TypeSpec; optional: boolean } | undefined;
  for (const part of path.split('.')) {
    const name = part.replace(/(\[\])+$/, '');
    const field: FieldSpec | undefined = list?.find(([fieldName]) => fieldName === name);
    if (!field) return undefined;
    let type: TypeSpec = field[2];
    for (let depth = (part.length - name.length) / 2; depth > 0; depth--) {
      if (type.t !== 'a') return undefined;
      type = type.i;
    }
    found = { type, optional: field[1] === 0 && part === name };
    list = type.t === 'r' ? shapes[type.n] : undefined;
  }
  return found;
}

/** The values to try at a field of `type`, from the rules' literals and a few edges; none for objects. */
function valuesOf(
  at: { type: TypeSpec; optional: boolean } | undefined,
  literals: readonly (string | number)[],
): Value[] {
  if (!at) return [];
  const values = scalarValues(at.type, literals);
  if (at.type.t === 'a') {
    const items = scalarValues(at.type.i, literals).slice(0, 12);
    values.push([], ...items.map((item) => [item]), ...items.map((item) => [item, item]));
  }
  return at.optional ? [ABSENT, ...values] : values;
}

const STRINGS = ['', ' ', 'a', 'A', 'ab', 'abc', 'abcd', ' a', 'a ', 'a,b', 'Zoë', 'x'.repeat(40)];
const NUMBERS = [0, 1, -1, 2, 3, 10, 100, -100, 1e6, -1e6, 0.5, -0.5];
const DATES = {
  date: ['2024-01-31', '1970-01-01'],
  'date-time': ['2024-01-31T10:00:00Z', '1970-01-01T00:00:00Z'],
};

function scalarValues(type: TypeSpec, literals: readonly (string | number)[]): Value[] {
  if (type.t === 'b') return [true, false];
  if (type.t === 's' || type.t === 'i' || type.t === 'n') {
    if (type.e) return [...type.e];
    if (type.t !== 's') {
      const near = literals
        .filter((one) => typeof one === 'number')
        .flatMap((n) => [n, n - 1, n + 1, n - 0.5, n + 0.5]);
      const all = [...near, ...NUMBERS];
      return unique(type.t === 'i' ? all.filter(Number.isInteger) : all);
    }
    const texts = literals.filter((one): one is string => typeof one === 'string');
    if (type.f !== undefined) {
      const format = type.f === 'date' ? /^\d{4}-\d{2}-\d{2}$/ : /^\d{4}-\d{2}-\d{2}T.+/;
      return unique([
        ...texts.filter((text) => format.test(text) && !Number.isNaN(Date.parse(text))),
        ...DATES[type.f],
      ]);
    }
    const made = texts.flatMap((text) => [
      text,
      text + text,
      text + text + text,
      `a${text}`,
      `${text}a`,
      ` ${text} `,
      [...text][0] ?? '',
    ]);
    return unique([...made, ...STRINGS]);
  }
  return [];
}

function unique(values: readonly Value[]): Value[] {
  return [...new Set(values)];
}

/** Sets the value at a path read (`lines[].sku` on every item), where the payload has the parents. */
function setAt(payload: unknown, parts: readonly string[], value: Value): void {
  if (payload === null || typeof payload !== 'object') return;
  const [part, ...rest] = parts;
  if (part === undefined) return;
  const name = part.replace(/(\[\])+$/, '');
  const object = payload as Record<string, unknown>;
  if (rest.length === 0 && part === name) {
    if (value === ABSENT) delete object[name];
    else Object.defineProperty(object, name, { value, enumerable: true, writable: true, configurable: true });
    return;
  }
  const inner = object[name];
  if (part !== name) {
    if (!Array.isArray(inner)) return;
    // `tags[]` read as a whole item: each item takes the value; deeper paths go into each item.
    if (rest.length === 0 && value !== ABSENT) {
      if (inner.length === 0) inner.push(value);
      else inner.fill(value);
    } else for (const item of inner) setAt(item, rest, value);
    return;
  }
  setAt(inner, rest, value);
}

/**
 * The test data of rules and problems (issue 45): `invalid`'s payloads with one schema problem each;
 * `fake` and `arbitrary` keeping every rule by bounded retry; for each rule a payload that breaks that
 * rule alone, found by a bounded, seeded local search. The rules are never interpreted here: each
 * payload is put to the group's `validate`, which runs the rules the build compiled into the event's
 * validator, and its `rule_violated` items say which rules broke.
 */
import { type ErrorItemCode, joinPath } from './runtime.js';
import {
  type FieldSpec,
  hash,
  type InvalidPayload,
  type InvalidProblem,
  Random,
  type RuleSpec,
  type TestingData,
  type TypeSpec,
} from './testing-values.js';
import type { ErrorItem, ValidationResult } from './types.js';

/** The key an `undocumented_field` problem adds, unless the object documents it. */
const UNDOCUMENTED = 'undocumented_field';

/** Payloads each with one problem, made in the `full` payload `base`, with the item the validator returns. */
export function invalidPayloads(
  fields: readonly FieldSpec[],
  open: boolean,
  base: unknown,
  shapes: TestingData['shapes'],
): InvalidPayload[] {
  const problems = new OneProblemPayloads(JSON.stringify(base), shapes);
  problems.object(fields, !open, base, [], '');
  return problems.out;
}

/** Each problem's error item code, and its description at `attr` (`detail`: the date format). */
const PROBLEMS: Record<
  Exclude<InvalidProblem, 'rule_violated'>,
  [ErrorItemCode, (attr: string, detail?: string) => string]
> = {
  missing_required: ['required', (attr) => `required \`${attr}\` left out`],
  undocumented_field: ['unknown_field', (attr) => `undocumented \`${attr}\` added`],
  null: ['invalid_type', (attr) => `\`${attr}\` set to null`],
  wrong_type: ['invalid_type', (attr) => `\`${attr}\` given a value of another type`],
  outside_enum: ['invalid_value', (attr) => `\`${attr}\` outside its allowed values`],
  bad_date: ['invalid_format', (attr, format) => `\`${attr}\` not a valid ${format}`],
};

/** An object or array in a payload, by key. */
type Container = Record<string | number, unknown>;
/** A place in a payload: the keys that reach it from the top. */
type Keys = readonly (string | number)[];

/** The value at `keys` in `payload`. */
function reach(payload: unknown, keys: Keys): Container {
  return keys.reduce<unknown>((object, key) => (object as Container)[key], payload) as Container;
}

/** Payloads with one problem each, copies of the base payload's JSON `text`, in payload order. */
class OneProblemPayloads {
  readonly out: InvalidPayload[] = [];

  constructor(
    private readonly text: string,
    private readonly shapes: TestingData['shapes'],
  ) {}

  /** One more payload: a copy of the base with `change` made, and the error item it gets. */
  private add(
    problem: Exclude<InvalidProblem, 'rule_violated'>,
    attr: string,
    change: (copy: unknown) => void,
    detail?: string,
  ): void {
    const payload: unknown = JSON.parse(this.text);
    change(payload);
    const [code, describe] = PROBLEMS[problem];
    this.out.push({ problem, description: describe(attr, detail), payload, error: { code, attr } });
  }

  /** An object at `keys` (`attr` in error items): each field's problems, and an undocumented one if `closed`. */
  object(fields: readonly FieldSpec[], closed: boolean, value: unknown, keys: Keys, attr: string): void {
    const object = value as Record<string, unknown>;
    for (const [name, required, type] of fields) {
      const fieldAttr = joinPath(attr, name);
      if (required === 1)
        this.add('missing_required', fieldAttr, (p) => {
          delete reach(p, keys)[name];
        });
      if (!Object.hasOwn(object, name)) continue;
      this.slot(type, object[name], (p) => reach(p, keys), name, [...keys, name], fieldAttr);
    }
    if (closed) {
      let extra = UNDOCUMENTED;
      while (fields.some(([name]) => name === extra)) extra += '_';
      this.add('undocumented_field', joinPath(attr, extra), (p) => {
        reach(p, keys)[extra] = 'not in the catalogue';
      });
    }
  }

  /** One value at `key` of its container: each problem its type allows, then the objects inside it. */
  private slot(
    type: TypeSpec,
    value: unknown,
    container: (payload: unknown) => Container,
    key: string | number,
    keys: Keys,
    attr: string,
  ): void {
    const set = (replacement: unknown) => (p: unknown) => {
      container(p)[key] = replacement;
    };
    this.add('null', attr, set(null));
    this.add('wrong_type', attr, set(WRONG_TYPE[type.t]));
    if (type.t === 's' || type.t === 'i' || type.t === 'n') {
      if (type.e) this.add('outside_enum', attr, set(outside(type)));
      else if (type.t === 's' && type.f !== undefined)
        this.add('bad_date', attr, set(BAD_DATES[type.f]), type.f);
    }
    if (type.t === 'r') this.object(this.shapes[type.n]!, true, value, keys, attr);
    if (type.t === 'a' && Array.isArray(value) && value.length > 0) {
      const items = (p: unknown) => container(p)[key] as Container;
      this.slot(type.i, value[0], items, 0, [...keys, 0], `${attr}.0`);
    }
  }
}

/** A value of another JSON type than each kind wants (a fraction for an integer). */
const WRONG_TYPE: Record<TypeSpec['t'], unknown> = {
  s: 42,
  i: 1.5,
  n: '12.5',
  b: 'true',
  o: [],
  a: {},
  r: 'text',
};
const BAD_DATES = { date: '2024-02-30', 'date-time': '2024-13-01T00:00:00Z' };

function outside(type: { t: 's' | 'i' | 'n'; e?: readonly (string | number)[] }): string | number {
  const values = type.e ?? [];
  if (type.t !== 's') return Math.max(0, ...values.map(Number)) + 1;
  let value = 'not_allowed';
  while (values.includes(value)) value += '_';
  return value;
}

/** The group's `validate(key, payload)` (strict), through which test data sees the rules. */
export type RuleCheck = (key: string, payload: unknown) => ValidationResult;

/** How many payloads `fake` draws, and `arbitrary` generates in a row, before giving up on the rules. */
export const KEEP_TRIES = 500;
/** How many changed payloads `invalid` tries for each rule before reporting that none breaks it. */
const BREAK_STEPS = 3000;

/** An event's rules and the check that runs them. */
export interface EventRules {
  key: string;
  rules: readonly RuleSpec[];
  check: RuleCheck;
}

/** Whether an item's attr is at `pattern`, the rule's attr with `[]` for any array index. */
function attrMatches(pattern: string, attr: string): boolean {
  const want = pattern.split('.');
  const got = attr.split('.');
  return (
    want.length === got.length &&
    want.every((part, i) => part === got[i] || (part === '[]' && /^\d+$/.test(got[i]!)))
  );
}

/** The rule an item reports, by message and attr; -1 when no rule of the event gives it. */
export function ruleOf(rules: readonly RuleSpec[], item: ErrorItem): number {
  return rules.findIndex(([, message, attr]) => message === item.detail && attrMatches(attr, item.attr));
}

/**
 * The rule each item of `payload` names (indexes into `rules`, -1 for no known rule; a shape rule broken at
 * two places twice), or undefined when the schema refuses it (the validator then runs no rule).
 */
export function brokenRules(event: EventRules, payload: unknown): number[] | undefined {
  const result = event.check(event.key, payload);
  if (result.valid) return [];
  const broken: number[] = [];
  for (const item of result.error.errors) {
    if (item.code !== 'rule_violated') return undefined;
    broken.push(ruleOf(event.rules, item));
  }
  return broken;
}

/** Test data that cannot keep, or break, a rule: `rule` names it (`Shape.rule` for a shape's). */
export class RuleDataError extends Error {
  constructor(
    message: string,
    readonly code: 'rule_unsatisfiable' | 'rule_unbreakable',
    readonly rule: string | undefined,
  ) {
    super(message);
  }
}

/** Counts, per rule, the payloads that broke it: the error names the rule that broke most. */
export class Misses {
  private readonly counts = new Map<number, number>();
  note(broken: readonly number[]): void {
    for (const rule of broken) this.counts.set(rule, (this.counts.get(rule) ?? 0) + 1);
  }
  error(event: EventRules, what: string): Error {
    const [rule] = [...this.counts].sort((a, b) => b[1] - a[1])[0] ?? [-1];
    const ruleName = event.rules[rule]?.[0];
    const name = ruleName === undefined ? 'an unknown rule' : `rule \`${ruleName}\``;
    return new RuleDataError(
      `eventry: ${what} of ${event.key} found no payload that keeps ${name} in ${KEEP_TRIES} tries; the rule may be impossible, or too narrow for random data (rule_unsatisfiable).`,
      'rule_unsatisfiable',
      ruleName,
    );
  }
}

/** Every how many draws, past the first `REPAIR_EVERY`, a draw that breaks a rule is repaired (`repair`). */
export const REPAIR_EVERY = 8;

/**
 * The first of `draw(0)`, `draw(1)`, ... that keeps every rule, or, every `REPAIR_EVERY`th draw, the
 * draw as `repair` mended it (a payload that keeps every rule, or undefined); an error naming the rule
 * after `KEEP_TRIES`.
 */
export function keepRules(
  event: EventRules,
  draw: (attempt: number) => unknown,
  repair?: (payload: unknown, attempt: number) => unknown,
): unknown {
  const misses = new Misses();
  for (let attempt = 0; attempt < KEEP_TRIES; attempt++) {
    const payload = draw(attempt);
    const broken = brokenRules(event, payload);
    // A payload the schema refuses is the schema's test data to fix, not the rules'.
    if (broken === undefined || broken.length === 0) return payload;
    misses.note(broken);
    if (repair === undefined || attempt < REPAIR_EVERY || attempt % REPAIR_EVERY !== 0) continue;
    const repaired = repair(payload, attempt);
    if (repaired !== undefined) return repaired;
  }
  throw misses.error(event, 'fake');
}

/** A fresh value of a type, as `fake`'s random variant draws it. */
export type Redraw = (type: TypeSpec, name: string, random: Random) => unknown;

/** One change a step may make, on a copy of the payload. */
export type Move = (copy: unknown, random: Random) => void;

/** Sets a key as an own property: a field called `__proto__` is a key, not the prototype. */
function put(object: Container, key: string | number, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Every move a step can make in `payload`, an object of `fields` at `keys`. */
function movesOf(
  fields: readonly FieldSpec[],
  value: unknown,
  keys: readonly (string | number)[],
  shapes: TestingData['shapes'],
  redraw: Redraw,
  into: Move[],
): Move[] {
  const object = value as Record<string, unknown>;
  for (const [name, required, type] of fields) {
    const set: Move = (copy, random) => {
      put(reach(copy, keys), name, redraw(type, name, random));
    };
    into.push(set);
    if (!Object.hasOwn(object, name)) continue;
    if (required === 0)
      into.push((copy) => {
        delete reach(copy, keys)[name];
      });
    valueMoves(type, name, object[name], [...keys, name], shapes, redraw, into);
  }
  return into;
}

function valueMoves(
  type: TypeSpec,
  name: string,
  value: unknown,
  keys: readonly (string | number)[],
  shapes: TestingData['shapes'],
  redraw: Redraw,
  into: Move[],
): void {
  if (type.t === 'r') movesOf(shapes[type.n]!, value, keys, shapes, redraw, into);
  if (type.t !== 'a' || !Array.isArray(value)) return;
  const item = type.i;
  into.push((copy, random) => {
    (reach(copy, keys) as unknown as unknown[]).push(redraw(item, name, random));
  });
  value.forEach((element, i) => {
    into.push((copy) => {
      (reach(copy, keys) as unknown as unknown[]).splice(i, 1);
    });
    into.push((copy, random) => {
      put(reach(copy, keys), i, redraw(item, name, random));
    });
    valueMoves(item, name, element, [...keys, i], shapes, redraw, into);
  });
}

/** How far a payload is from breaking rule `target` once and nothing else: 0 when it does. */
function distance(broken: readonly number[], target: number): number {
  return broken.includes(target) ? broken.length - 1 : 1000 + broken.length;
}

/**
 * A payload that breaks rule `target` of `event` alone, searched from `base` (which keeps every rule)
 * in at most `BREAK_STEPS` steps, seeded by `seed`; undefined when none was found. Past half the
 * steps, every other step is `readMove` when given (a field the rule reads set from its literals).
 */
export function breakRule(
  event: EventRules,
  target: number,
  fields: readonly FieldSpec[],
  base: unknown,
  context: { seed: string; shapes: TestingData['shapes']; redraw: Redraw; readMove?: Move },
): unknown {
  const random = new Random(hash(`${context.seed}\0${event.key}\0${event.rules[target]![0]}`));
  let current = base;
  let score = distance(brokenRules(event, base) ?? [], target);
  for (let step = 0; step < BREAK_STEPS && score > 0; step++) {
    const moves = movesOf(fields, current, [], context.shapes, context.redraw, []);
    const copy: unknown = JSON.parse(JSON.stringify(current));
    const late = context.readMove !== undefined && step >= BREAK_STEPS / 2 && step % 2 === 1;
    (late ? context.readMove! : random.pick(moves))(copy, random);
    const broken = brokenRules(event, copy);
    if (broken === undefined) continue;
    const next = distance(broken, target);
    if (next <= score) {
      current = copy;
      score = next;
    }
  }
  return score === 0 ? current : undefined;
}

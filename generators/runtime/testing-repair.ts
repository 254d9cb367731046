/**
 * `fake`'s repair of a payload that breaks a rule (decision 0190): a bounded, seeded local search that
 * sets the fields the broken rules read (the build lists them with each rule) to values made from the
 * rules' literals and from the other fields the same rule reads: an equality kept by copying the other
 * side, a size kept by the length of the array or string it is compared with, a string cut to the
 * lengths a `size` comparison names, a timestamp from a literal, an optional field left out. Each
 * value is of the field's type, enum and format, so the payload still passes the schema; a step is
 * kept when no more rules break than before. Nothing is interpreted: the validator's compiled rules
 * judge every step. And `arbitrary`'s values that keep the rules, mended the same way.
 */
import type { Arbitrary, Stream, Value } from 'fast-check';
import {
  brokenRules,
  type EventRules,
  KEEP_TRIES,
  Misses,
  type Move,
  REPAIR_EVERY,
  type Redraw,
} from './testing-rules.js';
import {
  type FastCheck,
  type FieldSpec,
  fitsFormat,
  Random,
  type TestingData,
  type TypeSpec,
} from './testing-values.js';

/** How many changes one repair tries at most, and in a row without fewer broken rules, before giving up. */
const REPAIR_STEPS = 200;
const STALLED = 40;
/** The longest array a repair makes to match a number a rule compares its size with. */
const MOST_ITEMS = 10;
/** The letters short strings are cut from. */
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** What a repair may do: the event's fields, its rules' literals, and what the variant allows. */
export interface RepairContext {
  fields: readonly FieldSpec[];
  shapes: TestingData['shapes'];
  literals: readonly (string | number)[];
  /** Whether an optional field may be added (not in `minimal` at first); an array item always may. */
  mayAdd: boolean;
  /** Whether an optional field may be left out (not in `full` at first). */
  mayDrop: boolean;
  redraw: Redraw;
}

/** An object or array of a payload, by key. */
type Container = Record<string | number, unknown>;
/** A place a value sits: its container, key and type, and whether it may be left out. */
interface Slot {
  container: Container;
  key: string | number;
  type: TypeSpec;
  optional: boolean;
}
/** A value to set, or `ABSENT` to leave the field (or array item) out. */
const ABSENT = Symbol('absent');

/** `payload` (which breaks a rule) changed until it keeps every rule, or undefined within `REPAIR_STEPS`. */
export function repairPayload(
  event: EventRules,
  payload: unknown,
  random: Random,
  context: RepairContext,
): unknown {
  let current = payload;
  let broken = brokenRules(event, current);
  if (broken === undefined) return undefined;
  let last = 0;
  for (let step = 0; step < REPAIR_STEPS && step - last < STALLED && broken.length > 0; step++) {
    const reads = readsOf(event, random.pick(broken), context.fields);
    const path = random.pick(reads);
    const copy: unknown = JSON.parse(JSON.stringify(current));
    if (!change(copy, path, reads, random, context)) continue;
    const next = brokenRules(event, copy);
    if (next === undefined || next.length > broken.length) continue;
    if (next.length < broken.length) last = step;
    current = copy;
    broken = next;
  }
  return broken.length === 0 ? current : undefined;
}

/**
 * `arbitrary` values that keep every rule: each generation tries `values` (then, past a quarter of
 * `KEEP_TRIES`, `fallback`) at most `KEEP_TRIES` times, every `REPAIR_EVERY`th miss mended by `repair`
 * (seeded from fast-check's own generator), then an error naming the rule; shrinking, by the
 * arbitrary that made the value, keeps only values that keep the rules (a mended value does not shrink).
 */
export function keptArbitrary<T>(
  fc: FastCheck,
  values: Arbitrary<T>,
  fallback: Arbitrary<T>,
  event: EventRules,
  repair: (value: unknown, random: Random) => unknown,
): Arbitrary<T> {
  const kept = (value: unknown) => {
    const broken = brokenRules(event, value);
    return broken === undefined || broken.length === 0;
  };
  type Made = { by: Arbitrary<T> | undefined; context: unknown };
  const wrap = (by: Arbitrary<T>, value: Value<T>): Value<T> =>
    new fc.Value(value.value_, { by, context: value.context } satisfies Made);
  class Kept extends fc.Arbitrary<T> {
    generate(mrng: Parameters<Arbitrary<T>['generate']>[0], biasFactor: number | undefined): Value<T> {
      const misses = new Misses();
      for (let attempt = 0; attempt < KEEP_TRIES; attempt++) {
        const by = attempt < KEEP_TRIES / 4 ? values : fallback;
        const value = by.generate(mrng, biasFactor);
        const broken = brokenRules(event, value.value);
        if (broken === undefined || broken.length === 0) return wrap(by, value);
        misses.note(broken);
        if (attempt < REPAIR_EVERY || attempt % REPAIR_EVERY !== 0) continue;
        const repaired = repair(value.value, new Random(mrng.nextInt(0, 0x7fffffff)));
        if (repaired !== undefined) return new fc.Value(repaired as T, { by: undefined, context: undefined });
      }
      throw misses.error(event, 'arbitrary');
    }
    canShrinkWithoutContext(value: unknown): value is T {
      return values.canShrinkWithoutContext(value) && kept(value);
    }
    shrink(value: T, context: unknown): Stream<Value<T>> {
      const made = context as Made | undefined;
      if (made !== undefined && made.by === undefined) return fc.Stream.nil();
      const by = made?.by ?? values;
      return by
        .shrink(value, made?.context)
        .filter((next) => kept(next.value))
        .map((next) => wrap(by, next));
    }
  }
  return new Kept();
}

/** A move of `invalid`'s search for a payload that breaks rule `rule`: one field it reads set to a candidate. */
export function readMove(event: EventRules, rule: number, context: RepairContext): Move {
  const reads = readsOf(event, rule, context.fields);
  return (copy, random) => {
    change(copy, random.pick(reads), reads, random, context);
  };
}

/** The paths rule `rule` reads; every field of the event for a rule the build did not list. */
function readsOf(event: EventRules, rule: number, fields: readonly FieldSpec[]): readonly string[] {
  const reads = event.rules[rule]?.[3];
  return reads !== undefined && reads.length > 0 ? reads : fields.map(([name]) => name);
}

/** Sets the value at `path` of `payload` to one of its candidates; false when the path cannot be reached. */
function change(
  payload: unknown,
  path: string,
  reads: readonly string[],
  random: Random,
  context: RepairContext,
): boolean {
  const slot = slotAt(payload, path, random, context);
  if (slot === undefined) return false;
  const values = candidates(slot, valuesRead(payload, reads), random, context);
  const value = random.pick(values);
  if (value !== ABSENT) put(slot.container, slot.key, value);
  else if (Array.isArray(slot.container)) slot.container.splice(Number(slot.key), 1);
  else delete slot.container[slot.key];
  return true;
}

/** Sets a key as an own property: a field called `__proto__` is a key, not the prototype. */
function put(object: Container, key: string | number, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * The slot at a path read (`seller.email`, `lines[].qty`, `tags[]`): a random item of each array on the
 * way (a new one when the array is empty and items may be added), a missing optional object on the
 * way drawn when fields may be added; undefined when the path cannot be reached.
 */
function slotAt(payload: unknown, path: string, random: Random, context: RepairContext): Slot | undefined {
  let fields: readonly FieldSpec[] | undefined = context.fields;
  let container = payload as Container;
  let slot: Slot | undefined;
  for (const part of path.split('.')) {
    if (slot !== undefined) {
      const value = slot.container[slot.key];
      if (value === undefined || value === null) {
        if (!context.mayAdd && slot.optional) return undefined;
        put(slot.container, slot.key, context.redraw(slot.type, String(slot.key), random));
      }
      container = slot.container[slot.key] as Container;
    }
    const name = part.replace(/(\[\])+$/, '');
    const field: FieldSpec | undefined = fields?.find(([fieldName]) => fieldName === name);
    if (field === undefined || typeof container !== 'object' || container === null) return undefined;
    slot = { container, key: name, type: field[2], optional: field[1] === 0 };
    if (slot.optional && !context.mayAdd && !Object.hasOwn(container, name)) return undefined;
    for (let depth = (part.length - name.length) / 2; depth > 0; depth--) {
      slot = itemSlot(slot, random, context);
      if (slot === undefined) return undefined;
    }
    fields = slot.type.t === 'r' ? context.shapes[slot.type.n] : undefined;
  }
  return slot;
}

/** A random item of the array in `slot` (a new one at its end, sometimes, when items may be added). */
function itemSlot(slot: Slot, random: Random, context: RepairContext): Slot | undefined {
  const list = slot.container[slot.key];
  if (slot.type.t !== 'a' || !Array.isArray(list)) return undefined;
  const grow = list.length === 0 || random.below(4) === 0;
  const key = grow ? list.length : random.below(list.length);
  if (grow) list.push(context.redraw(slot.type.i, String(slot.key), random));
  const optional = context.mayDrop || list.length > 1;
  return { container: list as unknown as Container, key, type: slot.type.i, optional };
}

/** The values at each path a rule reads (every item of the arrays on the way), to be copied or measured. */
function valuesRead(payload: unknown, reads: readonly string[]): unknown[] {
  const found: unknown[] = [];
  for (const path of reads) {
    let values: unknown[] = [payload];
    for (const part of path.split('.')) {
      const name = part.replace(/(\[\])+$/, '');
      values = values.flatMap((value) =>
        value !== null && typeof value === 'object' && Object.hasOwn(value, name)
          ? [(value as Container)[name]]
          : [],
      );
      for (let depth = (part.length - name.length) / 2; depth > 0; depth--)
        values = values.flatMap((value) => (Array.isArray(value) ? value : []));
    }
    found.push(...values);
  }
  return found;
}

/** The values to try in a slot, each of its type, enum and format; a fresh draw always among them. */
function candidates(slot: Slot, read: readonly unknown[], random: Random, context: RepairContext): unknown[] {
  const { type } = slot;
  const out: unknown[] = [context.redraw(type, String(slot.key), random)];
  const present = Object.hasOwn(slot.container, slot.key);
  if (slot.optional && present && context.mayDrop) out.push(ABSENT);
  if (type.t === 'b') out.push(true, false);
  else if ((type.t === 's' || type.t === 'i' || type.t === 'n') && type.e) out.push(...type.e);
  else if (type.t === 'i' || type.t === 'n') out.push(...numbers(type.t, read, context.literals));
  else if (type.t === 's' && type.f !== undefined) {
    const format = type.f;
    out.push(...[...context.literals, ...read].filter((v) => typeof v === 'string' && fitsFormat(format, v)));
  } else if (type.t === 's') out.push(...strings(read, context.literals));
  else if (type.t === 'a') out.push(...arrays(slot, read, random, context));
  return out;
}

/** Numbers from the literals (and one either side), the numbers read, and the sizes of what is read. */
function numbers(
  kind: 'i' | 'n',
  read: readonly unknown[],
  literals: readonly (string | number)[],
): number[] {
  const near = literals
    .filter((one): one is number => typeof one === 'number')
    .flatMap((n) => (kind === 'n' ? [n, n - 1, n + 1, n - 0.5, n + 0.5] : [n, n - 1, n + 1]));
  const sizes = read.flatMap((value) =>
    typeof value === 'number'
      ? [value]
      : Array.isArray(value) || typeof value === 'string'
        ? [value.length]
        : [],
  );
  const all = [0, 1, -1, ...near, ...sizes];
  return kind === 'i' ? all.filter((n) => Number.isSafeInteger(n)) : all.filter((n) => Number.isFinite(n));
}

/**
 * Strings from the literals (alone, twice, beside a letter), the strings read (an equality kept by a
 * copy), short ones of each length a small number literal names (and one either side), a capital and
 * a padded one.
 */
function strings(read: readonly unknown[], literals: readonly (string | number)[]): string[] {
  const texts = literals.filter((one): one is string => typeof one === 'string');
  const lengths = literals
    .filter((one): one is number => typeof one === 'number' && one >= 0 && one <= LETTERS.length + 1)
    .map(Math.floor)
    .flatMap((n) => [n - 1, n, n + 1])
    .filter((n) => n >= 0 && n <= LETTERS.length);
  return [
    '',
    'a',
    'ab',
    'abc',
    ' a',
    'A',
    ...texts.flatMap((text) => [text, `a${text}`, `${text}a`, text + text]),
    ...read.filter((value): value is string => typeof value === 'string'),
    ...lengths.map((n) => LETTERS.slice(0, n)),
  ];
}

/** Arrays: empty, one item removed or added, one candidate item alone, or as long as a number read. */
function arrays(slot: Slot, read: readonly unknown[], random: Random, context: RepairContext): unknown[][] {
  const type = slot.type as Extract<TypeSpec, { t: 'a' }>;
  const list = slot.container[slot.key];
  const current = Array.isArray(list) ? list : [];
  const fresh = () => context.redraw(type.i, String(slot.key), random);
  // `full` gives every array an item, until the retries relax it.
  const out: unknown[][] = context.mayDrop ? [[]] : [];
  if (current.length > 1 || (current.length > 0 && context.mayDrop))
    out.push(current.filter((_, i) => i !== random.below(current.length)));
  out.push([...current, fresh()]);
  const item = { container: [] as unknown as Container, key: 0, type: type.i, optional: false };
  out.push([random.pick(candidates(item, read, random, context))]);
  for (const n of read)
    if (Number.isInteger(n) && (n as number) > 0 && (n as number) <= MOST_ITEMS)
      out.push(Array.from({ length: n as number }, fresh));
  return out;
}

/**
 * Test data of the group packages (`<package>/testing`): seeded fake payloads, fast-check arbitraries and
 * payloads with one known problem each, interpreted from the per-event data the build compiles into each
 * group (`testing-data.js`). Shipped once, in the run time package; loads nothing but the run time, so
 * it also runs in browsers (the docs playground). fast-check is given by the caller (see `fast-check.ts`).
 */
import type { Arbitrary } from 'fast-check';
import { type KeyOf, suggest } from './runtime.js';
import { keptArbitrary, readMove, repairPayload } from './testing-repair.js';
import {
  breakRule,
  type EventRules,
  invalidPayloads,
  KEEP_TRIES,
  keepRules,
  type Redraw,
  type RuleCheck,
  RuleDataError,
  ruleOf,
} from './testing-rules.js';
import type {
  FastCheck,
  FieldSpec,
  InvalidPayload,
  InvalidProblem,
  RuleSpec,
  TestingData,
  TypeSpec,
} from './testing-values.js';
import {
  EDGE_TEXTS,
  fitsFormat,
  formatted,
  hash,
  hinted,
  INTEGER_EDGES,
  NUMBER_EDGES,
  pick,
  Random,
  text,
  WORDS,
} from './testing-values.js';

export type { FastCheck, FieldSpec, InvalidPayload, InvalidProblem, RuleSpec, TestingData, TypeSpec };
export { RuleDataError };

/** `minimal`: required fields only; `full`: every field; `random`: each optional field present or not. */
export type FakeVariant = 'minimal' | 'full' | 'random';
/** Options of `fake`. */
export interface FakeOptions {
  /** The same seed (a number or a string) gives the same payload for a given package version. */
  seed?: number | string;
  /** Default `random`. */
  variant?: FakeVariant;
  /** The most items an array gets (default 3); `minimal` gives none, `full` at least one. */
  maxItems?: number;
}
/** Options of `arbitrary`. */
export interface ArbitraryOptions {
  /** The most items an array gets (default 5). */
  maxItems?: number;
  /** The fast-check module to build with (default: the one the project has installed). */
  fc?: FastCheck;
}
/** Options of `invalid`: the seed of the `full` payload each problem is made in. */
export interface InvalidOptions {
  seed?: number | string;
}

/** The testing API of a group package, over its map of event key to payload type. */
export interface TestingApi<M> {
  readonly eventKeys: readonly KeyOf<M>[];
  fake<K extends KeyOf<M>>(key: K, options?: FakeOptions): M[K];
  arbitrary<K extends KeyOf<M>>(key: K, options?: ArbitraryOptions): Arbitrary<M[K]>;
  invalid<K extends KeyOf<M>>(key: K, options?: InvalidOptions): InvalidPayload[];
}

/**
 * A group's testing API over its compiled data; `fastCheck`, the module `arbitrary` uses by default;
 * `check`, the group's `validate`, through which payloads of events with rules keep them (without it,
 * as in the docs playground, rules are not looked at).
 */
export function defineTesting<M>(
  packageName: string,
  data: TestingData,
  fastCheck?: FastCheck,
  check?: RuleCheck,
): TestingApi<M> {
  const eventKeys = Object.freeze(Object.keys(data.events)) as readonly KeyOf<M>[];
  const eventOf = (key: unknown) => {
    if (typeof key === 'string' && Object.hasOwn(data.events, key)) return data.events[key]!;
    const guess = typeof key === 'string' ? suggest(key, eventKeys) : undefined;
    throw new TypeError(
      `eventry: \`${typeof key === 'string' ? key : `(a ${typeof key})`}\` is not an event of ${packageName}.${guess === undefined ? '' : ` Did you mean \`${guess}\`?`}`,
    );
  };
  const rulesOf = (key: string): EventRules | undefined => {
    const rules = data.events[key]?.r;
    return rules === undefined || check === undefined ? undefined : { key, rules, check };
  };
  let calls = 0;
  const fake = (key: string, options: FakeOptions = {}): unknown => {
    const event = eventOf(key);
    const variant = options.variant ?? 'random';
    if (variant !== 'minimal' && variant !== 'full' && variant !== 'random')
      throw new TypeError(
        `eventry: unknown variant ${JSON.stringify(variant)}; use minimal, full or random.`,
      );
    // Without a seed, each call draws another payload, in the same sequence in every process.
    const seed = `${String(options.seed ?? `call ${calls++}`)}\0${key}\0${variant}`;
    const maxItems = readCount(options.maxItems, 3);
    // Each retry for the rules draws from a seed of its own; past a quarter of them values are plain,
    // past half `minimal` gives way (a rule may need an optional field or an array item).
    const drawn = (attempt: number) => {
      const random = new Random(hash(attempt === 0 ? seed : `${seed}\0${attempt}`));
      const relaxed = variant === 'minimal' && attempt >= KEEP_TRIES / 2 ? 'random' : variant;
      const plain = attempt >= KEEP_TRIES / 4;
      const draw = { random, variant: relaxed, maxItems, shapes: data.shapes, plain, probes: event.k };
      return drawObject(event.f, draw, []);
    };
    const rules = rulesOf(key);
    if (rules === undefined) return drawn(0);
    // Past a quarter of the tries, a repair may add an optional field in `minimal`, leave one out in `full`.
    const repair = (payload: unknown, attempt: number) => {
      const relaxed = attempt >= KEEP_TRIES / 4;
      const redraw = redrawOf(data.shapes, event.k, relaxed ? 'random' : variant, maxItems);
      return repairPayload(rules, payload, new Random(hash(`${seed}\0repair\0${attempt}`)), {
        fields: event.f,
        shapes: data.shapes,
        literals: event.k ?? [],
        mayAdd: variant !== 'minimal' || relaxed,
        mayDrop: variant !== 'full' || relaxed,
        redraw,
      });
    };
    return keepRules(rules, drawn, repair);
  };
  return {
    eventKeys,
    fake: fake as TestingApi<M>['fake'],
    arbitrary: ((key: string, options: ArbitraryOptions = {}) =>
      arbitraryOf(data, eventOf(key), rulesOf(key), options, fastCheck, (seed) =>
        fake(key, { seed, maxItems: options.maxItems }),
      )) as TestingApi<M>['arbitrary'],
    invalid: ((key: string, options: InvalidOptions = {}) => {
      const event = eventOf(key);
      const seed = options.seed ?? 0;
      const base = baseOf(
        () => fake(key, { seed, variant: 'full', maxItems: 1 }),
        () => fake(key, { seed }),
      );
      const out = invalidPayloads(event.f, event.o === 1, base, data.shapes);
      const rules = rulesOf(key);
      if (rules !== undefined) out.push(...ruleBreakers(rules, event, base, String(seed), data.shapes));
      return out;
    }) as TestingApi<M>['invalid'],
  };
}

/** `arbitrary` of one event, kept to its rules by repair, then by `fake`'s payloads (`fakeOf`), which relax further. */
function arbitraryOf(
  data: TestingData,
  event: TestingData['events'][string],
  rules: EventRules | undefined,
  options: ArbitraryOptions,
  fastCheck: FastCheck | undefined,
  fakeOf: (seed: string) => unknown,
): Arbitrary<unknown> {
  const fc = options.fc ?? fastCheck;
  if (fc === undefined)
    throw new Error(
      'eventry: arbitrary() needs fast-check, an optional peer dependency: `npm install --save-dev fast-check` (or pass `{ fc }`).',
    );
  const values = arbitraryObject(fc, event.f, data.shapes, readCount(options.maxItems, 5), []);
  if (rules === undefined) return values;
  const fakes = fc.nat().map((n) => fakeOf(`arbitrary ${n}`));
  const redraw = redrawOf(data.shapes, event.k, 'random', readCount(options.maxItems, 5));
  const context = { fields: event.f, shapes: data.shapes, literals: event.k ?? [], redraw };
  const repair = (value: unknown, random: Random) =>
    repairPayload(rules, value, random, { ...context, mayAdd: true, mayDrop: true });
  return keptArbitrary(fc, values, fakes, rules, repair);
}

/**
 * `invalid`'s base payload: the `full` one, or, when the rules want what `full` cannot give (an array of
 * two items, an optional field left out), a `random` one.
 */
function baseOf(full: () => unknown, random: () => unknown): unknown {
  try {
    return full();
  } catch (error) {
    if (error instanceof RuleDataError) return random();
    throw error;
  }
}

/** For each rule, a payload that breaks it alone, with its item; an error for a rule none breaks alone. */
function ruleBreakers(
  event: EventRules,
  spec: TestingData['events'][string],
  base: unknown,
  seed: string,
  shapes: TestingData['shapes'],
): InvalidPayload[] {
  const fields = spec.f;
  const redraw = redrawOf(shapes, spec.k, 'random', 1);
  return event.rules.map(([name, message], n) => {
    const literals = spec.k ?? [];
    const reading = { fields, shapes, literals, mayAdd: true, mayDrop: true, redraw };
    const readMoves = readMove(event, n, reading);
    const payload = breakRule(event, n, fields, base, { seed, shapes, redraw, readMove: readMoves });
    const result = payload === undefined ? undefined : event.check(event.key, payload);
    const item =
      result?.valid === false ? result.error.errors.find((one) => ruleOf(event.rules, one) === n) : undefined;
    if (item === undefined)
      throw new RuleDataError(
        `eventry: invalid(${event.key}) found no payload that passes the schema and breaks rule \`${name}\` alone (rule_unbreakable): it may never break, or only with another rule.`,
        'rule_unbreakable',
        name,
      );
    return {
      problem: 'rule_violated',
      description: `rule \`${name}\` broken: ${message}`,
      payload,
      error: { code: 'rule_violated', attr: item.attr },
    };
  });
}

/** A fresh value of a type: a third of the draws plain values and the rules' literals, the edges a rule turns on. */
function redrawOf(
  shapes: TestingData['shapes'],
  probes: readonly (string | number)[] | undefined,
  variant: FakeVariant,
  maxItems: number,
): Redraw {
  return (type, name, random) =>
    drawValue(type, name, { random, variant, maxItems, shapes, plain: random.below(3) === 0, probes }, []);
}

function readCount(value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (Number.isSafeInteger(value) && (value as number) >= 0) return value as number;
  throw new TypeError(`eventry: maxItems must be a non-negative integer, not ${String(value)}.`);
}

interface Draw {
  random: Random;
  variant: FakeVariant;
  maxItems: number;
  shapes: TestingData['shapes'];
  /** Plain values (short words, small positive numbers): the later retries for an event's rules. */
  plain?: boolean;
  /** The literals of the event's rules, which plain values are drawn from half the time. */
  probes?: readonly (string | number)[];
}

/** Whether a value of `type` would contain a shape already being drawn (a shape that contains itself). */
function recurses(type: TypeSpec, stack: readonly string[]): boolean {
  if (type.t === 'a') return recurses(type.i, stack);
  return type.t === 'r' && stack.includes(type.n);
}

/** Sets a key as an own property: a field called `__proto__` is a key, not the prototype. */
function put(object: Record<string, unknown>, name: string, value: unknown): void {
  if (name === '__proto__')
    Object.defineProperty(object, name, { value, enumerable: true, writable: true, configurable: true });
  else object[name] = value;
}

function drawObject(fields: readonly FieldSpec[], draw: Draw, stack: readonly string[]) {
  const object: Record<string, unknown> = {};
  for (const [name, required, type] of fields) {
    if (required === 0) {
      if (draw.variant === 'minimal' || recurses(type, stack)) continue;
      if (draw.variant === 'random' && draw.random.below(2) === 0) continue;
    }
    put(object, name, drawValue(type, name, draw, stack));
  }
  return object;
}

function drawValue(type: TypeSpec, name: string, draw: Draw, stack: readonly string[]): unknown {
  const { random, variant } = draw;
  const edgy = variant === 'random' && random.below(8) === 0;
  switch (type.t) {
    case 'r':
      return drawObject(draw.shapes[type.n]!, draw, [...stack, type.n]);
    case 'a': {
      const most = recurses(type, stack) ? 0 : draw.maxItems;
      const count =
        variant === 'minimal'
          ? 0
          : variant === 'full'
            ? Math.min(most, 1 + random.below(most))
            : random.below(most + 1);
      return Array.from({ length: count }, () => drawValue(type.i, name, draw, stack));
    }
    case 'o':
      return variant === 'minimal' ? {} : { [pick(random, WORDS)]: pick(random, WORDS) };
    case 'b':
      return random.below(2) === 1;
    case 'i':
      if (type.e) return random.pick(type.e);
      if (draw.plain) return probe(draw, (v) => Number.isSafeInteger(v)) ?? 1 + random.below(100);
      return edgy ? random.pick(INTEGER_EDGES) : random.below(100_000);
    case 'n':
      if (type.e) return random.pick(type.e);
      if (draw.plain) return probe(draw, (v) => typeof v === 'number') ?? 1 + random.below(100);
      return edgy ? random.pick(NUMBER_EDGES) : random.below(10_000_000) / 100;
    default:
      if (type.e) return random.pick(type.e);
      if (type.f !== undefined)
        return (
          (draw.plain && probe(draw, (v) => fitsFormat(type.f!, String(v)))) ||
          formatted(type.f, random, variant === 'random')
        );
      if (draw.plain) return probe(draw, (v) => typeof v === 'string') ?? pick(random, WORDS);
      if (type.h !== undefined) return hinted(type.h, random);
      return text(random, edgy);
  }
}

/** Half the time, one of the rules' literals that `fits`, when there is one; else undefined. */
function probe(draw: Draw, fits: (value: string | number) => boolean): string | number | undefined {
  const fitting = draw.probes?.filter(fits) ?? [];
  if (fitting.length === 0 || draw.random.below(2) === 0) return undefined;
  return draw.random.pick(fitting);
}

/** A value that is absent: an optional field fast-check left out. */
const ABSENT = Symbol('absent');

/** fast-check arbitraries of the same values: optional fields shrink towards absent, arrays towards empty. */
function arbitraryObject(
  fc: FastCheck,
  fields: readonly FieldSpec[],
  shapes: TestingData['shapes'],
  maxItems: number,
  stack: readonly string[],
): Arbitrary<Record<string, unknown>> {
  const kept = fields.filter(([, required, type]) => required === 1 || !recurses(type, stack));
  const parts = kept.map(([name, required, type]) => {
    const value = arbitraryValue(fc, type, name, shapes, maxItems, stack);
    return required === 1 ? value : fc.option(value, { nil: ABSENT as unknown as undefined, freq: 2 });
  });
  return fc.tuple(...parts).map((values) => {
    const object: Record<string, unknown> = {};
    values.forEach((value, i) => {
      if (value !== ABSENT) put(object, kept[i]![0], value);
    });
    return object;
  });
}

function arbitraryValue(
  fc: FastCheck,
  type: TypeSpec,
  name: string,
  shapes: TestingData['shapes'],
  maxItems: number,
  stack: readonly string[],
): Arbitrary<unknown> {
  const seeded = (make: (random: Random) => unknown) =>
    fc.integer({ min: 0, max: 0x7fffffff }).map((seed) => make(new Random(seed)));
  switch (type.t) {
    case 'r':
      return arbitraryObject(fc, shapes[type.n]!, shapes, maxItems, [...stack, type.n]);
    case 'a':
      return recurses(type, stack)
        ? fc.constant([])
        : fc.array(arbitraryValue(fc, type.i, name, shapes, maxItems, stack), { maxLength: maxItems });
    case 'o':
      return fc.dictionary(fc.string({ maxLength: 10 }), fc.oneof(fc.string(), fc.integer(), fc.boolean()), {
        maxKeys: 3,
      });
    case 'b':
      return fc.boolean();
    case 'i':
      return type.e ? fc.constantFrom(...type.e) : fc.oneof(fc.integer(), fc.maxSafeInteger());
    case 'n':
      return type.e ? fc.constantFrom(...type.e) : fc.double({ noNaN: true, noDefaultInfinity: true });
    default: {
      if (type.e) return fc.constantFrom(...type.e);
      const f = type.f;
      if (f !== undefined) return seeded((random) => formatted(f, random, true));
      const h = type.h;
      if (h !== undefined) return seeded((random) => hinted(h, random));
      return fc.oneof(
        seeded((random) => text(random, false)),
        fc.string({ maxLength: 300 }),
        fc.constantFrom(...EDGE_TEXTS),
      );
    }
  }
}

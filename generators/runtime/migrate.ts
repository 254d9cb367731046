/**
 * `upcast` and `downcast` of a group package (issue 46): payloads of one version of an event type made
 * into payloads of another, by chaining the migrations the build compiled to plain JavaScript (a
 * group's `migrations.js`: no interpreter here). A chain is composed once per pair of keys and kept.
 * The input is never changed: each compiled migration works on a copy. The input is not validated
 * (decision 0165): the build proved, on the source version's `arbitrary`, that each migration turns a
 * valid payload into a valid one; a caller that cannot trust its input validates it first.
 */

/** A compiled migration: a payload of one version in, a new payload of another out. */
export type MigrationFunction = (message: unknown) => unknown;

/** A migration of a group's table: the key at its other end (`from` of an upgrade, `to` of a downgrade), and its code. */
export type MigrationEntry = readonly [string, MigrationFunction];

/** Migrations by the key they belong to: an upgrade leads into it, a downgrade out of it. */
export type MigrationTable = Readonly<Record<string, MigrationEntry>>;

/** Stable machine-readable codes of a `MigrationError`. */
export type MigrationErrorCode =
  | 'unknown_event'
  | 'other_event_type'
  | 'no_migration_path'
  | 'payload_not_object';

/** Thrown by `upcast` / `downcast` when there is no way from `from` to `to` (both named in the message). */
class OwnMigrationError extends Error {
  constructor(
    message: string,
    readonly code: MigrationErrorCode,
    readonly from: string,
    readonly to: string | undefined,
  ) {
    super(message);
    this.name = 'MigrationError';
  }
}

/**
 * The error `upcast` and `downcast` throw. One class per process, as `EventValidationError` is: each group
 * package carries a copy of the run time (docs/decisions/0175), and every copy takes the class the first
 * one left on `globalThis`, so `err instanceof MigrationError` holds whichever group threw.
 */
// Pure for a bundler: a copy of the run time that never names the class (the event entry's) leaves it out.
export const MigrationError: typeof OwnMigrationError = /* @__PURE__ */ sharedMigrationError();
export type MigrationError = OwnMigrationError;

function sharedMigrationError(): typeof OwnMigrationError {
  const global = globalThis as Record<symbol, unknown>;
  const key = Symbol.for('eventry.MigrationError');
  const shared = global[key];
  if (typeof shared === 'function') return shared as typeof OwnMigrationError;
  Object.defineProperty(global, key, { value: OwnMigrationError });
  return OwnMigrationError;
}

/**
 * `upcast` and `downcast` over the map `M` of event key to payload type: `V[K]` the keys of the versions
 * of K's type, `N[K]` the newest of them.
 */
export interface MigrationApi<
  M,
  V extends { [K in keyof M]: keyof M & string },
  N extends { [K in keyof M]: keyof M & string },
> {
  /** A payload of `fromKey` as one of the newest version of its type, through its upgrades. */
  upcast<F extends keyof M & string>(fromKey: F, payload: M[F]): M[N[F]];
  /** A payload of `fromKey` as one of the later `toKey`, through its upgrades. */
  upcast<F extends keyof M & string, T extends V[F]>(fromKey: F, payload: M[F], toKey: T): M[T];
  /** A payload of `fromKey` as one of the earlier `toKey`, through its downgrades. */
  downcast<F extends keyof M & string, T extends V[F]>(fromKey: F, payload: M[F], toKey: T): M[T];
}

/**
 * A group's `upcast` and `downcast`: `versions` lists the keys of each of its event types that has
 * more than one, oldest first; `up` each key's upgrade, `down` each key's downgrade.
 */
export function defineMigrations<M>(
  packageName: string,
  eventKeys: readonly string[],
  versions: readonly (readonly string[])[],
  up: MigrationTable = {},
  down: MigrationTable = {},
): MigrationApi<M, Record<keyof M, keyof M & string>, Record<keyof M, keyof M & string>> {
  // Made on the first call: importing a group costs nothing more than these two closures.
  let made: Tables | undefined;
  const tablesOf = (): Tables => {
    made ??= {
      packageName,
      known: new Set(eventKeys),
      typeOf: new Map(versions.flatMap((list) => list.map((key) => [key, list] as const))),
      up,
      down,
      chains: [new Map(), new Map()],
    };
    return made;
  };
  const chain = (
    tables: Tables,
    from: string,
    to: string | undefined,
    upward: boolean,
  ): MigrationFunction => {
    const target = to ?? newest(tables.typeOf, from);
    const byFrom = tables.chains[upward ? 0 : 1];
    let byTarget = byFrom.get(from);
    const found = byTarget?.get(target);
    if (found !== undefined) return found;
    const composed = compose(from, target, upward, tables);
    if (byTarget === undefined) {
      byTarget = new Map();
      byFrom.set(from, byTarget);
    }
    byTarget.set(target, composed);
    return composed;
  };
  const run = (from: unknown, payload: unknown, to: unknown, upward: boolean) => {
    const tables = tablesOf();
    if (typeof from !== 'string' || !tables.known.has(from)) throw unknownKey(packageName, from, from, to);
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
      throw new MigrationError(
        `eventry: cannot ${upward ? 'upcast' : 'downcast'} ${describe(from)} to ${to === undefined ? 'its newest version' : describe(to)}: the payload is not a JSON object (payload_not_object).`,
        'payload_not_object',
        from,
        to as string | undefined,
      );
    return chain(tables, from, to as string | undefined, upward)(payload);
  };
  return {
    upcast: ((from: unknown, payload: unknown, to?: unknown) => run(from, payload, to, true)) as never,
    downcast: ((from: unknown, payload: unknown, to: unknown) => {
      if (to === undefined)
        throw new MigrationError(
          `eventry: downcast of ${describe(from)} needs the key to downcast to (no_migration_path).`,
          'no_migration_path',
          String(from),
          undefined,
        );
      return run(from, payload, to, false);
    }) as never,
  };
}

/** The newest version of the type of `key` (itself when its type has one version in the group). */
function newest(typeOf: ReadonlyMap<string, readonly string[]>, key: string): string {
  const list = typeOf.get(key);
  return list === undefined ? key : list[list.length - 1]!;
}

interface Tables {
  packageName: string;
  known: ReadonlySet<string>;
  typeOf: ReadonlyMap<string, readonly string[]>;
  up: MigrationTable;
  down: MigrationTable;
  /** The composed chains, upward then downward, by source and target: each is composed once. */
  chains: [Map<string, Map<string, MigrationFunction>>, Map<string, Map<string, MigrationFunction>>];
}

/** The migrations from `from` to `to` as one function, or the error saying why there is none. */
function compose(from: string, to: string, upward: boolean, tables: Tables): MigrationFunction {
  const steps = upward ? upgrades(from, to, tables) : downgrades(from, to, tables);
  if (steps.length === 0) return copyJson;
  if (steps.length === 1) return steps[0]!;
  return (payload) => {
    let next = payload;
    for (const step of steps) next = step(next);
    return next;
  };
}

/** The upgrades from `from` to `to`, in the order they run, found walking back from `to`. */
function upgrades(from: string, to: string, tables: Tables): MigrationFunction[] {
  checkTarget(from, to, true, tables);
  const steps: MigrationFunction[] = [];
  for (let at = to; at !== from; ) {
    const entry = Object.hasOwn(tables.up, at) ? tables.up[at] : undefined;
    if (entry === undefined) throw noPath(from, to, true, at);
    steps.unshift(entry[1]);
    at = entry[0];
  }
  return steps;
}

/** The downgrades from `from` to `to`, in the order they run. */
function downgrades(from: string, to: string, tables: Tables): MigrationFunction[] {
  checkTarget(from, to, false, tables);
  const steps: MigrationFunction[] = [];
  for (let at = from; at !== to; ) {
    const entry = Object.hasOwn(tables.down, at) ? tables.down[at] : undefined;
    if (entry === undefined) throw noPath(from, to, false, at);
    steps.push(entry[1]);
    at = entry[0];
  }
  return steps;
}

/** Refuses a target the group does not have, of another type, or on the wrong side of `from`. */
function checkTarget(from: string, to: string, upward: boolean, tables: Tables): void {
  if (!tables.known.has(to)) throw unknownKey(tables.packageName, to, from, to);
  if (from === to) return;
  const list = tables.typeOf.get(from);
  const at = list?.indexOf(to) ?? -1;
  const verb = upward ? 'upcast' : 'downcast';
  if (at === -1)
    throw new MigrationError(
      `eventry: cannot ${verb} ${describe(from)} to ${describe(to)}: they are not versions of one event type (other_event_type).`,
      'other_event_type',
      from,
      to,
    );
  if (upward !== at > list!.indexOf(from))
    throw new MigrationError(
      `eventry: cannot ${verb} ${describe(from)} to ${describe(to)}: it is ${upward ? 'an earlier' : 'a later'} version (use ${upward ? 'downcast' : 'upcast'}) (no_migration_path).`,
      'no_migration_path',
      from,
      to,
    );
}

function noPath(from: string, to: string, upward: boolean, missing: string): MigrationError {
  const what = upward
    ? `${describe(missing)} declares no upgrade`
    : `${describe(missing)} declares no downgrade`;
  return new MigrationError(
    `eventry: cannot ${upward ? 'upcast' : 'downcast'} ${describe(from)} to ${describe(to)}: ${what} (no_migration_path).`,
    'no_migration_path',
    from,
    to,
  );
}

/** The error for a key (`missing`, the source or the target) the package does not have. */
function unknownKey(packageName: string, missing: unknown, from: unknown, to: unknown): MigrationError {
  const target = to === undefined ? 'its newest version' : describe(to);
  return new MigrationError(
    `eventry: no migration from ${describe(from)} to ${target}: ${packageName} has no event ${describe(missing)} (unknown_event).`,
    'unknown_event',
    String(from),
    to === undefined ? undefined : String(to),
  );
}

/** A key as messages quote it (any value a caller passed). */
function describe(key: unknown): string {
  return typeof key === 'string' ? `\`${key}\`` : String(key);
}

/** A deep copy of a JSON value (an upcast to its own version still gives a new payload). */
function copyJson(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copyJson);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = copyJson((value as Record<string, unknown>)[key]);
    if (key === '__proto__')
      Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
    else copy[key] = item;
  }
  return copy;
}

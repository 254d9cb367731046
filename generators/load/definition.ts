import type { Event, Shape } from '../schema/source/types.js';
import type { CatalogueProblem } from './problem.js';
import type { YamlSource } from './yaml-source.js';

export type {
  Deprecated as RawDeprecated,
  EventryCatalogueConfiguration as RawConfig,
  EventryCatalogueFile as RawCatalogueFile,
  Field as RawField,
  Group as RawGroup,
  Producer as RawProducer,
} from '../schema/source/types.js';

/** A JSON path inside one YAML file, as `YamlSource` locates it. */
export type Path = (string | number)[];

/**
 * A mapping the schema describes as `T`, before its values are trusted: `T`'s keys (so a misspelt key
 * does not compile), each value `unknown`. The resolver reads files that failed the shape check too
 * (so an author sees every problem in one pass), so a value is narrowed where it is read, never assumed.
 */
export type Unchecked<T> = { readonly [K in keyof T]?: unknown };

/** `value` as a mapping with the keys of schema type `T`, or undefined when it is not a mapping. */
export function readMap<T>(value: unknown): Unchecked<T> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
}

/** `{ [key]: value }` when `value` is a string, else nothing: spreads an optional text into a model object. */
export function optionalString<K extends string>(key: K, value: unknown): { [P in K]?: string } {
  const result: { [P in K]?: string } = {};
  if (typeof value === 'string') result[key] = value;
  return result;
}

/** An event or shape definition as written, with where it was written. */
export type Definition = EventDefinition | ShapeDefinition;

/** Where a definition was written: the file and the path of its key. */
interface Written {
  name: string;
  path: Path;
  source: YamlSource;
}

/** An event version as written under `events:` of a group file. */
export interface EventDefinition extends Written {
  kind: 'event';
  // A shape's keys are read with the event's: a stray `same_as` on a shape (reported as an unknown key)
  // is still followed, as the resolver always has.
  raw: Unchecked<RawDefinition>;
  group: string;
}

/** A named shape as written under `shapes:`. */
export interface ShapeDefinition extends Written {
  kind: 'shape';
  raw: Unchecked<RawDefinition>;
}

/** The keys an event or shape definition may have. */
export type RawDefinition = Event & Shape;

/**
 * The definitions of one kind by name, as resolving looks them up: a `Map` of every definition, or an
 * incremental load's, which reads a definition's file only when it is looked up (`execute/fast/load/incremental.ts`).
 */
export interface DefinitionLookup<D extends Definition> {
  get(name: string): D | undefined;
  has(name: string): boolean;
  /** Every name, for "did you mean" hints. */
  keys(): Iterable<string>;
}

/** What each step of resolving reads and adds to: every definition found, and the problems so far. */
export interface ResolveContext {
  readonly shapeDefs: DefinitionLookup<ShapeDefinition>;
  readonly eventDefs: DefinitionLookup<EventDefinition>;
  /** In the order found; the loader sorts them by location, so ties keep this order. */
  readonly problems: CatalogueProblem[];
  /** A file could not be read: a reference to what may be in it is not reported as undefined. */
  readonly incomplete: boolean;
}

import {
  COMPATIBLE_CHANGES_LENIENT,
  COMPATIBLE_CHANGES_STRICT,
  type DifferenceType,
} from './difference-types.js';
import { type Budget, ConfluentCheckerFailure, compareSchemas, type Difference } from './schema-diff.js';
import { loadSchemaNode, SchemaLoadError, type SchemaNode } from './schema-node.js';

/** The JSON Schema policy (Confluent 7.9+/8 `json.schema.compatibility.policy`). */
export type Policy = 'STRICT' | 'LENIENT';

/** One side of a level: whether new consumers read old data (backward), or old consumers new data. */
export type Direction = 'backward' | 'forward';

/** The set of differences a policy accepts (SchemaDiff.COMPATIBLE_CHANGES_*). */
const compatibleChanges = (policy: Policy): ReadonlySet<DifferenceType> =>
  policy === 'LENIENT' ? COMPATIBLE_CHANGES_LENIENT : COMPATIBLE_CHANGES_STRICT;

/**
 * A schema loaded for comparison, or why Confluent would refuse it (`tooLarge`: why this checker
 * does, a schema over the limits a client's schema is held to).
 */
export type LoadedSchema = { ok: true; node: SchemaNode } | { ok: false; error: string; tooLarge?: true };

/**
 * How large a client's schema may be: nesting depth, JSON objects and arrays, `$ref`s, and steps of
 * the comparison. Far above any schema the catalogue produces (a few hundred nodes), low enough that
 * the heaviest schema allowed is judged in well under a second (docs/decisions/0093).
 */
export interface SchemaLimits {
  depth: number;
  nodes: number;
  refs: number;
  steps: number;
}

export const SCHEMA_LIMITS: SchemaLimits = { depth: 64, nodes: 20_000, refs: 2_000, steps: 200_000 };

/** Why a parsed schema is over the limits (measured without recursion), or undefined. */
function overLimits(value: unknown, limits: SchemaLimits): string | undefined {
  const stack: [unknown, number][] = [[value, 1]];
  let nodes = 0;
  let refs = 0;
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > limits.depth) return `the schema nests deeper than ${limits.depth} levels.`;
    if (++nodes > limits.nodes) return `the schema has more than ${limits.nodes} JSON objects and arrays.`;
    if (!Array.isArray(node) && Object.hasOwn(node, '$ref') && ++refs > limits.refs)
      return `the schema has more than ${limits.refs} $ref.`;
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1]);
  }
  return undefined;
}

/** Parses and loads a schema text as Confluent's JSON Schema provider would (within `limits`, if given). */
export function loadSchemaText(text: string, limits?: SchemaLimits): LoadedSchema {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `the schema is not JSON (${(error as Error).message}).` };
  }
  if (typeof parsed !== 'boolean' && (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)))
    return { ok: false, error: 'a JSON Schema must be an object or a boolean.' };
  const over = limits && overLimits(parsed, limits);
  if (over) return { ok: false, error: over, tooLarge: true };
  try {
    return { ok: true, node: loadSchemaNode(parsed) };
  } catch (error) {
    if (error instanceof SchemaLoadError) return { ok: false, error: error.message };
    throw error;
  }
}

/** The differences of one direction, each marked compatible or not under the policy. */
export interface DirectionVerdict {
  direction: Direction;
  /** The differences the policy does not accept (empty: compatible). */
  incompatible: Difference[];
  /** Set when Confluent's own checker fails on this pair (the registry answers with an error). */
  failure?: string;
}

/**
 * `JsonSchema.isBackwardCompatible(policy, previous)` for one direction: backward compares the
 * previous schema (the writer, `original`) with the candidate (the reader, `update`); forward the
 * other way round.
 */
export function judgeDirection(
  previous: SchemaNode,
  candidate: SchemaNode,
  direction: Direction,
  policy: Policy,
  budget?: Budget,
): DirectionVerdict {
  const compatible = compatibleChanges(policy);
  const [original, update] = direction === 'backward' ? [previous, candidate] : [candidate, previous];
  try {
    const differences = compareSchemas(compatible, original, update, budget);
    return { direction, incompatible: differences.filter((diff) => !compatible.has(diff.type)) };
  } catch (error) {
    if (error instanceof ConfluentCheckerFailure)
      return { direction, incompatible: [], failure: error.message };
    throw error;
  }
}

/** The reader and the writer of a direction, in words. */
export function readerOf(direction: Direction): string {
  return direction === 'backward'
    ? 'consumers using the new schema cannot read data written with the old one'
    : 'consumers using the old schema cannot read data written with the new one';
}

export type { Difference };

import type { Field } from '../model.js';

/**
 * The CEL type of a value a rule reads, as the Confluent client sees a JSON payload: every JSON
 * number is a `double` (an `integer` field included), `int` comes only from literals and `size()`,
 * a `format: date-time` string becomes a `timestamp` through `timestamp()`.
 */
export type CelType =
  | { kind: 'bool' | 'int' | 'double' | 'timestamp' }
  | { kind: 'string'; dateTime?: true }
  | { kind: 'list'; of: CelType }
  /** An object of known fields: the payload, or a named shape. */
  | { kind: 'object'; name: string; fields: readonly Field[] }
  /** A free object (`object`): its keys are unknown, so a rule cannot read into it. */
  | { kind: 'map' };

/** What a rule is written over: `message` (an event's payload) or `this` (a shape's value). */
export interface RuleScope {
  /** The variable the expression reads: `message` or `this`. */
  variable: 'message' | 'this';
  /** The event key or shape name, for messages. */
  name: string;
  fields: readonly Field[];
  /** The fields of a named shape (undefined when it is not defined). */
  shapeFields(name: string): readonly Field[] | undefined;
}

/** A CEL operator or function a rule may call, as the parser names it (`_+_`, `size`, `contains`). */
export type CelFunction = string;

/** A node of a checked expression: its type, its offset in the expression, whether it can fail. */
export type TypedNode = {
  type: CelType;
  offset: number;
  /** Evaluating it can give a CEL error (overflow, division by zero, an index out of range, ...). */
  mayError: boolean;
} & (
  | { op: 'const'; value: boolean | bigint | number | string }
  | { op: 'ident'; name: string }
  | { op: 'select'; target: TypedNode; field: string }
  | { op: 'has'; target: TypedNode; field: string }
  | { op: 'call'; fn: CelFunction; args: TypedNode[] }
  | { op: 'list'; items: TypedNode[] }
  | {
      op: 'macro';
      macro: MacroName;
      range: TypedNode;
      variable: string;
      /** The predicate (all, exists, exists_one, filter, the filter of a three-argument map). */
      test?: TypedNode;
      /** The value a map makes of each item. */
      step?: TypedNode;
    }
);

/** The comprehension macros a rule may use. */
export type MacroName = 'all' | 'exists' | 'exists_one' | 'filter' | 'map';

/** The codes of the problems a rule's expression can have (the `load` area of the error codes). */
export type RuleProblemCode =
  | 'rule-syntax-error'
  | 'rule-unknown-field'
  | 'rule-type-mismatch'
  | 'rule-unguarded-field'
  | 'rule-unsupported'
  | 'rule-too-deep';

/** A problem in a rule's expression, at an offset into it (0-based, UTF-16). */
export interface RuleProblem {
  code: RuleProblemCode;
  offset: number;
  message: string;
  hint?: string;
  /** For an unknown name: the names it could have meant (the loader turns them into a did-you-mean). */
  candidates?: string[];
  unknown?: string;
}

/** The notation of a CEL type in messages: `double`, `list(string)`, `Ledger`. */
export function celTypeName(type: CelType): string {
  switch (type.kind) {
    case 'list':
      return `list(${celTypeName(type.of)})`;
    case 'object':
      return type.name;
    case 'map':
      return 'map(string, dyn)';
    default:
      return type.kind;
  }
}

/** A type's name with its article, for messages: `an int`, `a double`. */
export function aType(type: CelType): string {
  const name = celTypeName(type);
  return /^[aeiou]/i.test(name) ? `an ${name}` : `a ${name}`;
}

/** `text` with its first letter in capitals, to start a sentence. */
export function cap(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The node a JSON Schema loads into for Confluent's diff (`schema-node.ts` loads it, `keyword-parts.ts`
 * builds its parts): one everit schema class and the members it has.
 */

/** The everit schema classes the diff tells apart. */
export type NodeKind =
  | 'string'
  | 'number'
  | 'boolean'
  | 'null'
  | 'empty'
  | 'true'
  | 'false'
  | 'const'
  | 'enum'
  | 'combined'
  | 'not'
  | 'object'
  | 'array'
  | 'ref'
  | 'conditional';

/** `allOf`, `anyOf`, `oneOf`. */
export type Criterion = 'allOf' | 'anyOf' | 'oneOf';

/** One loaded schema. Which members are set depends on `kind`. */
export interface SchemaNode {
  kind: NodeKind;
  id?: string;
  title?: string;
  description?: string;
  /** JSON text of `default`, when the schema has one. */
  default?: string;
  // string
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  // number
  maximum?: number;
  minimum?: number;
  exclusiveMaximum?: number;
  exclusiveMinimum?: number;
  multipleOf?: number;
  requiresInteger?: boolean;
  // const and enum: canonical JSON texts of the values
  value?: string;
  values?: string[];
  // combined
  criterion?: Criterion;
  subschemas?: SchemaNode[];
  generated?: boolean;
  // not
  mustNotMatch?: SchemaNode;
  // object
  properties?: Map<string, SchemaNode>;
  required?: string[];
  permitsAdditional?: boolean;
  additional?: SchemaNode;
  patternProperties?: Map<string, SchemaNode>;
  propertyDependencies?: Map<string, string[]>;
  schemaDependencies?: Map<string, SchemaNode>;
  maxProperties?: number;
  minProperties?: number;
  unevaluated?: SchemaNode;
  // array
  allItems?: SchemaNode;
  itemSchemas?: SchemaNode[];
  permitsAdditionalItems?: boolean;
  additionalItems?: SchemaNode;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  maxContains?: number;
  minContains?: number;
  unevaluatedItems?: SchemaNode;
  // ref: resolved lazily (a shape may refer to itself)
  ref?: string;
  resolve?: () => SchemaNode | undefined;
}

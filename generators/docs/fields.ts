import { type Catalogue, type Field, type FieldType, typeNotation } from '../model.js';
import { filledColumns, hasText } from './columns.js';

/** One row of an event's or a shape's fields table, shape fields expanded in place. */
export interface FieldRow {
  /** Dot path from the payload root; array items are `[]` (`lines[].amount`). */
  path: string;
  name: string;
  /** The type as catalogue authors write it (`string`, `[Ledger]`). */
  type: string;
  required: boolean;
  description?: string;
  /** Allowed values, when the field (or its array items) is an enum. */
  enumValues?: string;
  format?: string;
  /** The author's `classification` (personal, sensitive, ...), shown so a reader knows how to treat it. */
  classification?: string;
  /** 0 for a top-level field, one more per object level. */
  depth: number;
  /** The path of the row this one is nested under, for the collapse toggle. */
  parent?: string;
  /** The shape whose fields follow this row (nested rows), if expanded. */
  expands?: string;
  /** A shape that contains itself: named, not expanded again (the shape page lists it). */
  recursive?: string;
  inheritedFrom?: string;
}

/**
 * The rows of a fields table: every field of `fields`, and below a field of a named shape (or an array
 * of one) that shape's fields, recursively. A shape already being expanded above is not expanded again,
 * so a self-containing shape ends.
 */
export function fieldRows(catalogue: Catalogue, fields: readonly Field[]): FieldRow[] {
  const rows: FieldRow[] = [];
  walk(catalogue, fields, '', 0, undefined, [], rows);
  return rows;
}

function walk(
  catalogue: Catalogue,
  fields: readonly Field[],
  prefix: string,
  depth: number,
  parent: string | undefined,
  shapes: readonly string[],
  rows: FieldRow[],
): void {
  for (const field of fields) {
    const path = `${prefix}${field.name}`;
    const { shape, suffix } = innerShape(field.type);
    const scalar = innermost(field.type);
    const row: FieldRow = {
      path,
      name: field.name,
      type: typeNotation(field.type),
      required: field.required,
      depth,
      ...(parent !== undefined ? { parent } : {}),
      ...(field.description ? { description: field.description } : {}),
      ...(field.inheritedFrom ? { inheritedFrom: field.inheritedFrom } : {}),
      ...('enum' in scalar && scalar.enum
        ? { enumValues: scalar.enum.map((v) => JSON.stringify(v)).join(', ') }
        : {}),
      ...('format' in scalar && scalar.format ? { format: scalar.format } : {}),
      ...(field.classification ? { classification: field.classification } : {}),
    };
    rows.push(row);
    if (shape === undefined) continue;
    const target = catalogue.shapes[shape];
    if (!target) continue;
    if (shapes.includes(shape)) {
      row.recursive = shape;
      continue;
    }
    row.expands = shape;
    walk(catalogue, target.fields, `${path}${suffix}.`, depth + 1, path, [...shapes, shape], rows);
  }
}

/** The optional columns of a shape page's fields table that some row fills (it has no history or readers). */
export function fieldColumns(
  rows: readonly FieldRow[],
): Record<'description' | 'history' | 'readers', boolean> {
  return {
    ...filledColumns(rows, {
      description: (row) => hasText(row.description) || row.inheritedFrom !== undefined,
    }),
    history: false,
    readers: false,
  };
}

/** The named shape inside a type (through arrays), and the `[]` marks of the arrays around it. */
function innerShape(type: FieldType): { shape?: string; suffix: string } {
  let suffix = '';
  let inner = type;
  while (inner.kind === 'array') {
    suffix += '[]';
    inner = inner.items;
  }
  return inner.kind === 'shape' ? { shape: inner.name, suffix } : { suffix };
}

function innermost(type: FieldType): FieldType {
  return type.kind === 'array' ? innermost(type.items) : type;
}

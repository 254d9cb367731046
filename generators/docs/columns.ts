/**
 * Which optional columns of a table some row fills, decided when the page is built: a column no row
 * fills is left out of the markup (header and cells), so no reader scans an empty column on a desk or
 * scrolls past one on a phone (see docs/decisions/0087).
 */
export function filledColumns<Row, Name extends string>(
  rows: readonly Row[],
  filled: Record<Name, (row: Row) => boolean>,
): Record<Name, boolean> {
  const columns = {} as Record<Name, boolean>;
  for (const name of Object.keys(filled) as Name[]) columns[name] = rows.some(filled[name]);
  return columns;
}

/** Whether a text has something to show (not undefined, not empty, not only spaces). */
export function hasText(text: string | undefined): boolean {
  return text !== undefined && text.trim() !== '';
}

/** A page's data with `columns`: the optional columns of its one table (`data[rows]`) that some row fills. */
export function withColumns<
  Data extends Record<Key, readonly Row[]>,
  Key extends string,
  Row,
  Name extends string,
>(
  data: Data & Record<Key, readonly Row[]>,
  rows: Key,
  filled: Record<Name, (row: Row) => boolean>,
): Data & { columns: Record<Name, boolean> } {
  return { ...data, columns: filledColumns(data[rows], filled) };
}

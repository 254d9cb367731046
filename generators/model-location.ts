/** Where a thing was written in the catalogue source: path relative to the catalogue root, 1-based. */
export interface SourceLocation {
  file: string;
  line: number;
  column: number;
}

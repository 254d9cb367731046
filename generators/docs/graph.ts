/**
 * The producer -> event -> consumer graphs, laid out at build time for the `graph` partial to draw as
 * inline SVG (no script needed to see them). Every label is drawn whole: a long one wraps between its
 * parts (after `.`, `_`, `-` or a space) and each box is as wide and as tall as its text
 * (see docs/decisions/0088).
 */

/** What a caller puts in a graph column: a label, and the page it links (relative to the site root). */
export interface GraphBox {
  label: string;
  href?: string;
}

/** One box of a graph, placed: its rectangle, and its label as lines with their baselines. */
export interface GraphNode extends GraphBox {
  x: number;
  y: number;
  width: number;
  height: number;
  /** The label's lines, left to right joined again the whole label; each with its baseline. */
  lines: { text: string; y: number }[];
  /** Where the lines start. */
  textX: number;
}

/** A graph laid out at build time, for the `graph` partial to draw as inline SVG. */
export interface Graph {
  width: number;
  height: number;
  title: string;
  nodes: GraphNode[];
  /** Straight edges, from the right side of one box to the left side of another. */
  edges: { x1: number; y1: number; x2: number; y2: number }[];
}

/**
 * The labels' monospace type (site.css `.graph-label`, 13 px): a character's advance is at most 0.6 em
 * in the usual monospace fonts, so a line's width is known here without a browser.
 */
const TYPE = { char: 7.8, line: 16, ascent: 12 };
/** Box padding and spacing. */
const BOX = { padX: 8, padY: 6, gapX: 28, gapY: 10 };
/** A label wraps into lines of at most this many characters, between its parts; a longer part stands whole. */
const WRAP = 16;

/**
 * A label as lines of at most `WRAP` characters, broken after a `.`, `_`, `-` or space and never inside
 * a part (nor before a closing `v2`): the lines joined are the label again, so the box shows it whole.
 */
export function wrapLabel(label: string, wrap = WRAP): string[] {
  // A version suffix (`-v2`) stays with the word before it: `issued-v2`, not `v2` alone on a line.
  const parts = label.split(/(?<=[._ ])|(?<=-)(?!v\d+$)/);
  const lines: string[] = [];
  let line = '';
  for (const part of parts) {
    if (line !== '' && (line + part).trimEnd().length > wrap) {
      lines.push(line);
      line = '';
    }
    line += part;
  }
  if (line !== '' || lines.length === 0) lines.push(line);
  return lines;
}

/** Three columns (left -> middle -> right), each link `[column, from, to]` from a box to one in the next column. */
export function layoutGraph(
  title: string,
  columns: [GraphBox[], GraphBox[], GraphBox[]],
  links: [number, number, number][],
): Graph {
  const wrapped = columns.map((column) => column.map((box) => ({ box, lines: wrapLabel(box.label) })));
  const widths = wrapped.map((column) =>
    column.length === 0
      ? 0
      : Math.ceil(
          Math.max(...column.flatMap(({ lines }) => lines.map((l) => l.trimEnd().length))) * TYPE.char,
        ) +
        2 * BOX.padX,
  );
  const boxHeight = (lines: readonly string[]) => lines.length * TYPE.line + 2 * BOX.padY;
  const columnHeights = wrapped.map((column) =>
    column.reduce((sum, { lines }) => sum + boxHeight(lines) + BOX.gapY, 0),
  );
  const height = Math.max(...columnHeights, boxHeight(['']) + BOX.gapY) + BOX.gapY;
  let left = 1;
  const placed = wrapped.map((column, c) => {
    const x = left;
    if (widths[c]! > 0) left += widths[c]! + BOX.gapX;
    let y = Math.round((height - columnHeights[c]! + BOX.gapY) / 2);
    return column.map(({ box, lines }): GraphNode => {
      const node = {
        ...box,
        x,
        y,
        width: widths[c]!,
        height: boxHeight(lines),
        textX: x + BOX.padX,
        lines: lines.map((text, i) => ({ text, y: y + BOX.padY + TYPE.ascent + i * TYPE.line })),
      };
      y += node.height + BOX.gapY;
      return node;
    });
  });
  const edges = links.map(([c, from, to]) => {
    const a = placed[c]![from]!;
    const b = placed[c + 1]![to]!;
    return { x1: a.x + a.width, y1: a.y + a.height / 2, x2: b.x, y2: b.y + b.height / 2 };
  });
  return { width: left - BOX.gapX + 1, height, title, nodes: placed.flat(), edges };
}

import type { Catalogue, EventVersion } from '../model.js';

/** One data rule as the event page, its Markdown and `get_event` show it. */
export interface RuleRow {
  /** As written: an event's rule name, or a shape's. */
  name: string;
  /** The CEL expression as written: over `message` for the event's own, over `this` for a shape's. */
  expr: string;
  /** What the 400 body says when a payload breaks it. */
  message: string;
  /** The field its error names, a dot path from the payload (`lines[].qty`); "" for the payload itself. */
  attr: string;
  /** For a shape's rule: the shape, and where it sits in the payload (`lines[]`). */
  shape?: { name: string; at: string };
}

/**
 * Every data rule a payload of the event must keep: the event's own, then each shape's at each place
 * the shape sits (a shape used twice shows its rules twice, once per place, as each place is checked).
 */
export function eventRules(catalogue: Pick<Catalogue, 'shapes'>, event: EventVersion): RuleRow[] {
  const rows: RuleRow[] = (event.rules ?? []).map((rule) => ({
    name: rule.name,
    expr: rule.expr,
    message: rule.message,
    attr: rule.attr,
  }));
  for (const place of event.shapeRules ?? []) {
    const at = pathText(place.path);
    for (const rule of catalogue.shapes[place.shape]?.rules ?? []) {
      rows.push({
        name: rule.name,
        expr: rule.expr,
        message: rule.message,
        attr: pathText([...place.path, rule.attr]),
        shape: { name: place.shape, at },
      });
    }
  }
  return rows;
}

/** `lines[].qty` from `['lines', '[]', 'qty']`: the field paths the pages use. */
function pathText(segments: readonly string[]): string {
  let text = '';
  for (const segment of segments) {
    if (segment === '') continue;
    text = segment === '[]' ? `${text}[]` : text ? `${text}.${segment}` : segment;
  }
  return text;
}

import { type Field, typeNotation } from '../../model.js';
import { at, code, type LintReport, type LintRule } from '../rule.js';

/** A field list as a set: names, types and whether required, in name order. */
function signature(fields: readonly Field[]): string {
  return fields
    .map((field) => `${field.name}:${typeNotation(field.type)}:${field.required ? 'r' : 'o'}`)
    .sort()
    .join(',');
}

/**
 * Two named shapes, or an event and a shape, with the same fields (names, types, required): one
 * definition written twice, waiting to drift apart.
 */
export const duplicateShape: LintRule = {
  id: 'duplicate-shape',
  description:
    'A shape, or the own field list of an event, has exactly the fields of a named shape: one definition written twice, waiting to drift apart.',
  severity: 'warning',
  hint: 'Use the shape (`extends:` it, or reference it as a field type) instead of repeating its fields; or merge the two shapes.',
  check(ctx) {
    const { shapes, events } = ctx.catalogue;
    const first = new Map<string, string>();
    // How many fields the signatures in `first` list: an event of another count matches none of them.
    const counts = new Set<number>();
    const reports: LintReport[] = [];
    for (const name of Object.keys(shapes).sort()) {
      const shape = shapes[name]!;
      // One field is a coincidence, not a shape waiting to be made.
      if (shape.fields.length < 2) continue;
      const key = signature(shape.fields);
      const other = first.get(key);
      if (other === undefined) {
        first.set(key, name);
        counts.add(shape.fields.length);
        continue;
      }
      reports.push({
        message: `Shape ${code(name)} has exactly the fields of shape ${code(other)} (${at(shapes[other]!.source)}).`,
        location: shape.source,
        subject: `shape ${name}`,
      });
    }
    for (const key of Object.keys(events).sort()) {
      const event = events[key]!;
      if (event.composition.kind !== 'fields' || event.fields.length < 3) continue;
      if (!counts.has(event.fields.length)) continue;
      const shape = first.get(signature(event.fields));
      if (shape === undefined) continue;
      reports.push({
        message: `Event ${code(key)} lists exactly the fields of shape ${code(shape)} (${at(shapes[shape]!.source)}).`,
        location: event.source,
        subject: `event ${key}`,
      });
    }
    return reports;
  },
};

import type { FieldType } from '../../model.js';
import { code, type LintReport, type LintRule } from '../rule.js';

/** A named shape no event uses, directly or through other shapes: dead weight in every package. */
export const unusedShape: LintRule = {
  id: 'unused-shape',
  description:
    'A named shape is used by no event, directly or through another shape: it documents nothing that is sent.',
  severity: 'warning',
  hint: 'Delete the shape, or use it in the events that carry these fields.',
  check(ctx) {
    const { shapes, events } = ctx.catalogue;
    const used = new Set<string>();
    const pending: string[] = [];
    const useShape = (name: string): void => {
      if (used.has(name) || !shapes[name]) return;
      used.add(name);
      pending.push(name);
    };
    const useType = (type: FieldType): void => {
      if (type.kind === 'array') useType(type.items);
      else if (type.kind === 'shape') useShape(type.name);
    };
    for (const event of Object.values(events)) {
      if (event.composition.kind === 'extends' && event.composition.ofKind === 'shape')
        useShape(event.composition.of);
      for (const field of event.fields) useType(field.type);
    }
    while (pending.length > 0) {
      const shape = shapes[pending.pop()!]!;
      if (shape.extends) useShape(shape.extends);
      for (const field of shape.fields) useType(field.type);
    }
    const reports: LintReport[] = [];
    for (const name of Object.keys(shapes).sort()) {
      if (used.has(name)) continue;
      reports.push({
        message: `Shape ${code(name)} is used by no event.`,
        location: shapes[name]!.source,
        subject: `shape ${name}`,
      });
    }
    return reports;
  },
};

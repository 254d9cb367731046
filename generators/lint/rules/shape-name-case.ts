import { code, type LintRule } from '../rule.js';

/** PascalCase shape names, acronyms written as words (`PsrRecord`, not `PSRRecord`). */
export const shapeNameCase: LintRule = {
  id: 'shape-name-case',
  description:
    'A shape name is not PascalCase with acronyms written as words (PsrRecord, not PSRRecord): type names in generated code read alike.',
  severity: 'warning',
  hint: 'Rename the shape (shape names are not on the wire: only generated type names change), or set lint.rules.shape-name-case.pattern.',
  pattern: '^[A-Z][a-z0-9]+([A-Z][a-z0-9]+)*$',
  check(ctx) {
    const pattern = ctx.pattern(this)!;
    return Object.keys(ctx.catalogue.shapes)
      .sort()
      .filter((name) => !pattern.test(name))
      .map((name) => ({
        message: `Shape name ${code(name)} does not match ${code(pattern.source)}.`,
        location: ctx.catalogue.shapes[name]!.source,
        subject: `shape ${name}`,
      }));
  },
};

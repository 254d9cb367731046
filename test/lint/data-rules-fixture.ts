import { probeRuleData } from '../../generators/emit/package/rule-probe.js';
import { lintCatalogue } from '../../generators/lint/lint.js';
import type { LintFinding } from '../../generators/lint/rule.js';
import { loadCatalogueFromSources } from '../../generators/load/index.js';
import type { Catalogue } from '../../generators/model.js';

/** The config of the data-rule test catalogues. */
const CONFIG = { path: 'eventry.config.yaml', text: 'title: T\nversion: 1.0.0\nscope: "@t"\n' };

/** The fields of the order event every rule of these tests is written over (as test/cel/model-fixture.ts). */
const ORDER_FIELDS = [
  'amount: {type: number, required: true}',
  'count: {type: integer, required: true}',
  'currency: {type: string, enum: [EUR, USD, GBP], required: true}',
  'note: {type: string}',
  'paid: {type: boolean, required: true}',
  'placed_at: {type: string, format: date-time, required: true}',
  'shipped_at: {type: string, format: date-time}',
  'tags: {type: [string], required: true}',
  'scores: {type: [number], required: true}',
  'lines: {type: [Line], required: true}',
  'buyer: {type: Party, required: true}',
  'seller: {type: Party}',
  'extra: {type: object}',
];

const SHAPES = [
  'shapes:',
  '  Line:',
  '    fields:',
  '      qty: {type: integer, required: true}',
  '      price: {type: number, required: true}',
  '      sku: {type: string}',
  '  Party:',
  '    fields:',
  '      name: {type: string, required: true}',
  '      email: {type: string}',
].join('\n');

/** One event per rule list, `order.e<i>-v1`, the group file's text (each rule's `expr` on its own line). */
export function orderGroup(events: readonly (readonly string[])[]): string {
  const lines = ['group: {slug: shop, title: Shop}', 'events:'];
  events.forEach((rules, i) => {
    lines.push(`  order.e${i}-v1:`, '    fields:', ...ORDER_FIELDS.map((field) => `      ${field}`));
    lines.push('    rules:');
    rules.forEach((expr, n) => {
      lines.push(
        `      - name: rule_${n}`,
        `        expr: ${JSON.stringify(expr)}`,
        `        message: Rule ${n} of event ${i}.`,
      );
    });
  });
  return `${lines.join('\n')}\n`;
}

/** The catalogue of `orderGroup(events)`; throws with the loader's problems when it does not load. */
export function orderCatalogue(events: readonly (readonly string[])[], shapeRules = ''): Catalogue {
  const result = loadCatalogueFromSources([
    CONFIG,
    { path: 'groups/shop.yaml', text: orderGroup(events) },
    { path: 'shapes.yaml', text: `${SHAPES}\n${shapeRules}` },
  ]);
  if (!result.ok) throw new Error(result.problems.map((problem) => problem.message).join('\n'));
  return result.catalogue;
}

/** The findings of the two data-rule rules, with the test data's probe or without it. */
export function dataRuleFindings(catalogue: Catalogue, probe = true): LintFinding[] {
  const result = lintCatalogue(catalogue, probe ? { ruleData: probeRuleData } : {});
  return result.findings.filter((finding) => finding.rule.startsWith('rule-'));
}

import { checkRule } from '../cel/check.js';
import { constantValue } from '../cel/constant.js';
import type { Catalogue, Field, Rule } from '../model.js';
import type { LintContext, LintReport, RuleDataVerdict } from './rule.js';
import { code } from './rule.js';

/** A data rule as written once in the source: an event's own, or a shape's. */
interface WrittenRule {
  rule: Rule;
  owner: { kind: 'event' | 'shape'; name: string };
  /** What its expression gives whatever the payload (`constantValue`), undefined when that depends. */
  constant: boolean | undefined;
}

/** The rules of each catalogue linted, judged once for the two rules that read them. */
const judged = new WeakMap<Catalogue, WrittenRule[]>();

/** Every data rule of the catalogue as written (events by key, then shapes by name), each judged once. */
function writtenRules(catalogue: Catalogue): WrittenRule[] {
  const known = judged.get(catalogue);
  if (known) return known;
  const shapeFields = (name: string) => catalogue.shapes[name]?.fields;
  const out: WrittenRule[] = [];
  const add = (rules: readonly Rule[] | undefined, owner: WrittenRule['owner'], fields: readonly Field[]) => {
    for (const rule of rules ?? []) {
      const checked = checkRule(rule.expr, {
        variable: owner.kind === 'event' ? 'message' : 'this',
        name: owner.name,
        fields,
        shapeFields,
      });
      // The loader refused a rule that does not check: such a catalogue never reaches the lint.
      out.push({ rule, owner, constant: checked.ok ? constantValue(checked.node) : undefined });
    }
  };
  for (const key of Object.keys(catalogue.events).sort()) {
    const event = catalogue.events[key]!;
    add(event.rules, { kind: 'event', name: key }, event.fields);
  }
  for (const name of Object.keys(catalogue.shapes).sort()) {
    const shape = catalogue.shapes[name]!;
    add(shape.rules, { kind: 'shape', name }, shape.fields);
  }
  judged.set(catalogue, out);
  return out;
}

/** `event \`k\` rule \`r\``, for messages. */
export function ruleText(written: WrittenRule): string {
  return `Rule ${code(written.rule.name)} of ${written.owner.kind} ${code(written.owner.name)}`;
}

/** The finding subject: `event account.created-v1 rule amount_positive`. */
function ruleSubject(written: WrittenRule): string {
  return `${written.owner.kind} ${written.owner.name} rule ${written.rule.name}`;
}

/**
 * The reports of one data-rule check: a rule whose expression gives `constant` for every payload is
 * reported from its tree (`constantMessage`); else, when the test data found `verdict` of it (in the
 * first event where it sits, for a shape's), from that (`dataMessage`). One report per written rule.
 */
export function dataRuleReports(
  ctx: LintContext,
  constant: boolean,
  verdict: RuleDataVerdict['verdict'],
  constantMessage: (written: WrittenRule) => string,
  dataMessage: (written: WrittenRule, found: RuleDataVerdict) => string,
): LintReport[] {
  const reports: LintReport[] = [];
  const found = new Map<string, RuleDataVerdict>();
  for (const one of ctx.ruleData?.() ?? []) {
    if (one.verdict !== verdict) continue;
    const key = one.rule.includes('.') ? `shape ${one.rule}` : `event ${one.event}.${one.rule}`;
    if (!found.has(key)) found.set(key, one);
  }
  for (const written of writtenRules(ctx.catalogue)) {
    const { rule, owner } = written;
    let message: string | undefined;
    if (written.constant === constant) message = constantMessage(written);
    else if (written.constant === undefined) {
      const one = found.get(`${owner.kind} ${owner.name}.${rule.name}`);
      if (one) message = dataMessage(written, one);
    }
    if (message) reports.push({ message, location: rule.source, subject: ruleSubject(written) });
  }
  return reports;
}

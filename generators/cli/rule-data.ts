import type { RuleDataProbe } from '../lint/rule.js';
import type { Catalogue } from '../model.js';

/**
 * The test data's probe of the data rules (`LintOptions.ruleData`), for a catalogue that has rules:
 * loaded only then (the probe brings the test data's run time), so a lint, a build or a gate over a
 * catalogue without rules starts as before.
 */
export async function ruleDataProbe(catalogue: Catalogue): Promise<{ ruleData?: RuleDataProbe }> {
  const hasRules =
    Object.values(catalogue.events).some((event) => (event.rules?.length ?? 0) > 0) ||
    Object.values(catalogue.shapes).some((shape) => (shape.rules?.length ?? 0) > 0);
  if (!hasRules) return {};
  const { probeRuleData } = await import('../emit/package/rule-probe.js');
  return { ruleData: probeRuleData };
}

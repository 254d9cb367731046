import { checkRule } from '../../generators/cel/check.js';
import { RuleCompiler } from '../../generators/cel/compile.js';
import type { RuleScope } from '../../generators/cel/types.js';

/** The compiled rule: true when the value breaks it (what a group package's validator runs). */
export function compiled(expr: string, scope: RuleScope): (value: unknown) => boolean {
  const checked = checkRule(expr, scope);
  if (!checked.ok)
    throw new Error(`${expr}: ${checked.problems.map((problem) => problem.message).join('; ')}`);
  const compiler = new RuleCompiler();
  const broken = compiler.broken(checked.node, 'data');
  return new Function(`${compiler.source().declarations}\nreturn (data) => ${broken};`)() as (
    value: unknown,
  ) => boolean;
}

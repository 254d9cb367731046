import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { type CelInput, celEnv, parse, plan } from '@bufbuild/cel';
import { STRINGS_EXT_FUNCS } from '@bufbuild/cel/ext/strings';
import { checkRule } from '../../generators/cel/check.js';
import { RuleCompiler } from '../../generators/cel/compile.js';
import type { RuleScope } from '../../generators/cel/types.js';
import { loadCatalogue } from '../../generators/load/index.js';
import type { Field } from '../../generators/model.js';
import { machineLine, nsPerCall } from './measure.js';

const FIXTURE = fileURLToPath(new URL('../../../test/fixtures/rules/catalogue', import.meta.url));
/** Payloads per rule, each evaluated in turn; rounds repeat them until a side has run this long. */
const PAYLOADS = 500;
const MIN_MS = 300;
/** The target: a compiled rule at least this many times faster than @bufbuild/cel evaluating it. */
const TARGET = 20;

/**
 * A compiled rule (generators/cel/compile.ts, as a validator runs it) against `@bufbuild/cel`
 * evaluating the same expression the way the Confluent client's `CelExecutor` does (parsed and planned
 * once, the strings extension registered, evaluated per payload with `{message}` or `{this}`): every
 * rule of test/fixtures/rules, on the same payloads, with the verdicts checked equal.
 */
export async function runCelBench(): Promise<string> {
  const loaded = loadCatalogue(FIXTURE);
  if (!loaded.ok) throw new Error('the rules fixture does not load');
  const { events, shapes } = loaded.catalogue;
  const lookup = (name: string) => shapes[name]?.fields;
  const cases: { name: string; expr: string; scope: RuleScope; payloads: unknown[] }[] = [];
  for (const event of Object.values(events)) {
    const scope: RuleScope = {
      variable: 'message',
      name: event.key,
      fields: event.fields,
      shapeFields: lookup,
    };
    const payloads = Array.from({ length: PAYLOADS }, (_, i) => sampleOf(event.fields, i, lookup));
    for (const rule of event.rules ?? [])
      cases.push({ name: `${event.key} ${rule.name}`, expr: rule.expr, scope, payloads });
  }
  for (const shape of Object.values(shapes)) {
    const scope: RuleScope = {
      variable: 'this',
      name: shape.name,
      fields: shape.fields,
      shapeFields: lookup,
    };
    const payloads = Array.from({ length: PAYLOADS }, (_, i) => sampleOf(shape.fields, i, lookup));
    for (const rule of shape.rules ?? [])
      cases.push({ name: `${shape.name} ${rule.name}`, expr: rule.expr, scope, payloads });
  }
  const env = celEnv({ funcs: STRINGS_EXT_FUNCS });
  const rows: string[] = [];
  let lowest = Number.POSITIVE_INFINITY;
  for (const { name, expr, scope, payloads } of cases) {
    const ours = compile(expr, scope);
    const program = plan(env, parse(expr));
    const theirs = (payload: unknown) => program({ [scope.variable]: payload as CelInput }) === false;
    let broken = 0;
    for (const payload of payloads) {
      const verdict = theirs(payload);
      if (ours(payload) !== verdict)
        throw new Error(`${name}: verdicts differ on ${JSON.stringify(payload)}`);
      if (verdict) broken++;
    }
    const cel = nsPerCall(theirs, payloads, MIN_MS);
    const compiled = nsPerCall(ours, payloads, MIN_MS);
    const ratio = cel / compiled;
    lowest = Math.min(lowest, ratio);
    rows.push(
      `| ${name} | ${broken} | ${cel.toFixed(0)} ns | ${compiled.toFixed(1)} ns | ${ratio.toFixed(0)}× |`,
    );
  }
  return [
    '## CEL rules: compiled vs @bufbuild/cel',
    '',
    `${machineLine()} Load average ${loadavg()
      .map((n) => n.toFixed(1))
      .join(
        ' / ',
      )} at the end (the machine is shared: absolute times vary, the ratio is the figure). Each rule of test/fixtures/rules on ${PAYLOADS} payloads (made from the fields; the second column says how many break the rule), repeated for at least ${MIN_MS} ms a side; time per evaluation. @bufbuild/cel 0.3.0 as the Confluent client runs it (parsed and planned once). Target: compiled at least ${TARGET}× faster on every rule: ${lowest >= TARGET ? 'met' : 'NOT met'} (lowest ${lowest.toFixed(0)}×).`,
    '',
    '| rule | broken | @bufbuild/cel | compiled | ratio |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

function compile(expr: string, scope: RuleScope): (value: unknown) => boolean {
  const checked = checkRule(expr, scope);
  if (!checked.ok) throw new Error(`${expr}: ${checked.problems[0]?.message}`);
  const compiler = new RuleCompiler();
  const broken = compiler.broken(checked.node, 'data');
  return new Function(`${compiler.source().declarations}\nreturn (data) => ${broken};`)() as (
    value: unknown,
  ) => boolean;
}

/** A deterministic value for `fields` (the `i`-th of a run): varied numbers, texts, times and array lengths. */
function sampleOf(
  fields: readonly Field[],
  i: number,
  lookup: (name: string) => readonly Field[] | undefined,
): unknown {
  const value: Record<string, unknown> = {};
  fields.forEach((field, n) => {
    const k = i * 31 + n * 7;
    if (!field.required && k % 3 === 0) return;
    value[field.name] = fieldValue(field.type, k, lookup);
  });
  return value;
}

function fieldValue(
  type: Field['type'],
  k: number,
  lookup: (name: string) => readonly Field[] | undefined,
): unknown {
  switch (type.kind) {
    case 'integer':
      return (k % 11) - 2;
    case 'number':
      return ((k % 23) - 3) * 1.5;
    case 'boolean':
      return k % 2 === 0;
    case 'string':
      if (type.enum) return type.enum[k % type.enum.length];
      if (type.format === 'date-time') return new Date(Date.UTC(2024, 0, 1 + (k % 60))).toISOString();
      return ['damaged', 'TEST refund', 'a long reason that is too long', 'A-1', ''][k % 5];
    case 'array':
      return Array.from({ length: k % 4 }, (_, j) => fieldValue(type.items, k + j * 13, lookup));
    case 'shape':
      return sampleOf(lookup(type.name) ?? [], k, lookup);
    default:
      return {};
  }
}

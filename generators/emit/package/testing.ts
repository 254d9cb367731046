import { checkRule } from '../../cel/check.js';
import { rulesOverMessage } from '../../cel/over-message.js';
import { fieldsRead } from '../../cel/reads.js';
import type { Catalogue, EventVersion, Field, FieldType, Group } from '../../model.js';
import { isOpenEvent } from '../../model.js';
import type { FieldSpec, RuleSpec, TestingData, TypeSpec } from '../../runtime/testing.js';
import { shapesUsedBy } from '../../schema/json-schema.js';
import type { OutputFile } from '../context.js';
import { render } from './templates.js';
import { checkTestingRules } from './testing-check.js';

/**
 * A group's `testing` entry point (`testing.js`, `testing.d.ts`) and its compiled data
 * (`testing-data.js`); the package's main entry never imports them, so production code pays nothing.
 */
export function emitTestingFiles(
  model: Catalogue,
  group: Group,
  names: { note: string; packageName: string; runtimeName: string },
): OutputFile[] {
  const { note, packageName, runtimeName } = names;
  const slug = group.slug;
  const testingName = `${runtimeName}/testing`;
  const fastCheckName = `${runtimeName}/fast-check`;
  const data = testingData(model, group);
  checkTestingRules(model, group, data);
  // Only a group with rules checks its test data against its validators (the rules compiled there).
  const rules = Object.values(data.events).some((event) => event.r !== undefined);
  return [
    {
      path: `${slug}/testing.js`,
      contents: render('testing.js', { note, packageName, testingName, fastCheckName, rules }),
    },
    { path: `${slug}/testing.d.ts`, contents: render('testing.d.ts', { note, packageName, testingName }) },
    {
      path: `${slug}/testing-data.js`,
      contents: render('testing-data.js', { note, data }),
    },
  ];
}

/**
 * Field-name hints for strings without a format or enum: the first rule whose pattern matches the field
 * name gives the kind of value the run time's test data draws (`HINTS` in generators/runtime/testing.ts).
 */
const HINT_RULES: readonly [RegExp, string][] = [
  [/(^|_)e?mails?$|(^|_)email_/, 'email'],
  [/_at$|(^|_)timestamp$/, 'date-time'],
  [/_date$|^date$|_on$/, 'date'],
  [/(^|_)(uuid|guid|id)$|_identifier$/, 'uuid'],
  [/(^|_)(url|uri|link|href)$/, 'url'],
  [/(^|_)(phone|mobile|telephone)(_number)?$/, 'phone'],
  [/(^|_)post_?code$/, 'postcode'],
  [/(^|_)currency(_code)?$/, 'currency'],
  [/(^|_)country(_code)?$/, 'country'],
  [/(^|_)first_name$|^given_name$/, 'first-name'],
  [/(^|_)(last_name|surname|family_name)$/, 'last-name'],
  [/(^|_)name$/, 'name'],
  [/^account_number$/, 'account-number'],
  [/(^|_)mprn$/, 'mprn'],
  [/(^|_)mpan$/, 'mpan'],
  [/(^|_)code$/, 'code'],
  [/(^|_)(number|reference|ref)$/, 'reference'],
  [/(^|_)(reason|message|description|note|notes|comment|detail|summary)$/, 'sentence'],
];

/** The hint of a string field, by its name (lower-cased), or undefined. */
function hintFor(name: string): string | undefined {
  const lower = name.toLowerCase();
  return HINT_RULES.find(([pattern]) => pattern.test(lower))?.[1];
}

/**
 * The data of a group's `testing-data.js`: each event's fields and every shape they reach, in the
 * compact form the run time's `defineTesting` reads. Keys of `events` in group order.
 */
export function testingData(model: Catalogue, group: Group): TestingData {
  const events: TestingData['events'] = {};
  const reached = new Set<string>();
  const reach = (fields: Field[]) => {
    for (const name of shapesUsedBy(model, fields)) {
      if (reached.has(name)) continue;
      reached.add(name);
      reach(model.shapes[name]!.fields);
    }
  };
  for (const key of group.events) {
    const event = model.events[key]!;
    const rules = ruleSpecs(model, event);
    const literals = ruleLiterals(model, event);
    events[key] = {
      f: fieldSpecs(event.fields),
      ...(isOpenEvent(event) ? { o: 1 as const } : {}),
      ...(rules.length > 0 ? { r: rules } : {}),
      ...(literals.length > 0 ? { k: literals } : {}),
    };
    reach(event.fields);
  }
  const shapes: TestingData['shapes'] = {};
  for (const name of [...reached].sort()) shapes[name] = fieldSpecs(model.shapes[name]!.fields);
  return { events, shapes };
}

/**
 * An event's rules as its test data reads them: its own, then its shapes' at each place they sit, each
 * with the attr of the items it gives (`[]` for any array index), by which `invalid` tells them apart,
 * and the fields it reads over the payload, which `fake` mends first (decision 0190).
 */
function ruleSpecs(model: Catalogue, event: EventVersion): RuleSpec[] {
  const specs: [string, string, string][] = (event.rules ?? []).map((rule) => [
    rule.name,
    rule.message,
    rule.attr,
  ]);
  for (const place of event.shapeRules ?? []) {
    for (const rule of model.shapes[place.shape]?.rules ?? []) {
      const attr = [...place.path, ...(rule.attr === '' ? [] : [rule.attr])].join('.');
      specs.push([`${place.shape}.${rule.name}`, rule.message, attr]);
    }
  }
  // `rulesOverMessage` lists the rules in the same order: own rules, then place by place.
  const scope = {
    variable: 'message' as const,
    name: event.key,
    fields: event.fields,
    shapeFields: (name: string) => model.shapes[name]?.fields,
  };
  const served = rulesOverMessage(event, model.shapes);
  return specs.map((spec, i) => {
    const checked = served[i] === undefined ? undefined : checkRule(served[i]!.expr, scope);
    return checked?.ok ? ([...spec, fieldsRead(checked.node)] as const) : spec;
  });
}

/** A CEL string literal (double or single quotes) or number, as written. */
const LITERAL = /"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|(?<![\w.])(-?\d+(?:\.\d+)?)(?![\w.])/g;

/**
 * The literals of an event's rules (its own and its shapes'), which its test data tries as plain
 * values: a rule such as `"EUR" in message.tags` is kept by drawing "EUR". Escapes are read as JSON
 * reads them; a literal JSON cannot read is skipped (a probe, never a promise).
 */
function ruleLiterals(model: Catalogue, event: EventVersion): (string | number)[] {
  const exprs = [
    ...(event.rules ?? []),
    ...(event.shapeRules ?? []).flatMap((place) => model.shapes[place.shape]?.rules ?? []),
  ].map((rule) => rule.expr);
  const found = new Set<string | number>();
  for (const expr of exprs) {
    for (const [, double, single, number] of expr.matchAll(LITERAL)) {
      if (number !== undefined) found.add(Number(number));
      const text = double ?? single;
      if (text === undefined) continue;
      try {
        const value = JSON.parse(`"${text.replace(/\\'/g, "'").replace(/"/g, '\\"')}"`) as string;
        found.add(value);
        // A pattern's plain text (`(?i)^te` gives `te`): what a string that matches it may start with.
        const plain = value.replace(/^(\(\?i\))?\^?/, '').replace(/\$$/, '');
        if (plain !== value && /^[\w ,.@-]+$/.test(plain)) found.add(plain);
      } catch {
        // not JSON-readable: not a probe
      }
    }
  }
  return [...found];
}

function fieldSpecs(fields: Field[]): FieldSpec[] {
  return fields.map((field) => [field.name, field.required ? 1 : 0, typeSpec(field.type, field.name)]);
}

function typeSpec(type: FieldType, name: string): TypeSpec {
  switch (type.kind) {
    case 'shape':
      return { t: 'r', n: type.name };
    case 'array':
      return { t: 'a', i: typeSpec(type.items, name) };
    case 'object':
      return { t: 'o' };
    case 'boolean':
      return { t: 'b' };
    case 'integer':
    case 'number':
      return { t: type.kind === 'integer' ? 'i' : 'n', ...(type.enum ? { e: [...type.enum] } : {}) };
    default: {
      const hint = type.enum || type.format ? undefined : hintFor(name);
      return {
        t: 's',
        ...(type.format ? { f: type.format } : {}),
        ...(type.enum ? { e: [...type.enum] } : {}),
        ...(hint ? { h: hint } : {}),
      };
    }
  }
}

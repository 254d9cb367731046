import { interfaceName } from '../../load/event-key.js';
import {
  type Catalogue,
  type EventVersion,
  eventDescription,
  type Field,
  type FieldType,
  type Group,
  isOpenEvent,
  type Rule,
} from '../../model.js';
import { shapesUsedBy } from '../../schema/json-schema.js';
import { generatedNote } from '../context.js';

/** The interface name of an event version (defined with the key's syntax, which the loader checks). */
export { interfaceName } from '../../load/event-key.js';

/**
 * `types.d.ts` of a group package, written from the model, indented: one declaration per event version
 * (`same_as` an alias, `extends` an `interface X extends Y` listing its own fields only, when the
 * event it builds on is in the same package) and per named shape the group reaches, through fields or
 * `extends` (each once, with its description), then `EventPayloadMap` and `EventKey`. Interfaces list
 * exactly the documented fields (the producers' closed contract); a partial event keeps an index
 * signature. Doc comments give the description first, then notes (integer, date, date-time), then
 * `@deprecated`. Every name and text from the catalogue goes through `member`, `literal` or `doc`.
 */
export function emitGroupTypes(model: Catalogue, group: Group, packageName: string): string {
  const names = new Map<string, string>();
  const claim = (name: string, owner: string): void => {
    const other = names.get(name);
    if (other !== undefined && other !== owner) {
      throw new Error(
        `${owner} and ${other} would both be the TypeScript interface \`${name}\`; rename one of them`,
      );
    }
    names.set(name, owner);
  };
  claim('EventPayloadMap', 'the payload map');
  claim('EventKey', 'the event key type');
  const inGroup = new Set(group.events);
  const events = group.events.map((key) => model.events[key]!);
  const shapes = shapesReached(model, events);
  for (const name of shapes) claim(name, `shape ${name}`);
  for (const event of events) claim(interfaceName(event.key), `event ${event.key}`);

  const blocks: string[] = [`/* ${comment(generatedNote(`catalogue/${group.source.file}`))} */`];
  blocks.push(
    `${doc([`Every event of ${packageName}: event key -> payload type.`], '')}export interface EventPayloadMap {\n${events
      .map((event) => `  ${literal(event.key)}: ${interfaceName(event.key)};\n`)
      .join('')}}`,
  );
  for (const event of events) blocks.push(eventDeclaration(model, event, inGroup));
  for (const name of shapes) {
    const shape = model.shapes[name]!;
    const parent = shape.extends;
    const own = parent !== undefined ? ownFields(shape.fields, model.shapes[parent]!.fields) : undefined;
    blocks.push(
      `${doc([...(shape.description ? [shape.description] : []), ...ruleDocLines(shape.rules, 'this')], '')}${interfaceHead(name, own && parent)}${body(own ?? shape.fields, false)}`,
    );
  }
  blocks.push(
    `/** The key of an event of ${comment(packageName)}. */\nexport type EventKey = keyof EventPayloadMap;`,
  );
  return `${blocks.join('\n\n')}\n`;
}

/** Named shapes the group's declarations name: through fields, and through `extends` of events and shapes. */
function shapesReached(model: Catalogue, events: EventVersion[]): string[] {
  const found = new Set<string>();
  const add = (name: string): void => {
    if (found.has(name)) return;
    found.add(name);
    const shape = model.shapes[name]!;
    if (shape.extends !== undefined) add(shape.extends);
    for (const used of shapesUsedBy(model, shape.fields)) add(used);
  };
  for (const event of events) {
    if (event.composition.kind === 'extends' && event.composition.ofKind === 'shape')
      add(event.composition.of);
    for (const used of shapesUsedBy(model, event.fields)) add(used);
  }
  return [...found].sort();
}

/** One event's declaration: an alias, an extending interface, or a plain one. */
function eventDeclaration(model: Catalogue, event: EventVersion, inGroup: ReadonlySet<string>): string {
  const name = interfaceName(event.key);
  const comment = doc(eventDocLines(event), '');
  const composition = event.composition;
  const open = isOpenEvent(event);
  if (composition.kind === 'same_as' && inGroup.has(composition.of)) {
    const target = model.events[composition.of]!;
    // An alias says "the same payload": only when it is, the open/closed reading included.
    if (isOpenEvent(target) === open) return `${comment}export type ${name} = ${interfaceName(target.key)};`;
  }
  if (composition.kind === 'extends') {
    const parentName =
      composition.ofKind === 'shape'
        ? composition.of
        : inGroup.has(composition.of)
          ? interfaceName(composition.of)
          : undefined;
    const parentFields =
      composition.ofKind === 'shape'
        ? model.shapes[composition.of]?.fields
        : model.events[composition.of]?.fields;
    const own = parentName !== undefined && parentFields ? ownFields(event.fields, parentFields) : undefined;
    if (own) return `${comment}${interfaceHead(name, parentName)}${body(own, open)}`;
  }
  return `${comment}${interfaceHead(name, undefined)}${body(event.fields, open)}`;
}

/**
 * The fields a declaration adds to its parent's, or undefined when `extends` cannot say it: the child
 * must start with the parent's fields unchanged (an overridden field would not be an extension).
 */
function ownFields(fields: Field[], parentFields: Field[]): Field[] | undefined {
  if (fields.length < parentFields.length) return undefined;
  for (const [i, parent] of parentFields.entries()) {
    const field = fields[i]!;
    if (
      field.name !== parent.name ||
      field.required !== parent.required ||
      field.description !== parent.description ||
      field.classification !== parent.classification ||
      JSON.stringify(field.type) !== JSON.stringify(parent.type)
    )
      return undefined;
  }
  return fields.slice(parentFields.length);
}

function interfaceHead(name: string, parent: string | undefined): string {
  return `export interface ${name}${parent !== undefined ? ` extends ${parent}` : ''} `;
}

/** The `{ ... }` of an interface, two-space indented; an open payload gets an index signature. */
function body(fields: Field[], open: boolean): string {
  const members = fields.map(
    (field) =>
      `${doc(fieldDocLines(field), '  ')}  ${member(field.name)}${field.required ? '' : '?'}: ${typeText(field.type)};\n`,
  );
  if (open) members.push('  [k: string]: unknown;\n');
  return members.length === 0 ? '{}' : `{\n${members.join('')}}`;
}

/** The description first (partial notice included), then `@deprecated` with its notice. */
function eventDocLines(event: EventVersion): string[] {
  const shown = eventDescription({ ...event, deprecated: undefined });
  const rules = ruleDocLines(event.rules, 'message');
  if (!event.deprecated) return [shown, ...rules];
  const notice = eventDescription(event).slice(shown.length).trim();
  return [shown, ...rules, `@deprecated ${notice.replace(/^Deprecated since /, 'Since ')}`];
}

/** The data rules, one line each (name: message, then the CEL expression on one line); none: nothing. */
function ruleDocLines(rules: readonly Rule[] | undefined, over: 'message' | 'this'): string[] {
  if (!rules?.length) return [];
  const items = rules.map(
    (rule) => `- ${rule.name}: ${rule.message} \`${rule.expr.replace(/\s+/g, ' ').trim()}\``,
  );
  return [
    `Rules (CEL over \`${over}\`; \`validate\` reports each one broken as \`rule_violated\`):\n${items.join('\n')}`,
  ];
}

/** A field's description, then what its TypeScript type cannot say: integer, date, date-time. */
function fieldDocLines(field: Field): string[] {
  const lines = field.description ? [field.description] : [];
  let type = field.type;
  let depth = 0;
  while (type.kind === 'array') {
    type = type.items;
    depth += 1;
  }
  const items = depth > 0 ? ' (array items)' : '';
  if (type.kind === 'integer') lines.push(`Integer${items}.`);
  if (type.kind === 'string' && type.format === 'date') lines.push(`Date, \`YYYY-MM-DD\`${items}.`);
  if (type.kind === 'string' && type.format === 'date-time') lines.push(`Date-time, ISO 8601${items}.`);
  if (field.classification) lines.push(`@classification ${field.classification}`);
  return lines;
}

function typeText(type: FieldType): string {
  switch (type.kind) {
    case 'array': {
      const items = typeText(type.items);
      return /[ |]/.test(items) && !items.startsWith('{') ? `(${items})[]` : `${items}[]`;
    }
    case 'shape':
      return type.name;
    case 'object':
      return '{ [k: string]: unknown }';
    default: {
      if (type.enum) return type.enum.map((value) => literal(value)).join(' | ');
      return type.kind === 'integer' ? 'number' : type.kind;
    }
  }
}

/** A JSDoc block of paragraphs, indented; empty when there is nothing to say. */
function doc(paragraphs: string[], indent: string): string {
  if (paragraphs.length === 0) return '';
  const lines = paragraphs
    .join('\n\n')
    .split('\n')
    .map((line) => `${indent} *${line.trim() === '' ? '' : ` ${comment(line.trimEnd())}`}`);
  return `${indent}/**\n${lines.join('\n')}\n${indent} */\n`;
}

/** Text safe inside a block comment. */
function comment(text: string): string {
  return text.replaceAll('*/', '*\\/');
}

/** A string or number literal type. */
function literal(value: string | number): string {
  return JSON.stringify(value);
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const OBJECT_MEMBERS = new Set(Object.getOwnPropertyNames(Object.prototype));

/** A property name: bare when it is an identifier (and not an `Object.prototype` member), else quoted. */
function member(name: string): string {
  return IDENTIFIER.test(name) && !OBJECT_MEMBERS.has(name) ? name : JSON.stringify(name);
}

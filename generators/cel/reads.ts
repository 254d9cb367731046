import type { TypedNode } from './types.js';

/**
 * The fields a checked rule reads, as dot paths from the value it is written over (`message` or
 * `this`), in the notation of the diff and the consumer declarations: `entry.id`, `lines[].amount`
 * (`[]` for every item of an array), `tags[]` for the items themselves. A field only walked through
 * (`message.entry` on the way to `message.entry.id`, the list an `all()` ranges over) is not listed;
 * one whose value is used (`size(message.lines)`, `has(message.note)`) is. A presence test of a field
 * whose fields the rule also reads (`has(message.buyer) && message.buyer.age > 0`) adds nothing more.
 * Sorted, each once; an empty list for a rule that reads no field.
 */
export function fieldsRead(node: TypedNode): string[] {
  const values = new Set<string>();
  const presence = new Set<string>();
  visit(node, new Map(), true, { values, presence });
  for (const path of presence)
    if (![...values].some((value) => value.startsWith(`${path}.`) || value.startsWith(`${path}[]`)))
      values.add(path);
  return [...values].sort();
}

/** The paths found so far: values read, and fields tested for presence. */
interface Found {
  values: Set<string>;
  presence: Set<string>;
}

/** The root variables: `message` and `this` are the value itself (the empty path). */
const ROOTS = new Set(['message', 'this']);

/** The path a node denotes from the rule's value, or undefined when it is computed (not a field). */
function pathOf(node: TypedNode, vars: ReadonlyMap<string, string>): string | undefined {
  if (node.op === 'ident') return ROOTS.has(node.name) ? '' : vars.get(node.name);
  // An item of a list by index (`message.lines[0]`) is one of its items: `lines[]`.
  if (node.op === 'call' && node.fn === '_[_]') {
    const list = pathOf(node.args[0]!, vars);
    return list === undefined || list === '' ? undefined : `${list}[]`;
  }
  if (node.op !== 'select') return undefined;
  const target = pathOf(node.target, vars);
  if (target === undefined) return undefined;
  return target === '' ? node.field : `${target}.${node.field}`;
}

/** Visits `node`: `used` says whether its value is read (not only walked through to a field inside it). */
function visit(node: TypedNode, vars: ReadonlyMap<string, string>, used: boolean, found: Found): void {
  switch (node.op) {
    case 'const':
      return;
    case 'ident':
    case 'select': {
      const path = pathOf(node, vars);
      if (used && path !== undefined && path !== '') found.values.add(path);
      if (node.op === 'select') visit(node.target, vars, path === undefined, found);
      return;
    }
    case 'has': {
      const target = pathOf(node.target, vars);
      if (target !== undefined) found.presence.add(target === '' ? node.field : `${target}.${node.field}`);
      else visit(node.target, vars, true, found);
      return;
    }
    case 'call': {
      const path = node.fn === '_[_]' ? pathOf(node, vars) : undefined;
      if (path === undefined) {
        for (const arg of node.args) visit(arg, vars, true, found);
        return;
      }
      // `message.lines[0].qty`: the list walked to an item; the index read as any other value.
      if (used) found.values.add(path);
      visit(node.args[0]!, vars, false, found);
      visit(node.args[1]!, vars, true, found);
      return;
    }
    case 'list':
      for (const item of node.items) visit(item, vars, true, found);
      return;
    case 'macro': {
      const range = pathOf(node.range, vars);
      // A list a macro ranges over is walked item by item: what it reads is in its items.
      visit(node.range, vars, range === undefined, found);
      const inner = new Map(vars);
      if (range !== undefined) inner.set(node.variable, `${range}[]`);
      else inner.delete(node.variable);
      if (node.test) visit(node.test, inner, true, found);
      if (node.step) visit(node.step, inner, true, found);
      return;
    }
  }
}

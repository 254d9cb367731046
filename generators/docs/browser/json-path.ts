import { findNodeAtLocation, type Node, parseTree } from 'jsonc-parser';

/** A range of the payload's text. */
export interface TextRange {
  from: number;
  to: number;
}

/**
 * Where in the text the field a dot path names is (`lines.0.amount`): its `key: value`. A field that is
 * not there (a missing required one) marks the object it belongs in, at its opening brace; the payload
 * as a whole marks its first character.
 */
export function rangeOfAttr(text: string, attr: string): TextRange {
  return rangeIn(parseTree(text), attr, text.length);
}

function rangeIn(tree: Node | undefined, attr: string, length: number): TextRange {
  const start = { from: 0, to: Math.min(1, length) };
  if (!tree) return start;
  const path = attr === '' ? [] : attr.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
  for (let depth = path.length; depth >= 0; depth--) {
    const node = findNodeAtLocation(tree, path.slice(0, depth));
    if (!node) continue;
    if (depth < path.length) return { from: node.offset, to: node.offset + 1 };
    const property = node.parent?.type === 'property' ? node.parent : node;
    return { from: property.offset, to: property.offset + property.length };
  }
  return start;
}

import { rulesOverMessage } from '../cel/over-message.js';
import type { Catalogue, Field, Shape } from '../model.js';

/**
 * An event's data contract as a Confluent registry carries it beside the schema text: its rules as
 * `ruleSet.domainRules` (CEL conditions over `message`, checked by the client when it writes) and
 * `metadata` (field tags and properties). Only an event with rules has one: every other event's
 * subject versions answer exactly as before (docs/decisions/0145-rules-served-as-data-contracts.md).
 */

/** A domain rule as Confluent's `Rule` has it. */
export interface ContractRule {
  name: string;
  kind: 'CONDITION';
  mode: 'WRITE';
  type: 'CEL';
  expr: string;
  doc: string;
}

/** The `ruleSet` and `metadata` of one subject version (Confluent's `RuleSet` and `Metadata`). */
export interface DataContract {
  ruleSet: { domainRules: ContractRule[] };
  metadata: {
    /** Tags by field path, as the client names fields (`$.buyer.email`; array items keep the array's path). */
    tags?: Record<string, string[]>;
    properties: Record<string, string>;
  };
}

/** The tag a field classified `personal` or `sensitive` carries. */
const PII_TAG = 'PII';

/** The data contract of an event, or undefined when it has no rules (nor shapes with rules). */
export function dataContract(catalogue: Catalogue, key: string): DataContract | undefined {
  const event = catalogue.events[key];
  if (!event) return undefined;
  const rules = rulesOverMessage(event, catalogue.shapes);
  if (rules.length === 0) return undefined;
  const tags = piiTags(event.fields, catalogue.shapes);
  const owner = catalogue.groups.find((group) => group.slug === event.group)?.owner;
  return {
    ruleSet: {
      domainRules: rules.map((rule) => ({
        name: rule.name,
        kind: 'CONDITION',
        mode: 'WRITE',
        type: 'CEL',
        expr: rule.expr,
        doc: rule.doc,
      })),
    },
    metadata: {
      ...(Object.keys(tags).length > 0 ? { tags } : {}),
      properties: { ...(owner ? { owner } : {}), version: event.version },
    },
  };
}

/** `PII` for every personal or sensitive field, by the path the Confluent client gives it. */
function piiTags(
  fields: readonly Field[],
  shapes: Readonly<Record<string, Shape>>,
): Record<string, string[]> {
  const tags: Record<string, string[]> = {};
  const walk = (level: readonly Field[], path: string, seen: ReadonlySet<string>): void => {
    for (const field of level) {
      const at = `${path}.${field.name}`;
      if (field.classification === 'personal' || field.classification === 'sensitive') tags[at] = [PII_TAG];
      let type = field.type;
      while (type.kind === 'array') type = type.items;
      // A shape that contains itself is walked once along each path.
      if (type.kind === 'shape' && !seen.has(type.name)) {
        walk(shapes[type.name]?.fields ?? [], at, new Set([...seen, type.name]));
      }
    }
  };
  walk(fields, '$', new Set());
  return tags;
}

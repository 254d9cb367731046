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

/**
 * A migration rule as Confluent's `Rule` has it: a JSONata expression over the whole payload, on the
 * newer of two versions of a type subject (see type-contract.ts).
 */
export interface MigrationRule {
  name: string;
  kind: 'TRANSFORM';
  mode: 'UPGRADE' | 'DOWNGRADE';
  type: 'JSONATA';
  expr: string;
}

/** The `ruleSet` and `metadata` of one subject version (Confluent's `RuleSet` and `Metadata`). */
export interface DataContract {
  /**
   * `domainRules` always in a per-version subject's contract; `migrationRules` only in a type subject's,
   * which has no `ruleSet` when it would be empty.
   */
  ruleSet?: { domainRules?: ContractRule[]; migrationRules?: MigrationRule[] };
  metadata: {
    /** Tags by field path, as the client names fields (`$.buyer.email`; array items keep the array's path). */
    tags?: Record<string, string[]>;
    properties: Record<string, string>;
  };
}

/** The tag a field classified `personal` or `sensitive` carries. */
const PII_TAG = 'PII';

/** The data contract of an event, or undefined when it has no rules (nor shapes with rules). */
export function dataContract(
  catalogue: Catalogue,
  key: string,
): (DataContract & { ruleSet: { domainRules: ContractRule[] } }) | undefined {
  const event = catalogue.events[key];
  if (!event) return undefined;
  const domainRules = contractRules(catalogue, key);
  if (domainRules.length === 0) return undefined;
  return { ruleSet: { domainRules }, metadata: eventMetadata(catalogue, key) };
}

/** An event's rules as Confluent domain rules (none for an unknown key). */
export function contractRules(catalogue: Catalogue, key: string): ContractRule[] {
  const event = catalogue.events[key];
  if (!event) return [];
  return rulesOverMessage(event, catalogue.shapes).map((rule) => ({
    name: rule.name,
    kind: 'CONDITION',
    mode: 'WRITE',
    type: 'CEL',
    expr: rule.expr,
    doc: rule.doc,
  }));
}

/** An event's metadata: PII tags, its group's owner and its version. */
export function eventMetadata(catalogue: Catalogue, key: string): DataContract['metadata'] {
  const event = catalogue.events[key]!;
  const tags = piiTags(event.fields, catalogue.shapes);
  const owner = catalogue.groups.find((group) => group.slug === event.group)?.owner;
  return {
    ...(Object.keys(tags).length > 0 ? { tags } : {}),
    properties: { ...(owner ? { owner } : {}), version: event.version },
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

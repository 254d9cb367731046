import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../generators/load/index.js';
import type { Catalogue } from '../../generators/model.js';
import { dataContract } from '../../generators/schema-registry/data-contract.js';
import { fixturePath } from '../helpers.js';

/** An event's data contract: which events have one, and the tags and properties of its metadata. */

function rulesCatalogue(): Catalogue {
  const loaded = loadCatalogue(fixturePath('rules'));
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems));
  return loaded.catalogue;
}

describe('dataContract', () => {
  it('an event without rules has none, even with personal fields and an owner', () => {
    const catalogue = rulesCatalogue();
    catalogue.groups[0]!.owner = 'orders-team';
    catalogue.events['order.cancelled-v1']!.fields[1]!.classification = 'personal';
    expect(dataContract(catalogue, 'order.cancelled-v1')).toBeUndefined();
    expect(dataContract(catalogue, 'no.such-v1')).toBeUndefined();
  });

  it('tags personal and sensitive fields PII by their path, arrays and shapes included; owner and version', () => {
    const catalogue = rulesCatalogue();
    catalogue.groups[0]!.owner = 'orders-team';
    const line = catalogue.shapes.Line!;
    line.fields.find((field) => field.name === 'sku')!.classification = 'sensitive';
    line.fields.find((field) => field.name === 'price')!.classification = 'internal';
    const contract = dataContract(catalogue, 'order.placed-v1')!;
    expect(contract.metadata).toEqual({
      tags: { '$.buyer.email': ['PII'], '$.lines.sku': ['PII'] },
      properties: { owner: 'orders-team', version: 'v1' },
    });
    expect(contract.ruleSet.domainRules.every((rule) => rule.kind === 'CONDITION')).toBe(true);
  });

  it('an event with rules and no classified field has no tags', () => {
    expect(dataContract(rulesCatalogue(), 'refund.issued-v1')!.metadata).toEqual({
      properties: { version: 'v1' },
    });
  });
});

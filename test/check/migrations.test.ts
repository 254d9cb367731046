import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { upcastOf, withUpcasts } from '../../generators/check/migrations.js';
import { consumerImpact } from '../../generators/diff/impact.js';
import { formatImpactText } from '../../generators/diff/impact-report.js';
import { loadCatalogue } from '../../generators/load/index.js';
import type { Catalogue, Migration } from '../../generators/model.js';
import { runCliInProcess } from '../cli/in-process.js';
import { REPO } from '../helpers.js';

// The gate's consumer report names the catalogue's migrations (issue 46). Until the loader reads
// `upgrade:`, the models are the consumer fixtures with an upgrade attached by hand (the model is data).

const FIXTURES = join(REPO, 'test', 'fixtures', 'consumers');
/** A fixture side as the gate loads it: the declarations checked across both sides later. */
function load(name: string, side: 'before' | 'after'): Catalogue {
  const result = loadCatalogue(join(FIXTURES, name, side), undefined, { ownership: 'defer' });
  if (!result.ok) throw new Error(`${name}/${side}: ${JSON.stringify(result.problems)}`);
  return result.catalogue;
}

/** Gives `to` an upgrade from `from` (one `set` step), as the loader would from `upgrade:`. */
function upgrade(model: Catalogue, from: string, to: string): Catalogue {
  const event = model.events[to];
  if (!event) throw new Error(`no ${to} in the fixture`);
  const migration: Migration = {
    from,
    to,
    steps: [{ kind: 'set', field: ['reason'], value: 'migrated', source: event.source }],
    source: event.source,
  };
  return { ...model, events: { ...model.events, [to]: { ...event, upgrade: migration } } };
}

describe('the gate names the upgrade a reader of an old version can use', () => {
  it('removing a deprecated version whose replacement upgrades from it: the finding and the fix say so', () => {
    const before = upgrade(
      load('deprecated-version-removed', 'before'),
      'invoice.voided-v1',
      'invoice.voided-v2',
    );
    const after = load('deprecated-version-removed', 'after');
    const plain = consumerImpact(before, after);
    const report = withUpcasts(plain, before, after);
    const comms = report.impacts.find(
      (impact) => impact.team === 'comms' && impact.event === 'invoice.voided-v1',
    );
    expect(comms?.status).toBe('broken');
    expect(comms?.fix).toContain(
      'Readers of `invoice.voided-v1` can `upcast` to `invoice.voided-v2`: its `upgrade` from `invoice.voided-v1` is verified at build.',
    );
    expect(comms?.causes[0]?.finding.detail).toMatch(
      /^Event `invoice\.voided-v1` was removed \(deprecated since 1\.0\.0\)\..* Readers of `invoice\.voided-v1` can `upcast` to `invoice\.voided-v2`/,
    );
    const text = formatImpactText(report);
    expect(text).toContain('event-removed at invoice.voided-v1: Event `invoice.voided-v1` was removed');
    expect(text).toContain('can `upcast` to `invoice.voided-v2`');
    // The report it was given is left as it was.
    expect(JSON.stringify(plain)).not.toContain('upcast');
  });

  it('without an upgrade the report is the one the diff gives, word for word', () => {
    const before = load('deprecated-version-removed', 'before');
    const after = load('deprecated-version-removed', 'after');
    const plain = consumerImpact(before, after);
    expect(withUpcasts(plain, before, after)).toEqual(plain);
    expect(upcastOf('invoice.voided-v1', before, after)).toBeUndefined();
  });

  it('a broken reader of v1 whose v2 upgrades from it is told it can upcast; the reader of v2 is not', () => {
    const before = load('field-removed', 'before');
    const after = upgrade(load('field-removed', 'after'), 'invoice.issued-v1', 'invoice.issued-v2');
    const report = withUpcasts(consumerImpact(before, after), before, after);
    const ledger = (event: string) =>
      report.impacts.find((impact) => impact.team === 'ledger' && impact.event === event);
    expect(ledger('invoice.issued-v1')?.status).toBe('broken');
    expect(ledger('invoice.issued-v1')?.fix).toContain(
      'Readers of `invoice.issued-v1` can `upcast` to `invoice.issued-v2`',
    );
    expect(ledger('invoice.issued-v2')?.status).toBe('broken');
    expect(ledger('invoice.issued-v2')?.fix).not.toContain('upcast');
    // A field removal is not a removed version: its finding's detail stays the diff's.
    expect(ledger('invoice.issued-v1')?.causes[0]?.finding.detail).not.toContain('upcast');
  });

  it('chained upgrades lead to the newest version still in the catalogue', () => {
    const base = load('field-removed', 'after');
    const v3 = { ...base.events['invoice.issued-v2']!, key: 'invoice.issued-v3', version: 'v3' };
    const three = { ...base, events: { ...base.events, 'invoice.issued-v3': v3 } };
    const chained = upgrade(
      upgrade(three, 'invoice.issued-v1', 'invoice.issued-v2'),
      'invoice.issued-v2',
      'invoice.issued-v3',
    );
    expect(upcastOf('invoice.issued-v1', chained, chained)).toBe('invoice.issued-v3');
    expect(upcastOf('invoice.issued-v2', chained, chained)).toBe('invoice.issued-v3');
    expect(upcastOf('invoice.issued-v3', chained, chained)).toBeUndefined();
    // A target the change removes is no place to move to.
    expect(upcastOf('invoice.issued-v1', chained, base)).toBeUndefined();
  });
});

describe('eventry check, on a catalogue whose YAML declares the upgrade', () => {
  it('removing a deprecated version whose replacement upgrades from it: the finding and the fix say readers can upcast', async () => {
    const run = await runCliInProcess([
      'check',
      '--base',
      join(FIXTURES, 'upcast-after-removal', 'before'),
      '--catalogue',
      join(FIXTURES, 'upcast-after-removal', 'after'),
    ]);
    expect(run.stdout).toContain('broken invoice.voided-v1: comms');
    expect(run.stdout).toMatch(
      /event-removed at invoice\.voided-v1: Event `invoice\.voided-v1` was removed \(deprecated since 1\.0\.0\)\..* Readers of `invoice\.voided-v1` can `upcast` to `invoice\.voided-v2`/,
    );
    expect(run.stdout).toMatch(
      /fix: Keep `invoice\.voided-v1` until comms has moved off it.* Readers of `invoice\.voided-v1` can `upcast` to `invoice\.voided-v2`: its `upgrade` from `invoice\.voided-v1` is verified at build\./,
    );
  });
});

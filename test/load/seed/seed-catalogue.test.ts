import { describe, expect, it } from 'vitest';
import { describeWithResource } from '../../helpers.js';
import {
  findSeedCatalogue,
  IMPLEMENTED_NOTATION,
  loadSeedCatalogue,
  parseSeedCatalogue,
  type SeedCatalogue,
  type SeedField,
  SeedParseError,
} from './seed-catalogue.js';

let seed: SeedCatalogue;
const event = (key: string) => {
  const found = seed.events[key];
  if (!found) throw new Error(`no event ${key} in the seed`);
  return found;
};
const names = (fields: SeedField[]) => fields.map((f) => `${f.name}${f.required ? '*' : ''}`);
const str = { kind: 'string' } as const;

/**
 * A small seed: a title, the notation the parser implements, then the given shapes and sections. It does
 * not need the platform's document, so the parser's own tests run on every machine.
 */
function miniSeed(shapes: string[], sections: Record<string, string[]>): string {
  const preamble = `# Event catalogue\n\n## Events\n\n### Notation\n\n${IMPLEMENTED_NOTATION.join('\n')}\n\n`;
  const body = Object.entries(sections).map(([title, lines]) => `### ${title}\n\n${lines.join('\n')}\n`);
  return `${preamble}### Named shapes\n\n${shapes.join('\n')}\n\n${body.join('\n')}`;
}
const parseMini = (shapes: string[], sections: Record<string, string[]>) =>
  parseSeedCatalogue(miniSeed(shapes, sections), 'mini.md');

/** The error `fn` throws, which must be a SeedParseError. */
function parseError(fn: () => unknown): SeedParseError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(SeedParseError);
    return error as SeedParseError;
  }
  throw new Error('expected a SeedParseError, nothing was thrown');
}

describeWithResource('the seed catalogue, parsed', findSeedCatalogue(), (path) => {
  seed = loadSeedCatalogue(path);

  it('has 19 groups, 276 events and 52 named shapes', () => {
    expect(seed.groups).toHaveLength(19);
    expect(Object.keys(seed.events)).toHaveLength(276);
    expect(Object.keys(seed.shapes)).toHaveLength(52);
    expect(seed.groups.flatMap((g) => g.events)).toHaveLength(276);
    expect(seed.groups[0]?.title).toBe('Account and account user');
    expect(seed.groups.at(-1)?.title).toBe('Meter points (market-specific)');
    expect(seed.groups.map((g) => g.title)).not.toContain('Notation');
    expect(seed.groups.map((g) => g.title)).not.toContain('Named shapes');
    for (const group of seed.groups) {
      for (const key of group.events) expect(event(key).group).toBe(group.title);
    }
  });

  it('splits every key into event type and payload version', () => {
    expect(event('account.created-v1')).toMatchObject({ type: 'account.created', version: 'v1' });
    expect(event('loyalty-points.user-role-removal-v1')).toMatchObject({
      type: 'loyalty-points.user-role-removal',
      version: 'v1',
    });
    // `lifecycle.support-site.sale-1.0.0 (event type ..., payload version 1.0.0): ...`
    expect(event('lifecycle.support-site.sale-1.0.0')).toMatchObject({
      type: 'lifecycle.support-site.sale',
      version: '1.0.0',
      group: 'Supplier lifecycle: leave supplier and property',
    });
    expect(names(event('lifecycle.support-site.sale-1.0.0').fields)).toEqual([
      'support_user_id*',
      'supply_start_date*',
      'trigger_action*',
    ]);
  });

  it('reads scalar suffixes, free objects and optional fields', () => {
    expect(event('account_user.created-v1').fields).toEqual([
      { name: 'user_id', required: true, type: { kind: 'integer' } },
      { name: 'user_email', required: true, type: str },
      { name: 'user_number', required: true, type: str },
      { name: 'linked_accounts', required: true, type: { kind: 'array', items: { kind: 'object' } } },
      { name: 'user_identifiers', required: false, type: { kind: 'object' } },
      { name: 'initiator_type', required: false, type: str },
      { name: 'is_customer_initiated', required: false, type: { kind: 'boolean' } },
    ]);
    expect(event('ink.conversation.priority.changed-v1').fields[2]).toEqual({
      name: 'old_priority',
      required: true,
      type: { kind: 'number' },
    });
  });

  it('reads arrays of shapes, of strings and of integers, and shapes within shapes', () => {
    const versionCreated = event('contract-groups.version-created-v1').fields;
    expect(versionCreated).toEqual([
      { name: 'contract_group_identifier', required: true, type: str },
      { name: 'effective_period', required: true, type: { kind: 'shape', name: 'Period' } },
      {
        name: 'superseded_versions',
        required: true,
        type: { kind: 'array', items: { kind: 'shape', name: 'GroupVersion' } },
      },
      {
        name: 'created_versions',
        required: true,
        type: { kind: 'array', items: { kind: 'shape', name: 'GroupVersion' } },
      },
    ]);
    expect(seed.shapes.GroupVersion?.at(-1)).toEqual({
      name: 'traits',
      required: true,
      type: { kind: 'array', items: { kind: 'shape', name: 'GroupTrait' } },
    });
    expect(seed.shapes.Ledger?.[0]).toEqual({
      name: 'account',
      required: true,
      type: { kind: 'shape', name: 'BillingAccount' },
    });
    expect(event('account.created-v1').fields[1]?.type).toEqual({ kind: 'array', items: str });
    expect(event('auth_server.account_user.login_denied-v1').fields[2]?.type).toEqual({
      kind: 'array',
      items: { kind: 'integer' },
    });
    expect(seed.shapes.AccountCommsPreferencesChanges?.[0]).toEqual({
      name: 'requires_postal_comms',
      required: false,
      type: { kind: 'array', items: { kind: 'boolean' } },
    });
  });

  it('reads the "(all optional)", "(all required)" and "(shared by ...)" notes on shapes', () => {
    expect(names(seed.shapes.Caller ?? [])).toEqual([
      'given_name',
      'family_name',
      'phone_number',
      'title',
      'email',
      'type',
    ]);
    expect(names(seed.shapes.GroupMembership ?? [])).toEqual([
      'contract_identifier*',
      'valid_from*',
      'valid_to*',
    ]);
    expect(seed.shapes.ConvBase).toHaveLength(8);
    expect(seed.shapes.DisputedReading).toHaveLength(22);
    expect(Object.keys(seed.shapes)).not.toContain('ConvBase (shared by several conversation events)');
  });

  describe('"same as X" with a relative X', () => {
    it.each([
      [
        'lifecycle.join-supplier.await-pre-activation-flow-step.initiated-v1',
        'lifecycle.join-supplier.await-pre-discovery-flow-step.initiated-v1',
      ],
      ['lifecycle.join-supplier.reversed-v1', 'lifecycle.join-supplier.cancellation-requested-v1'],
      ['lifecycle.leave-supplier.cancelled-v2', 'lifecycle.leave-supplier.cancellation-requested-v2'],
      [
        'lifecycle.join_supplier._ensure_payment_instructions.step_completed-v2',
        'lifecycle.join_supplier._ensure_payment_instructions.step_initiated-v2',
      ],
      [
        'lifecycle.leave-supplier.await-post-deactivation-flow-step.initiated-v1',
        'lifecycle.leave-supplier.await-pre-termination-flow-step.initiated-v1',
      ],
      [
        'lifecycle.leave-supplier.supply-point-journey-await-pre-termination-flow-step.initiated-v1',
        'lifecycle.leave-supplier.supply-point-journey-await-pre-agreement-termination-flow-step.initiated-v1',
      ],
      ['meter_data_quality.resolution_cancelled-v1', 'meter_data_quality.resolution_requested-v1'],
      ['ink.messages.spam-report-dismissed-v1', 'ink.messages.phishing-report-dismissed-v1'],
    ])('%s is the same as %s', (key, of) => {
      expect(event(key).composition).toEqual({ kind: 'same_as', of });
      expect(event(key).fields).toEqual(event(of).fields);
      expect(event(key).fields.length).toBeGreaterThan(0);
    });

    it('resolves "cancellation-requested" in each section to that section\'s event', () => {
      expect(names(event('lifecycle.join-supplier.cancelled-v1').fields)).toEqual([
        'account_number*',
        'join_supplier_process_number*',
        'subtype*',
        'supply_points*',
      ]);
      expect(event('lifecycle.join-supplier.cancelled-v1').fields[3]?.type).toEqual({
        kind: 'array',
        items: { kind: 'shape', name: 'JoinSupplyPoint' },
      });
      expect(event('lifecycle.leave-supplier.cancelled-v2').fields[3]?.type).toEqual({
        kind: 'array',
        items: { kind: 'shape', name: 'LeaveSupplyPoint' },
      });
    });
  });

  describe('"fields of X, plus ..."', () => {
    it('chains through versions: dispatched-v3 is v2 plus one, v2 is v1 plus two', () => {
      expect(names(event('billing.billing_document_representation.dispatched-v3').fields)).toEqual([
        'account_number*',
        'billing_document_id*',
        'billing_document_identifier*',
        'billing_document_representation_dispatch_id*',
        'billing_document_representations_id*',
        'support_user_id*',
      ]);
    });

    it('"fields of v1" means v1 of the same event type', () => {
      expect(event('meter_data_quality.resolution_cancelled-v2').composition).toEqual({
        kind: 'extends',
        of: 'meter_data_quality.resolution_cancelled-v1',
        ofKind: 'event',
      });
      expect(names(event('meter_data_quality.resolution_cancelled-v2').fields).at(-1)).toBe('source*');
      expect(event('meter_data_quality.resolution_cancelled-v2').fields).toHaveLength(11);
    });

    it('"fields of updated-v2" and "fields of appoint_mam.requested-v1" match at a token boundary', () => {
      expect(event('lifecycle.leave-supplier.updated-v3').composition).toMatchObject({
        of: 'lifecycle.leave-supplier.updated-v2',
      });
      expect(names(event('lifecycle.leave-supplier.updated-v3').fields).slice(-2)).toEqual([
        'passive_loss_instigated_supply_point_id',
        'leave_supplier_process_number*',
      ]);
      expect(event('meterpoint.gas.change_of_mam.requested-v1').composition).toMatchObject({
        of: 'meterpoint.gas.appoint_mam.requested-v1',
      });
      expect(names(event('meterpoint.gas.change_of_mam.requested-v1').fields)).toEqual([
        ...names(event('meterpoint.gas.appoint_mam.requested-v1').fields),
        'effective_from_date*',
        'current_mam*',
      ]);
    });
  });

  it('reads a bare shape name as its field list, and "ConvBase, plus ..." as its fields then more', () => {
    const convBase = seed.shapes.ConvBase ?? [];
    expect(event('ink.conversation.opened-v1').fields).toEqual(convBase);
    expect(event('ink.conversation.opened-v1').composition).toEqual({
      kind: 'extends',
      of: 'ConvBase',
      ofKind: 'shape',
    });
    expect(event('ink.conversation.closed-v1').fields).toEqual([
      ...convBase,
      { name: 'closed_at', required: true, type: str },
      { name: 'reason', required: true, type: str },
    ]);
    expect(names(event('ink.conversation.closed-v1').fields).slice(0, 2)).toEqual([
      'conversation_id*',
      'conversation_relay_id*',
    ]);
    expect(event('meterpoint.gas.disputed_closing_reading.accepted.by_us-v1').fields).toEqual(
      seed.shapes.DisputedReading,
    );
  });

  it('marks the last event, whose prose lists only mprn*, as partial, and no other', () => {
    const last = event('meterpoint.gas.disputed_closing_reading.alternative_proposed.other_supplier-v1');
    expect(last.partial).toBe(true);
    expect(last.fields).toEqual([{ name: 'mprn', required: true, type: str }]);
    expect(seed.groups.at(-1)?.events.at(-1)).toBe(last.key);
    expect(Object.values(seed.events).filter((e) => e.partial)).toEqual([last]);
  });
});

describe('finding the platform document (a clone without ../shared skips instead of failing)', () => {
  it('is absent, with a notice naming EVENTRY_SEED_CATALOGUE, when that names a missing file', () => {
    const result = findSeedCatalogue({ EVENTRY_SEED_CATALOGUE: '/nonexistent/event-catalogue.md' });
    expect(result).toEqual({ found: false, notice: expect.stringContaining('EVENTRY_SEED_CATALOGUE') });
    expect(result).toEqual({ found: false, notice: expect.stringMatching(/^SKIPPED the conformance tests/) });
  });

  it('throws in CI when the document is absent, naming EVENTRY_SEED_CATALOGUE', () => {
    expect(() =>
      findSeedCatalogue({ EVENTRY_SEED_CATALOGUE: '/nonexistent/event-catalogue.md', CI: 'true' }),
    ).toThrow(
      /EVENTRY_SEED_CATALOGUE=\/nonexistent\/event-catalogue.md does not exist.*set EVENTRY_SEED_CATALOGUE/,
    );
  });
});

describe('the seed parser fails loudly', () => {
  const shapes = ['- Period: start*, end*'];

  it('parses a well-formed mini seed', () => {
    const mini = parseMini(shapes, {
      First: ['- a.b-v1: x*, p:Period', '- a.b-v2: fields of v1, plus y:[i]', '- c.d-v1: same as a.b-v2'],
    });
    expect(mini.groups).toEqual([
      { title: 'First', events: ['a.b-v1', 'a.b-v2', 'c.d-v1'], line: expect.any(Number) },
    ]);
    expect(names(mini.events['c.d-v1']?.fields ?? [])).toEqual(['x*', 'p', 'y']);
  });

  it.each([
    ['an unknown type suffix', '- a.b-v1: x*:d', /unknown type "d"/],
    ['a misspelt composition', '- a.b-v1: same-as c.d-v1', /"same-as c.d-v1" is not a field/],
    ['a missing comma', '- a.b-v1: x* y*', /"x\* y\*" is not a field/],
    ['a key without a version', '- a.b: x*', /not <event_type>-<version>/],
    ['an undefined shape', '- a.b-v1: x*:[Nope]', /undefined shape Nope/],
    ['a reference to nothing', '- a.b-v1: same as the post-nothing event', /matches no earlier event/],
    ['a self reference by version', '- a.b-v1: fields of v1, plus x', /refers to itself/],
    ['an unknown annotation', '- a.b-v1 (deprecated): x', /unknown annotation/],
    [
      'an annotation contradicting the key',
      '- a.b-1.0.0 (event type a.c, payload version 1.0.0): x',
      /annotation says type a.c/,
    ],
    ['a field inherited twice', '- a.b-v1: x*\n- a.b-v2: fields of v1, plus x*', /already inherited/],
  ])('on %s', (_what, line, message) => {
    const error = parseError(() => parseMini(shapes, { First: line.split('\n') }));
    expect(error.message).toMatch(message);
    expect(error.message).toContain(line.split('\n').at(-1));
    expect(error.line).toBeGreaterThan(1);
  });

  it('on an ambiguous relative reference, naming the candidates', () => {
    const error = parseError(() =>
      parseMini(shapes, {
        First: [
          '- s.await-pre-x-flow.initiated-v1: a*',
          '- s.step-pre-x-flow.initiated-v1: b*',
          '- s.await-post-x-flow.initiated-v1: same as the pre-x event',
        ],
      }),
    );
    expect(error.message).toMatch(
      /ambiguous: s.await-pre-x-flow.initiated-v1, s.step-pre-x-flow.initiated-v1/,
    );
    expect(error.text).toBe('- s.await-post-x-flow.initiated-v1: same as the pre-x event');
  });

  it('resolves relative references only against earlier events of the same section', () => {
    expect(() =>
      parseMini(shapes, {
        First: ['- s.cancellation-requested-v1: a*'],
        Second: ['- s.cancelled-v1: same as cancellation-requested'],
      }),
    ).toThrow(/matches no earlier event of the section "Second"/);
  });

  it('on a suffix that is not at a token boundary', () => {
    expect(() =>
      parseMini(shapes, {
        First: [
          '- g.deappoint_mam.requested-v1: a*',
          '- g.change-v1: fields of appoint_mam.requested-v1, plus b',
        ],
      }),
    ).toThrow(/matches no earlier event/);
  });

  it('on a composition cycle', () => {
    expect(() =>
      parseMini(shapes, { First: ['- a.b-v1: same as a.c-v1', '- a.c-v1: same as a.b-v1'] }),
    ).toThrow(/composition cycle/);
  });

  it('on unknown prose in an events section', () => {
    expect(() => parseMini(shapes, { First: ['All events below are deprecated.', '- a.b-v1: x*'] })).toThrow(
      /prose this parser does not understand[\s\S]*All events below are deprecated\./,
    );
  });

  it('on a section note the events contradict', () => {
    const note = 'Every join-supplier event carries account_number* and join_supplier_process_number*.';
    expect(() =>
      parseMini(shapes, {
        First: [
          note,
          '- l.join-supplier.x-v1: account_number*, join_supplier_process_number*',
          '- l.join-supplier.y-v1: account_number*',
        ],
      }),
    ).toThrow(/l.join-supplier.y-v1 \(line \d+\) does not carry join_supplier_process_number\*?/);
  });

  it('on a partial listing that is not the last event', () => {
    expect(() =>
      parseMini(shapes, {
        First: ['- a.b-v1: x* is the only field listed; the rest is not shown.', '- a.c-v1: y'],
      }),
    ).toThrow(/only the last event listed can be listed in part/);
  });

  it('on "(all optional)" contradicted by a star, and on an unknown shape annotation', () => {
    expect(() => parseMini(['- Caller: a, b* (all optional)'], { First: ['- a.b-v1: x'] })).toThrow(
      /"\(all optional\)" contradicts the stars on b/,
    );
    expect(() => parseMini(['- Caller (deprecated): a'], { First: ['- a.b-v1: x'] })).toThrow(
      /unknown annotation/,
    );
  });

  it('on a change to the Notation section', () => {
    const text = miniSeed(shapes, { First: ['- a.b-v1: x'] }).replace(
      '`:n` number; ',
      '`:n` number; `:d` date; ',
    );
    expect(() => parseSeedCatalogue(text)).toThrow(/Notation section differs/);
  });

  it('on an unexpected heading', () => {
    const text = `${miniSeed(shapes, { First: ['- a.b-v1: x'] })}\n## Appendix\n`;
    expect(() => parseSeedCatalogue(text)).toThrow(/unexpected level-2 heading "Appendix"/);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  authoredDescription,
  baseEventDescription,
  type DescribedEvent,
  eventDescription,
  isOpenEvent,
} from '../generators/model.js';
import { eventSchema } from '../generators/schema/json-schema.js';

/** An event as the description functions see it: any text in every author-written slot. */
const describedEvent: fc.Arbitrary<DescribedEvent> = fc.record(
  {
    type: fc.constantFrom('account.created', 'order.placed'),
    version: fc.constantFrom('v1', '2.0.0'),
    description: fc.oneof(
      fc.string(),
      fc.constant('Payload of `account.created`, version v1.\n\nPartial: x'),
    ),
    partial: fc.string(),
    deprecated: fc.record(
      { since: fc.string({ minLength: 1 }), replacedBy: fc.string(), note: fc.string() },
      { requiredKeys: ['since'] },
    ),
  },
  { requiredKeys: ['type', 'version'] },
);

describe('the description users see', () => {
  it('gives back exactly what the author wrote, whatever its text and notices', () => {
    fc.assert(
      fc.property(describedEvent, (event) => {
        const { description: _authored, ...notices } = event;
        const read = authoredDescription(notices, eventDescription(event));
        // Writing the default text out is the same as writing nothing: users see the same schema.
        const expected = event.description === baseEventDescription(notices) ? undefined : event.description;
        expect(read).toBe(expected);
      }),
    );
  });

  it('names the event when the author wrote no description, then appends the notices', () => {
    const event: DescribedEvent = {
      type: 'account.created',
      version: 'v1',
      partial: 'only the id is listed',
      deprecated: { since: '2.0.0', replacedBy: 'account.created-v2' },
    };
    expect(eventDescription(event)).toBe(
      'Payload of `account.created`, version v1.\n\nPartial: only the id is listed\n\n' +
        'Deprecated since 2.0.0; use `account.created-v2` instead.',
    );
    expect(baseEventDescription(event)).toBe('Payload of `account.created`, version v1.');
  });
});

describe('whether an event is open', () => {
  it('is what its schema says: a partial event accepts undocumented fields, even with an empty explanation', () => {
    for (const partial of [undefined, '', 'only the id is listed']) {
      const event = {
        key: 'account.created-v1',
        type: 'account.created',
        version: 'v1',
        group: 'accounts',
        title: 'Account created',
        composition: { kind: 'fields' } as const,
        fields: [],
        source: { file: 'accounts.yaml', line: 1, column: 1 },
        ...(partial === undefined ? {} : { partial }),
      };
      const schema = eventSchema(event, { ref: (name) => name });
      expect(isOpenEvent(event)).toBe(partial !== undefined);
      expect('additionalProperties' in schema).toBe(!isOpenEvent(event));
    }
  });
});

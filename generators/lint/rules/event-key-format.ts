import { code, type LintRule } from '../rule.js';

/** Event types in one style: lower-case snake_case words separated by dots (configurable). */
export const eventKeyFormat: LintRule = {
  id: 'event-key-format',
  description:
    'An event type (the key before its version) does not match the catalogue pattern, by default dot-separated snake_case words.',
  severity: 'warning',
  hint: 'Name new event types in the catalogue style (an existing key cannot be renamed without a new event), or set lint.rules.event-key-format.pattern.',
  pattern: '^[a-z][a-z0-9]*(_[a-z0-9]+)*(\\.[a-z][a-z0-9]*(_[a-z0-9]+)*)*$',
  check(ctx) {
    const pattern = ctx.pattern(this)!;
    return Object.keys(ctx.catalogue.events)
      .sort()
      .filter((key) => !pattern.test(ctx.catalogue.events[key]!.type))
      .map((key) => {
        const event = ctx.catalogue.events[key]!;
        return {
          message: `Event type ${code(event.type)} does not match ${code(pattern.source)}.`,
          location: event.source,
          subject: `event ${key}`,
        };
      });
  },
};

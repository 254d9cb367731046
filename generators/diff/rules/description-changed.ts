import { code, type Rule } from '../rule.js';

const WHAT = {
  description: 'Description of the event',
  'partial-note': 'Partial note of the event',
  'field-description': 'Description of the field',
  'shape-description': 'Description of the shape of the field',
} as const;

/** Docs only: descriptions never reach a payload. */
export const descriptionChanged: Rule<'text-changed'> = {
  id: 'description-changed',
  severity: 'docs',
  breaks: 'none',
  description:
    'A description (of an event, a field or a shape) or a partial note changed: documentation only.',
  hint: 'Nothing to do for code; check the new text says what the payload means.',
  check(change) {
    if (change.text === 'title') return undefined;
    const verb = change.before === undefined ? 'added' : change.after === undefined ? 'removed' : 'changed';
    if (change.text === 'shape-description' && change.via) {
      const field = change.attr === null ? '' : ` (field ${code(change.attr)})`;
      return `Description of shape ${code(change.via.shape)}${field} ${verb}.`;
    }
    const what = WHAT[change.text];
    const where = change.attr === null ? code(change.event) : code(change.attr);
    return `${what} ${where} ${verb}.`;
  },
};

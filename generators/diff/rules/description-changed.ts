import { code, type Rule } from '../rule.js';

const WHAT = {
  description: 'Description of the event',
  'partial-note': 'Partial note of the event',
  'field-description': 'Description of the field',
  'shape-description': 'Description of the shape of the field',
} as const;

/** Docs only: descriptions never reach a payload. */
export const descriptionChanged: Rule = {
  id: 'description-changed',
  severity: 'docs',
  breaks: 'none',
  description:
    'A description (of an event, a field or a shape) or a partial note changed: documentation only.',
  check(change) {
    if (change.kind !== 'text-changed' || change.text === 'title') return undefined;
    const what = WHAT[change.text];
    const where = change.attr === null ? code(change.event) : code(change.attr);
    const verb = change.before === undefined ? 'added' : change.after === undefined ? 'removed' : 'changed';
    return `${what} ${where} ${verb}.`;
  },
};

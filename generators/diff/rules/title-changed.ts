import { code, type Rule } from '../rule.js';

/** Docs only: titles never reach a payload. */
export const titleChanged: Rule<'text-changed'> = {
  id: 'title-changed',
  severity: 'docs',
  breaks: 'none',
  description: 'The title of an event version changed: documentation only.',
  hint: 'Nothing to do; the title is documentation only.',
  check(change) {
    if (change.text !== 'title') return undefined;
    return `Title changed from ${JSON.stringify(change.before)} to ${JSON.stringify(change.after)} (${code(change.event)}).`;
  },
};

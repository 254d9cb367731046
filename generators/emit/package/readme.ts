import type { Catalogue, EventVersion, Group } from '../../model.js';
import { generatedNote, type OutputFile } from '../context.js';
import { groupPackageName } from './package-json.js';
import { render } from './templates.js';
import { interfaceName } from './types.js';

/** `<slug>/README.md`: how to use the package, then its events. */
export function emitReadme(model: Catalogue, group: Group): OutputFile {
  const events = group.events.map((key) => {
    const event = model.events[key]!;
    return {
      key,
      interfaceName: interfaceName(key),
      fieldCount: event.fields.length,
      requiredCount: event.fields.filter((field) => field.required).length,
      notes: notes(event),
    };
  });
  return {
    path: `${group.slug}/README.md`,
    contents: render('readme.md', {
      note: generatedNote(`catalogue/${group.source.file}`),
      packageName: groupPackageName(model, group),
      title: group.title,
      description: group.description ?? '',
      catalogueTitle: model.config.title,
      events,
      first: events[0]!,
    }),
  };
}

function notes(event: EventVersion): string {
  const parts: string[] = [];
  if (event.description) parts.push(event.description);
  if (event.deprecated) {
    const by = event.deprecated.replacedBy ? `, use \`${event.deprecated.replacedBy}\`` : '';
    parts.push(`**Deprecated** since ${event.deprecated.since}${by}.`);
  }
  if (event.partial) parts.push(`**Partial**: ${event.partial}`);
  return parts.join(' ');
}

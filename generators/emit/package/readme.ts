import { type Catalogue, type EventVersion, type Group, groupPackageName } from '../../model.js';
import { generatedNote, type OutputFile } from '../context.js';
import { runtimePackageName } from './runtime-package.js';
import { render } from './templates.js';
import { interfaceName } from './types.js';

/**
 * `<slug>/README.md`: how to use the package, then its events. `upgrade` is the first upgrade the
 * group's events declare, with the newest version of its type: the README then shows `upcast`.
 */
export function emitReadme(
  model: Catalogue,
  group: Group,
  upgrade?: { from: string; to: string; newest: string },
): OutputFile {
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
      note: commentText(generatedNote(`catalogue/${group.source.file}`)),
      packageName: groupPackageName(model, group),
      runtimeName: runtimePackageName(model),
      title: markdownText(group.title),
      description: markdownText(group.description ?? ''),
      catalogueTitle: markdownText(model.config.title),
      events,
      first: events[0]!,
      upgrade,
    }),
  };
}

/** The notes cell: catalogue text escaped, eventry's own emphasis kept. */
function notes(event: EventVersion): string {
  const parts: string[] = [];
  if (event.description) parts.push(markdownText(event.description));
  if (event.deprecated) {
    const by = event.deprecated.replacedBy ? `, use ${markdownCode(event.deprecated.replacedBy)}` : '';
    parts.push(`**Deprecated** since ${markdownText(event.deprecated.since)}${by}.`);
  }
  if (event.partial) parts.push(`**Partial**: ${markdownText(event.partial)}`);
  return parts.join(' ');
}

/**
 * Catalogue text as literal inline Markdown on one line: HTML is shown, not run (`<script>` becomes
 * text); the characters that open inline syntax are backslash-escaped (so `[x](javascript:...)` is no
 * link, a backtick opens no code span, `|` does not split a table cell); line breaks become spaces.
 * Block syntax (`#`, `-`, `1.`) only counts at the start of a line, where this text never is.
 */
export function markdownText(text: string): string {
  return text
    .replace(/\s*[\r\n]+\s*/g, ' ')
    .replace(/[\\`*_[\]|~]/g, (char) => `\\${char}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** Catalogue text as inline code: a fence longer than any backtick run inside, on one line. */
export function markdownCode(text: string): string {
  const flat = text.replace(/\s*[\r\n]+\s*/g, ' ');
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat.replaceAll('|', '\\|')}${pad}${fence}`;
}

/** Text inside an HTML comment: it cannot close the comment early. */
function commentText(text: string): string {
  return text.replace(/--/g, '- -').replace(/>/g, '&gt;');
}

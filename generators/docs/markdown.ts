import { interfaceName } from '../load/event-key.js';
import { type Catalogue, type EventVersion, eventDescription, groupPackageName } from '../model.js';
import { type FieldRow, fieldRows } from './fields.js';
import { eventMigrations } from './migrations.js';
import { eventRules } from './rules.js';
import { type VersionComparison, versionComparisons, versionsByType } from './versions.js';

/**
 * Plain-text views of the catalogue for agents and tools that read sites (`llms.txt`, an event page's
 * `index.md`) and for the MCP server's resources: the same facts as the HTML pages, in Markdown.
 */

/** What an event's Markdown page shows besides the model: read from the built package, when at hand. */
export interface EventPageExtras {
  /** The event's TypeScript interface, as the package declares it. */
  typescript?: string;
  /** The package's examples of the event. */
  examples?: { minimal: unknown; full: unknown };
  /** The fields table's rows, when the caller has them (else computed). */
  rows?: readonly FieldRow[];
  /** The comparisons with the other versions, when the caller has them (else computed). */
  comparisons?: readonly VersionComparison[];
}

/** The import lines a consumer writes for an event: the group API with the event's interface. */
export function importLine(catalogue: Pick<Catalogue, 'config' | 'groups'>, event: EventVersion): string {
  const name = groupPackageName(catalogue, { slug: event.group });
  return `import { validate, type ${interfaceName(event.key)} } from '${name}';`;
}

/** An event version's page in Markdown: facts, fields, the interface, examples and the other versions. */
export function eventMarkdown(
  catalogue: Catalogue,
  event: EventVersion,
  extras: EventPageExtras = {},
): string {
  const group = catalogue.groups.find((candidate) => candidate.slug === event.group);
  const lines: string[] = [`# ${event.key}`, ''];
  lines.push(`- Event type: \`${event.type}\`, version \`${event.version}\``);
  lines.push(`- Group: ${group ? `${inline(group.title)} (\`${group.slug}\`)` : `\`${event.group}\``}`);
  lines.push(`- Package: \`${groupPackageName(catalogue, { slug: event.group })}\``);
  lines.push(`- Status: ${event.deprecated ? 'deprecated' : 'current'}${event.partial ? ', partial' : ''}`);
  lines.push('', eventDescription(event), '', '## Fields', '');
  const rows = extras.rows ?? fieldRows(catalogue, event.fields);
  if (rows.length === 0) lines.push('No fields.');
  else {
    lines.push('| path | type | required | description |', '|---|---|---|---|');
    for (const row of rows) {
      const type = [
        row.type,
        row.format ? `(${row.format})` : '',
        row.enumValues ? `one of ${row.enumValues}` : '',
      ]
        .filter(Boolean)
        .join(' ');
      lines.push(
        `| \`${row.path}\` | ${cell(type)} | ${row.required ? 'yes' : 'no'} | ${cell(row.description ?? '')} |`,
      );
    }
  }
  lines.push(...rulesMarkdown(catalogue, event), ...migrationsMarkdown(event));
  lines.push('', '## Use it', '', '```ts', importLine(catalogue, event), '```');
  if (extras.typescript) lines.push('', '```ts', extras.typescript, '```');
  if (extras.examples) {
    lines.push(
      '',
      '## Example (every field)',
      '',
      '```json',
      JSON.stringify(extras.examples.full, null, 2),
      '```',
    );
  }
  const comparisons =
    extras.comparisons ??
    versionComparisons(catalogue, event, versionsByType(catalogue).get(event.type) ?? [event]);
  if (comparisons.length > 0) {
    lines.push('', '## Other versions', '');
    for (const { key, from, to, findings } of comparisons) {
      lines.push(`- \`${key}\`: from \`${from}\` to \`${to}\`, ${findings.length} change(s)`);
      for (const finding of findings) {
        lines.push(
          `  - ${finding.severity} \`${finding.rule}\` at \`${finding.attr || '(event)'}\`: ${inline(finding.detail)}`,
        );
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The `## Rules` section: one line per data rule a payload must keep, none without rules. */
function rulesMarkdown(catalogue: Catalogue, event: EventVersion): string[] {
  const rules = eventRules(catalogue, event);
  if (rules.length === 0) return [];
  const lines = [
    '',
    '## Rules',
    '',
    'Conditions (CEL) every payload must keep; a broken one is a `rule_violated` error at its field.',
    '',
  ];
  for (const rule of rules) {
    const from = rule.shape ? ` (shape \`${rule.shape.name}\` at \`${rule.shape.at}\`)` : '';
    lines.push(
      `- \`${rule.name}\`${from}: \`${rule.expr}\`: ${inline(rule.message)} Field: ${rule.attr ? `\`${rule.attr}\`` : 'the payload'}.`,
    );
  }
  return lines;
}

/** The `## Migrations` section: each migration's steps as a table, none without migrations. */
function migrationsMarkdown(event: EventVersion): string[] {
  const lines: string[] = [];
  for (const view of eventMigrations(event)) {
    const title =
      view.direction === 'upgrade' ? `Upgrade from \`${view.other}\`` : `Downgrade to \`${view.other}\``;
    lines.push(
      '',
      `### ${title}`,
      '',
      '| step | action | field(s) | value or expression |',
      '|---|---|---|---|',
    );
    for (const row of view.steps) {
      const fields = row.fields.map((field) => `\`${field}\``).join(row.action === 'rename' ? ' → ' : ', ');
      const what = row.expression
        ? `CEL \`${cell(row.expression)}\``
        : row.value !== undefined
          ? `\`${cell(row.value)}\``
          : row.action === 'rename'
            ? 'moved'
            : 'removed';
      lines.push(`| ${row.step} | ${row.action} | ${fields} | ${what} |`);
    }
  }
  return lines.length > 0 ? ['', '## Migrations', ...lines] : [];
}

/**
 * `llms.txt` (llmstxt.org): the catalogue's title and summary, then a section per group listing each
 * event version with a link to its Markdown page, relative to the site root.
 */
export function llmsTxt(catalogue: Catalogue): string {
  const lines = [`# ${inline(catalogue.config.title)}`, ''];
  lines.push(
    `> ${inline(catalogue.config.description ?? `The event catalogue, version ${catalogue.config.version}.`)} Every event payload version, its fields, TypeScript interface and examples; one npm package per group.`,
  );
  lines.push(
    '',
    `Catalogue version ${catalogue.config.version}: ${Object.keys(catalogue.events).length} event versions in ${catalogue.groups.length} groups. Payloads omit optional fields (never null), dates are ISO 8601, and only documented fields are accepted.`,
  );
  for (const group of catalogue.groups) {
    lines.push('', `## ${inline(group.title)} (\`${groupPackageName(catalogue, group)}\`)`, '');
    for (const key of group.events) {
      const event = catalogue.events[key]!;
      const note = event.deprecated ? ' (deprecated)' : '';
      lines.push(
        `- [${key}](events/${encodeURIComponent(key)}/index.md): ${inline(summaryOf(event))}${note}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The first sentence (or line) of an event's description. */
function summaryOf(event: EventVersion): string {
  const text = (event.description ?? event.title).split('\n')[0]!;
  const stop = text.search(/\.(\s|$)/);
  return stop >= 0 ? text.slice(0, stop + 1) : text;
}

/** Text on one line. */
function inline(text: string): string {
  return text.replace(/\s*[\r\n\u2028\u2029]+\s*/g, ' ').trim();
}

/** Text in a table cell: one line, pipes escaped. */
function cell(text: string): string {
  return inline(text).replaceAll('|', '\\|');
}

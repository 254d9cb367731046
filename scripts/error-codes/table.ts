import {
  ERROR_CODE_REGISTRY,
  type ErrorArea,
  type ErrorCodeEntry,
  EXIT_MEANINGS,
} from '../../generators/shared/error-codes.js';
import { EXIT } from '../../generators/shared/exit-codes.js';

/** Where the table is committed, relative to the repository root. */
export const ERROR_CODES_DOC = 'docs/error-codes.md';

/** A table cell: one line, its pipes escaped. */
const cell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

const statuses = (http: number | readonly number[] | undefined): string =>
  http === undefined ? '' : (typeof http === 'number' ? [http] : http).join(', ');

/** One area's section: its title, where its codes show, and a row per code. */
function renderArea(name: string, area: ErrorArea): string[] {
  const rows = Object.entries(area.codes) as [string, ErrorCodeEntry][];
  const hasExit = area.exit !== undefined || rows.some(([, entry]) => entry.exit !== undefined);
  const hasHttp = area.http !== undefined || rows.some(([, entry]) => entry.http !== undefined);
  const header = ['Code', 'Meaning', ...(hasExit ? ['Exit'] : []), ...(hasHttp ? ['HTTP'] : [])];
  const lines = [
    `## ${area.title} (\`${name}\`)`,
    '',
    `Shown as ${area.shown}.`,
    '',
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
  ];
  for (const [code, entry] of rows) {
    const exit = entry.exit ?? area.exit;
    lines.push(
      `| ${[
        `\`${code}\``,
        cell(entry.meaning),
        ...(hasExit ? [exit === undefined ? '' : String(exit)] : []),
        ...(hasHttp ? [statuses(entry.http ?? area.http)] : []),
      ].join(' | ')} |`,
    );
  }
  return lines;
}

/** The Markdown table of every error code and exit status, from the registry (`npm run gen:error-codes`). */
export function renderErrorCodeTable(): string {
  const exits = (Object.entries(EXIT) as [string, keyof typeof EXIT_MEANINGS][]).map(
    ([name, status]) => `| ${status} | \`${name}\` | ${cell(EXIT_MEANINGS[status])} |`,
  );
  const areas = Object.entries(ERROR_CODE_REGISTRY as Record<string, ErrorArea>).flatMap(([name, area]) => [
    '',
    ...renderArea(name, area),
  ]);
  return [
    '# Error codes',
    '',
    '<!-- Generated from generators/shared/error-codes.ts by `npm run gen:error-codes`: do not edit',
    '     (test/shared/error-codes-table.test.ts fails when this file is stale). -->',
    '',
    'Every coded error eventry produces, by area. A code is stable and never reused: match on it, not on',
    'the message. Lint rule ids and diff rule ids are listed with their rules in the README.',
    '',
    '## Exit statuses',
    '',
    'Every command ends with one of these (`generators/shared/exit-codes.ts`).',
    '',
    '| Status | Name | Meaning |',
    '| --- | --- | --- |',
    ...exits,
    ...areas,
    '',
  ].join('\n');
}

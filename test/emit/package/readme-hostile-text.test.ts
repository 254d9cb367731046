import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { emitReadme, markdownCode, markdownText } from '../../../generators/emit/package/readme.js';
import type { Catalogue } from '../../../generators/model.js';
import { fixturePath, loadValid } from '../../helpers.js';

/**
 * Catalogue text in a group README (titles, descriptions, deprecation notes) is shown as written:
 * it never injects HTML, never makes a link, never breaks the events table.
 */
const HOSTILE = [
  '<script>alert(1)</script>',
  'a | b || c',
  '`code` and ``more``',
  '[click](javascript:alert(1)) ![img](javascript:x)',
  'line one\nline two\r\n\n| x | y |\n|---|---|',
  '**bold** _em_ ~~gone~~ <img src=x onerror=alert(1)> &amp; \\',
].join(' ');

function hostileReadme(): { markdown: string; events: number } {
  const model: Catalogue = structuredClone(loadValid(fixturePath('small')));
  const group = model.groups.find((candidate) => candidate.slug === 'account')!;
  group.title = `Accounts ${HOSTILE}`;
  group.description = HOSTILE;
  model.config.title = HOSTILE;
  for (const key of group.events) {
    const event = model.events[key]!;
    event.description = HOSTILE;
    event.deprecated = { since: '2024-01-01 | <b>x</b>', replacedBy: 'a`b|c' };
  }
  return { markdown: emitReadme(model, group).contents, events: group.events.length };
}

describe('README: catalogue text with HTML, pipes, backticks, links and newlines', () => {
  it('injects no HTML and no link', () => {
    const html = marked.parse(hostileReadme().markdown, { async: false }) as string;
    expect(html).not.toMatch(/<(script|img|b)[\s>]/i);
    expect(html).not.toMatch(/href="javascript:/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('keeps one events-table row per event, four cells each, the whole text in the notes cell', () => {
    const { markdown, events } = hostileReadme();
    const tables = marked.lexer(markdown).filter((token) => token.type === 'table');
    const table = tables.at(-1) as { header: { text: string }[]; rows: { text: string }[][] };
    expect(table.header.map((cell) => cell.text)).toEqual(['event', 'TypeScript', 'fields', 'notes']);
    expect(table.rows).toHaveLength(events);
    for (const row of table.rows) {
      expect(row).toHaveLength(4);
      expect(row[3]!.text).toContain('Deprecated');
    }
  });

  it.each([
    ['a pipe', 'a | b', 'a \\| b'],
    ['HTML', '<b>&</b>', '&lt;b&gt;&amp;&lt;/b&gt;'],
    ['a link', '[x](javascript:y)', '\\[x\\](javascript:y)'],
    ['newlines', 'a\n\n  b', 'a b'],
  ])('markdownText escapes %s', (_name, text, want) => {
    expect(markdownText(text)).toBe(want);
  });

  it('markdownCode fences text with backticks and pipes', () => {
    expect(markdownCode('a`b|c')).toBe('``a`b\\|c``');
  });
});

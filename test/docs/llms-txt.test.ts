import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSite } from '../../generators/docs/site.js';
import { interfaceName } from '../../generators/load/event-key.js';
import { loadValid, REPO, seedPackages } from '../helpers.js';

// Agents that read sites get clean text: llms.txt at the root, and each event page as Markdown beside
// its HTML, with the same facts.
const seed = loadValid(join(REPO, 'catalogue'));
const files = new Map<string, string>();
const result = await generateSite({ catalogue: seed, packagesDir: seedPackages() }, (path, content) => {
  files.set(
    path,
    typeof content === 'object' && 'copyOf' in content
      ? readFileSync(content.copyOf, 'utf8')
      : String(content),
  );
});

describe('llms.txt and Markdown event pages', () => {
  it('llms.txt names the catalogue and links every event version, by group, to a page that exists', () => {
    expect(result.ok).toBe(true);
    const text = files.get('llms.txt')!;
    expect(text.startsWith(`# ${seed.config.title}\n\n> `)).toBe(true);
    const links = [...text.matchAll(/^- \[([^\]]+)\]\(([^)]+)\)/gm)].map((m) => ({
      key: m[1]!,
      href: m[2]!,
    }));
    expect(links.map((link) => link.key).sort()).toEqual(Object.keys(seed.events).sort());
    for (const link of links) expect(files.has(decodeURIComponent(link.href))).toBe(true);
    for (const group of seed.groups) expect(text).toContain(`(\`${seed.config.scope}/${group.slug}\`)`);
  });

  it('an event page in Markdown has its fields, the import line that compiles and the interface', () => {
    const key = 'account.created-v1';
    const page = files.get(`events/${key}/index.md`)!;
    expect(page.startsWith(`# ${key}\n`)).toBe(true);
    for (const field of seed.events[key]!.fields) expect(page).toContain(`| \`${field.name}\` |`);
    expect(page).toContain(
      `import { validate, type ${interfaceName(key)} } from '@platform-events/account';`,
    );
    expect(page).toContain(`export interface ${interfaceName(key)} `);
  });

  it('a table cell keeps a description with a pipe and a line break on its row', () => {
    const key = 'account.created-v1';
    const event = seed.events[key]!;
    const field = { ...event.fields[0]!, description: 'a | b\nc' };
    const catalogue = { ...seed, events: { ...seed.events, [key]: { ...event, fields: [field] } } };
    return generateSite({ catalogue, packagesDir: seedPackages() }, (path, content) => {
      if (path === `events/${key}/index.md`) expect(String(content)).toContain('| a \\| b c |');
    });
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filledColumns } from '../../generators/docs/columns.js';
import { generateSite } from '../../generators/docs/site.js';
import type { Catalogue } from '../../generators/model.js';
import { loadValid, REPO, seedPackages } from '../helpers.js';

// The issue: the seed catalogue describes no field, yet every fields table had a Description column,
// empty in every row. A column no row fills is now left out of the markup when the page is built.

const seed = loadValid(join(REPO, 'catalogue'));
const PACKAGES = seedPackages();

async function pages(catalogue: Catalogue): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const result = await generateSite({ catalogue, packagesDir: PACKAGES }, (path, content) => {
    if (!path.endsWith('.html')) return;
    files.set(
      path,
      typeof content === 'object' && 'copyOf' in content
        ? readFileSync(content.copyOf, 'utf8')
        : String(content),
    );
  });
  expect(result.ok).toBe(true);
  return files;
}

/** A table as a reader sees it: the header texts and each body row's cell texts (tags dropped). */
interface Table {
  headers: string[];
  rows: string[][];
}

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&[a-z#0-9]+;/gi, 'x')
    .trim();

function tables(html: string): Table[] {
  return [...html.matchAll(/<table[^>]*>([\s\S]*?)<\/table>/g)].map(([, table]) => {
    const [head = '', body = ''] = table!.split('</thead>');
    return {
      headers: [...head.matchAll(/<th scope="col">([\s\S]*?)<\/th>/g)].map((m) => text(m[1]!)),
      rows: [...body.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map(([, row]) =>
        [...row!.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((m) => text(m[1]!)),
      ),
    };
  });
}

/** `page: column` for every column of every table of `files` that no body row fills, or with a row of another width. */
function emptyColumns(files: Map<string, string>): string[] {
  const found: string[] = [];
  for (const [path, html] of files)
    for (const table of tables(html)) {
      if (table.rows.length === 0) continue;
      for (const row of table.rows)
        if (row.length !== table.headers.length) found.push(`${path}: a row of ${row.length} cells`);
      table.headers.forEach((header, column) => {
        if (table.rows.every((row) => (row[column] ?? '') === '')) found.push(`${path}: ${header}`);
      });
    }
  return found;
}

describe('filledColumns', () => {
  const rows = [
    { a: 'x', b: '' },
    { a: '', b: '' },
  ];
  it('fills a column one row fills, and not one no row fills', () => {
    expect(filledColumns(rows, { a: (r) => r.a !== '', b: (r) => r.b !== '' })).toEqual({
      a: true,
      b: false,
    });
  });
  it('a table without rows fills no column', () => {
    expect(filledColumns([], { a: () => true })).toEqual({ a: false });
  });
});

describe('empty columns are left out of the pages', () => {
  it('no table of the seed site has a column that no row fills', async () => {
    const files = await pages(seed);
    expect(files.size).toBeGreaterThan(300);
    expect(emptyColumns(files)).toEqual([]);
    const event = files.get('events/billing.ledger.entry_posted-v2/index.html')!;
    expect(tables(event)[0]!.headers).toEqual(['Field', 'Type', 'Required', 'Read by']);
  });

  it('one described field brings the Description column to its own page only, a cell in every row', async () => {
    const described: Catalogue = structuredClone(seed);
    const key = 'billing.ledger.entry_posted-v2';
    described.events[key]!.fields[1]!.description = 'The entry as the ledger posted it.';
    const files = await pages(described);
    const [fields] = tables(files.get(`events/${key}/index.html`)!);
    expect(fields!.headers).toEqual(['Field', 'Type', 'Required', 'Description', 'Read by']);
    expect(fields!.rows.map((row) => row[3])).toContain('The entry as the ledger posted it.');
    expect(fields!.rows.every((row) => row.length === 5)).toBe(true);
    expect(tables(files.get('events/billing.ledger.entry_posted-v1/index.html')!)[0]!.headers).not.toContain(
      'Description',
    );
    expect(emptyColumns(files)).toEqual([]);
  });

  it("a team page's consumes table has a Services column only when a declaration names a service", async () => {
    const team = 'billing-platform';
    const page = `teams/${team}/index.html`;
    expect(tables((await pages(seed)).get(page)!)[0]!.headers).toContain('Services');
    const serviceless: Catalogue = structuredClone(seed);
    for (const declaration of serviceless.ownership!.consumers)
      if (declaration.team === team) delete declaration.services;
    const files = await pages(serviceless);
    expect(tables(files.get(page)!)[0]!.headers).toEqual(['Event type', 'Versions', 'Reader']);
    expect(emptyColumns(files)).toEqual([]);
  });
});

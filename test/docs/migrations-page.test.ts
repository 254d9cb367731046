import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { smallWithMigrations, V1, V2, writeMigrationSite } from './migration-site.js';

/** The site of the small fixture with a migration between `account.removed-v1` and `-v2`. */
let site: string;
const read = (...path: string[]) => readFileSync(join(site, ...path), 'utf8');

beforeAll(async () => {
  site = await writeMigrationSite();
}, 120_000);

/** The cells of each row of a migration's steps table, as a reader sees them. */
function stepRows(html: string, direction: 'upgrade' | 'downgrade'): string[][] {
  const section = new RegExp(
    `<section class="migration" data-migration="${direction}"[\\s\\S]*?</section>`,
  ).exec(html)?.[0];
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(section ?? '')?.[1] ?? '';
  return [...body.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map(([, row]) =>
    [...row!.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map(([, cell]) =>
      cell!
        .replace(/<[^>]+>/g, '')
        .replaceAll('&quot;', '"')
        .replaceAll('&#x27;', "'")
        .replaceAll('&#x3D;', '=')
        .replaceAll('&amp;', '&')
        .replace(/\s+/g, ' ')
        .trim(),
    ),
  );
}

describe('the event page shows its migrations', () => {
  it('a table of the upgrade steps, linked to the version it comes from, and of the downgrade', () => {
    const html = read('events', V2, 'index.html');
    expect(stepRows(html, 'upgrade')).toEqual([
      ['1', 'set', 'reason', "'closed by ' + message.account_number (CEL over the payload before any step)"],
      ['2', 'set', 'changes', '{"migrated":true}'],
      ['3', 'rename', 'status → changes.status', 'its value, moved'],
      ['4', 'drop', 'score, tags', 'removed'],
    ]);
    expect(stepRows(html, 'downgrade')).toEqual([['1', 'drop', 'reason, changes', 'removed']]);
    expect(html).toMatch(
      new RegExp(`Upgrade from <a href="../../events/${V1}/index.html" data-migration-link>`),
    );
    expect(html).toContain('<a href="#migrations">migrations</a>');
    // The playground offers to convert a payload of v1, with the module that does it.
    expect(html).toContain(`data-conversions="../../migrations/${V2}.js"`);
    expect(html).toMatch(
      new RegExp(`<button type="button" data-playground-convert="${V1}"[^>]*>Convert from v1</button>`),
    );
  });

  it('a page without migrations shows none, and its playground offers no conversion', () => {
    const html = read('events', 'account.created-v1', 'index.html');
    expect(html).not.toContain('id="migrations"');
    expect(html).not.toContain('data-playground-convert');
    expect(html).not.toContain('data-conversions');
  });

  it("v1's page converts a v2 payload back: its playground offers the downgrade", () => {
    const html = read('events', V1, 'index.html');
    expect(html).toMatch(new RegExp(`data-playground-convert="${V2}"[^>]*>Convert from v2</button>`));
  });

  it('the Markdown page carries the same steps', () => {
    const markdown = read('events', V2, 'index.md');
    expect(markdown).toContain('## Migrations');
    expect(markdown).toContain(`### Upgrade from \`${V1}\``);
    expect(markdown).toContain("| 1 | set | `reason` | CEL `'closed by ' + message.account_number` |");
    expect(markdown).toContain('| 3 | rename | `status` → `changes.status` | moved |');
    expect(markdown).toContain(`### Downgrade to \`${V1}\``);
  });

  it('the conversion module the playground loads gives the v2 payload, never touching the v1 one', async () => {
    const module = (await import(pathToFileURL(join(site, 'migrations', `${V2}.js`)).href)) as {
      conversions: Record<string, (payload: unknown) => unknown>;
    };
    const v1 = { account_number: 'A-1', account_user_emails: [], status: 'closed', score: 3, tags: [[1]] };
    const before = structuredClone(v1);
    expect(module.conversions[V1]!(v1)).toEqual({
      account_number: 'A-1',
      account_user_emails: [],
      reason: 'closed by A-1',
      changes: { migrated: true, status: 'closed' },
    });
    expect(v1).toEqual(before);
    expect(Object.keys(module.conversions)).toEqual([V1]);
    expect(smallWithMigrations().events[V2]?.upgrade?.steps).toHaveLength(4);
  });
});

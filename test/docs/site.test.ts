import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { siteHistory } from '../../generators/docs/history.js';
import { searchIndexJson } from '../../generators/docs/search.js';
import { indexOptions, searchEvents } from '../../generators/docs/search-query.js';
import { generateSite } from '../../generators/docs/site.js';
import { compareVersions } from '../../generators/docs/versions.js';
import { SITE_MARKER, writeSiteAtomically } from '../../generators/docs/write-site.js';
import { interfaceName } from '../../generators/load/event-key.js';
import type { Catalogue, Field } from '../../generators/model.js';
import { loadHistory } from '../../generators/schema-registry/history.js';
import { loadValid, REPO, runCli, seedPackages, tempDir } from '../helpers.js';
import { releasedTwice } from '../schema-registry/released-repo.js';

const seed = loadValid(join(REPO, 'catalogue'));
const PACKAGES = seedPackages();

async function render(catalogue: Catalogue, packagesDir = PACKAGES) {
  const files = new Map<string, string>();
  const result = await generateSite({ catalogue, packagesDir }, (path, content) => {
    files.set(
      path,
      typeof content === 'object' && 'copyOf' in content
        ? readFileSync(content.copyOf, 'utf8')
        : String(content),
    );
  });
  return { result, files };
}

const seedSite = await render(seed);

describe('docs site pages', () => {
  const { result, files } = seedSite;

  it('writes a page per event version, group and shape, and the home page', () => {
    expect(result.ok).toBe(true);
    for (const key of Object.keys(seed.events)) expect(files.has(`events/${key}/index.html`)).toBe(true);
    for (const group of seed.groups) expect(files.has(`groups/${group.slug}/index.html`)).toBe(true);
    for (const name of Object.keys(seed.shapes)) expect(files.has(`shapes/${name}/index.html`)).toBe(true);
    const home = files.get('index.html')!;
    expect(home).toContain(seed.config.title);
    expect(home.match(/<tr data-group=/g)).toHaveLength(19);
  });

  it('ships the validator modules of the built packages, the run time import pointed at its copy', () => {
    const key = 'agreement.revoked-v2';
    const shipped = readFileSync(join(PACKAGES, 'agreements/events', `${key}.js`), 'utf8');
    // An event's entry point imports the event part of the run time (0195); the site's whole copy has it.
    expect(shipped).toContain('from "../event-runtime.js"');
    expect(files.get(`pkg/agreements/events/${key}.js`)).toBe(
      shipped.replaceAll('"../event-runtime.js"', "'../runtime.js'"),
    );
    expect(files.get('pkg/agreements/runtime.js')).toBe(
      readFileSync(join(PACKAGES, 'runtime/runtime.js'), 'utf8'),
    );
    // The run time's modules sit beside its entry, as in the run time package, or its imports would fail.
    const imported = [...files.get('pkg/agreements/runtime.js')!.matchAll(/from '\.\/([\w-]+\.js)'/g)];
    expect(imported.length).toBeGreaterThan(0);
    for (const [, name] of imported) {
      expect(files.get(`pkg/agreements/${name}`), name).toBe(
        readFileSync(join(PACKAGES, 'runtime', name!), 'utf8'),
      );
    }
    // The entry point carries its validator: no chunk is shipped for it.
    expect([...files.keys()].filter((path) => path.startsWith('pkg/agreements/chunks/'))).toEqual([]);
  });

  it('keeps every event page of the seed under 30 KB and free of the whole catalogue', () => {
    const sizes = Object.keys(seed.events).map((key) =>
      Buffer.byteLength(files.get(`events/${key}/index.html`)!),
    );
    expect(Math.max(...sizes)).toBeLessThan(30 * 1024);
    expect(files.get('events/agreement.revoked-v2/index.html')).not.toContain('account.created-v1');
  });

  it('shows on every event page its own TypeScript interface, doc comment included, from the package types', () => {
    let shown = 0;
    for (const key of Object.keys(seed.events)) {
      const types = readFileSync(join(PACKAGES, seed.events[key]!.group, 'types.d.ts'), 'utf8');
      const html = files.get(`events/${key}/index.html`)!;
      const code = /<code id="ts-interface">([^<]*)<\/code>/.exec(html)?.[1];
      // A `same_as` event is a type alias in types.d.ts, not an interface: no interface block then.
      if (!types.includes(`\nexport interface ${interfaceName(key)} `)) {
        expect(code, key).toBeUndefined();
        continue;
      }
      const text = code!
        .replaceAll('&lt;', '<')
        .replaceAll('&gt;', '>')
        .replaceAll('&quot;', '"')
        .replaceAll('&#x27;', "'")
        .replaceAll('&#x60;', '`')
        .replaceAll('&#x3D;', '=')
        .replaceAll('&amp;', '&');
      expect(text, key).toMatch(
        new RegExp(`^(/\\*\\*[^]*?\\*/\\n)?export interface ${interfaceName(key)} [^]*\\n}$`),
      );
      // Exactly as the package ships it: a contiguous piece of its types.d.ts.
      expect(types.includes(text), key).toBe(true);
      shown++;
    }
    expect(shown).toBeGreaterThan(200);
  });

  it('puts no inline script or style on any page (they would break under script-src self)', () => {
    for (const [path, html] of files) {
      if (!path.endsWith('.html')) continue;
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(html).not.toMatch(/\sstyle=/);
      expect(html).not.toMatch(/\son[a-z]+=/);
    }
  });
});

describe('docs site escaping', () => {
  it('escapes hostile catalogue text instead of injecting it', async () => {
    const hostile: Catalogue = structuredClone(seed);
    const event = hostile.events['agreement.revoked-v2']!;
    event.description = '<img src=x onerror=alert(1)> & `<b>`';
    event.fields[0]!.description = '"><script>alert(2)</script>';
    const { files } = await render(hostile);
    const page = files.get('events/agreement.revoked-v2/index.html')!;
    expect(page).not.toContain('<img src=x');
    expect(page).not.toContain('<script>alert(2)');
    expect(page).toContain('&lt;img src&#x3D;x onerror&#x3D;alert(1)&gt;');
  });
});

describe('docs site problems', () => {
  it('a missing built package is a coded problem, and nothing is written', async () => {
    const out = join(tempDir(), 'site');
    const empty = tempDir();
    const result = await writeSiteAtomically(out, (emit) =>
      generateSite({ catalogue: seed, packagesDir: empty }, emit),
    );
    expect('problems' in result && result.problems.map((p) => p.code)).toContain('docs-package-missing');
    expect(existsSync(out)).toBe(false);
  });

  it('a package older than the catalogue (an event without a validator) is docs-package-stale', async () => {
    const newer: Catalogue = structuredClone(seed);
    newer.events['agreement.revoked-v3'] = {
      ...newer.events['agreement.revoked-v2']!,
      key: 'agreement.revoked-v3',
      version: 'v3',
    };
    newer.groups.find((g) => g.slug === 'agreements')!.events.push('agreement.revoked-v3');
    const { result } = await render(newer);
    expect(result.ok).toBe(false);
    expect(
      !result.ok && result.problems.map((p) => [p.code, p.file.endsWith('agreement.revoked-v3.js')]),
    ).toEqual([['docs-package-stale', true]]);
  });

  it('refuses to replace a folder it did not write (docs-out-not-site), and replaces its own', async () => {
    const out = tempDir();
    writeFileSync(join(out, 'precious.txt'), 'keep');
    const refused = await writeSiteAtomically(out, () => ({ ok: true }));
    expect(refused).toMatchObject({ code: 'docs-out-not-site' });
    expect(readFileSync(join(out, 'precious.txt'), 'utf8')).toBe('keep');

    const site = join(tempDir(), 'site');
    mkdirSync(site);
    await writeSiteAtomically(site, (emit) => {
      emit('a.html', 'one');
      return { ok: true };
    });
    await writeSiteAtomically(site, (emit) => {
      emit('b.html', 'two');
      return { ok: true };
    });
    expect(existsSync(join(site, 'a.html'))).toBe(false);
    expect(readFileSync(join(site, 'b.html'), 'utf8')).toBe('two');
    expect(existsSync(join(site, SITE_MARKER))).toBe(true);
  });
});

describe('the site writer thread', () => {
  it('writes every file emitted, past the in-flight limit, with the content given', async () => {
    const site = join(tempDir(), 'site');
    const source = join(tempDir(), 'module.js');
    writeFileSync(source, 'export const shipped = 1;\n');
    await writeSiteAtomically(site, async (emit) => {
      for (let i = 0; i < 600; i++) await emit(`events/e${i}/index.html`, `page ${i}`);
      await emit('assets/bytes.bin', Buffer.from([0, 255, 1]));
      await emit('pkg/module.js', { copyOf: source });
      return { ok: true };
    });
    expect(readdirSync(join(site, 'events'))).toHaveLength(600);
    expect(readFileSync(join(site, 'events/e599/index.html'), 'utf8')).toBe('page 599');
    expect([...readFileSync(join(site, 'assets/bytes.bin'))]).toEqual([0, 255, 1]);
    expect(readFileSync(join(site, 'pkg/module.js'), 'utf8')).toBe('export const shipped = 1;\n');
  });

  it('a file the file system refuses fails the run and leaves the previous site as it was', async () => {
    const site = join(tempDir(), 'site');
    await writeSiteAtomically(site, (emit) => {
      emit('index.html', 'old');
      return { ok: true };
    });
    const failing = writeSiteAtomically(site, async (emit) => {
      for (let i = 0; i < 100; i++) await emit(`events/e${i}/index.html`, 'new');
      // A name longer than any file system takes: the writer thread's open fails.
      await emit(`${'x'.repeat(300)}.html`, 'new');
      return { ok: true };
    });
    await expect(failing).resolves.toMatchObject({
      code: 'write-failed',
      message: expect.stringContaining('(ENAMETOOLONG)'),
    });
    expect(readFileSync(join(site, 'index.html'), 'utf8')).toBe('old');
    expect(readdirSync(dirname(site)).filter((name) => name.includes('staging'))).toEqual([]);
  });
});

describe('semantic diff between versions and per-field history', () => {
  it('names the field agreement.revoked-v2 adds to v1', () => {
    const findings = compareVersions(
      seed,
      seed.events['agreement.revoked-v1']!,
      seed.events['agreement.revoked-v2']!,
    );
    expect(findings.map((f) => [f.rule, f.attr])).toEqual([['required-field-added', 'account_number']]);
  });

  it('records the release that added a field, from the release history', () => {
    const repo = releasedTwice();
    const loaded = loadHistory({ cwd: repo.dir, env: process.env, catalogue: 'catalogue' });
    if (!loaded.ok) throw new Error('history does not load');
    const history = siteHistory(loaded.history);
    expect(history.releases.map((r) => r.version)).toEqual(['1.0.0', '1.1.0']);
    const fields = history.fields.get('account.created-v1')!;
    expect(fields.get('')?.map((e) => e.release)).toEqual(['1.0.0']);
    expect(fields.get('nickname')?.map((e) => [e.release, e.what])).toEqual([
      ['1.1.0', expect.stringContaining('nickname')],
    ]);
    // Events composed from it (`same_as`) gained the field in the same release.
    const changed = [...history.releases[1]!.changed];
    expect(changed.map(([key]) => key)).toEqual([
      'account.created-v1',
      'account.removed-v1',
      'account.removed-v2',
    ]);
    for (const [, findings] of changed) expect(findings.map((f) => f.attr)).toEqual(['nickname']);
  });
});

describe('notices and history on the pages', () => {
  it('shows the partial notice of a partly documented event', async () => {
    const key = Object.keys(seed.events).find((k) => seed.events[k]!.partial)!;
    const page = seedSite.files.get(`events/${key}/index.html`)!;
    expect(page).toContain('data-partial');
    expect(page).toContain('Undocumented fields are accepted in every mode');
  });

  it('shows a deprecation with a link to the replacement', async () => {
    const deprecated: Catalogue = structuredClone(seed);
    deprecated.events['agreement.revoked-v1']!.deprecated = {
      since: '1.1.0',
      replacedBy: 'agreement.revoked-v2',
    };
    const { files } = await render(deprecated);
    const page = files.get('events/agreement.revoked-v1/index.html')!;
    expect(page).toMatch(
      /data-deprecated><strong>Deprecated<\/strong> since 1\.1\.0\. Use <a href="\.\.\/\.\.\/events\/agreement\.revoked-v2\/index\.html">/,
    );
  });

  it('links the release that added a field from its row, and lists the change on that release page', async () => {
    const repo = releasedTwice();
    const packages = join(repo.dir, 'packages');
    const built = runCli(['build', '--catalogue', join(repo.dir, 'catalogue'), '--out', packages]);
    expect(built.status).toBe(0);
    const loaded = loadHistory({ cwd: repo.dir, env: process.env, catalogue: 'catalogue' });
    if (!loaded.ok) throw new Error('history does not load');
    const files = new Map<string, string>();
    const result = await generateSite(
      { catalogue: loaded.history.current, history: loaded.history, packagesDir: packages },
      (path, content) => {
        // A hard-linkable module (an event's entry point) is its package file, unchanged.
        files.set(
          path,
          typeof content === 'object' && 'copyOf' in content
            ? readFileSync(content.copyOf, 'utf8')
            : String(content),
        );
      },
    );
    expect(result).toMatchObject({ ok: true });
    const page = files.get('events/account.created-v1/index.html')!;
    const row = (field: string) => new RegExp(`<tr data-field="${field}"[\\s\\S]*?</tr>`).exec(page)![0];
    expect(row('nickname')).toContain('href="../../changelog/1.1.0/index.html"');
    expect(row('account_number')).toContain('href="../../changelog/1.0.0/index.html"');
    expect(row('account_number')).not.toContain('1.1.0');
    const release = files.get('changelog/1.1.0/index.html')!;
    expect(release).toContain('data-attr="nickname"');
    expect(files.get('changelog/index.html')).toMatch(/1\.1\.0[\s\S]*1\.0\.0/);

    // This catalogue has `format: date` fields: the validators import ajv-formats, which the site
    // ships as an ES module beside them. The shipped files run as a browser would load them.
    const site = tempDir();
    for (const path of [
      ...[...files.keys()].filter((path) => /^pkg\/account\/[^/]+\.js$/.test(path)),
      'pkg/account/events/account.created-v1.js',
      'assets/vendor/ajv-formats.js',
    ]) {
      mkdirSync(dirname(join(site, path)), { recursive: true });
      writeFileSync(join(site, path), files.get(path)!);
    }
    expect(files.get('pkg/account/events/account.created-v1.js')).toContain(
      "from '../../../assets/vendor/ajv-formats.js'",
    );
    const { validate } = (await import(
      pathToFileURL(join(site, 'pkg/account/events/account.created-v1.js')).href
    )) as {
      validate(payload: unknown): { valid: boolean; error?: { errors: { attr: string; code: string }[] } };
    };
    const payload = { account_number: 'A-1', account_user_emails: [], opened_on: '2024-01-31' };
    expect(validate(payload)).toEqual({ valid: true });
    const invalid = validate({ ...payload, opened_on: '2024-02-31' });
    expect(invalid.error?.errors.map((e) => `${e.attr}:${e.code}`)).toEqual(['opened_on:invalid_format']);
  }, 60_000);
});

describe('owners, producers and consumers on the pages', () => {
  const { files } = seedSite;
  /** The `data-readers` of each row of a page's fields table, by field path. */
  const readersByField = (page: string): Record<string, string> =>
    Object.fromEntries(
      [...page.matchAll(/<tr data-field="([^"]+)"[^>]*?(?: data-readers="([^"]*)")?>/g)].map((m) => [
        m[1],
        m[2] ?? '',
      ]),
    );

  it("lists an event version's producer and the teams whose declarations read it, with reader mode and range", () => {
    const page = files.get('events/account.created-v1/index.html')!;
    const aside = page.slice(page.indexOf('<aside class="event-aside"'));
    expect(aside).toContain(
      'data-producer="account-service"><code>account-service</code> (<a href="../../teams/customer-accounts/index.html">Customer accounts</a>)',
    );
    expect(
      [...aside.matchAll(/data-consumer="([^"]+)" data-reader="([^"]+)"/g)].map((m) => `${m[1]}:${m[2]}`),
    ).toEqual(['billing-platform:tolerant', 'customer-comms:tolerant']);
    expect(aside).toMatch(
      /Customer communications<\/a> <small>tolerant reader, versions <code>&gt;&#x3D;1<\/code>, no field detail/,
    );
  });

  it('marks each field row with the teams that declare reading it, a wildcard reaching every row', () => {
    expect(readersByField(files.get('events/account.created-v1/index.html')!)).toEqual({
      account_number: 'billing-platform',
      account_user_emails: 'billing-platform',
      is_imported: '',
    });
    // collections reads v2 only ("2"); data-platform reads every field ("*") of every version.
    const v2 = readersByField(files.get('events/billing.billing_document.issued-v2/index.html')!);
    expect(v2.account_number).toBe('collections data-platform');
    expect(Object.values(v2).every((teams) => teams.includes('data-platform'))).toBe(true);
    const v1 = readersByField(files.get('events/billing.billing_document.issued-v1/index.html')!);
    expect(Object.values(v1).every((teams) => teams === 'data-platform')).toBe(true);
  });

  it('reaches nested fields from a declared dot path, and names the group owner', () => {
    const rows = readersByField(files.get('events/billing.ledger.entry_posted-v2/index.html')!);
    expect(rows['ledger.account.number']).toBe('collections');
    expect(rows['entry.id']).toBe('collections');
    expect(Object.entries(rows).filter(([, teams]) => teams).length).toBeGreaterThan(3);
    const owned = seed.groups.find((group) => group.owner === 'sales')!;
    const page = files.get(`events/${owned.events[0]}/index.html`)!;
    expect(page).toContain('data-owner="sales"><a href="../../teams/sales/index.html">Sales</a>');
  });

  it('writes a page per team (owns, produces, consumes) and a teams index linked from the top navigation', () => {
    const teams = Object.keys(seed.ownership!.teams);
    for (const id of teams) expect(files.has(`teams/${id}/index.html`)).toBe(true);
    expect(files.get('teams/index.html')!.match(/<tr data-team=/g)).toHaveLength(teams.length);
    expect(files.get('index.html')).toContain('<a href="./teams/index.html">Teams</a>');
    const collections = files.get('teams/collections/index.html')!;
    expect(collections).toContain('<code data-code-owner>@platform/collections</code>');
    expect(collections).toMatch(
      /data-consumes-event="billing.billing_document.issued">.*<code>2<\/code>: <a href="..\/..\/events\/billing.billing_document.issued-v2\/index.html">/,
    );
    expect(files.get('teams/sales/index.html')).toMatch(/<ul data-owns><li><a href="..\/..\/groups\//);
    expect(files.get('teams/customer-accounts/index.html')).toContain(
      'account.<wbr>created-<wbr>v1</a> <small>from <code>account-service</code>',
    );
  });

  it('draws producer -> event -> consumer as inline SVG with links, and none where nobody is declared', () => {
    const page = files.get('events/account.created-v1/index.html')!;
    const svg = page.slice(page.indexOf('<svg'), page.indexOf('</svg>'));
    expect(svg).toContain('role="group" aria-labelledby="graph-title"');
    expect(svg.match(/<line class="graph-edge"/g)).toHaveLength(3);
    expect(svg).toContain('<a href="../../teams/billing-platform/index.html">');
    // A long key is drawn whole, wrapped between its parts, never cut with an ellipsis.
    const team = files.get('teams/billing-platform/index.html')!;
    const labels = [...team.matchAll(/<text class="graph-label">(.*?)<\/text>/g)].map((m) =>
      m[1]!.replace(/<[^>]+>/g, ''),
    );
    expect(labels).toContain('billing.billing_document.issued-v2');
    expect(team).toContain('<tspan x="');
    expect(team.slice(team.indexOf('<svg'), team.indexOf('</svg>'))).not.toContain('…');
    const lonely = Object.keys(seed.events).find(
      (key) => !files.get(`events/${key}/index.html`)!.includes('data-consumer='),
    )!;
    expect(files.get(`events/${lonely}/index.html`)).not.toContain('data-consumer=');
  });

  it('a catalogue without teams gets no team pages and no Teams link', async () => {
    const bare: Catalogue = structuredClone(seed);
    delete bare.ownership;
    const { files: plain } = await render(bare);
    expect([...plain.keys()].some((path) => path.startsWith('teams/'))).toBe(false);
    expect(plain.get('index.html')).not.toContain('Teams</a>');
    expect(plain.get('events/account.created-v1/index.html')).not.toContain('data-readers=');
  });
});

describe('search index', () => {
  it('a field name is one term: searching it finds exactly the events with that field', () => {
    const index = MiniSearch.loadJSON(seedSite.files.get('assets/search-index.json')!, indexOptions());
    const hits = searchEvents(index, 'supply_point_id');
    const withField = Object.values(seed.events).filter((event) =>
      fieldRowsOf(event.fields).some((name) => name.startsWith('supply_point_id')),
    );
    expect(withField.length).toBeGreaterThan(1);
    expect(hits.map((hit) => hit.id).sort()).toEqual(withField.map((event) => event.key).sort());
  });
});

describe('search tuned for 10,000 events', () => {
  const index = MiniSearch.loadJSON(seedSite.files.get('assets/search-index.json')!, indexOptions());

  it('a one-letter query matches whole terms only, not every event with a term starting with it', () => {
    // Before, `v` was a prefix of every `-v1`/`-v2` key and listed every event: the 10k worst case.
    expect(searchEvents(index, 'v')).toEqual([]);
    expect(searchEvents(index, 'v2').length).toBeGreaterThan(0);
  });

  it('two letters are enough for a prefix: `ag` finds the agreement events', () => {
    const hits = searchEvents(index, 'ag').map((hit) => hit.id);
    expect(hits).toEqual(expect.arrayContaining(['agreement.revoked-v1', 'agreement.revoked-v2']));
  });

  it('an event titled with its own key is indexed by its key only; a distinct title is searchable', () => {
    const titled: Catalogue = structuredClone(seed);
    titled.events['agreement.revoked-v2']!.title = 'Quixotic handover';
    const search = MiniSearch.loadJSON(searchIndexJson(titled), indexOptions());
    const [hit, ...others] = searchEvents(search, 'quixotic');
    expect(others).toEqual([]);
    expect(hit).toMatchObject({ id: 'agreement.revoked-v2', title: 'Quixotic handover' });
    const [untitled] = searchEvents(search, 'agreement.revoked-v1');
    expect(untitled).toMatchObject({ id: 'agreement.revoked-v1' });
    expect(untitled).not.toHaveProperty('title');
  });
});

/** Field names of an event, nested shape fields included. */
function fieldRowsOf(fields: readonly Field[], seen: string[] = []): string[] {
  return fields.flatMap((field) => {
    let type = field.type;
    while (type.kind === 'array') type = type.items;
    const nested =
      type.kind === 'shape' && !seen.includes(type.name)
        ? fieldRowsOf(seed.shapes[type.name]!.fields, [...seen, type.name])
        : [];
    return [field.name, ...nested];
  });
}

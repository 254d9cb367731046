import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateSite } from '../../generators/docs/site.js';
import { interfaceName } from '../../generators/load/event-key.js';
import { type BuiltPackages, buildPackages } from '../emit/package/build-packages.js';
import { REPO, typeCheckProject } from '../helpers.js';

// Every snippet the portal offers a reader to copy must compile against the packages it names: the
// import line of every event page, type-checked by the repository's `tsc` in a consumer project that
// installs the seed's group packages.
let built: BuiltPackages;
const snippets = new Map<string, string>();
beforeAll(async () => {
  built = await buildPackages(join(REPO, 'catalogue'));
  writeFileSync(join(built.root, 'package.json'), '{ "type": "module", "private": true }\n');
  const result = await generateSite(
    { catalogue: built.catalogue, packagesDir: built.out },
    (path, content) => {
      const match = /^events\/([^/]+)\/index\.html$/.exec(path);
      if (!match) return;
      const html =
        typeof content === 'object' && 'copyOf' in content
          ? readFileSync(content.copyOf, 'utf8')
          : String(content);
      const code = /<code id="import-line" data-snippet="import">([^<]*)<\/code>/.exec(html);
      snippets.set(match[1]!, unescapeHtml(code?.[1] ?? ''));
    },
  );
  expect(result.ok).toBe(true);
}, 180_000);

function unescapeHtml(html: string): string {
  return html
    .replaceAll('&#x27;', "'")
    .replaceAll('&quot;', '"')
    .replaceAll('&#x3D;', '=')
    .replaceAll('&amp;', '&');
}

describe('the portal copy snippets', () => {
  it('every event page offers an import line, and all of them type-check against the built packages', () => {
    const keys = Object.keys(built.catalogue.events).sort();
    expect([...snippets.keys()].sort()).toEqual(keys);
    // One module per event (each imports `validate` under the same name), checked in one tsc run.
    const files: string[] = [];
    for (const [i, key] of keys.entries()) {
      const line = snippets.get(key)!;
      expect(line).toContain(`type ${interfaceName(key)}`);
      const file = `snippet-${i}.ts`;
      writeFileSync(
        join(built.root, file),
        `${line}\nconst check: (key: '${key}', payload: unknown) => unknown = validate;\nexport type Checked = ${interfaceName(key)};\nvoid check;\n`,
      );
      files.push(file);
    }
    const run = typeCheckProject(built.root, files);
    expect(run.output).toBe('');
    expect(run.status).toBe(0);
  }, 180_000);
});

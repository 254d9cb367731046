import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { generateSite } from '../../generators/docs/site.js';
import type { Catalogue, EventVersion, Migration, MigrationStep } from '../../generators/model.js';
import { writeModelPackages } from '../emit/package/build-packages.js';
import { fixturePath, loadValid, tempDir } from '../helpers.js';

// The small fixture with a migration between the two versions of `account.removed` (issue 46), attached
// to the model by hand (the model is plain data), and its docs site: what the portal's migration tests read.

/** The event the migrations lead to, and the one they come from. */
export const V1 = 'account.removed-v1';
export const V2 = 'account.removed-v2';

/** The small fixture's model, `account.removed-v2` given an upgrade from v1 and a downgrade back. */
export function smallWithMigrations(): Catalogue {
  const model = loadValid(fixturePath('small'));
  const v2 = model.events[V2]!;
  const at = v2.source;
  const upgradeSteps: MigrationStep[] = [
    { kind: 'set', field: ['reason'], cel: "'closed by ' + message.account_number", source: at },
    { kind: 'set', field: ['changes'], value: { migrated: true }, source: at },
    { kind: 'rename', from: ['status'], to: ['changes', 'status'], source: at },
    { kind: 'drop', fields: [['score'], ['tags']], source: at },
  ];
  const upgrade: Migration = { from: V1, to: V2, steps: upgradeSteps, source: at };
  const downgrade: Migration = {
    from: V2,
    to: V1,
    steps: [{ kind: 'drop', fields: [['reason'], ['changes']], source: at }],
    source: at,
  };
  const migrated: EventVersion = { ...v2, upgrade, downgrade };
  return { ...model, events: { ...model.events, [V2]: migrated } };
}

/** The docs site of `smallWithMigrations()`, written into a temporary folder; its path. */
export async function writeMigrationSite(): Promise<string> {
  const model = smallWithMigrations();
  const packagesDir = await writeModelPackages(model);
  const site = tempDir('eventry-migration-site-');
  const result = await generateSite({ catalogue: model, packagesDir }, (path, content) => {
    const file = join(site, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(
      file,
      typeof content === 'object' && 'copyOf' in content ? readFileSync(content.copyOf) : content,
    );
  });
  if (!result.ok) throw new Error(`the migration site was not written: ${JSON.stringify(result.problems)}`);
  return site;
}

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalogueFromSources } from '../../generators/load/index.js';
import { runCli } from '../helpers.js';
import { releasedTwice } from './released-repo.js';

const CONFIG = 'title: T\nversion: 1.0.0\nscope: "@t"\n';
const GROUP =
  'group: {slug: shop, title: Shop}\nevents:\n  shop.order-v1:\n    fields:\n      id: {type: string, required: true}\n';

describe('compatibility: in eventry.config.yaml', () => {
  it('is loaded into the model', () => {
    const result = loadCatalogueFromSources([
      {
        path: 'eventry.config.yaml',
        text: `${CONFIG}compatibility:\n  level: FULL\n  policy: LENIENT\n  groups: {shop: NONE}\n`,
      },
      { path: 'groups/shop.yaml', text: GROUP },
    ]);
    expect(result.ok && result.catalogue.config.compatibility).toEqual({
      level: 'FULL',
      policy: 'LENIENT',
      groups: { shop: 'NONE' },
    });
  });

  it('an unknown level is a located problem', () => {
    const result = loadCatalogueFromSources([
      { path: 'eventry.config.yaml', text: `${CONFIG}compatibility:\n  level: SIDEWAYS\n` },
      { path: 'groups/shop.yaml', text: GROUP },
    ]);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problems.map((p) => [p.file, p.line, p.code])).toEqual([
      ['eventry.config.yaml', 5, 'invalid-value'],
    ]);
  });

  it('serve refuses overrides naming a group or an event that does not exist, located, with a did-you-mean', () => {
    const repo = releasedTwice();
    const path = join(repo.dir, 'catalogue/eventry.config.yaml');
    writeFileSync(
      path,
      `${readFileSync(path, 'utf8')}compatibility:\n  groups:\n    acount: FULL\n  events:\n    account.created-v9: NONE\n`,
    );
    const result = runCli(['serve', '--port', '0'], { cwd: repo.dir });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      'catalogue/eventry.config.yaml:7:5: error invalid-value: `compatibility.groups` names group `acount`, which the catalogue does not have.\n    hint: did you mean `account`?',
    );
    expect(result.stderr).toContain(
      'catalogue/eventry.config.yaml:9:5: error unknown-event: `compatibility.events` names event `account.created-v9`',
    );
  });
});

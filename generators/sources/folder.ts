import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import {
  ALLOW_LIST_FILE,
  CONFIG_FILE,
  loadCatalogueFromSources,
  readCatalogueSources,
} from '../load/index.js';
import { readIfExists } from '../shared/fs.js';
import { displayPath, loaded, type SourceKind } from './source.js';

/** A catalogue directory (or a folder holding `catalogue/`). */
export const directorySource: SourceKind = {
  name: 'directory',
  claims: (spec, { cwd }) => existsSync(resolve(cwd, spec)) && statSync(resolve(cwd, spec)).isDirectory(),
  resolve(spec, { cwd, load }) {
    const folder = catalogueFolder(spec, cwd);
    if (!existsSync(join(folder, CONFIG_FILE))) {
      return {
        ok: false,
        reason: 'usage',
        message: `\`${spec}\` is a directory without \`${CONFIG_FILE}\`: not a catalogue.`,
      };
    }
    const root = displayPath(cwd, folder);
    const files = readCatalogueSources(folder);
    const packages = join(dirname(folder), 'packages');
    return loaded(loadCatalogueFromSources(files, load), root, {
      kind: 'directory',
      label: root,
      root,
      allowList: files.find((file) => file.path === ALLOW_LIST_FILE),
      readPackage: (slug) => readIfExists(join(packages, slug, 'package.json')),
    });
  },
};

/** The catalogue folder a spec names: the folder itself, or its `catalogue/` when only that has a config. */
export function catalogueFolder(spec: string, cwd: string): string {
  const folder = resolve(cwd, spec);
  if (!existsSync(join(folder, CONFIG_FILE)) && existsSync(join(folder, 'catalogue', CONFIG_FILE))) {
    return join(folder, 'catalogue');
  }
  return folder;
}

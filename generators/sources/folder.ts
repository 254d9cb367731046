import { existsSync, readdirSync, statSync } from 'node:fs';
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
  resolve(spec, { cwd }) {
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
    return loaded(loadCatalogueFromSources(files), root, {
      kind: 'directory',
      label: root,
      root,
      allowList: files.find((file) => file.path === ALLOW_LIST_FILE),
      readPackage: (slug) => readIfExists(join(packages, slug, 'package.json')),
    });
  },
  estimateSize(spec, { cwd }) {
    const folder = catalogueFolder(spec, cwd);
    try {
      let bytes = 0;
      for (const path of readdirSync(folder, { recursive: true, encoding: 'utf8' })) {
        if (/\.ya?ml$/.test(path)) bytes += statSync(join(folder, path)).size;
      }
      return bytes;
    } catch {
      return undefined; // unreadable: `resolve` reports it
    }
  },
};

/** The catalogue folder a spec names: the folder itself, or its `catalogue/` when only that has a config. */
function catalogueFolder(spec: string, cwd: string): string {
  const folder = resolve(cwd, spec);
  if (!existsSync(join(folder, CONFIG_FILE)) && existsSync(join(folder, 'catalogue', CONFIG_FILE))) {
    return join(folder, 'catalogue');
  }
  return folder;
}

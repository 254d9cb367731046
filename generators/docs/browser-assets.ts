import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The portal's browser scripts: TypeScript in generators/docs/browser/, bundled by `npm run build:tool`
 * (scripts/precompile.ts) into dist/docs-assets/, from where `eventry docs` copies them into the site.
 */

/** The ES modules pages load (`<script type="module">`). */
export const BROWSER_MODULES = ['site.js', 'search.js', 'playground.js', 'editor.js'] as const;

/** The one classic script: it must run where module scripts do not (a page opened from file://). */
export const BROWSER_CLASSIC = 'file-notice.js';

/** Where the bundles are, relative to the toolkit's root. */
export const BROWSER_ASSETS_DIR = join('dist', 'docs-assets');

/** The bundles' folder, found from this module (compiled in dist/generators/docs/ or run from source). */
export function browserAssetsDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (dir !== dirname(dir) && !dir.endsWith(`${join('generators', 'docs')}`)) dir = dirname(dir);
  // dist/generators/docs -> the toolkit root is two levels above dist/; generators/docs -> two above.
  const top = dirname(dirname(dir));
  return top.endsWith('dist') ? join(dirname(top), BROWSER_ASSETS_DIR) : join(top, BROWSER_ASSETS_DIR);
}

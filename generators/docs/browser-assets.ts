import { compiledToolkitFile } from '../shared/toolkit-files.js';

/**
 * The portal's browser scripts: TypeScript in generators/docs/browser/, bundled by `npm run build:tool`
 * (scripts/precompile.ts) into dist/docs-assets/, from where `eventry docs` copies them into the site.
 */

/** The ES modules pages load (`<script type="module">`). */
export const BROWSER_MODULES = ['site.js', 'search.js', 'playground.js', 'editor.js'] as const;

/** The one classic script: it must run where module scripts do not (a page opened from file://). */
export const BROWSER_CLASSIC = 'file-notice.js';

/** The bundles' folder in the compiled toolkit (from `dist/` or the TypeScript source alike). */
export function browserAssetsDir(): string {
  return compiledToolkitFile('../docs-assets');
}

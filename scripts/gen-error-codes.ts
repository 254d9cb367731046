/**
 * `npm run gen:error-codes`: regenerates docs/error-codes.md from generators/shared/error-codes.ts (run
 * it after adding a code; the table's freshness test fails until you do).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERROR_CODES_DOC, renderErrorCodeTable } from './error-codes/table.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

mkdirSync(dirname(join(REPO, ERROR_CODES_DOC)), { recursive: true });
writeFileSync(join(REPO, ERROR_CODES_DOC), renderErrorCodeTable());
console.log(`wrote ${ERROR_CODES_DOC}`);

/**
 * `npm run gen:rule-docs`: regenerates docs/rules.md from the diff and lint rule registries (run it
 * after adding or rewording a rule; the reference's freshness test fails until you do).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RULES_DOC, renderRuleDocs } from './rule-docs/table.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

writeFileSync(join(REPO, RULES_DOC), renderRuleDocs());
console.log(`wrote ${RULES_DOC}`);

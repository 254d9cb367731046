import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES_DOC, renderErrorCodeTable } from '../../scripts/error-codes/table.js';
import { REPO } from '../helpers.js';

/** The table users read is the registry: a code added or reworded without regenerating fails here. */
describe('docs/error-codes.md', () => {
  const committed = readFileSync(join(REPO, ERROR_CODES_DOC), 'utf8');

  it('is what the registry generates (run npm run gen:error-codes)', () => {
    expect(renderErrorCodeTable()).toBe(committed);
  });

  it('lists every exit status and the codes of every area, with their statuses', () => {
    expect(committed).toContain('| 70 | `internal` |');
    expect(committed).toMatch(/^\| `write-failed` \| .* \| 1 \|$/m);
    expect(committed).toMatch(/^\| `out-unsafe` \| .* \| 2 \|$/m);
    expect(committed).toMatch(/^\| `40401` \| Subject not found\. \| 404 \|$/m);
    expect(committed).toMatch(/^\| `-32700` \| .* \| 400, 413 \|$/m);
  });

  it('is linked from the README', () => {
    expect(readFileSync(join(REPO, 'README.md'), 'utf8')).toContain('](docs/error-codes.md)');
  });
});

import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SITE_MARKER } from '../../generators/docs/write-site.js';
import { runCli, seedPackages, tempDir } from '../helpers.js';

describe('eventry docs', () => {
  it('writes the site into --out and says how many pages', () => {
    const out = join(tempDir(), 'site');
    const result = runCli(['docs', '--out', out, '--packages', seedPackages(), '--no-cache']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/wrote the docs site into .*: \d+ pages/);
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toContain('<h1>Platform event catalogue</h1>');
    expect(existsSync(join(out, 'events/agreement.revoked-v2/index.html'))).toBe(true);
    expect(existsSync(join(out, 'assets/minisearch.js'))).toBe(true);
  });

  it('without built packages: a coded, located error, exit 1, nothing written', () => {
    const out = join(tempDir(), 'site');
    const result = runCli(['docs', '--out', out, '--packages', tempDir(), '--no-cache']);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /account\/package\.json: no built package for group `account`.*\[docs-package-missing\]/,
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(out)).toBe(false);
  });

  it('refuses to overwrite a folder it did not write (exit 2)', () => {
    const result = runCli(['docs', '--out', join(process.cwd(), 'catalogue'), '--no-cache']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('[docs-out-not-site]');
    expect(existsSync(join(process.cwd(), 'catalogue/eventry.config.yaml'))).toBe(true);
  });

  it('a file the writer thread cannot write is a coded write-failed error (exit 2); the last good site stays', () => {
    // A site folder 4,000 characters deep: the staging folder beside it is within the system's path
    // limit (4,095), the site's deeper files (up to 130 more characters) are not, so the writer
    // thread's writes fail and the main thread's do not.
    let parent = tempDir();
    while (parent.length < 4000 - 201) parent = join(parent, 'd'.repeat(200));
    const out = join(parent, 's'.repeat(4000 - parent.length - 1));
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, SITE_MARKER), '');
    writeFileSync(join(out, 'index.html'), 'the last good site');
    const result = runCli(['docs', '--out', out, '--packages', seedPackages(), '--no-cache']);
    expect(result.stderr).toMatch(
      /^eventry docs: cannot write \S+ into \/\S+ \(ENAMETOOLONG\); the previous site is left as it was\. \[write-failed\]\n$/,
    );
    expect(result.status).toBe(2);
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toBe('the last good site');
    expect(readdirSync(dirname(out)).filter((name) => name.includes('staging'))).toEqual([]);
  });
});

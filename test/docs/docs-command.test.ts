import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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
});

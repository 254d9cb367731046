import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { digestSources, hashInputs, toolFingerprint } from '../../generators/execute/fingerprint.js';
import { tempDir } from '../helpers.js';

/** A toolkit folder in miniature: package.json, a lock file, generators with a template and the run time. */
function toolkit(): { root: string; write(path: string, text: string): void } {
  const root = tempDir('eventry-fingerprint-');
  const write = (path: string, text: string) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write('package.json', '{"name":"eventry"}');
  write('package-lock.json', '{"lockfileVersion":3}');
  write('generators/execute/fingerprint.js', 'export {};');
  write('generators/emit/package/templates/event.js.hbs', '{{key}}');
  write('generators/runtime/runtime.js', 'export const runtime = 1;');
  return { root, write };
}

describe('the build fingerprint (the one the state file and the emit cache both use)', () => {
  it.each([
    ['a template copied into packages', 'generators/emit/package/templates/event.js.hbs', '{{key}}!'],
    ['the package run time', 'generators/runtime/runtime.js', 'export const runtime = 2;'],
    ['compiled toolkit code', 'generators/execute/fingerprint.js', 'export const changed = true;'],
    ['a dependency version', 'package-lock.json', '{"lockfileVersion":3,"packages":{}}'],
  ])('changes when %s changes, so no cached group output outlives it', (_name, path, text) => {
    const { root, write } = toolkit();
    const before = toolFingerprint(join(root, 'generators'));
    expect(toolFingerprint(join(root, 'generators'))).toBe(before);
    write(path, text);
    expect(toolFingerprint(join(root, 'generators'))).not.toBe(before);
  });

  it('ignores files the toolkit does not run or copy (notes beside the code)', () => {
    const { root, write } = toolkit();
    const before = toolFingerprint(join(root, 'generators'));
    write('generators/NOTES.md', 'scratch');
    expect(toolFingerprint(join(root, 'generators'))).toBe(before);
  });

  it('covers the catalogue and the toolkit together in the state file hash', () => {
    const sources = [{ path: 'eventry.config.yaml', text: 'version: 1.0.0\n' }];
    const edited = [{ path: 'eventry.config.yaml', text: 'version: 1.0.1\n' }];
    expect(hashInputs(digestSources(sources), 'tool-a')).toBe(hashInputs(digestSources(sources), 'tool-a'));
    expect(hashInputs(digestSources(edited), 'tool-a')).not.toBe(
      hashInputs(digestSources(sources), 'tool-a'),
    );
    expect(hashInputs(digestSources(sources), 'tool-b')).not.toBe(
      hashInputs(digestSources(sources), 'tool-a'),
    );
  });
});

import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readUserFile } from '../../generators/shared/read-user-file.js';
import { tempDir } from '../helpers.js';

describe('readUserFile: inside the catalogue, by path and by link', () => {
  const work = tempDir('eventry-user-file-');
  const root = join(work, 'catalogue');
  mkdirSync(root);
  writeFileSync(join(work, 'secret.txt'), 'root:x:0:0\n');
  writeFileSync(join(root, '..notes.yaml'), 'a: 1\n');
  writeFileSync(join(root, 'teams.yaml'), 'teams: {}\n');
  symlinkSync(join(work, 'secret.txt'), join(root, 'linked.yaml'));

  it('reads a file whose name starts with two dots: it is in the folder, not above it', () => {
    expect(readUserFile(root, '..notes.yaml')).toEqual({ ok: true, text: 'a: 1\n' });
    expect(readUserFile(root, 'teams.yaml')).toEqual({ ok: true, text: 'teams: {}\n' });
  });

  it('refuses a path above the folder and a link out of it, quoting nothing of the file', () => {
    for (const path of ['../secret.txt', 'linked.yaml', join(work, 'secret.txt')]) {
      const read = readUserFile(root, path);
      expect(read).toMatchObject({ ok: false, refusal: 'outside-catalogue' });
      expect(JSON.stringify(read)).not.toContain('root:x');
    }
  });
});

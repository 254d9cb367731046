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

describe('a file that is not UTF-8 is refused where it stops being UTF-8, never read with U+FFFD in it', () => {
  const root = tempDir('eventry-utf8-');
  const read = (bytes: number[] | Buffer) => {
    writeFileSync(join(root, 'file.yaml'), Buffer.from(bytes));
    return readUserFile(root, 'file.yaml');
  };
  const text = (value: string) => [...Buffer.from(value, 'utf8')];

  it('reads UTF-8 as it is: a byte order mark, characters of every width, a written U+FFFD', () => {
    const value = '\uFEFFtitle: Café ☕ 𝄞\nnote: "\uFFFD"\n';
    expect(read(text(value))).toEqual({ ok: true, text: value });
  });

  it.each([
    ['a Latin-1 byte after ASCII', [...text('a: 1\ntitle: Caf'), 0xe9, ...text('\n')], 2, 11],
    // Columns count UTF-16 units, as every other column eventry prints: 𝄞 is two.
    ['a Latin-1 byte after wide characters', [...text('x: ☕𝄞'), 0xe9], 1, 7],
    ['a character cut off at the end of the file', [...text('a: 1\nb: '), 0xe2, 0x98], 2, 4],
    ['a UTF-16 file (its byte order mark)', [0xff, 0xfe, ...text('a')], 1, 1],
    ['a lone continuation byte on a later line', [...text('a: 1\nb: 2\nc: '), 0x80, ...text('x\n')], 3, 4],
  ])('refuses %s at its line and column', (_, bytes, line, column) => {
    const result = read(bytes);
    expect(result).toEqual({
      ok: false,
      refusal: 'unreadable',
      reason: `it is not UTF-8 text (line ${line}, column ${column})`,
    });
  });
});

import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers.js';

/** What the `eventry validate` suites send: a valid `account.created-v1` of the small fixture. */
export const account = { account_number: 'A-1', account_user_emails: ['a@example.com'] };

/** One NDJSON input line. */
export const line = (event: string, payload: unknown) => JSON.stringify({ event, payload });

/** The JSON records of NDJSON output. */
export const parseLines = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((text) => JSON.parse(text));

/** Writes `text` to a new temporary file called `name`; its path. */
export function writeFile(name: string, text: string | Buffer): string {
  const path = join(tempDir('eventry-validate-'), name);
  const fd = openSync(path, 'w');
  writeSync(fd, Buffer.from(text));
  closeSync(fd);
  return path;
}

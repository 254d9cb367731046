import { createHash } from 'node:crypto';

/** A file's text by its sha256 (base64): how the parse cache and the model snapshot know a file. */
export function textDigest(text: string): string {
  return createHash('sha256').update(text).digest('base64');
}

import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * The ajv peer as a user gets it: ajv's defaults, bar `strict: false` (the schemas carry eventry's `x-`
 * annotations, which strict mode rejects as unknown keywords) and `ajv-formats` (they carry formats,
 * which ajv alone does not know). eventry's own options (`createAjv`: `ownProperties`, no messages)
 * make a separately labelled contender; the targets are judged against this one.
 */
export function createPeerAjv(options: { allErrors: boolean }): Ajv2020.default {
  const ajv = new Ajv2020.default({ strict: false, ...(options.allErrors ? { allErrors: true } : {}) });
  addFormats.default(ajv);
  return ajv;
}

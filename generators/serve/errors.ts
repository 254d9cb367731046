import { SCHEMA_LIMITS as LIMITS } from '../schema-registry/confluent-diff/verdict.js';
import type { ErrorCode } from '../shared/error-codes.js';

/**
 * Confluent Schema Registry error codes (the `error_code` of an error body), as its REST API documents
 * them. Clients branch on these numbers (40401 = no such subject), so they are part of the contract.
 */
export const ERROR_CODES = {
  subjectNotFound: 40401,
  versionNotFound: 40402,
  schemaNotFound: 40403,
  invalidSchema: 42201,
  invalidVersion: 42202,
  operationNotPermitted: 42205,
  schemaTooLarge: 42210,
  internal: 50001,
} as const satisfies Record<string, SchemaRegistryErrorCode>;

/** An `error_code` the server answers with: the `serve` area of the error-code registry. */
export type SchemaRegistryErrorCode = ErrorCode<'serve'>;

/** An answer the server gives as a Confluent error body `{error_code, message}`. */
export class SchemaRegistryError extends Error {
  constructor(
    readonly status: number,
    readonly code: SchemaRegistryErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** 404 40401. */
export const subjectNotFound = (subject: string): SchemaRegistryError =>
  new SchemaRegistryError(404, ERROR_CODES.subjectNotFound, `Subject '${subject}' not found.`);

/** 404 40402. */
export const versionNotFound = (subject: string, version: string | number): SchemaRegistryError =>
  new SchemaRegistryError(
    404,
    ERROR_CODES.versionNotFound,
    `Version ${version} not found for subject '${subject}'.`,
  );

/** 404 40403. */
export const schemaNotFound = (what: string): SchemaRegistryError =>
  new SchemaRegistryError(404, ERROR_CODES.schemaNotFound, `Schema ${what} not found.`);

/** 422 42201. */
export const invalidSchema = (why: string): SchemaRegistryError =>
  new SchemaRegistryError(422, ERROR_CODES.invalidSchema, `Invalid schema: ${why}`);

/** 422 42210: a schema over the limits a compatibility check holds a client's schema to. */
export const schemaTooLarge = (why: string): SchemaRegistryError =>
  new SchemaRegistryError(
    422,
    ERROR_CODES.schemaTooLarge,
    `Schema too large to judge: ${why} The limits: ${LIMITS.nodes} JSON objects and arrays, ${LIMITS.refs} $ref, ${LIMITS.steps} comparison steps.`,
  );

/** What every write answers: schemas change through the catalogue, not through this API. */
const READ_ONLY_MESSAGE =
  'This registry is read-only: it serves the eventry catalogue in git. To change a schema, edit the ' +
  'catalogue (catalogue/groups/<group>.yaml), pass the gate (`eventry check --base main`) in review, ' +
  'and release (`eventry version`, then merge); the registry serves the new version from then on.';

/** 422 42205. */
export const readOnly = (): SchemaRegistryError =>
  new SchemaRegistryError(422, ERROR_CODES.operationNotPermitted, READ_ONLY_MESSAGE);

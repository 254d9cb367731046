import type { IncomingMessage } from 'node:http';
import { canonicalJson, MAX_SCHEMA_DEPTH, nestsDeeperThan } from '../schema-registry/schema-text.js';
import { invalidSchema, SchemaRegistryError } from './errors.js';

/** A schema sent to a look-up or a compatibility check. */
export interface SchemaRequest {
  schema: string;
  schemaType: string;
  /** The `ruleSet` and `metadata` sent with it, in canonical JSON; undefined when neither is. */
  contract?: string;
}

/** A `{schema, schemaType?}` body; a missing schemaType means AVRO, as in Confluent. */
export function readSchemaRequest(text: string): SchemaRequest {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new SchemaRegistryError(400, 400, 'The request body is not JSON.');
  }
  const record = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  if (typeof record.schema !== 'string') {
    throw invalidSchema(
      'the request body has no `schema` string (send {"schemaType": "JSON", "schema": "..."}).',
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(record.schema);
  } catch {
    parsed = undefined; // judged by each route: not found for a look-up, invalid for a check
  }
  if (nestsDeeperThan(parsed, MAX_SCHEMA_DEPTH)) {
    throw invalidSchema(`the schema nests deeper than ${MAX_SCHEMA_DEPTH} levels.`);
  }
  const schemaType = record.schemaType === undefined ? 'AVRO' : record.schemaType;
  if (typeof schemaType !== 'string') throw invalidSchema('`schemaType` is not a string.');
  const contract = {
    ...(record.metadata === undefined ? {} : { metadata: record.metadata }),
    ...(record.ruleSet === undefined ? {} : { ruleSet: record.ruleSet }),
  };
  return {
    schema: record.schema,
    schemaType,
    ...(Object.keys(contract).length > 0 ? { contract: canonicalJson(contract) } : {}),
  };
}

/** Whether the request carries a body (a length above zero, or chunked). */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/** The body as text: at most `max` bytes, all of it arrived by `deadline` (else 413, 408). */
export function readBody(req: IncomingMessage, max: number, deadline: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    const fail = (error: SchemaRegistryError) => {
      if (failed) return;
      failed = true;
      clearTimeout(timer);
      reject(error);
    };
    const timer = setTimeout(
      () =>
        fail(
          new SchemaRegistryError(
            408,
            408,
            'The request body took too long to arrive; send it whole, then wait for the answer.',
          ),
        ),
      Math.max(0, deadline - Date.now()),
    );
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > max)
        fail(new SchemaRegistryError(413, 413, `The request body is larger than ${max} bytes.`));
      else chunks.push(chunk);
    });
    req.on('end', () => {
      if (failed) return;
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', (error) => {
      fail(new SchemaRegistryError(400, 400, `The request body could not be read: ${error.message}`));
    });
    req.on('close', () => clearTimeout(timer));
  });
}

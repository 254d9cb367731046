import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * TEST DOUBLE: the smallest writable Confluent Schema Registry that follows the published REST API for
 * the calls `eventry register` makes (GET/PUT `/config/{s}`, `POST /subjects/{s}` look-up,
 * `POST /subjects/{s}/versions` register), in memory. Ids are global and sequential, identical schema
 * texts share an id, registering a schema a subject already has returns its id without a new version,
 * as Confluent does. A version keeps the `ruleSet` and `metadata` sent with it (data contracts): the same
 * text with another contract is another schema (a new version and id, as Confluent's MockClient has it),
 * and a look-up that sends a contract matches only a version with that contract. It runs no compatibility check of its own: `refuse` simulates one. It is not a
 * registry to use; `register` has not yet been run against a live Confluent, Apicurio or Karapace.
 */
export class FakeConfluentRegistry {
  readonly subjects = new Map<string, StoredVersion[]>();
  readonly config = new Map<string, string>();
  /** Subject-level `compatibilityPolicy` (Confluent 8.x); `globalPolicy` for subjects without one. */
  readonly policies = new Map<string, string>();
  globalPolicy: string | undefined;
  /** Simulates a registry that predates policies: it drops `compatibilityPolicy` unread. */
  ignoresPolicy = false;
  /** Every request as `METHOD /path`, in order. */
  readonly requests: string[] = [];
  /** Answers 409 with this message to a registration this returns a message for. */
  refuse: ((subject: string, schema: string) => string | undefined) | undefined;
  /** When set, every request must carry this `Authorization` header (else 401). */
  requireAuthorization: string | undefined;
  private readonly ids = new Map<string, number>();
  private server: Server | undefined;
  url = '';

  /** Listens on a free loopback port. */
  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) =>
        answer(res, 500, { error_code: 50001, message: String(error) }),
      );
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Stops listening. */
  stop(): Promise<void> {
    return new Promise((resolve) => {
      this.server?.close(() => resolve());
      this.server?.closeAllConnections();
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString();
    const body = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    this.requests.push(`${req.method} ${decodeURIComponent(path)}`);
    if (this.requireAuthorization !== undefined && req.headers.authorization !== this.requireAuthorization) {
      return answer(res, 401, { error_code: 401, message: 'Unauthorized' });
    }
    const parts = path.split('/').slice(1).map(decodeURIComponent);
    if (parts[0] === 'config' && parts.length === 1 && req.method === 'GET') {
      return answer(res, 200, {
        compatibilityLevel: 'BACKWARD',
        ...(this.globalPolicy ? { compatibilityPolicy: this.globalPolicy } : {}),
      });
    }
    if (parts[0] === 'config' && parts.length === 2) {
      const subject = parts[1]!;
      if (req.method === 'GET') {
        const level = this.config.get(subject);
        if (!level)
          return answer(res, 404, {
            error_code: 40408,
            message: `Subject '${subject}' does not have subject-level compatibility configured`,
          });
        const policy = this.policies.get(subject);
        return answer(res, 200, {
          compatibilityLevel: level,
          ...(policy ? { compatibilityPolicy: policy } : {}),
        });
      }
      if (req.method === 'PUT') {
        this.config.set(subject, String(body.compatibility));
        const policy = this.ignoresPolicy ? undefined : body.compatibilityPolicy;
        if (typeof policy === 'string') this.policies.set(subject, policy);
        return answer(res, 200, {
          compatibility: body.compatibility,
          ...(typeof policy === 'string' ? { compatibilityPolicy: policy } : {}),
        });
      }
    }
    if (parts[0] === 'subjects' && parts.length >= 2) {
      const subject = parts[1]!;
      const versions = this.subjects.get(subject);
      const schema = String(body.schema);
      const contract = contractOf(body);
      const same = (version: StoredVersion) =>
        version.schema === schema && JSON.stringify(contractOf(version)) === JSON.stringify(contract);
      if (req.method === 'POST' && parts.length === 2) {
        if (!versions)
          return answer(res, 404, { error_code: 40401, message: `Subject '${subject}' not found.` });
        const found = versions.find(same);
        if (!found) return answer(res, 404, { error_code: 40403, message: 'Schema not found' });
        return answer(res, 200, { subject, ...found, schemaType: 'JSON' });
      }
      if (req.method === 'POST' && parts[2] === 'versions') {
        const existing = versions?.find(same);
        if (existing) return answer(res, 200, { id: existing.id });
        const why = this.refuse?.(subject, schema);
        if (why) return answer(res, 409, { error_code: 409, message: why });
        const identity = JSON.stringify([schema, contract]);
        let id = this.ids.get(identity);
        if (id === undefined) {
          id = this.ids.size + 1;
          this.ids.set(identity, id);
        }
        const list = versions ?? [];
        list.push({ version: list.length + 1, id, schema, ...contract });
        this.subjects.set(subject, list);
        return answer(res, 200, { id });
      }
    }
    return answer(res, 404, { error_code: 404, message: 'HTTP 404 Not Found' });
  }
}

/** One version as stored: its text, and its data contract when one was sent. */
export interface StoredVersion {
  version: number;
  id: number;
  schema: string;
  ruleSet?: unknown;
  metadata?: unknown;
}

/** The `ruleSet` and `metadata` of a request or a stored version (those it has). */
function contractOf(body: { ruleSet?: unknown; metadata?: unknown }): Record<string, unknown> {
  return {
    ...(body.ruleSet === undefined ? {} : { ruleSet: body.ruleSet }),
    ...(body.metadata === undefined ? {} : { metadata: body.metadata }),
  };
}

function answer(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/vnd.schemaregistry.v1+json' });
  res.end(text);
}

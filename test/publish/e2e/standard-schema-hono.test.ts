import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sValidator } from '@hono/standard-validator';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { Hono } from 'hono';
import { beforeAll, describe, expect, it } from 'vitest';
import { type BuiltPackages, buildPackages } from '../../emit/package/build-packages.js';
import { fixturePath, REPO, typeCheckProject } from '../../helpers.js';

/**
 * A real library that takes any Standard Schema, Hono's `@hono/standard-validator`, validates request
 * bodies with a generated group package's `standardSchemas`: a valid event reaches the handler, an
 * invalid one gets Hono's 400 with eventry's issues (the platform's details, the attrs as paths); and
 * the handler's `c.req.valid('json')` is typed as the event's interface.
 */
const KEY = 'contract-groups.version-created-v1';
const PACKAGE = '@fixture-events/billing';

let built: BuiltPackages;
let schemas: Record<string, StandardSchemaV1<unknown, { contract_group_identifier: string }>>;
beforeAll(async () => {
  built = await buildPackages(fixturePath('small'));
  const billing = (await built.importGroup('billing')) as unknown as {
    standardSchemas: typeof schemas;
    tolerantStandardSchemas: typeof schemas;
  };
  schemas = billing.standardSchemas;
}, 60_000);

function app() {
  return new Hono().post('/events', sValidator('json', schemas[KEY]!), (c) =>
    c.json({ accepted: c.req.valid('json').contract_group_identifier }, 202),
  );
}

const post = (body: unknown) =>
  app().request('/events', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

const PERIOD = { start: '2024-01-01T00:00:00Z', end: '2024-02-01T00:00:00Z' };

describe('Hono with @hono/standard-validator and an eventry standardSchema', () => {
  it('hands a valid event to the handler', async () => {
    const response = await post({
      contract_group_identifier: 'G-1',
      created_versions: [{ identifier: 'v1', effective_period: PERIOD, traits: [] }],
    });
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ accepted: 'G-1' });
  });

  it("answers 400 for an invalid one, with the platform's details and the paths of the problems", async () => {
    const body = {
      contract_group_identifier: 'G-1',
      created_versions: [
        { identifier: 'v1', effective_period: PERIOD, traits: [{ identifier: 't', data: {} }] },
        { identifier: 'v2', effective_period: PERIOD, traits: [{ identifier: 7, data: {} }] },
      ],
    };
    const response = await post(body);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      success: false,
      data: body,
      error: [
        {
          message: '`created_versions.1.traits.0.identifier` must be a string, not an integer.',
          path: ['created_versions', 1, 'traits', 0, 'identifier'],
        },
      ],
    });
  });

  it("types the handler's input as the event's interface", () => {
    for (const name of ['hono', '@hono', '@standard-schema']) {
      symlinkSync(join(REPO, 'node_modules', name), join(built.root, 'node_modules', name), 'dir');
    }
    writeFileSync(join(built.root, 'package.json'), '{ "private": true, "type": "module" }\n');
    writeFileSync(join(built.root, 'handler.ts'), HANDLER);
    // Hono's types are those of the web platform (Request, Response), as a Hono project's are.
    const checked = typeCheckProject(built.root, ['handler.ts'], WEB);
    expect(checked.output).toBe('');
    expect(checked.status).toBe(0);
    writeFileSync(join(built.root, 'wrong.ts'), HANDLER.replace('// @ts-expect-error: no such field\n', ''));
    expect(typeCheckProject(built.root, ['wrong.ts'], { skipLibCheck: true }).errors).toEqual([
      'TS2339 (line 7)',
    ]);
  });
});

const WEB = { lib: ['ES2022', 'DOM', 'DOM.Iterable'] };
const HANDLER = `import { sValidator } from '@hono/standard-validator';
import { Hono } from 'hono';
import { type ContractGroupsVersionCreatedV1, standardSchemas } from '${PACKAGE}';

export const app = new Hono().post('/events', sValidator('json', standardSchemas['${KEY}']), (c) => {
  const event: ContractGroupsVersionCreatedV1 = c.req.valid('json');
  // @ts-expect-error: no such field
  const missing = c.req.valid('json').contract_group_id;
  return c.json({ accepted: event.created_versions.map((version) => version.identifier), missing }, 202);
});
`;

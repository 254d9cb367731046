import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCandidate } from '../../generators/schema-registry/compatibility.js';
import type { History } from '../../generators/schema-registry/history.js';
import { SchemaRegistryState } from '../../generators/schema-registry/registry.js';
import { servedSchemaText } from '../../generators/schema-registry/schema-text.js';
import { type RunningRegistry, seedHistory, startRegistry } from './serve-helpers.js';

let registry: RunningRegistry;
beforeAll(async () => {
  registry = await startRegistry();
});
afterAll(() => registry.close());

const SUBJECT = 'account.created-v1';
const get = async (path: string, headers: Record<string, string> = {}) => {
  const response = await fetch(`${registry.url}${path}`, { headers });
  const text = await response.text();
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    text,
    json: () => JSON.parse(text),
  };
};

describe('eventry serve: read routes', () => {
  it('subjects, versions, raw schemas and the id routes agree with each other', async () => {
    const latest = (await get(`/subjects/${SUBJECT}/versions/latest`)).json();
    expect((await get(`/subjects/${SUBJECT}/versions/1`)).json()).toEqual(latest);
    expect((await get(`/subjects/${SUBJECT}/versions/-1`)).json()).toEqual(latest);
    expect((await get(`/subjects/${SUBJECT}/versions/1/schema`)).text).toBe(latest.schema);
    expect((await get(`/schemas/ids/${latest.id}/schema`)).text).toBe(latest.schema);
    expect((await get(`/schemas/ids/${latest.id}/subjects`)).json()).toEqual([SUBJECT]);
    expect((await get(`/schemas/ids/${latest.id}/versions`)).json()).toEqual([
      { subject: SUBJECT, version: 1 },
    ]);
    expect((await get(`/schemas/ids/${latest.id}?subject=${SUBJECT}`)).json()).toEqual({
      schema: latest.schema,
      schemaType: 'JSON',
    });
    // The event type's subject (issue 46) and the event key's.
    expect((await get('/subjects?subjectPrefix=account.created')).json()).toEqual([
      'account.created',
      SUBJECT,
    ]);
    expect((await get(`/schemas?subjectPrefix=${SUBJECT}&latestOnly=true`)).json()).toEqual([latest]);
  });

  it('types, config, mode: JSON only, the catalogue level, read-only', async () => {
    expect((await get('/schemas/types')).json()).toEqual(['JSON']);
    expect((await get('/config')).json()).toEqual({
      compatibilityLevel: 'BACKWARD',
      compatibilityPolicy: 'STRICT',
    });
    expect((await get(`/config/${SUBJECT}-value`)).json()).toEqual({
      compatibilityLevel: 'BACKWARD',
      compatibilityPolicy: 'STRICT',
    });
    expect((await get('/mode')).json()).toEqual({ mode: 'READONLY' });
  });

  it('coded errors: invalid version 42202, missing version 40402, unknown route 404, other methods 405', async () => {
    const invalid = await get(`/subjects/${SUBJECT}/versions/0`);
    expect(invalid.status).toBe(422);
    expect(invalid.json().error_code).toBe(42202);
    expect((await get(`/subjects/${SUBJECT}/versions/2`)).json()).toEqual({
      error_code: 40402,
      message: `Version 2 not found for subject '${SUBJECT}'.`,
    });
    const unknown = await get('/nothing/here');
    expect([unknown.status, unknown.json().error_code, unknown.type]).toEqual([
      404,
      404,
      'application/vnd.schemaregistry.v1+json',
    ]);
    const patch = await fetch(`${registry.url}/subjects`, { method: 'PATCH' });
    expect(patch.status).toBe(405);
    expect(((await patch.json()) as { error_code: number }).error_code).toBe(405);
  });

  it('GET / is a small index page for a browser, {} for a client; health and readiness answer', async () => {
    const page = await get('/', { accept: 'text/html' });
    expect(page.type).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('/docs/');
    expect((await get('/')).json()).toEqual({});
    expect((await get('/readyz')).json()).toMatchObject({ status: 'ok' });
  });
});

describe('/compatibility with a transitive level', () => {
  it('BACKWARD checks the latest version only, BACKWARD_TRANSITIVE every earlier one', () => {
    const current = seedHistory().current;
    const withoutField = structuredClone(current);
    withoutField.events[SUBJECT]!.fields = withoutField.events[SUBJECT]!.fields.filter(
      (f) => f.name !== 'is_imported',
    );
    const v2 = servedSchemaText(withoutField, SUBJECT);
    const history = (level: 'BACKWARD' | 'BACKWARD_TRANSITIVE'): History => ({
      points: [
        {
          label: '1.0.0',
          version: '1.0.0',
          schemas: new Map([[SUBJECT, servedSchemaText(current, SUBJECT)]]),
        },
        { label: 'working', version: '1.1.0', schemas: new Map([[SUBJECT, v2]]) },
      ],
      current: { ...current, config: { ...current.config, compatibility: { events: { [SUBJECT]: level } } } },
      warnings: [],
    });
    expect(checkCandidate(new SchemaRegistryState(history('BACKWARD')), SUBJECT, v2)).toEqual({
      ok: true,
      compatible: true,
      messages: [],
    });
    const transitive = checkCandidate(new SchemaRegistryState(history('BACKWARD_TRANSITIVE')), SUBJECT, v2);
    expect(transitive).toMatchObject({ compatible: false });
    expect('messages' in transitive && transitive.messages).toEqual([
      expect.stringMatching(
        /^BACKWARD incompatible \(against version 1\): PROPERTY_REMOVED_FROM_CLOSED_CONTENT_MODEL at #\/properties\/is_imported /,
      ),
    ]);
  });
});

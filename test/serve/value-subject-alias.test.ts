import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningRegistry, startRegistry } from './serve-helpers.js';

/**
 * `<event key>-value` (Confluent's TopicNameStrategy for a topic named by the event key) names the same
 * subject, and every answer about a subject names the subject the client asked for, as a registry
 * holding that subject would; it used to answer `"subject": "account.created-v1"`.
 */

let registry: RunningRegistry;
beforeAll(async () => {
  registry = await startRegistry();
});
afterAll(() => registry.close());

const ALIAS = 'account.created-v1-value';

describe('the -value subject alias', () => {
  it('answers version, latest, metadata and look-up with the subject asked for', async () => {
    const latest = registry.state.subjects.get('account.created-v1')!.at(-1)!;
    const get = async (path: string) => (await fetch(`${registry.url}${path}`)).json();
    for (const path of [
      `/subjects/${ALIAS}/versions/latest`,
      `/subjects/${ALIAS}/versions/1`,
      `/subjects/${ALIAS}/versions/-1`,
      `/subjects/${ALIAS}/metadata`,
    ]) {
      expect(await get(path), path).toEqual({
        subject: ALIAS,
        version: latest.version,
        id: latest.id,
        schemaType: 'JSON',
        schema: latest.schema,
      });
    }
    const lookUp = await fetch(`${registry.url}/subjects/${ALIAS}`, {
      method: 'POST',
      body: JSON.stringify({ schemaType: 'JSON', schema: latest.schema }),
    });
    expect(await lookUp.json()).toMatchObject({ subject: ALIAS, id: latest.id });
    // The subject itself still answers under its own name.
    expect(await get('/subjects/account.created-v1/versions/latest')).toMatchObject({
      subject: 'account.created-v1',
    });
  });
});

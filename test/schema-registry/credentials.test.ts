import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { displayUrl, registryAuthorization } from '../../generators/schema-registry/credentials.js';
import { tempDir } from '../helpers.js';

const basic = (userPassword: string) => `Basic ${Buffer.from(userPassword).toString('base64')}`;

describe('registryAuthorization', () => {
  const url = new URL('https://sr.example.com/ccompat/v7');
  const none = { env: {}, cwd: tempDir(), home: tempDir() };

  it('environment first: EVENTRY_REGISTRY_AUTH (basic), then EVENTRY_REGISTRY_TOKEN (bearer)', () => {
    expect(
      registryAuthorization(url, {
        ...none,
        env: { EVENTRY_REGISTRY_AUTH: 'u:p', EVENTRY_REGISTRY_TOKEN: 't' },
      }),
    ).toBe(basic('u:p'));
    expect(registryAuthorization(url, { ...none, env: { EVENTRY_REGISTRY_TOKEN: 't' } })).toBe('Bearer t');
    expect(registryAuthorization(url, none)).toBeUndefined();
  });

  it('.npmrc: the most specific path prefix of the URL wins, $VAR references expanded; the project file before the home one', () => {
    const project = tempDir();
    const home = tempDir();
    writeFileSync(
      join(project, '.npmrc'),
      `//sr.example.com/:_authToken=host-wide\n//sr.example.com/ccompat/:_authToken=${'$'}{SR_TOKEN}\n`,
    );
    writeFileSync(
      join(home, '.npmrc'),
      `//other.example.com/:_auth=${Buffer.from('a:b').toString('base64')}\n`,
    );
    expect(registryAuthorization(url, { env: { SR_TOKEN: 'secret' }, cwd: project, home })).toBe(
      'Bearer secret',
    );
    expect(registryAuthorization(new URL('https://sr.example.com/x'), { env: {}, cwd: project, home })).toBe(
      'Bearer host-wide',
    );
    expect(
      registryAuthorization(new URL('https://other.example.com/'), { env: {}, cwd: project, home }),
    ).toBe(basic('a:b'));
  });

  it('username with a base64 _password, as npm writes them', () => {
    const project = tempDir();
    writeFileSync(
      join(project, '.npmrc'),
      `//sr.example.com/:username=alice\n//sr.example.com/:_password=${Buffer.from('pw').toString('base64')}\n`,
    );
    expect(registryAuthorization(url, { env: {}, cwd: project, home: tempDir() })).toBe(basic('alice:pw'));
  });

  it('displayUrl drops the user name and password', () => {
    expect(displayUrl(new URL('https://alice:pw@sr.example.com/ccompat/'))).toBe(
      'https://sr.example.com/ccompat',
    );
  });
});

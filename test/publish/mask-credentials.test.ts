import { describe, expect, it } from 'vitest';
import { maskCredentials } from '../../generators/publish/npm.js';

const registry = 'https://deploy:p%40ss-w0rd@npm.example.com/repo/';

describe('maskCredentials: no registry credential in anything eventry publish prints', () => {
  it.each([
    ['the registry URL', registry, 'https://***@npm.example.com/repo/'],
    [
      "npm's error line with a package URL",
      'npm error 401 Unauthorized - GET https://deploy:p%40ss-w0rd@npm.example.com/repo/@s%2fa',
      'npm error 401 Unauthorized - GET https://***@npm.example.com/repo/@s%2fa',
    ],
    ['the password decoded, alone', 'auth failed for deploy with p@ss-w0rd', 'auth failed for *** with ***'],
    [
      'another URL with credentials',
      'proxy http://x:y@proxy:8080 said no',
      'proxy http://***@proxy:8080 said no',
    ],
    [
      'a URL without credentials, untouched',
      'GET https://npm.example.com/repo/',
      'GET https://npm.example.com/repo/',
    ],
  ])('%s', (_name, text, want) => {
    expect(maskCredentials(text, registry)).toBe(want);
  });

  it('does not mask ordinary words for a short user name outside a URL', () => {
    expect(maskCredentials('a user a', 'http://a:b@host/')).toBe('a user a');
  });
});

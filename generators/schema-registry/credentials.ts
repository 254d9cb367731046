import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Credentials for a schema registry, found the way Kafka tools and npm find theirs; never printed.
 * In order: `EVENTRY_REGISTRY_AUTH=user:password` (basic, as Confluent's `basic.auth.user.info`),
 * `EVENTRY_REGISTRY_TOKEN` (bearer), `user:password@` in the URL, then npm-style entries for the URL
 * in the project's `.npmrc` and `~/.npmrc` (`//host/path/:_auth`, `:_authToken`, or `:username` with a
 * base64 `:_password`), longest matching prefix first, `${VAR}` expanded as npm does.
 */
export function registryAuthorization(
  url: URL,
  options: { env?: NodeJS.ProcessEnv; cwd?: string; home?: string } = {},
): string | undefined {
  const env = options.env ?? process.env;
  if (env.EVENTRY_REGISTRY_AUTH) return `Basic ${Buffer.from(env.EVENTRY_REGISTRY_AUTH).toString('base64')}`;
  if (env.EVENTRY_REGISTRY_TOKEN) return `Bearer ${env.EVENTRY_REGISTRY_TOKEN}`;
  if (url.username) {
    const user = decodeURIComponent(url.username);
    const password = decodeURIComponent(url.password);
    return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  }
  for (const file of [
    join(options.cwd ?? process.cwd(), '.npmrc'),
    join(options.home ?? homedir(), '.npmrc'),
  ]) {
    const found = fromNpmrc(readText(file), url, env);
    if (found) return found;
  }
  return undefined;
}

/** The URL as it may be shown: without user name and password. */
export function displayUrl(url: URL): string {
  const shown = new URL(url.href);
  shown.username = '';
  shown.password = '';
  return shown.href.replace(/\/$/, '');
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function fromNpmrc(text: string | undefined, url: URL, env: NodeJS.ProcessEnv): string | undefined {
  if (text === undefined) return undefined;
  const entries = new Map<string, string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const equals = line.indexOf('=');
    if (equals === -1) continue;
    const value = line
      .slice(equals + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .replace(/\$\{([^}]+)\}/g, (_match, name: string) => env[name] ?? '');
    entries.set(line.slice(0, equals).trim(), value);
  }
  // `//host:port/a/b/` then `//host:port/a/`, ... then `//host:port/`: the most specific entry wins.
  const path = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
  const segments = path.split('/').filter((part) => part !== '');
  for (let keep = segments.length; keep >= 0; keep -= 1) {
    const prefix = `//${url.host}/${segments
      .slice(0, keep)
      .map((part) => `${part}/`)
      .join('')}`;
    const token = entries.get(`${prefix}:_authToken`);
    if (token) return `Bearer ${token}`;
    const auth = entries.get(`${prefix}:_auth`);
    if (auth) return `Basic ${auth}`;
    const username = entries.get(`${prefix}:username`);
    const password = entries.get(`${prefix}:_password`);
    if (username && password) {
      const plain = Buffer.from(password, 'base64').toString('utf8');
      return `Basic ${Buffer.from(`${username}:${plain}`).toString('base64')}`;
    }
  }
  return undefined;
}

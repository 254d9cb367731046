import { spawn } from 'node:child_process';

/** What one npm run gave back. */
export interface NpmResult {
  code: number;
  stdout: string;
  stderr: string;
  /** Wall time of the whole npm process, start included. */
  ms: number;
}

/** How to run npm: where, and with which extra configuration (`--key=value` flags). */
export interface NpmOptions {
  cwd?: string;
  /** The environment npm runs in (default: the process's); `env` goes on top. */
  baseEnv?: Readonly<Record<string, string | undefined>>;
  /** Extra environment, on top of the current one (e.g. `npm_config_userconfig` in tests). */
  env?: Record<string, string>;
  /** npm is stopped after this long, and the run counts as failed with `ETIMEDOUT` (see `registryTimeouts`). */
  deadlineMs?: number;
}

/** How long a registry may take: each request, and each npm run or fetch as a whole. */
export interface RegistryTimeouts {
  /** One request (connecting included): npm's `fetch-timeout`, and the anonymous fetch's timeout. */
  requestMs: number;
  /** One npm run, its retries included: then it is stopped. */
  deadlineMs: number;
}

/** The defaults, in seconds: a registry that is down costs a run well under a minute. */
const DEFAULT_REQUEST_SECONDS = 10;
const DEFAULT_DEADLINE_SECONDS = 40;

/**
 * The registry timeouts from `EVENTRY_REGISTRY_TIMEOUT` (seconds per request) and
 * `EVENTRY_REGISTRY_DEADLINE` (seconds per npm run), else the defaults; a message for a value that is
 * not a positive number of seconds.
 */
export function registryTimeouts(
  env: Readonly<Record<string, string | undefined>> = process.env,
): (RegistryTimeouts & { ok: true }) | { ok: false; error: string } {
  const read = (name: string, fallback: number): number | string => {
    const text = env[name];
    if (text === undefined || text === '') return fallback * 1000;
    const seconds = Number(text);
    if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 86_400)
      return `${name}=${text} is not a number of seconds (e.g. ${fallback}).`;
    return Math.round(seconds * 1000);
  };
  const requestMs = read('EVENTRY_REGISTRY_TIMEOUT', DEFAULT_REQUEST_SECONDS);
  const deadlineMs = read('EVENTRY_REGISTRY_DEADLINE', DEFAULT_DEADLINE_SECONDS);
  if (typeof requestMs === 'string') return { ok: false, error: requestMs };
  if (typeof deadlineMs === 'string') return { ok: false, error: deadlineMs };
  return { ok: true, requestMs, deadlineMs: Math.max(deadlineMs, requestMs) };
}

/**
 * npm's own network settings for `timeouts`: one request's timeout, and one quick retry instead of
 * npm's slow ones, so a dead registry is reported in seconds (docs/decisions/0041).
 */
export function npmTimeoutEnv(timeouts: RegistryTimeouts): Record<string, string> {
  return {
    npm_config_fetch_timeout: String(timeouts.requestMs),
    npm_config_fetch_retries: '1',
    npm_config_fetch_retry_mintimeout: '1000',
    npm_config_fetch_retry_maxtimeout: '2000',
  };
}

/** Runs npm and collects its output; never throws for a non-zero exit (callers read `code`). */
export type NpmRunner = (args: string[], options?: NpmOptions) => Promise<NpmResult>;

/**
 * The real npm, as a child process. Asynchronous on purpose: a registry served from this same process
 * (a test's Verdaccio) must keep answering while npm waits for it. Credentials stay npm's business:
 * it reads them from the user's `.npmrc`; eventry never sees or writes a token.
 */
export const runNpm: NpmRunner = (args, options = {}) => {
  const started = performance.now();
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  return new Promise((resolve, reject) => {
    const child = spawn(npm, args, {
      cwd: options.cwd,
      env: {
        ...(options.baseEnv ?? process.env),
        npm_config_update_notifier: 'false',
        npm_config_fund: 'false',
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: process.platform === 'win32',
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    let expired = false;
    const deadline =
      options.deadlineMs === undefined
        ? undefined
        : setTimeout(() => {
            expired = true;
            child.kill('SIGKILL');
          }, options.deadlineMs);
    child.on('error', (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(deadline);
      resolve({
        code: expired ? 1 : (code ?? 1),
        stdout: expired ? '' : Buffer.concat(out).toString('utf8'),
        stderr: expired ? deadlineText(options.deadlineMs!) : Buffer.concat(err).toString('utf8'),
        ms: performance.now() - started,
      });
    });
  });
};

/** What a run stopped at its deadline reports, as npm would report an error. */
export function deadlineText(ms: number): string {
  return `npm error code ETIMEDOUT\nnpm error the registry did not finish answering within ${ms / 1000} s (EVENTRY_REGISTRY_DEADLINE)\n`;
}

/** npm's `--json` error object (`{ error: { code, summary, detail } }`), when its output holds one. */
export interface NpmJsonError {
  code?: string;
  summary?: string;
  detail?: string;
}

/**
 * Parses npm's `--json` output. npm 11 prints the JSON on stdout, and on failure an `{ error }` object
 * (sometimes on stderr, after its log lines), so both are searched.
 */
export function parseNpmJson(result: NpmResult): { value?: unknown; error?: NpmJsonError } {
  for (const text of [result.stdout, result.stderr]) {
    const start = text.search(/^[[{]/m);
    if (start < 0) continue;
    try {
      const value = JSON.parse(text.slice(start)) as unknown;
      if (value && typeof value === 'object' && 'error' in value)
        return { error: (value as { error: NpmJsonError }).error };
      return { value };
    } catch {
      // Not JSON after all (a log line starting with a bracket): try the other stream.
    }
  }
  return {};
}

/**
 * `npm pack <spec>` of a published package into `dir`, without running its scripts. `--prefer-online`
 * makes npm revalidate its cached packument: a version published a second ago must be seen.
 */
export function packSpecArgs(spec: string, dir: string): string[] {
  return ['pack', spec, '--json', '--ignore-scripts', `--pack-destination=${dir}`, '--prefer-online'];
}

/** The tarball `npm pack --json` reports first (`id` is `name@version`, `filename` inside the destination). */
export function packedTarball(result: NpmResult): { id?: string; filename?: string } | undefined {
  const { value } = parseNpmJson(result);
  return Array.isArray(value) ? (value[0] as { id?: string; filename?: string } | undefined) : undefined;
}

/** npm's error lines without its noise (config warnings, the debug-log pointer), for messages. */
export function npmErrorText(result: NpmResult): string {
  const { error } = parseNpmJson(result);
  if (error?.summary) return [error.code, error.summary].filter(Boolean).join(': ');
  return result.stderr
    .split('\n')
    .filter((line) => line.startsWith('npm error') && !/A complete log of this run/.test(line))
    .map((line) => line.replace(/^npm error\s*/, ''))
    .join('\n')
    .trim();
}

/**
 * The flags that send npm to one registry for a scope. `--registry` alone is not enough: npm prefers
 * a `@scope:registry` line from the user's `.npmrc` for scoped names, which would publish elsewhere.
 */
export function registryFlags(registry: string, scope: string | undefined): string[] {
  return [`--registry=${registry}`, ...(scope ? [`--${scope}:registry=${registry}`] : [])];
}

/** Why `normaliseRegistry` refuses text that is no URL at all. */
export const NOT_A_URL = 'it is not a URL';

/**
 * `https://host/path` with exactly one trailing slash, as npm writes registry URLs. Throws, with a
 * message saying why, for anything but an http or https URL with a host, and for text the URL parser
 * would quietly repair (white space or control characters anywhere: a newline would otherwise vanish).
 */
export function normaliseRegistry(url: string): string {
  if (!URL.canParse(url)) throw new Error(NOT_A_URL);
  if (/[\s\u0000-\u001f\u007f]/.test(url)) throw new Error('it contains white space or a control character');
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new Error(`${parsed.protocol.slice(0, -1)}: is not a registry scheme (http or https)`);
  if (parsed.hostname === '') throw new Error('it names no host');
  return parsed.href.endsWith('/') ? parsed.href : `${parsed.href}/`;
}

/** Whether an npm failure is the registry not answering (down, unreachable, too slow), not a refusal. */
export function isUnreachable(text: string): boolean {
  return /ETIMEDOUT|ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN|ENOTFOUND|socket hang up|network timeout/i.test(
    text,
  );
}

/**
 * `text` with every credential masked: the `user:password@` of any URL in it, and the registry URL's
 * own user and password wherever else they appear (npm may print them decoded, or on their own).
 * Everything `eventry publish` prints goes through this, npm's relayed output included.
 */
export function maskCredentials(text: string, registry?: string): string {
  let masked = text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]*@/gi, '$1***@');
  if (registry !== undefined && URL.canParse(registry)) {
    const { username, password } = new URL(registry);
    const secrets = [password, username].flatMap((part) => [part, safeDecode(part)]);
    // Short values would mask ordinary words; such a value is only masked inside a URL (above).
    for (const secret of new Set(secrets.filter((part) => part.length >= 4)))
      masked = masked.split(secret).join('***');
  }
  return masked;
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** The scope of a package name (`@platform-events`), or undefined for an unscoped name. */
export function scopeOf(name: string): string | undefined {
  return name.startsWith('@') ? name.slice(0, name.indexOf('/')) : undefined;
}

import type { CompatibilityLevel } from '../model.js';
import type { DataContract } from './data-contract.js';
import type { SchemaRegistryState, SubjectVersion } from './registry.js';

/**
 * `eventry register`: pushes the release history into an existing Confluent-compatible registry. Every
 * schema is looked up first and only missing ones are registered, in history order, so a run that
 * failed half-way is simply run again. It sets subject compatibility levels and never deletes.
 */

const MEDIA_TYPE = 'application/vnd.schemaregistry.v1+json';

/** How to reach the target registry. */
export interface RegistryTarget {
  /** Base URL, without credentials. */
  url: string;
  /** `Authorization` header value, if any (never printed). */
  authorization?: string;
  /** Per-request timeout in ms (30 s by default). */
  timeoutMs?: number;
}

/** What to do for one subject's compatibility level and JSON Schema policy. */
export interface LevelPlan {
  subject: string;
  level: CompatibilityLevel;
  /** Confluent's `compatibilityPolicy` (JSON Schema: how strictly object changes are judged). */
  policy: 'STRICT' | 'LENIENT';
  /** The subject's own level in the registry; undefined when it has none (the global one applies). */
  registryLevel?: string;
  /** The policy in effect in the registry: the subject's, else the global one; undefined when neither says. */
  registryPolicy?: string;
  set: boolean;
}

/** What to do for one subject version. */
export interface VersionPlan {
  subject: string;
  version: number;
  /** The id `serve` gives it (the target assigns its own). */
  id: number;
  action: 'present' | 'register';
  /** Where the registry already has it. */
  registryId?: number;
  registryVersion?: number;
}

/** The plan of a run: compared with the registry, nothing changed yet. */
export interface RegisterPlan {
  levels: LevelPlan[];
  versions: VersionPlan[];
}

/** A registry answer that is not what was asked for. */
export interface RegistryRefusal {
  subject: string;
  version?: number;
  status: number;
  errorCode?: number;
  message: string;
}

/** What a run did. */
export interface RegisterOutcome {
  levelsSet: string[];
  /** Subjects whose config the registry took without the policy sent (one that predates policies). */
  policyIgnored: string[];
  registered: { subject: string; version: number; registryId: number }[];
  /** Set when the registry refused something: the run stopped there. */
  refused?: RegistryRefusal;
}

/**
 * Released subject versions selected by a glob (`account.*`; all without one), and how many selected
 * versions exist only in the working catalogue (pushed once released, never before).
 */
export function selectVersions(
  state: SchemaRegistryState,
  glob?: string,
): { versions: SubjectVersion[]; unreleased: number } {
  const selected = state
    .historyOrder()
    .filter((version) => glob === undefined || matchesSubjectGlob(version.subject, glob));
  const versions = selected.filter((version) => version.released);
  return { versions, unreleased: selected.length - versions.length };
}

/**
 * Whether a subject matches a `--subjects` glob: `*` any run of characters, `?` one, everything else
 * literal. Subjects have no path separators, so this is all a glob can mean here (node's
 * `path.matchesGlob` is still experimental in Node 20 and warns on every use).
 */
export function matchesSubjectGlob(subject: string, glob: string): boolean {
  const pattern = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${pattern}$`).test(subject);
}

/** A failure to talk to the registry at all (network, TLS, timeout, not a registry). */
export class RegistryUnreachable extends Error {}

/** Compares the selected history with the registry: look-ups and config reads only. */
export async function planRegister(
  state: SchemaRegistryState,
  target: RegistryTarget,
  versions: readonly SubjectVersion[],
): Promise<RegisterPlan | RegistryRefusal> {
  const subjects = [...new Set(versions.map((version) => version.subject))];
  const levels: LevelPlan[] = [];
  // A subject without a policy of its own follows the global one, which may not be STRICT.
  const global = await call(target, 'GET', '/config');
  if (global.status !== 200) return refusal('(global config)', undefined, global);
  const globalPolicy = stringField(global.body, 'compatibilityPolicy');
  const levelAnswers = await inPool(subjects, 8, async (subject) => {
    const answer = await call(target, 'GET', `/config/${encodeURIComponent(subject)}`);
    return { subject, answer };
  });
  for (const { subject, answer } of levelAnswers) {
    const level = state.levelOf(subject);
    const policy = state.compatibility.policy;
    let registryLevel: string | undefined;
    let registryPolicy = globalPolicy;
    if (answer.status === 200) {
      registryLevel = stringField(answer.body, 'compatibilityLevel');
      registryPolicy = stringField(answer.body, 'compatibilityPolicy') ?? globalPolicy;
    } else if (answer.status !== 404) return refusal(subject, undefined, answer);
    levels.push({
      subject,
      level,
      policy,
      ...(registryLevel ? { registryLevel } : {}),
      ...(registryPolicy ? { registryPolicy } : {}),
      // No policy anywhere means STRICT, Confluent's default.
      set: registryLevel !== level || (registryPolicy ?? 'STRICT') !== policy,
    });
  }
  // The contract goes with the text: a version that only changed its rules is not the one before it.
  const lookUp = (version: SubjectVersion, schema: string) =>
    call(target, 'POST', `/subjects/${encodeURIComponent(version.subject)}`, {
      schemaType: 'JSON',
      schema,
      ...version.contract,
    });
  const lookups = await inPool(versions, 8, async (version) => {
    let answer = await lookUp(version, version.schema);
    // Pushed by an eventry before the `$id` change: the registry has that version under its first text,
    // and registering the current text again would add a duplicate version after the subject's latest.
    if (answer.status === 404 && version.firstGeneration) {
      const earlier = await lookUp(version, version.firstGeneration.schema);
      if (earlier.status === 200) answer = earlier;
    }
    return { version, answer };
  });
  const plans: VersionPlan[] = [];
  for (const { version, answer } of lookups) {
    const base = { subject: version.subject, version: version.version, id: version.id };
    if (answer.status === 200) {
      plans.push({
        ...base,
        action: 'present',
        registryId: numberField(answer.body, 'id'),
        registryVersion: numberField(answer.body, 'version'),
      });
    } else if (answer.status === 404) {
      plans.push({ ...base, action: 'register' });
    } else {
      return refusal(version.subject, version.version, answer);
    }
  }
  return { levels, versions: plans };
}

/**
 * Carries a plan out: each subject's level is set before its first registration (or at once when it
 * has nothing to register), then missing versions are registered in history order. Stops at the first
 * refusal, with the registry's answer and what was done before it.
 */
export async function executeRegister(
  target: RegistryTarget,
  plan: RegisterPlan,
  schemaOf: (subject: string, version: number) => { schema: string; contract?: DataContract },
): Promise<RegisterOutcome> {
  const outcome: RegisterOutcome = { levelsSet: [], policyIgnored: [], registered: [] };
  const pendingLevels = new Map(
    plan.levels.filter((level) => level.set).map((level) => [level.subject, level]),
  );
  const setLevel = async (subject: string): Promise<RegistryRefusal | undefined> => {
    const level = pendingLevels.get(subject);
    if (!level) return undefined;
    pendingLevels.delete(subject);
    const answer = await call(target, 'PUT', `/config/${encodeURIComponent(subject)}`, {
      compatibility: level.level,
      compatibilityPolicy: level.policy,
    });
    if (answer.status !== 200) return refusal(subject, undefined, answer);
    outcome.levelsSet.push(subject);
    // Confluent answers with the config it stored; one without policies drops the field unread.
    // (STRICT is what such a registry does anyway.)
    if (level.policy !== 'STRICT' && stringField(answer.body, 'compatibilityPolicy') !== level.policy)
      outcome.policyIgnored.push(subject);
    return undefined;
  };
  for (const version of plan.versions) {
    if (version.action !== 'register') continue;
    const failed = await setLevel(version.subject);
    if (failed) return { ...outcome, refused: failed };
    const { schema, contract } = schemaOf(version.subject, version.version);
    // The rules and metadata go with the text, as Confluent's data contracts (absent: the body as ever).
    const answer = await call(target, 'POST', `/subjects/${encodeURIComponent(version.subject)}/versions`, {
      schemaType: 'JSON',
      schema,
      ...contract,
    });
    if (answer.status !== 200)
      return { ...outcome, refused: refusal(version.subject, version.version, answer) };
    outcome.registered.push({
      subject: version.subject,
      version: version.version,
      registryId: numberField(answer.body, 'id') ?? 0,
    });
  }
  for (const subject of [...pendingLevels.keys()]) {
    const failed = await setLevel(subject);
    if (failed) return { ...outcome, refused: failed };
  }
  return outcome;
}

interface Answer {
  status: number;
  body: unknown;
}

async function call(target: RegistryTarget, method: string, path: string, body?: unknown): Promise<Answer> {
  let response: Response;
  try {
    response = await fetch(`${target.url}${path}`, {
      method,
      headers: {
        accept: MEDIA_TYPE,
        ...(body === undefined ? {} : { 'content-type': MEDIA_TYPE }),
        ...(target.authorization ? { authorization: target.authorization } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(target.timeoutMs ?? 30_000),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (error as Error).message;
    throw new RegistryUnreachable(`${method} ${path}: ${why}`);
  }
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    // Not JSON (a proxy's HTML page): kept as text for the message.
  }
  return { status: response.status, body: parsed };
}

function refusal(subject: string, version: number | undefined, answer: Answer): RegistryRefusal {
  const errorCode = numberField(answer.body, 'error_code');
  const message =
    stringField(answer.body, 'message') ??
    (typeof answer.body === 'string' ? answer.body.slice(0, 200) : `HTTP ${answer.status}`);
  return {
    subject,
    ...(version === undefined ? {} : { version }),
    status: answer.status,
    ...(errorCode === undefined ? {} : { errorCode }),
    message,
  };
}

function stringField(body: unknown, name: string): string | undefined {
  const value =
    body !== null && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value : undefined;
}

function numberField(body: unknown, name: string): number | undefined {
  const value =
    body !== null && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
  return typeof value === 'number' ? value : undefined;
}

/** Maps items through `work`, at most `size` at a time, results in input order. */
async function inPool<T, R>(items: readonly T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
  return results;
}

import { displayUrl, registryAuthorization } from '../schema-registry/credentials.js';
import {
  executeRegister,
  planRegister,
  type RegisterOutcome,
  type RegisterPlan,
  type RegistryRefusal,
  RegistryUnreachable,
  selectVersions,
} from '../schema-registry/register.js';
import { SchemaRegistryState } from '../schema-registry/registry.js';
import { EXIT, type ExitStatus } from '../shared/exit-codes.js';
import type { Container } from './container.js';
import { openHistory } from './history.js';
import { usageError } from './usage-error.js';

/** Options of `eventry register`. */
export interface RegisterCommandOptions {
  registry: string;
  dryRun?: boolean;
  json?: boolean;
  /** Glob over subject names (`account.*`). */
  subjects?: string;
  catalogue?: string;
  cache?: boolean;
}

/**
 * `eventry register --registry URL`: exit 0 when the registry holds every selected version (or, with
 * `--dry-run`, the plan was made), 1 when it refused something or cannot be reached, 2 on a usage error.
 */
export async function runRegister(options: RegisterCommandOptions, io: Container): Promise<ExitStatus> {
  const { cwd } = io;
  let url: URL;
  try {
    url = new URL(options.registry);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
  } catch {
    return usageError(io, 'register', '--registry must be an http(s) URL, e.g. https://registry.example.com');
  }
  const shown = displayUrl(url);
  const history = openHistory(io, 'register', options.catalogue ?? 'catalogue', options.cache !== false);
  if (typeof history === 'number') return history;
  const state = new SchemaRegistryState(history);
  const { versions, unreleased } = selectVersions(state, options.subjects);
  if (unreleased > 0) {
    io.stderr.write(
      `eventry register: ${unreleased} version(s) of the working catalogue are not released yet and are left out (release with \`eventry version\` and commit).\n`,
    );
  }
  if (versions.length === 0) {
    io.stderr.write(
      options.subjects === undefined
        ? 'eventry register: nothing released yet (no commit records a catalogue version).\n'
        : `eventry register: no released subject matches --subjects ${options.subjects}.\n`,
    );
    return EXIT.usage;
  }
  const authorization = registryAuthorization(url, { env: io.env, cwd });
  const target = { url: shown, ...(authorization ? { authorization } : {}) };
  const print = (text: string) => io.stdout.write(text);
  try {
    const plan = await planRegister(state, target, versions);
    if ('status' in plan) {
      report(print, options, shown, undefined, {
        levelsSet: [],
        policyIgnored: [],
        registered: [],
        refused: plan,
      });
      return EXIT.problems;
    }
    if (options.dryRun) {
      report(print, options, shown, plan, undefined);
      return EXIT.ok;
    }
    const schemas = new Map(versions.map((version) => [`${version.subject}\0${version.version}`, version]));
    const outcome = await executeRegister(
      target,
      plan,
      (subject, version) => schemas.get(`${subject}\0${version}`)!,
    );
    report(print, options, shown, plan, outcome);
    return outcome.refused ? EXIT.problems : EXIT.ok;
  } catch (error) {
    if (error instanceof RegistryUnreachable) {
      io.stderr.write(`eventry register: cannot reach ${shown}: ${error.message}\n`);
      return EXIT.problems;
    }
    throw error;
  }
}

function report(
  print: (text: string) => void,
  options: RegisterCommandOptions,
  registry: string,
  plan: RegisterPlan | undefined,
  outcome: RegisterOutcome | undefined,
): void {
  if (options.json) {
    print(
      `${JSON.stringify({ registry, dryRun: options.dryRun === true, plan: plan ?? null, outcome: outcome ?? null }, null, 2)}\n`,
    );
    return;
  }
  const lines: string[] = [];
  if (plan) {
    const toRegister = plan.versions.filter((version) => version.action === 'register');
    const levels = plan.levels.filter((level) => level.set);
    lines.push(
      `eventry register → ${registry}: ${plan.levels.length} subject(s), ${plan.versions.length} version(s); ` +
        `${plan.versions.length - toRegister.length} present, ${toRegister.length} to register, ${levels.length} level(s) to set.`,
    );
    for (const level of levels) {
      lines.push(
        `  ${level.subject}: compatibility ${level.registryLevel ?? '(registry default)'} → ${level.level}, ` +
          `policy ${level.registryPolicy ?? '(registry default)'} → ${level.policy}`,
      );
    }
    for (const version of toRegister)
      lines.push(`  ${version.subject}: register version ${version.version} (id ${version.id} here)`);
    if (options.dryRun) lines.push('Dry run: nothing was changed.');
  }
  if (outcome) {
    if (plan && !options.dryRun) {
      lines.push(
        `Registered ${outcome.registered.length} version(s), set ${outcome.levelsSet.length} level(s).`,
      );
    }
    if (outcome.policyIgnored.length > 0) {
      lines.push(
        `Warning: the registry stored the level but not \`compatibilityPolicy\` for ${outcome.policyIgnored.length} subject(s) ` +
          `(${outcome.policyIgnored.slice(0, 3).join(', ')}${outcome.policyIgnored.length > 3 ? ', ...' : ''}): ` +
          'it predates JSON Schema policies and judges their changes as STRICT.',
      );
    }
    if (outcome.refused) lines.push(...refusalLines(outcome.refused, outcome));
  }
  print(`${lines.join('\n')}\n`);
}

function refusalLines(refused: RegistryRefusal, outcome: RegisterOutcome): string[] {
  const what =
    refused.version === undefined ? refused.subject : `${refused.subject} version ${refused.version}`;
  const code = refused.errorCode === undefined ? '' : `, error_code ${refused.errorCode}`;
  const lines = [`Stopped: the registry refused ${what} (HTTP ${refused.status}${code}): ${refused.message}`];
  lines.push(
    outcome.registered.length === 0
      ? 'Nothing was registered before it.'
      : `Already registered before it: ${outcome.registered.map((r) => `${r.subject} v${r.version} (registry id ${r.registryId})`).join(', ')}.`,
  );
  lines.push('Fix the cause and run `eventry register` again: it registers only what is missing.');
  return lines;
}

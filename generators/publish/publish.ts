import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  isUnreachable,
  type NpmOptions,
  type NpmRunner,
  npmErrorText,
  npmTimeoutEnv,
  parseNpmJson,
  type RegistryTimeouts,
  registryFlags,
  runNpm,
  scopeOf,
} from './npm.js';
import { NpmRegistryClient } from './npm-registry-client.js';
import { compareContents, type PackedPackage, packLocal, readTarball } from './pack.js';
import { needsContentCheck, type PlanEntry, planPublish, type RegistryState } from './plan.js';

/** Options of a publish run. */
export interface PublishOptions {
  /** The npm registry URL. */
  registry: string;
  /** The packages folder (`packages/`); every non-private package below it is a group package. */
  out: string;
  /** Plan only: check the registry, publish nothing. */
  dryRun?: boolean;
  /** npm's `--access` (`public` for a first publish of a scoped package on the public registry). */
  access?: 'public' | 'restricted';
  /** npm processes at a time. */
  concurrency?: number;
  npm?: NpmRunner;
  npmOptions?: NpmOptions;
  /** The HTTP client of the anonymous fast path (tests replace it). */
  fetch?: typeof globalThis.fetch;
  /** How long the registry may take (see `registryTimeouts`); none: npm's own settings. */
  timeouts?: RegistryTimeouts;
  /** Called once per package as it is published (progress for long runs). */
  onPublished?: (result: PublishedPackage) => void;
}

/** A package this run published. */
export interface PublishedPackage {
  name: string;
  version: string;
  tag: string;
  /** Wall time of its `npm publish`. */
  ms: number;
  size: number;
  unpackedSize: number;
}

/** Everything a publish run decided and did. */
export interface PublishOutcome {
  registry: string;
  dryRun: boolean;
  plan: PlanEntry[];
  published: PublishedPackage[];
  failed: { name: string; version: string; error: string }[];
  /** Wall time of the whole run. */
  ms: number;
}

/**
 * `eventry publish`: packs every group package and the run time package, asks the registry which
 * versions it has, and publishes only the missing ones with `npm publish`, the run time first. Idempotent: a second run, or a run after one that died
 * half-way, publishes exactly what is still missing. If any package's version is already published
 * with other content, nothing at all is published, so a registry never holds half a release.
 */
export async function publishPackages(options: PublishOptions): Promise<PublishOutcome> {
  const started = performance.now();
  const run = startRun(options);
  const plan = await planRun(run);
  const outcome: PublishOutcome = {
    registry: options.registry,
    dryRun: options.dryRun === true,
    plan,
    published: [],
    failed: [],
    ms: 0,
  };
  if (!options.dryRun && !plan.some((entry) => entry.action === 'conflict')) {
    await publishPlanned({ ...run, outcome }, plan);
    outcome.published.sort((a, b) => (a.name < b.name ? -1 : 1));
    outcome.failed.sort((a, b) => (a.name < b.name ? -1 : 1));
  }
  outcome.ms = performance.now() - started;
  return outcome;
}

/** What a publish run works with: its options, npm with the options of every call, the registry. */
interface PublishRun {
  readonly options: PublishOptions;
  readonly npm: NpmRunner;
  readonly npmOptions: NpmOptions;
  /** npm processes (and registry reads) at a time. */
  readonly limit: number;
  readonly client: NpmRegistryClient;
}

/** A run while it publishes: what it did so far, and the registry's first "not answering" error. */
interface PublishingRun extends PublishRun {
  readonly outcome: PublishOutcome;
  unreachable?: string;
}

/** npm and the registry client as the options and their timeouts say. */
function startRun(options: PublishOptions): PublishRun {
  const npm = options.npm ?? runNpm;
  const { timeouts } = options;
  const npmOptions: NpmOptions = timeouts
    ? {
        ...options.npmOptions,
        env: { ...npmTimeoutEnv(timeouts), ...options.npmOptions?.env },
        deadlineMs: timeouts.deadlineMs,
      }
    : (options.npmOptions ?? {});
  const client = new NpmRegistryClient(options.registry, {
    npm,
    npmOptions,
    fetch: options.fetch ?? globalThis.fetch,
    ...(timeouts ? { requestMs: timeouts.requestMs } : {}),
  });
  return { options, npm, npmOptions, limit: options.concurrency ?? 6, client };
}

/** Packs every package and asks the registry about each: what to publish, skip, or refuse. */
async function planRun({ options, npm, npmOptions, limit, client }: PublishRun): Promise<PlanEntry[]> {
  const dirs = findGroupPackages(options.out);
  const locals = await packLocal(dirs, npm, npmOptions);
  const unrecorded = locals.filter((local) => !local.sourceHash).map((local) => local.name);
  if (unrecorded.length > 0) {
    // Every published version must say which catalogue content it was built from.
    throw new Error(
      `${unrecorded.join(', ')} record no \`eventry.sourceHash\` in package.json: not built by \`eventry build\`; nothing was published.`,
    );
  }
  const states = await mapLimit(locals, limit, (local) => readRegistryState(client, local));
  return planPublish(locals.map((local, i) => ({ local, state: states[i]! })));
}

/** Publishes what the plan says to: the run time alone and first, then the groups (none if it failed). */
async function publishPlanned(run: PublishingRun, plan: PlanEntry[]): Promise<void> {
  // The run time goes out alone and first: a group published without it could not be installed.
  const toPublish = plan.filter((entry) => entry.action === 'publish');
  const runtime = toPublish.filter((entry) => entry.local.runtime);
  const groups = toPublish.filter((entry) => !entry.local.runtime);
  await mapLimit(runtime, 1, (entry) => publishOne(run, entry));
  if (run.outcome.failed.length === 0) {
    await mapLimit(groups, run.limit, (entry) => publishOne(run, entry));
    return;
  }
  for (const { local } of groups) {
    run.outcome.failed.push({
      name: local.name,
      version: local.version,
      error: 'not published: the run time package it depends on failed to publish',
    });
  }
}

/**
 * `npm publish` of one package, recorded as published or failed. Once the registry stops answering,
 * the packages not yet started are not tried: each would wait out its own timeout, and a dead registry
 * must end the run within a minute.
 */
async function publishOne(run: PublishingRun, { local, tag }: Extract<PlanEntry, { action: 'publish' }>) {
  const { options, outcome } = run;
  const failed = (error: string) => outcome.failed.push({ name: local.name, version: local.version, error });
  if (run.unreachable !== undefined) {
    failed(`not published: not tried, the registry had stopped answering (${run.unreachable})`);
    return;
  }
  const args = [
    'publish',
    '--json',
    '--ignore-scripts',
    `--tag=${tag}`,
    ...(options.access ? [`--access=${options.access}`] : []),
    ...registryFlags(options.registry, scopeOf(local.name)),
  ];
  const result = await run.npm(args, { ...run.npmOptions, cwd: local.dir });
  const { value } = parseNpmJson(result);
  if (result.code !== 0) {
    const error = npmErrorText(result);
    if (isUnreachable(`${error}\n${result.stderr}`)) run.unreachable ??= error.split('\n')[0];
    failed(`not published: ${error}`);
    return;
  }
  const reported = (value as Record<string, { integrity?: string }> | undefined)?.[local.name];
  if (reported?.integrity && reported.integrity !== local.integrity) {
    // The folder changed between the check and the upload: never report that as a clean publish.
    failed(
      'published, but npm uploaded other files than were checked (the folder changed during the run): ' +
        'inspect that version before anyone installs it',
    );
    return;
  }
  const done = {
    name: local.name,
    version: local.version,
    tag,
    ms: result.ms,
    size: local.size,
    unpackedSize: local.unpackedSize,
  };
  outcome.published.push(done);
  options.onPublished?.(done);
}

/** The packages below the packages folder (the groups and the run time): every folder with a package.json that is not private. */
export function findGroupPackages(out: string): string[] {
  const root = resolve(out);
  if (!existsSync(root)) throw new Error(`${out} does not exist: run \`eventry build\` first.`);
  if (!statSync(root).isDirectory()) throw new Error(`${out} is not a directory: give the packages folder.`);
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(root, entry.name))
    .filter((dir) => {
      const file = join(dir, 'package.json');
      if (!existsSync(file)) return false;
      let manifest: { private?: boolean } | null;
      try {
        manifest = JSON.parse(readFileSync(file, 'utf8')) as { private?: boolean } | null;
      } catch (error) {
        throw new Error(
          `${file} is not valid JSON (${(error as Error).message}): run \`eventry build\` again.`,
        );
      }
      return manifest?.private !== true;
    })
    .sort();
}

/** What the registry has of a local package; fetches the published tarball only if the bytes differ. */
async function readRegistryState(client: NpmRegistryClient, local: PackedPackage): Promise<RegistryState> {
  const state: RegistryState = await client.getState(local.name, local.version);
  if (!needsContentCheck(local, state)) return state;
  const dir = mkdtempSync(join(tmpdir(), 'eventry-published-'));
  try {
    const tarball = await client.downloadTarball(`${local.name}@${local.version}`, dir);
    return { ...state, differingFiles: compareContents(local, readTarball(tarball)) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Maps with at most `limit` calls in flight; results in input order. */
async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  // After a failure no more calls start: the run is over, and each would wait out its own timeout.
  let failed = false;
  const worker = async (): Promise<void> => {
    while (next < items.length && !failed) {
      const index = next++;
      try {
        results[index] = await fn(items[index]!);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}

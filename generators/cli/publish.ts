import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { whileReadingOutput } from '../execute/write.js';
import { maskCredentials, NOT_A_URL, normaliseRegistry, registryTimeouts } from '../publish/npm.js';
import { describeConflict, type PlanEntry } from '../publish/plan.js';
import { type PublishOutcome, publishPackages } from '../publish/publish.js';
import { EXIT_USAGE } from '../shared/exit-codes.js';
import { runBuild } from './build.js';

/** Options of `eventry publish`. */
export interface PublishCommandOptions {
  registry: string;
  /** The catalogue built into `out` before anything is packed. */
  catalogue: string;
  out: string;
  dryRun?: boolean;
  access?: string;
  json?: boolean;
}

/**
 * `eventry publish --registry URL`: publishes every group package whose version the registry lacks.
 * Exit 0 when everything is published (or, with --dry-run, could be), 1 on a conflict or a failed
 * upload (re-run after fixing: only what is missing goes out), 2 on bad usage.
 */
export async function runPublish(options: PublishCommandOptions): Promise<number> {
  // Every line printed goes through the mask: the registry URL may carry `user:password@`.
  const console = {
    log: (text: string) => process.stdout.write(`${maskCredentials(text, options.registry)}\n`),
    error: (text: string) => process.stderr.write(`${maskCredentials(text, options.registry)}\n`),
  };
  let registry: string;
  try {
    registry = normaliseRegistry(options.registry);
  } catch (error) {
    const why = (error as Error).message;
    console.error(
      why === NOT_A_URL
        ? `eventry: --registry ${options.registry} is not a URL (e.g. http://127.0.0.1:4873/).`
        : `eventry: error registry-url: --registry ${JSON.stringify(options.registry)} is refused: ${why} (e.g. http://127.0.0.1:4873/).`,
    );
    return EXIT_USAGE;
  }
  const timeouts = registryTimeouts();
  if ('error' in timeouts) {
    console.error(`eventry: error registry-timeout: ${timeouts.error}`);
    return EXIT_USAGE;
  }
  if (options.access !== undefined && options.access !== 'public' && options.access !== 'restricted') {
    console.error(`eventry: --access must be public or restricted, not ${options.access}.`);
    return EXIT_USAGE;
  }
  if (statSync(options.out, { throwIfNoEntry: false })?.isDirectory() === false) {
    console.error(`eventry: --out ${options.out} is not a directory (give the packages folder).`);
    return EXIT_USAGE;
  }
  // What goes out is always what the catalogue generates: the build runs first (incremental, so a
  // no-op when packages/ is up to date), and a catalogue that does not build publishes nothing.
  const built = await runBuild(
    { catalogue: options.catalogue, out: options.out },
    options.json ? { log: console.error, error: console.error } : console,
  );
  if (built !== 0) {
    console.error(
      'eventry: publish stopped before packing: the catalogue did not build; nothing was published.',
    );
    return built;
  }
  const verb = options.dryRun ? 'checking' : 'publishing';
  if (!options.json) console.log(`eventry: ${verb} the group packages in ${options.out} against ${registry}`);

  let outcome: PublishOutcome;
  try {
    // Packed and uploaded as a reader of the output: no build commits there meanwhile.
    outcome = await whileReadingOutput(resolve(options.out), () =>
      publishPackages({
        registry,
        out: options.out,
        dryRun: options.dryRun === true,
        timeouts,
        ...(options.access ? { access: options.access as 'public' | 'restricted' } : {}),
        onPublished: options.json
          ? undefined
          : (p) =>
              console.log(`published   ${p.name}@${p.version} (tag ${p.tag}, ${sizes(p)}, ${seconds(p.ms)})`),
      }),
    );
  } catch (error) {
    console.error(
      `eventry: publish stopped, nothing more was published: ${error instanceof Error ? error.message : String(error)}`,
    );
    return 1;
  }

  if (options.json) {
    console.log(JSON.stringify(toJson(outcome), null, 2));
  } else {
    printOutcome(outcome, console);
  }
  return outcome.failed.length > 0 || outcome.plan.some((entry) => entry.action === 'conflict') ? 1 : 0;
}

function printOutcome(outcome: PublishOutcome, console: Printer): void {
  const conflicts = outcome.plan.filter((entry) => entry.action === 'conflict');
  for (const entry of outcome.plan) {
    if (entry.action === 'up-to-date') console.log(`up to date  ${label(entry)}`);
    if (entry.action === 'publish' && (outcome.dryRun || conflicts.length > 0)) {
      console.log(
        `${outcome.dryRun ? 'would publish' : 'not published'} ${label(entry)} (tag ${entry.tag}, ${sizes(entry.local)})`,
      );
    }
  }
  for (const entry of conflicts) console.error(`eventry: conflict: ${describeConflict(entry)}`);
  for (const failure of outcome.failed) {
    console.error(
      `eventry: ${failure.name}@${failure.version}: ${failure.error}${authHint(failure.error, outcome.registry)}`,
    );
  }
  const count = (action: PlanEntry['action']) =>
    outcome.plan.filter((entry) => entry.action === action).length;
  const time = seconds(outcome.ms);
  if (conflicts.length > 0) {
    console.error(`eventry: ${conflicts.length} conflict(s): nothing was published (${time}).`);
  } else if (outcome.dryRun) {
    console.log(
      `eventry: dry run: ${count('publish')} to publish, ${count('up-to-date')} up to date; nothing was published (${time}).`,
    );
  } else {
    const failed =
      outcome.failed.length > 0 ? `, ${outcome.failed.length} failed (run again to publish them)` : '';
    console.log(
      `eventry: ${outcome.published.length} published, ${count('up-to-date')} up to date${failed} (${time}).`,
    );
  }
}

/** Where `eventry publish` prints: stdout and stderr, credentials masked. */
interface Printer {
  log(text: string): void;
  error(text: string): void;
}

/** A failed upload for want of credentials says where npm looks for them. */
function authHint(error: string, registry: string): string {
  if (!/E401|ENEEDAUTH|need auth|Unauthorized/i.test(error)) return '';
  const host = registry.replace(/^https?:/, '');
  return (
    `\n  npm has no credentials for ${registry}: add \`${host}:_authToken=<token>\` to your user ~/.npmrc ` +
    '(never to a committed file). A local Verdaccio accepts any value.'
  );
}

function toJson(outcome: PublishOutcome) {
  return {
    registry: outcome.registry,
    dryRun: outcome.dryRun,
    ms: Math.round(outcome.ms),
    packages: outcome.plan.map((entry) => ({
      name: entry.local.name,
      version: entry.local.version,
      action: entry.action,
      ...(entry.action === 'publish' ? { tag: entry.tag } : {}),
      ...(entry.action === 'conflict' ? { message: describeConflict(entry) } : {}),
      integrity: entry.local.integrity,
      size: entry.local.size,
      unpackedSize: entry.local.unpackedSize,
      files: entry.local.files.length,
      ...(entry.local.sourceHash ? { sourceHash: entry.local.sourceHash } : {}),
    })),
    published: outcome.published.map((p) => ({ ...p, ms: Math.round(p.ms) })),
    failed: outcome.failed,
  };
}

const label = (entry: PlanEntry): string => `${entry.local.name}@${entry.local.version}`;
const kb = (bytes: number): string => `${(bytes / 1000).toFixed(1)} kB`;
const sizes = (p: { size: number; unpackedSize: number }): string =>
  `${kb(p.size)} packed, ${kb(p.unpackedSize)} unpacked`;
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

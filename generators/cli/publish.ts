import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { whileReadingOutput } from '../execute/write.js';
import {
  maskCredentials,
  NOT_A_URL,
  normaliseRegistry,
  type RegistryTimeouts,
  registryTimeouts,
} from '../publish/npm.js';
import { describeConflict, type PlanEntry } from '../publish/plan.js';
import { type PublishOutcome, publishPackages } from '../publish/publish.js';
import { EXIT, type ExitStatus } from '../shared/exit-codes.js';
import { runBuild } from './build.js';
import type { Container, Printer } from './container.js';

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
export async function runPublish(options: PublishCommandOptions, io: Container): Promise<ExitStatus> {
  // Every line printed goes through the mask: the registry URL may carry `user:password@`.
  const print = {
    log: (text: string) => io.stdout.write(`${maskCredentials(text, options.registry)}\n`),
    error: (text: string) => io.stderr.write(`${maskCredentials(text, options.registry)}\n`),
  };
  const checked = checkArguments(options, io, print);
  if (typeof checked === 'number') return checked;
  // What goes out is always what the catalogue generates: the build runs first (incremental, so a
  // no-op when packages/ is up to date), and a catalogue that does not build publishes nothing.
  const built = await runBuild(
    { catalogue: options.catalogue, out: options.out },
    io,
    options.json ? { log: print.error, error: print.error } : print,
  );
  if (built !== 0) {
    print.error(
      'eventry: publish stopped before packing: the catalogue did not build; nothing was published.',
    );
    return built;
  }
  const verb = options.dryRun ? 'checking' : 'publishing';
  if (!options.json)
    print.log(`eventry: ${verb} the group packages in ${options.out} against ${checked.registry}`);
  const outcome = await publish(options, io, print, checked);
  if (outcome === undefined) return EXIT.problems;
  if (options.json) {
    print.log(JSON.stringify(toJson(outcome), null, 2));
  } else {
    printOutcome(outcome, print);
  }
  return outcome.failed.length > 0 || outcome.plan.some((entry) => entry.action === 'conflict')
    ? EXIT.problems
    : EXIT.ok;
}

/** The arguments of a publish once checked: the registry's URL, its timeouts, the packages folder. */
interface PublishArguments {
  registry: string;
  timeouts: RegistryTimeouts;
  out: string;
}

/** The checked arguments, or the usage exit after printing what is wrong with them. */
function checkArguments(
  options: PublishCommandOptions,
  io: Container,
  print: Printer,
): PublishArguments | ExitStatus {
  let registry: string;
  try {
    registry = normaliseRegistry(options.registry);
  } catch (error) {
    const why = (error as Error).message;
    print.error(
      why === NOT_A_URL
        ? `eventry: --registry ${options.registry} is not a URL (e.g. http://127.0.0.1:4873/).`
        : `eventry: error registry-url: --registry ${JSON.stringify(options.registry)} is refused: ${why} (e.g. http://127.0.0.1:4873/).`,
    );
    return EXIT.usage;
  }
  const timeouts = registryTimeouts(io.env);
  if (!timeouts.ok) {
    print.error(`eventry: error registry-timeout: ${timeouts.error}`);
    return EXIT.usage;
  }
  if (options.access !== undefined && options.access !== 'public' && options.access !== 'restricted') {
    print.error(`eventry: --access must be public or restricted, not ${options.access}.`);
    return EXIT.usage;
  }
  const out = resolve(io.cwd, options.out);
  if (statSync(out, { throwIfNoEntry: false })?.isDirectory() === false) {
    print.error(`eventry: --out ${options.out} is not a directory (give the packages folder).`);
    return EXIT.usage;
  }
  return { registry, timeouts, out };
}

/** Packs and publishes as a reader of the output; undefined (after saying why) when the run stopped. */
async function publish(
  options: PublishCommandOptions,
  io: Container,
  print: Printer,
  { registry, timeouts, out }: PublishArguments,
): Promise<PublishOutcome | undefined> {
  try {
    // Packed and uploaded as a reader of the output: no build commits there meanwhile.
    return await whileReadingOutput(out, () =>
      publishPackages({
        registry,
        out,
        dryRun: options.dryRun === true,
        timeouts,
        // npm runs in the command's environment (its `.npmrc` and credentials settings).
        npmOptions: { baseEnv: io.env },
        ...(options.access ? { access: options.access as 'public' | 'restricted' } : {}),
        onPublished: options.json
          ? undefined
          : (p) =>
              print.log(`published   ${p.name}@${p.version} (tag ${p.tag}, ${sizes(p)}, ${seconds(p.ms)})`),
      }),
    );
  } catch (error) {
    print.error(
      `eventry: publish stopped, nothing more was published: ${error instanceof Error ? error.message : String(error)}`,
    );
    return undefined;
  }
}

function printOutcome(outcome: PublishOutcome, print: Printer): void {
  const conflicts = outcome.plan.filter((entry) => entry.action === 'conflict');
  for (const entry of outcome.plan) {
    if (entry.action === 'up-to-date') print.log(`up to date  ${label(entry)}`);
    if (entry.action === 'publish' && (outcome.dryRun || conflicts.length > 0)) {
      print.log(
        `${outcome.dryRun ? 'would publish' : 'not published'} ${label(entry)} (tag ${entry.tag}, ${sizes(entry.local)})`,
      );
    }
  }
  for (const entry of conflicts) print.error(`eventry: conflict: ${describeConflict(entry)}`);
  for (const failure of outcome.failed) {
    print.error(
      `eventry: ${failure.name}@${failure.version}: ${failure.error}${authHint(failure.error, outcome.registry)}`,
    );
  }
  const count = (action: PlanEntry['action']) =>
    outcome.plan.filter((entry) => entry.action === action).length;
  const time = seconds(outcome.ms);
  if (conflicts.length > 0) {
    print.error(`eventry: ${conflicts.length} conflict(s): nothing was published (${time}).`);
  } else if (outcome.dryRun) {
    print.log(
      `eventry: dry run: ${count('publish')} to publish, ${count('up-to-date')} up to date; nothing was published (${time}).`,
    );
  } else {
    const failed =
      outcome.failed.length > 0 ? `, ${outcome.failed.length} failed (run again to publish them)` : '';
    print.log(
      `eventry: ${outcome.published.length} published, ${count('up-to-date')} up to date${failed} (${time}).`,
    );
  }
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

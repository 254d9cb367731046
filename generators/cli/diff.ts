import { resolve } from 'node:path';
import { checkDeclarationsAcross } from '../diff/impact.js';
import { formatGithub } from '../diff/report/github.js';
import { formatJson } from '../diff/report/json.js';
import { formatMarkdown } from '../diff/report/markdown.js';
import { buildReport, type DiffReport } from '../diff/report/report.js';
import { formatText } from '../diff/report/text.js';
import type { Severity } from '../diff/rule.js';
import { openLoader } from '../execute/fast/loader.js';
import { formatProblem } from '../load/index.js';
import type { CompatibilityLevel } from '../model.js';
import { judgeCatalogues, type Policy } from '../schema-registry/compatibility.js';
import { formatVerdicts, verdictsJson } from '../schema-registry/verdict-report.js';
import { EXIT, type ExitStatus } from '../shared/exit-codes.js';
import { catalogueFolder, directorySource } from '../sources/folder.js';
import {
  alignSources,
  type ResolvedSource,
  resolveSourcePair,
  type SourceOptions,
  type SourceResult,
} from '../sources/index.js';
import type { Container } from './container.js';
import { usageError } from './usage-error.js';

/** The report formats of `eventry diff`. */
const DIFF_FORMATS = {
  text: formatText,
  markdown: formatMarkdown,
  json: formatJson,
  github: formatGithub,
} as const satisfies Record<string, (report: DiffReport) => string>;

/** Options of `eventry diff`. */
export interface DiffCommandOptions {
  format?: keyof typeof DIFF_FORMATS;
  failOn?: 'breaking' | 'non-breaking' | 'never';
  catalogue?: string;
  /** `--level`: also report whether a Confluent registry at this level would accept each change. */
  level?: CompatibilityLevel;
  /** `--policy`: the JSON Schema policy of that registry (STRICT by default). */
  policy?: Policy;
  /** Registry for `npm:` sides (default: npm's configuration for the package's scope). */
  registry?: string;
}

/** What `--level NONE` means, printed with its verdict. */
const LEVEL_NONE_NOTE =
  'NONE: the registry checks no compatibility and accepts every new version, breaking or not; the changes above say what breaks.';

const FAILING: Record<NonNullable<DiffCommandOptions['failOn']>, readonly Severity[]> = {
  breaking: ['breaking'],
  'non-breaking': ['breaking', 'non-breaking'],
  never: [],
};

/**
 * `eventry diff OLD NEW`: prints the classified changes. Exit 1 when a change at or above `--fail-on`
 * is found, 0 otherwise, 2 when OLD or NEW cannot be read (a usage error, or a catalogue with problems).
 */
export async function runDiff(
  old: string,
  now: string,
  options: DiffCommandOptions,
  io: Container,
): Promise<ExitStatus> {
  const sourceOptions: SourceOptions = {
    cwd: io.cwd,
    env: io.env,
    catalogue: options.catalogue ?? 'catalogue',
    ...(options.registry !== undefined ? { registry: options.registry } : {}),
  };
  // Checked before any source is resolved: an `npm:` or git source costs a fetch or a checkout read.
  const name = options.format ?? 'text';
  const format = Object.hasOwn(DIFF_FORMATS, name) ? DIFF_FORMATS[name] : undefined;
  if (!format) {
    return usageError(io, 'diff', `unknown --format ${options.format}; use text, markdown, json or github.`);
  }
  // One accelerator for both sides: a file they hold alike is parsed once, and NEW starts from OLD.
  const accelerator = openLoader({
    memo: true,
    beside: true,
    readCacheOf: cacheFoldersOf([old, now], sourceOptions),
  });
  // Consumer declarations are checked against both sides together (below), not against NEW alone.
  sourceOptions.load = { accelerator, ownership: 'defer' };
  // Both sides load at once; what is printed when one cannot be used is as when OLD was read first.
  const [oldResult, newResult] = resolveSourcePair(old, now, sourceOptions);
  const oldSource = usableSource('OLD', old, oldResult, io);
  if (!oldSource) return EXIT.usage;
  const newSource = usableSource('NEW', now, newResult, io);
  if (!newSource) return EXIT.usage;
  for (const note of [...(oldSource.notes ?? []), ...(newSource.notes ?? [])])
    io.stderr.write(`eventry diff: note: ${note}\n`);
  // A published package covers one group: compare the other side on that group only.
  const [before, after] = alignSources(oldSource, newSource);
  const declarations = checkDeclarationsAcross(before.catalogue, after.catalogue);
  if (declarations.length > 0) {
    io.stderr.write(`eventry: NEW \`${now}\` does not load:\n`);
    for (const problem of declarations) io.stderr.write(`${formatProblem(problem, after.root)}\n`);
    return EXIT.usage;
  }
  const report = buildReport(
    {
      label: before.label,
      catalogue: before.catalogue,
      packageVersions: before.packageVersions,
      root: before.root,
    },
    { label: after.label, catalogue: after.catalogue, root: after.root },
  );
  let output = format(report);
  if (options.level || options.policy) {
    const level = options.level ?? 'BACKWARD';
    const policy = options.policy ?? 'STRICT';
    const verdicts = judgeCatalogues(before.catalogue, after.catalogue, level, policy);
    // At NONE a registry accepts anything: say so, lest "would accept every changed event" read as safe.
    const note = level === 'NONE' ? LEVEL_NONE_NOTE : undefined;
    const registry = { ...(verdictsJson(verdicts, level, policy) as object), ...(note ? { note } : {}) };
    output =
      options.format === 'json'
        ? `${JSON.stringify({ ...JSON.parse(output), registry }, null, 2)}\n`
        : `${output}${formatVerdicts(verdicts, level, policy)}${note ? `  ${note}\n` : ''}`;
  }
  io.stdout.write(output);
  const failing = FAILING[options.failOn ?? 'breaking'];
  return report.findings.some((finding) => failing.includes(finding.severity)) ? EXIT.problems : EXIT.ok;
}

/**
 * The folders whose projects' parse caches (an earlier `eventry build`'s) serve the load: each side
 * that is a catalogue folder, and the working directory's catalogue. Files are looked up by their
 * text's digest, so any project's parse of the same file serves; a reviewer who built the working tree
 * diffs it against its base at the price of the files that differ.
 */
function cacheFoldersOf(specs: readonly string[], options: SourceOptions): string[] {
  const folders = specs
    .filter((spec) => directorySource.claims(spec, options))
    .map((spec) => catalogueFolder(spec, options.cwd));
  return [...folders, resolve(options.cwd, options.catalogue)];
}

/** The resolved side, or undefined after printing why it cannot be used. */
function usableSource(
  role: string,
  spec: string,
  result: SourceResult,
  io: Container,
): ResolvedSource | undefined {
  if (result.ok) return result.source;
  if (result.reason === 'problems') {
    io.stderr.write(`eventry: ${role} \`${spec}\` does not load:\n`);
    for (const problem of result.problems) io.stderr.write(`${formatProblem(problem, result.root)}\n`);
  } else {
    io.stderr.write(`eventry: ${role}: ${result.message}\n`);
  }
  return undefined;
}

import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareCatalogues } from '../../generators/diff/index.js';
import { formatJson } from '../../generators/diff/report/json.js';
import { buildReport } from '../../generators/diff/report/report.js';
import { buildOpenApi } from '../../generators/emit/openapi.js';
import { loadCatalogue } from '../../generators/load/index.js';
import type { Catalogue, Field, FieldType } from '../../generators/model.js';
import { readOpenApiCatalogue } from '../../generators/sources/openapi.js';
import { formatMs, machineLine, median, timeCommand } from './measure.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = join(REPO, 'dist/scripts/eventry.js');

/** One size of synthetic catalogue, measured. */
interface ScaleRow {
  n: number;
  events: number;
  ms: number;
  diffOnly: number;
  count: number;
  bytes: number;
}

/**
 * `eventry diff` speed: two compiled seed catalogues (OpenAPI documents) in process and as a CLI
 * process, two git refs of a repository holding the seed (both loaded from git objects), and synthetic
 * catalogues of 1, 2, 5 and 10 times the seed to show the diff stays linear (ms per event).
 */
export async function runDiffBench(): Promise<string> {
  const work = mkdtempSync(join(tmpdir(), 'eventry-bench-diff-'));
  try {
    const loaded = loadCatalogue(join(REPO, 'catalogue'));
    if (!loaded.ok) throw new Error('the seed catalogue does not load');
    const seed = loaded.catalogue;
    const documents = measureDocuments(work, seed);
    const refs = measureRefs(work);
    const scales = [1, 2, 5, 10].map((n) => measureScale(seed, n));
    return formatDiffBench(seed, documents, refs, scales);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** 1. Two compiled catalogues, in process and as a CLI process; node's own start for scale. */
function measureDocuments(work: string, seed: Catalogue) {
  const before = join(work, 'before.json');
  const after = join(work, 'after.json');
  writeFileSync(before, JSON.stringify(buildOpenApi(seed), null, 2));
  writeFileSync(after, JSON.stringify(buildOpenApi(mutate(seed)), null, 2));
  let findings = 0;
  const inProcess = repeat(15, () => {
    findings = diffDocuments(readFileSync(before, 'utf8'), readFileSync(after, 'utf8')).changes;
    return undefined;
  });
  const docProcess = repeat(7, () =>
    timeCommand(process.execPath, [CLI, 'diff', before, after, '--format', 'json', '--fail-on', 'never']),
  );
  const nodeStart = repeat(7, () => timeCommand(process.execPath, ['-e', '0']));
  return { findings, inProcess, docProcess, nodeStart };
}

/** 2. Two git refs: the seed, then the seed with one field removed. */
function measureRefs(work: string): number {
  const repo = join(work, 'repo');
  cpSync(join(REPO, 'catalogue'), join(repo, 'catalogue'), { recursive: true });
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', ...args], {
      cwd: repo,
    });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'seed');
  const group = join(repo, 'catalogue/groups/account.yaml');
  writeFileSync(group, readFileSync(group, 'utf8').replace('      is_imported: {type: boolean}\n', ''));
  git('commit', '-q', '-am', 'break');
  return repeat(5, () =>
    timeCommand(process.execPath, [CLI, 'diff', 'HEAD~1', 'HEAD', '--format', 'json', '--fail-on', 'never'], {
      cwd: repo,
    }),
  );
}

/** 3. A synthetic catalogue: n renamed copies of the seed, the same mutations in each. */
function measureScale(seed: Catalogue, n: number): ScaleRow {
  const big = replicate(seed, n);
  const oldText = JSON.stringify(buildOpenApi(big), null, 2);
  const mutated = mutate(big);
  const newText = JSON.stringify(buildOpenApi(mutated), null, 2);
  let count = 0;
  const ms = repeat(n >= 5 ? 7 : 11, () => {
    count = diffDocuments(oldText, newText).changes;
    return undefined;
  });
  const diffOnly = repeat(n >= 5 ? 7 : 11, () => {
    compareCatalogues(big, mutated);
    return undefined;
  });
  return { n, events: Object.keys(seed.events).length * n, ms, diffOnly, count, bytes: oldText.length };
}

/** The bench's section of RESULTS.md. */
function formatDiffBench(
  seed: Catalogue,
  documents: ReturnType<typeof measureDocuments>,
  refs: number,
  scales: ScaleRow[],
): string {
  const { findings, inProcess, docProcess, nodeStart } = documents;
  const events = Object.keys(seed.events).length;
  const perEvent1 = scales[0]!.ms / scales[0]!.events;
  const lines = [
    `## Diff (seed catalogue: ${events} events, ${Object.keys(seed.shapes).length} shapes)`,
    '',
    `${machineLine()} Medians; "in process" is read + parse + model + diff + classify + JSON report, module loading excluded.`,
    '',
    '| comparison | median | target | |',
    '|---|---|---|---|',
    `| two compiled seed catalogues (openapi.json), in process (${findings} findings) | ${formatMs(inProcess)} | < 200 ms | ${inProcess < 200 ? 'met' : 'MISSED'} |`,
    `| the same as a CLI process (\`eventry diff a.json b.json\`, node start ${formatMs(nodeStart)} included) | ${formatMs(docProcess)} |  |  |`,
    `| two git refs of a repo holding the seed (\`eventry diff HEAD~1 HEAD\`, both loaded from git) | ${formatMs(refs)} | < 3000 ms | ${refs < 3000 ? 'met' : 'MISSED'} |`,
    '',
    'Synthetic catalogues (n renamed copies of the seed, every copy mutated alike), two compiled documents in process:',
    '',
    '| size | events | document | findings | median | ms per event | × 1x per event | diff + classify only |',
    '|---|--:|--:|--:|--:|--:|--:|--:|',
    ...scales.map(
      (s) =>
        `| ${s.n}x | ${s.events} | ${(s.bytes / 1e6).toFixed(1)} MB | ${s.count} | ${formatMs(s.ms)} | ${(s.ms / s.events).toFixed(3)} | ${(s.ms / s.events / perEvent1).toFixed(2)}× | ${formatMs(s.diffOnly)} |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}

/** The whole in-process path from two document texts to the JSON report. */
function diffDocuments(oldText: string, newText: string): { changes: number } {
  const a = readOpenApiCatalogue(oldText, 'before.json');
  const b = readOpenApiCatalogue(newText, 'after.json');
  if (!a.ok || !b.ok) throw new Error('a compiled document did not read back');
  const report = buildReport(
    { label: 'before', catalogue: a.catalogue },
    { label: 'after', catalogue: b.catalogue },
  );
  formatJson(report);
  return { changes: report.findings.length };
}

function repeat(times: number, run: () => number | undefined): number {
  const samples: number[] = [];
  for (let i = 0; i < times; i += 1) {
    const started = performance.now();
    const measured = run();
    samples.push(typeof measured === 'number' ? measured : performance.now() - started);
  }
  return median(samples);
}

/** Every tenth event gains an optional field, every tenth loses its last field, one shape relaxes a field. */
function mutate(model: Catalogue): Catalogue {
  const copy = structuredClone(model);
  Object.keys(copy.events)
    .sort()
    .forEach((key, index) => {
      const event = copy.events[key]!;
      if (index % 10 === 0) event.fields.push({ ...event.fields[0]!, name: 'bench_note', required: false });
      if (index % 10 === 1 && event.fields.length > 1) event.fields.pop();
    });
  const shape = Object.values(copy.shapes).find((s) => s.fields.some((f) => f.required));
  if (shape) shape.fields = shape.fields.map((f, i) => (i === 0 ? { ...f, required: !f.required } : f));
  return copy;
}

/** n copies of the seed under new names (types, shapes and groups suffixed), references renamed alike. */
function replicate(model: Catalogue, n: number): Catalogue {
  const out: Catalogue = { ...model, groups: [], shapes: {}, events: {} };
  for (let copy = 0; copy < n; copy += 1) {
    const shapeName = (name: string) => (copy === 0 ? name : `${name}R${copy}`);
    const renameType = (type: FieldType): FieldType =>
      type.kind === 'shape'
        ? { kind: 'shape', name: shapeName(type.name) }
        : type.kind === 'array'
          ? { kind: 'array', items: renameType(type.items) }
          : type;
    const renameFields = (fields: Field[]) => fields.map((f) => ({ ...f, type: renameType(f.type) }));
    const eventKey = (key: string, type: string) =>
      copy === 0 ? key : key.replace(type, `r${copy}_${type}`);
    const slug = (s: string) => (copy === 0 ? s : `${s}-r${copy}`);
    for (const shape of Object.values(model.shapes)) {
      out.shapes[shapeName(shape.name)] = {
        ...shape,
        name: shapeName(shape.name),
        fields: renameFields(shape.fields),
      };
    }
    for (const event of Object.values(model.events)) {
      const key = eventKey(event.key, event.type);
      out.events[key] = {
        ...event,
        key,
        type: copy === 0 ? event.type : `r${copy}_${event.type}`,
        group: slug(event.group),
        fields: renameFields(event.fields),
      };
    }
    for (const group of model.groups) {
      out.groups.push({
        ...group,
        slug: slug(group.slug),
        events: group.events.map((key) => eventKey(key, model.events[key]!.type)),
      });
    }
  }
  out.groups.sort((a, b) => (a.slug < b.slug ? -1 : 1));
  return out;
}

import { parentPort, workerData } from 'node:worker_threads';
import { FastLoad, readOnlyParseCache } from '../execute/fast/load/index.js';
import { lintSummaryLine } from '../lint/gate.js';
import { type LintSummaryData, type LintSummaryReply, sourcesDigest } from '../lint/summary-beside.js';
import { loadCatalogueFromSources, readCatalogueSources } from '../load/index.js';

// The thread of `startLintSummary` (lint/summary-beside.ts). It sits with the commands because it
// builds the loader's accelerator, as `eventry lint` does: the lint itself may not import the fast loader.

/** The summary line of the catalogue in `dir`, loaded as `eventry lint` loads it, with its sources' digest. */
function summarize({ dir, cache }: LintSummaryData): LintSummaryReply {
  const files = readCatalogueSources(dir);
  const parseCache = cache ? readOnlyParseCache([dir]) : undefined;
  const loaded = loadCatalogueFromSources(files, {
    accelerator: new FastLoad(parseCache ? { cache: parseCache } : {}),
  });
  if (!loaded.ok) return { failed: `${loaded.problems.length} problem(s) in the catalogue` };
  return { line: lintSummaryLine(loaded.catalogue, dir, files), digest: sourcesDigest(files) };
}

if (parentPort) parentPort.postMessage(summarize(workerData as LintSummaryData));

import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { OutputFile } from './emit/context.js';

/** What a write changed. */
export interface WriteReport {
  written: string[];
  unchanged: number;
  removed: string[];
}

/**
 * The single place that writes build output. Each file is written to a temporary sibling and renamed
 * over the old one, so a reader never sees half a file; files whose contents are unchanged are not
 * touched (their mtime stays); files the previous build wrote and this one no longer produces are
 * removed. Only files listed in `previous` are ever removed, so hand-kept files (CHANGELOG.md) stay.
 */
export function writeOutputs(
  root: string,
  files: OutputFile[],
  previous: readonly string[] = [],
): WriteReport {
  const report: WriteReport = { written: [], unchanged: 0, removed: [] };
  for (const file of files) {
    const target = join(root, file.path);
    if (readIfExists(target) === file.contents) {
      report.unchanged++;
      continue;
    }
    mkdirSync(dirname(target), { recursive: true });
    const temporary = `${target}.${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(temporary, file.contents);
    renameSync(temporary, target);
    report.written.push(file.path);
  }
  const produced = new Set(files.map((file) => file.path));
  for (const path of previous) {
    if (produced.has(path)) continue;
    rmSync(join(root, path), { force: true });
    report.removed.push(path);
  }
  return report;
}

/** A file's text, or undefined when it does not exist. */
export function readIfExists(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

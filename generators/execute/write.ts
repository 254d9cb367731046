/**
 * The single place that writes build output, transactionally (a redo journal, as databases do).
 *
 * The output root (`packages/`) mixes generated files with hand-kept ones (each package's CHANGELOG.md,
 * the version in package.json that `eventry version` maintains), so it cannot be swapped as a whole
 * folder. Instead `commitOutputs`:
 *   1. stages every changed file under `<root>/.eventry-staging/<id>/` and makes them durable (an fsync
 *      each, or one sync of the file system for many: `makeDurable`); an error here
 *      (e.g. ENAMETOOLONG from an over-long event key) deletes the staging folder and leaves the output
 *      untouched;
 *   2. writes the journal `<root>/.eventry-journal.json` (files to move in, files and folders to remove)
 *      to a temporary name, fsyncs it, and renames it into place: that rename is the commit point;
 *   3. applies the journal (rename each staged file over its target, remove orphans and empty folders);
 *      a top-level folder the output does not have yet (a new group package, or every one in a fresh
 *      output) is staged whole and moved in with one rename of the folder, not one per file;
 *   4. deletes the journal, then the staging folder.
 * Every build, and every command that reads the output, first calls `recoverOutput`: a journal present
 * means a commit happened, so it is applied again (each step is idempotent: a staged file already moved
 * is skipped); a staging folder without a journal is a build that died before committing and is deleted.
 * After a crash at any moment the output is therefore the last good set, or (once recovered) the new one.
 *
 * Removal is by sweep, not by memory: anything under the folders eventry owns (see `sweep.ts`) that the
 * build does not produce and that is not hand-kept goes, with the folders it leaves empty and stray
 * `*.tmp` files; so orphans from an older tool or a lost build state disappear on the next build.
 * Unchanged files are never touched (their mtime stays, which keeps rebuilds incremental).
 *
 * `EVENTRY_TEST_CRASH_AT=<phase>` makes the process SIGKILL itself at a named point (`staging-half`,
 * `before-commit`, `after-commit`, `apply-half`, `before-cleanup`; the last two also while a later
 * command recovers, so a kill during recovery is tested too); only the crash tests set it.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readIfExists } from '../shared/fs.js';
import type { CommitOptions, WriteReport, WriterFile } from './commit-types.js';
import { startStaging } from './staging.js';

/**
 * Makes the output root hold exactly `files` (plus hand-kept files), atomically as seen by any later
 * eventry command: see the comment at the top of this file.
 */
export async function commitOutputs(
  root: string,
  files: readonly WriterFile[],
  options: CommitOptions = {},
): Promise<WriteReport> {
  const staged = startStaging(root);
  await staged.add(files);
  return staged.commit(options);
}

/**
 * Writes files in place, each through a temporary sibling and a rename so a reader never sees half a
 * file; unchanged files are not touched. For single hand-kept files (`eventry version`); a build goes
 * through `commitOutputs`.
 */
export function writeOutputs(root: string, files: readonly WriterFile[]): WriteReport {
  const report: WriteReport = { written: [], unchanged: 0, removed: [], touched: [] };
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
  return report;
}

export {
  type CommitOptions,
  type FileStat,
  type FileStats,
  type SealedFile,
  type StagedFile,
  type StagingTarget,
  WriteFailure,
  type WriteReport,
  type WriterFile,
} from './commit-types.js';
export { JOURNAL_FILE, recoverOutput, STAGING_DIR, whileReadingOutput } from './recover.js';
export { type Staging, startStaging } from './staging.js';

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers.js';

// Every file eventry reads on a user's behalf goes through generators/shared/read-user-file.ts (inside
// the catalogue, a regular file, bounded, refusals coded). Any other module that reads files must be
// listed here with what it reads and why that is not a user's file: a new reader fails this test until
// it uses the helper or says why it need not.

/** Calls that read a file's content (node:fs and the shared helpers over it). */
const READ_CALL =
  /\b(readFileSync|readFile|createReadStream|readIfExists|readBytesIfExists|openIfExists|openForReading|openSync|readSync)\s*\(/;

const ALLOWED: Record<string, string> = {
  'generators/shared/read-user-file.ts': 'the one reader of user files itself',
  'generators/shared/fs.ts': 'the helpers for files eventry writes (output, state, cache)',
  'generators/shared/toolkit-files.ts': "eventry's own shipped files (precompiled validators)",
  'generators/load/sources.ts': "the catalogue walk: reads through read-user-file.ts's readRegularFile",
  'generators/cli/main.ts': "eventry's own package.json, for --version",
  'generators/cli/usage.ts': 'the declaration usage scan writes (owned by the usage-scan work)',
  'generators/docs/package-files.ts': 'the built group packages eventry wrote',
  'generators/docs/render.ts': "eventry's own templates",
  'generators/docs/site-modules.ts': "eventry's own assets",
  'generators/emit/package/runtime-package.ts': "eventry's own compiled run time",
  'generators/execute/digests.ts': 'output files eventry wrote',
  'generators/execute/durable.ts': 'output files and folders eventry wrote (fsync)',
  'generators/execute/fast/build.ts': 'output files eventry wrote',
  'generators/execute/fast/emit-cache.ts': 'the build cache eventry wrote (.eventry/cache)',
  'generators/execute/fast/emit-worker.ts': 'output files eventry wrote',
  'generators/execute/fast/folder-record.ts': 'the folder record eventry wrote',
  'generators/execute/fast/load/incremental.ts': 'a local function over catalogue text already read',
  'generators/execute/fast/load/model-snapshot.ts': 'the model snapshot eventry wrote (.eventry/cache)',
  'generators/execute/fast/load/parse-cache.ts': 'the parse cache eventry wrote (.eventry/cache)',
  'generators/execute/fast/state-file.ts': 'the build state eventry wrote',
  'generators/execute/fingerprint.ts': "the project's package.json, only to find the project folder",
  'generators/execute/lock.ts': 'the build lock eventry wrote',
  'generators/execute/output-compare.ts': 'output files eventry wrote',
  'generators/execute/output-folder.ts': "the output folder's package.json eventry wrote",
  'generators/execute/package-versions.ts': "the group packages' package.json eventry wrote",
  'generators/execute/recover.ts': 'the build journal eventry wrote',
  'generators/execute/seal.ts': 'output files eventry wrote',
  'generators/execute/stage-on-thread.ts': 'staged output eventry wrote',
  'generators/execute/write.ts': 'output files eventry wrote (the single writer compares before replacing)',
  'generators/execute/sweep.ts': 'output files eventry wrote, before removing them',
  'generators/publish/pack.ts': 'the group packages eventry built',
  'generators/publish/publish.ts': 'the group packages eventry built',
  'generators/release/version-plan.ts':
    "the group packages' package.json and CHANGELOG.md eventry wrote (the config through the helper)",
  'generators/schema-registry/credentials.ts': "the user's .npmrc files, for registry credentials",
  'generators/schema-registry/history.ts': 'the registry history cache eventry wrote',
  'generators/schema-registry/schema-text.ts': "eventry's own modules, hashed for the cache key",
  'generators/serve/docs-route.ts': 'the docs portal eventry built',
  'generators/serve/export/write.ts':
    'the static registry export eventry wrote (releases, staging, the current link)',
  'generators/serve/follow.ts':
    'the config of a catalogue the load just read (owned by the registry-server work; to move to the helper)',
  'generators/sources/folder.ts': "a folder source's package.json files eventry wrote",
  'generators/sources/git.ts': "git's own shallow file",
  'generators/sources/openapi.ts':
    'an OpenAPI document the user names on the command line (claimed only when a regular file)',
  'generators/validate/lines.ts':
    'payload files the user names on the command line, streamed with a size bound',
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The modules of generators/ that read files, by the calls above (comments left out). */
function readers(): string[] {
  return sources(join(REPO, 'generators'))
    .filter((path) => !path.includes(`${join('generators', 'runtime')}`))
    .filter((path) => {
      const code = readFileSync(path, 'utf8')
        .split('\n')
        .filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line))
        .join('\n');
      return READ_CALL.test(code);
    })
    .map((path) => relative(REPO, path).split('\\').join('/'))
    .sort();
}

describe('the one reader of user files', () => {
  it('every module that reads files is the helper, or says what it reads and why that is not a user file', () => {
    const unexplained = readers().filter((path) => !(path in ALLOWED));
    expect(unexplained, 'read user files through generators/shared/read-user-file.ts').toEqual([]);
  });

  it('lists no module that no longer reads files', () => {
    const found = new Set(readers());
    expect(Object.keys(ALLOWED).filter((path) => !found.has(path))).toEqual([]);
  });

  it('the readers of catalogue, team, consumer, allow-list, config and baseline files use the helper', () => {
    for (const path of [
      'generators/load/sources.ts',
      'generators/lint/baseline.ts',
      'generators/cli/history.ts',
      'generators/release/version-plan.ts',
    ])
      expect(readFileSync(join(REPO, path), 'utf8'), path).toMatch(/from '\.\.\/shared\/read-user-file\.js'/);
  });
});

import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempDir } from '../helpers.js';

/** A throw-away git repository for end-to-end cases: write files, commit, tag. */
export interface TestRepo {
  dir: string;
  git(...args: string[]): string;
  write(path: string, text: string): void;
  remove(path: string): void;
  /** Copies a folder into the repository (`copy(fixture, 'catalogue')`), replacing what was there. */
  copy(from: string, to: string): void;
  /** `git add -A` and commit; returns the commit id. */
  commit(message: string): string;
}

/** `git init` in a fresh temporary folder, with an identity so commits work anywhere. */
export function makeRepo(): TestRepo {
  const dir = tempDir('eventry-diff-repo-');
  const git = (...args: string[]): string =>
    execFileSync('git', args, {
      cwd: dir,
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'Test',
        GIT_AUTHOR_EMAIL: 'test@example.invalid',
        GIT_COMMITTER_NAME: 'Test',
        GIT_COMMITTER_EMAIL: 'test@example.invalid',
      },
    }).trim();
  git('init', '-q', '-b', 'main');
  return {
    dir,
    git,
    write(path, text) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    },
    remove(path) {
      rmSync(join(dir, path), { recursive: true, force: true });
    },
    copy(from, to) {
      rmSync(join(dir, to), { recursive: true, force: true });
      cpSync(from, join(dir, to), { recursive: true });
    },
    commit(message) {
      git('add', '-A');
      git('commit', '-q', '--allow-empty', '-m', message);
      return git('rev-parse', 'HEAD');
    },
  };
}

import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compiledToolkitPath, REPO } from '../../helpers.js';

/** What a finished command gave back. */
export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

function ran(result: SpawnSyncReturns<string>): Ran {
  return {
    status: result.status,
    stdout: result.stdout ?? '',
    stderr: result.stderr ?? String(result.error ?? ''),
  };
}

/**
 * Commands of one end-to-end world: a user config with the registry's dummy token (never a file of
 * the repository), npm without update notices, git with an identity.
 */
export class World {
  constructor(
    readonly npmrc: string,
    readonly registry: string,
  ) {}

  get env(): NodeJS.ProcessEnv {
    return {
      ...process.env,
      NO_COLOR: '1',
      npm_config_userconfig: this.npmrc,
      npm_config_update_notifier: 'false',
      npm_config_fund: 'false',
      npm_config_audit: 'false',
      GIT_AUTHOR_NAME: 'e2e',
      GIT_AUTHOR_EMAIL: 'e2e@example.invalid',
      GIT_COMMITTER_NAME: 'e2e',
      GIT_COMMITTER_EMAIL: 'e2e@example.invalid',
    };
  }

  /** `node dist/scripts/eventry.js ...` in `cwd`. */
  eventry(args: string[], cwd: string): Ran {
    return ran(
      spawnSync(process.execPath, [compiledToolkitPath('scripts/eventry.js'), ...args], {
        cwd,
        env: this.env,
        encoding: 'utf8',
      }),
    );
  }

  npm(args: string[], cwd: string): Ran {
    return ran(spawnSync('npm', args, { cwd, env: this.env, encoding: 'utf8' }));
  }

  git(args: string[], cwd: string): Ran {
    const result = ran(spawnSync('git', args, { cwd, env: this.env, encoding: 'utf8' }));
    if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
    return result;
  }

  /** The repository's own TypeScript compiler, on a consumer's tsconfig. */
  tsc(project: string, cwd: string): Ran {
    return ran(
      spawnSync(
        process.execPath,
        [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', project, '--pretty', 'false'],
        {
          cwd,
          env: this.env,
          encoding: 'utf8',
        },
      ),
    );
  }

  node(file: string, cwd: string): Ran {
    return ran(spawnSync(process.execPath, [file], { cwd, env: this.env, encoding: 'utf8' }));
  }
}

/** The version of a package installed in a consumer project. */
export function installedVersion(consumer: string, name: string): string {
  return (
    JSON.parse(readFileSync(join(consumer, 'node_modules', name, 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
}

/** Edits a text file in place; fails the test when the edit does not apply. */
export function editFile(path: string, edit: (text: string) => string): void {
  const before = readFileSync(path, 'utf8');
  const after = edit(before);
  if (after === before) throw new Error(`the edit of ${path} changed nothing`);
  writeFileSync(path, after);
}

/** Fails with the command's output unless it exited 0. */
export function ok(result: Ran, what: string): Ran {
  if (result.status !== 0)
    throw new Error(`${what} exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
  return result;
}

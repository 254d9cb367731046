import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compiledToolkitPath, fixturePath, REPO } from '../helpers.js';
import { makeRepo, type TestRepo } from '../sources/git-repo.js';

/** A repository whose catalogue was released twice: 1.0.0, then 1.1.0 with an optional field added. */
export function releasedTwice(): TestRepo {
  const repo = makeRepo();
  repo.copy(fixturePath('small'), 'catalogue');
  repo.commit('release 1.0.0');
  releaseNickname(repo);
  return repo;
}

/** Commits release 1.1.0 on a repository at 1.0.0 of the small fixture: `nickname` added to `account.created-v1`. */
export function releaseNickname(repo: TestRepo): void {
  const groupFile = join(repo.dir, 'catalogue/groups/account.yaml');
  repo.write(
    'catalogue/groups/account.yaml',
    readFileSync(groupFile, 'utf8').replace(
      '      is_imported: {type: boolean}\n',
      '      is_imported: {type: boolean}\n      nickname: {type: string}\n',
    ),
  );
  const config = join(repo.dir, 'catalogue/eventry.config.yaml');
  repo.write(
    'catalogue/eventry.config.yaml',
    readFileSync(config, 'utf8').replace('version: 1.0.0', 'version: 1.1.0'),
  );
  repo.commit('release 1.1.0');
}

/**
 * The rules fixture released twice: 1.0.0, then 1.1.0 with a rule added to `order.cancelled-v1` (its
 * schema unchanged, so only its data contract changes).
 */
export function releasedRules(): TestRepo {
  const repo = makeRepo();
  repo.copy(fixturePath('rules'), 'catalogue');
  repo.commit('release 1.0.0');
  const groupFile = 'catalogue/groups/orders.yaml';
  const rule = [
    '    rules:',
    '      - name: order_id_named',
    '        expr: size(message.order_id) > 0',
    '        message: A cancelled order names its order.',
  ];
  repo.write(
    groupFile,
    readFileSync(join(repo.dir, groupFile), 'utf8').replace(
      '      reason: {type: string}\n',
      ['      reason: {type: string}', ...rule, ''].join('\n'),
    ),
  );
  const config = 'catalogue/eventry.config.yaml';
  repo.write(config, readFileSync(join(repo.dir, config), 'utf8').replace('1.0.0', '1.1.0'));
  repo.commit('release 1.1.0');
  return repo;
}

/**
 * Runs the compiled CLI without blocking the event loop (a test's in-process server must keep
 * answering it, which `spawnSync` would prevent).
 */
export function runCliAsync(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [compiledToolkitPath('scripts/eventry.js'), ...args], {
    cwd: options.cwd ?? REPO,
    env: { ...process.env, NO_COLOR: '1', ...options.env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => child.once('close', (status) => resolve({ status, stdout, stderr })));
}

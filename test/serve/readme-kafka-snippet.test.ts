import { spawn } from 'node:child_process';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadHistory } from '../../generators/schema-registry/history.js';
import { REPO, tempDir } from '../helpers.js';
import { releasedTwice } from '../schema-registry/released-repo.js';
import { type RunningRegistry, startRegistry } from './serve-helpers.js';

/**
 * The Kafka client snippet of the README, taken from the README itself (so it cannot drift): it
 * type-checks in a strict TypeScript project, runs against `serve`, and the client it sets up encodes
 * with every version of a subject in one process and checks formats.
 */

const MARKER = '<!-- kafka-client-snippet';

/** The fenced block after the marker in the README. */
function readmeSnippet(): string {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const at = readme.indexOf(MARKER);
  expect(at, 'the README has the kafka-client-snippet marker').toBeGreaterThan(0);
  const block = /```ts\n([\s\S]*?)```/.exec(readme.slice(at));
  expect(block, 'a ```ts block follows the marker').not.toBeNull();
  return block![1]!;
}

/** Runs a command without blocking the event loop (the registry it talks to is in this process). */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env } });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  return new Promise<{ status: number | null; out: string }>((resolve) =>
    child.once('close', (status) => resolve({ status, out })),
  );
}

let registry: RunningRegistry;
let project: string;
beforeAll(async () => {
  const result = loadHistory({ cwd: releasedTwice().dir, env: process.env, catalogue: 'catalogue' });
  if (!result.ok) throw new Error('the released fixture does not load');
  registry = await startRegistry(result.history);
  project = tempDir('eventry-kafka-snippet-');
  symlinkSync(join(REPO, 'node_modules'), join(project, 'node_modules'), 'dir');
  writeFileSync(join(project, 'package.json'), '{ "type": "module", "private": true }\n');
  writeFileSync(join(project, 'snippet.ts'), readmeSnippet());
});
afterAll(() => registry.close());

describe("the README's Kafka client snippet", () => {
  it('type-checks (strict, NodeNext), runs, and its client handles every version and checks formats', async () => {
    const tsc = await run(
      process.execPath,
      [
        join(REPO, 'node_modules/typescript/bin/tsc'),
        '--strict',
        '--module',
        'nodenext',
        '--target',
        'es2022',
        '--types',
        'node',
        '--outDir',
        'out',
        'snippet.ts',
      ],
      project,
    );
    expect(tsc.out).toBe('');
    expect(tsc.status).toBe(0);

    const env = { SCHEMA_REGISTRY_URL: registry.url };
    const snippet = await run(process.execPath, ['out/snippet.js'], project, env);
    expect(snippet.out).toContain("account_number: 'A-1234'");
    expect(snippet.status).toBe(0);

    // The client the snippet exports, over every version of a subject and an impossible date.
    const versions = registry.state.subjects.get('account.created-v1')!.map((version) => version.id);
    expect(versions).toHaveLength(2);
    writeFileSync(
      join(project, 'check.mjs'),
      `import { registry } from './out/snippet.js';
const payload = { account_number: 'A-1', account_user_emails: [] };
const decoded = [];
for (const id of ${JSON.stringify(versions)}) decoded.push(await registry.decode(await registry.encode(id, payload)));
const bad = await registry.encode(${versions[1]}, { ...payload, opened_on: '2024-02-30' }).then(() => 'accepted', (e) => e.message);
console.log('RESULT ' + JSON.stringify({ decoded, bad }));
`,
    );
    const check = await run(process.execPath, ['check.mjs'], project, env);
    expect(check.status, check.out).toBe(0);
    const result = JSON.parse(/RESULT (.*)/.exec(check.out)![1]!) as { decoded: unknown[]; bad: string };
    expect(result.decoded).toEqual([
      { account_number: 'A-1', account_user_emails: [] },
      { account_number: 'A-1', account_user_emails: [] },
    ]);
    expect(result.bad).toBe('invalid payload');
  });
});

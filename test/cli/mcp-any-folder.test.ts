import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { compiledToolkitPath, fixturePath } from '../helpers.js';
import { makeRepo } from '../sources/git-repo.js';
import { runCliInProcess } from './in-process.js';

/**
 * An agent's client starts `eventry mcp` in a folder of its own (its configuration gives absolute paths,
 * never a `cwd`): the server reads the release history from the catalogue's repository and keeps its
 * cache there, whatever folder it runs in, and writes nothing into that folder.
 */
describe('eventry mcp started in another folder, given absolute paths', () => {
  it("serves the catalogue's releases and writes nothing where it runs", async () => {
    const repo = makeRepo();
    repo.copy(fixturePath('small'), 'catalogue');
    repo.commit('release 1.0.0');
    const packages = join(repo.dir, 'packages');
    const built = await runCliInProcess([
      'build',
      '--catalogue',
      join(repo.dir, 'catalogue'),
      '--out',
      packages,
    ]);
    expect(built.status, built.stderr).toBe(0);
    // Where the client starts it: another repository, with a history of its own.
    const elsewhere = makeRepo();
    elsewhere.write('README.md', 'not a catalogue\n');
    elsewhere.commit('unrelated');

    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        compiledToolkitPath('scripts/eventry.js'),
        'mcp',
        '--catalogue',
        join(repo.dir, 'catalogue'),
        '--packages',
        packages,
      ],
      cwd: elsewhere.dir,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const client = new Client({ name: 'eventry-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const versions = await client.callTool({
        name: 'list_versions',
        arguments: { event_type: 'account.created' },
      });
      expect(versions.isError, JSON.stringify(versions.content)).toBeFalsy();
    } finally {
      await client.close();
    }
    expect(stderr).toBe('');
    expect(readdirSync(elsewhere.dir).sort()).toEqual(['.git', 'README.md']);
    expect(existsSync(join(repo.dir, '.eventry', 'registry'))).toBe(true);
  });
});

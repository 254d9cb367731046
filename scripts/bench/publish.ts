import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type PublishOutcome, publishPackages } from '../../generators/publish/publish.js';
import { spawnRegistryProcess } from '../npm-registry/registry-process.js';
import { formatMs, machineLine, median } from './measure.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = join(REPO, 'dist/scripts/eventry.js');

/**
 * Publishes every group package of the seed catalogue to a fresh local Verdaccio (a child process on a
 * free loopback port) and installs each one into its own fresh consumer project with plain npm:
 * packed and unpacked size, `npm publish` and `npm install` wall time per package, and the totals.
 */
export async function runPublishBench(): Promise<string> {
  const work = mkdtempSync(join(tmpdir(), 'eventry-bench-publish-'));
  const out = join(work, 'packages');
  const npmrc = join(work, '.npmrc');
  let stop = async (): Promise<void> => {};
  try {
    const build = spawnSync(
      process.execPath,
      [CLI, 'build', '--catalogue', join(REPO, 'catalogue'), '--out', out],
      {
        encoding: 'utf8',
      },
    );
    if (build.status !== 0) throw new Error(`build failed: ${build.stderr}`);
    const registry = await spawnRegistryProcess(
      join(REPO, 'dist/scripts/npm-registry.js'),
      join(work, 'storage'),
    );
    stop = registry.stop;
    const host = registry.url.replace(/^http:/, '');
    writeFileSync(npmrc, `${host}:_authToken=dummy\n`);
    const env = { npm_config_userconfig: npmrc };

    const outcome = await publishPackages({ registry: registry.url, out, npmOptions: { env } });
    if (outcome.failed.length > 0 || outcome.published.length === 0) {
      throw new Error(`publish failed: ${JSON.stringify(outcome.failed)}`);
    }
    const again = await publishPackages({ registry: registry.url, out, npmOptions: { env } });
    if (again.published.length > 0) throw new Error('a second publish published again');
    const installs = new Map<string, number>();
    for (const { name } of outcome.published) {
      const consumer = join(work, 'consumers', name.replace(/[@/]/g, '_'));
      mkdirSync(consumer, { recursive: true });
      writeFileSync(
        join(consumer, 'package.json'),
        '{ "name": "consumer", "private": true, "type": "module" }\n',
      );
      const scope = name.slice(0, name.indexOf('/'));
      writeFileSync(join(consumer, '.npmrc'), `${scope}:registry=${registry.url}\n`);
      const started = performance.now();
      const result = spawnSync(
        'npm',
        ['install', `${name}@^1`, '--no-audit', '--no-fund', '--prefer-online'],
        {
          cwd: consumer,
          encoding: 'utf8',
          env: { ...process.env, ...env },
        },
      );
      if (result.status !== 0) throw new Error(`npm install ${name} failed: ${result.stderr}`);
      installs.set(name, performance.now() - started);
    }
    return formatSection(outcome, again.ms, installs);
  } finally {
    await stop();
    rmSync(work, { recursive: true, force: true });
  }
}

function formatSection(outcome: PublishOutcome, againMs: number, installs: Map<string, number>): string {
  const rows = outcome.published.map((p) => {
    const entry = outcome.plan.find((e) => e.local.name === p.name)!;
    return { ...p, files: entry.local.files.length, install: installs.get(p.name) ?? Number.NaN };
  });
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
  return [
    `## Publish and install (${rows.length} group packages, local Verdaccio)`,
    '',
    `${machineLine()} One \`eventry publish\` of every package to a fresh Verdaccio on 127.0.0.1 (npm publish,` +
      ' several at a time), then for each package a fresh consumer project and one `npm install <pkg>@^1` (scope' +
      ' pointed at the registry, `--prefer-online`). Times are whole npm processes, start included.',
    '',
    '| package | files | packed | unpacked | npm publish | npm install |',
    '|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| \`${r.name}@${r.version}\` | ${r.files} | ${kb(r.size)} | ${kb(r.unpackedSize)} | ${formatMs(r.ms)} | ${formatMs(r.install)} |`,
    ),
    `| **all ${rows.length}** | ${sum(rows.map((r) => r.files))} | ${kb(sum(rows.map((r) => r.size)))} | ` +
      `${kb(sum(rows.map((r) => r.unpackedSize)))} | median ${formatMs(median(rows.map((r) => r.ms)))} | ` +
      `median ${formatMs(median(rows.map((r) => r.install)))} |`,
    '',
    `Whole \`eventry publish\` run (pack, registry check, ${rows.length} uploads): ${formatMs(outcome.ms)}; ` +
      `a second run, everything up to date: ${formatMs(againMs)}. ` +
      `Installing one package into a fresh project: median ${formatMs(median(rows.map((r) => r.install)))}.`,
    '',
  ].join('\n');
}

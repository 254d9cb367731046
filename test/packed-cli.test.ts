import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { commandTree, inspectedProgram } from './cli/in-process.js';
import { fixturePath, REPO, tempDir } from './helpers.js';

/**
 * eventry as a user gets it: `npm pack` of the repository installed into an empty project with
 * production dependencies only (`--omit=dev`). Every command must load (`--help`), and the commands
 * that load a library on use (the build, `usage scan` with the TypeScript API, the docs) must run.
 */
const ENV = {
  ...process.env,
  NO_COLOR: '1',
  npm_config_update_notifier: 'false',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
};

function run(command: string, args: readonly string[], cwd: string) {
  const result = spawnSync(command, args, { cwd, env: ENV, encoding: 'utf8', timeout: 240_000 });
  return {
    status: result.status,
    stdout: result.stdout ?? '',
    stderr: result.stderr ?? String(result.error),
  };
}

/** Every command path of the program that runs (`build`, `usage scan`, ...), from the CLI's own registry. */
function commandPaths(): string[][] {
  return commandTree(inspectedProgram())
    .filter(({ command }) => command.commands.length === 0)
    .map(({ path }) => path);
}

let app: string;
let eventry: string;
beforeAll(() => {
  const work = tempDir('eventry-packed-');
  const packed = run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], REPO);
  expect(packed.status, packed.stderr).toBe(0);
  const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
  app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), '{ "name": "app", "private": true, "type": "module" }\n');
  const installed = run(
    'npm',
    ['install', '--omit=dev', '--ignore-scripts', '--prefer-offline', join(work, filename)],
    app,
  );
  expect(installed.status, installed.stderr).toBe(0);
  eventry = join(app, 'node_modules', '.bin', 'eventry');
});

describe('the packed eventry, installed with production dependencies only', () => {
  it('is installed without the development dependencies', () => {
    expect(existsSync(eventry)).toBe(true);
    for (const dev of ['vitest', 'verdaccio', '@biomejs/biome'])
      expect(existsSync(join(app, 'node_modules', dev)), dev).toBe(false);
  });

  it('prints its help', () => {
    const help = run(eventry, ['--help'], app);
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^Usage: eventry /);
  });

  it.each(commandPaths().map((path) => [path.join(' '), path]))('loads `%s --help`', (name, path) => {
    const help = run(eventry, [...path, '--help'], app);
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toContain(`Usage: eventry ${name} `);
  });

  it('builds a catalogue, scans a consumer project (the TypeScript API) and writes the docs', () => {
    const catalogue = join(app, 'catalogue');
    cpSync(fixturePath('small'), catalogue, { recursive: true });
    // `usage scan --team` names a team the catalogue defines.
    writeFileSync(
      join(catalogue, 'teams.yaml'),
      'teams:\n  ledger: {name: Ledger, contact: ledger@example.com}\n',
    );
    const built = run(eventry, ['build', '--catalogue', 'catalogue', '--out', 'packages'], app);
    expect(built.status, built.stderr).toBe(0);

    const project = join(app, 'consumer');
    cpSync(join(REPO, 'test', 'fixtures', 'usage', 'project'), project, { recursive: true });
    mkdirSync(join(project, 'node_modules'));
    symlinkSync(join(app, 'packages'), join(project, 'node_modules', '@fixture-events'));
    const scanned = run(
      eventry,
      ['usage', 'scan', 'consumer', '--team', 'ledger', '--catalogue', 'catalogue', '--out', 'ledger.yaml'],
      app,
    );
    expect(scanned.status, scanned.stderr).toBe(0);
    // The generated-file note, then the schema modeline, then the declaration.
    const declaration = readFileSync(join(app, 'ledger.yaml'), 'utf8').split('\n').slice(2).join('\n');
    expect(declaration).toBe(readFileSync(join(REPO, 'test', 'fixtures', 'usage', 'expected.yaml'), 'utf8'));

    const docs = run(
      eventry,
      ['docs', '--catalogue', 'catalogue', '--packages', 'packages', '--out', 'site'],
      app,
    );
    expect(docs.status, docs.stderr).toBe(0);
    expect(existsSync(join(app, 'site', 'index.html'))).toBe(true);
  });
});

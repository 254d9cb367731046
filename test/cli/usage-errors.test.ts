import { describe, expect, it } from 'vitest';
import type { Command } from '../../generators/cli/commander.js';
import { commandTree, inspectedProgram, runCliInProcess } from './in-process.js';

/**
 * Every usage error, commander's own (an unknown option or command, a missing or excess argument, an
 * option without its value) and each command's, in one style: one line saying what is wrong, then the
 * help command to run; exit 2, nothing on stdout, no stack.
 */
const program = inspectedProgram();

/** Every command, by its path (`usage scan`), parents included. */

type Case = [label: string, path: string[], args: string[]];

function casesOf({ path, command }: { path: string[]; command: Command }): Case[] {
  const name = path.join(' ');
  const cases: Case[] = [[`${name}: an unknown option`, path, [...path, '--bogus']]];
  if (command.commands.length > 0) {
    cases.push([`${name}: an unknown subcommand`, path, [...path, 'nosuchcommand']]);
    return cases;
  }
  const args = command.registeredArguments;
  if (args.some((arg) => arg.required)) cases.push([`${name}: a missing argument`, path, [...path]]);
  if (args.length === 0) cases.push([`${name}: an excess argument`, path, [...path, 'surplus']]);
  const valued = command.options.find((option) => option.required && option.long);
  if (valued) cases.push([`${name}: ${valued.long} without its value`, path, [...path, valued.long!]]);
  return cases;
}

const table: Case[] = [
  ['eventry: an unknown option', [], ['--bogus']],
  ['eventry: an unknown command', [], ['nosuchcommand']],
  ...commandTree(program).flatMap(casesOf),
  // The commands' own checks of their arguments.
  ['fake: an unknown variant', ['fake'], ['fake', 'account.created-v1', '--variant', 'huge']],
  ['serve: a port that is not one', ['serve'], ['serve', '--port', 'eighty']],
  ['register: a registry that is not a URL', ['register'], ['register', '--registry', 'ftp://x']],
  ['usage scan: a team id that is not one', ['usage', 'scan'], ['usage', 'scan', '.', '--team', 'No Team']],
  ['validate: --ndjson and a key', ['validate'], ['validate', 'a.b-v1', 'x.json', '--ndjson', 'y']],
  ...['mcp', 'register', 'docs', 'lint', 'check'].map(
    (command): Case => [
      `${command}: no catalogue folder`,
      [command],
      [
        command,
        '--catalogue',
        'no-such-catalogue',
        ...(command === 'register' ? ['-r', 'http://127.0.0.1:9/'] : []),
      ],
    ],
  ),
];

describe('usage errors: one line and the help hint, exit 2', () => {
  it('covers a missing argument or value of every command that takes one', () => {
    const labels = table.map(([label]) => label);
    for (const { path, command } of commandTree(program)) {
      if (command.commands.length > 0) continue;
      expect(labels.filter((label) => label.startsWith(`${path.join(' ')}: `)).length).toBeGreaterThan(1);
    }
  });

  it.each(table)('%s', async (_label, path, args) => {
    const result = await runCliInProcess(args, { input: '' });
    const name = ['eventry', ...path].join(' ');
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    const lines = result.stderr.split('\n');
    expect(lines, result.stderr).toHaveLength(3);
    expect(lines[0]).toMatch(new RegExp(`^${name}: \\S`));
    expect(lines[1]).toBe(`Run \`${name} --help\` for usage.`);
    expect(lines[2]).toBe('');
  });
});

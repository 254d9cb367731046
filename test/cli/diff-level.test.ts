import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, runCli } from '../helpers.js';

const fixture = (rule: string, side: 'before' | 'after') =>
  join(REPO, 'test', 'fixtures', 'diff', rule, side);
const diff = (rule: string, ...args: string[]) =>
  runCli(['diff', fixture(rule, 'before'), fixture(rule, 'after'), ...args]);

describe('eventry diff --level/--policy (compiled CLI)', () => {
  it('text: the registry verdict follows the classified changes; BACKWARD accepts an optional field, FULL does not', () => {
    const backward = diff('optional-field-added', '--level', 'BACKWARD');
    expect(backward.stderr).toBe('');
    expect(backward.stdout).toContain(
      'Schema registry verdict (Confluent BACKWARD, JSON Schema policy STRICT): a registry would accept every changed event.',
    );
    const full = diff('optional-field-added', '--level', 'FULL');
    expect(full.stdout).toMatch(
      /Schema registry verdict \(Confluent FULL, JSON Schema policy STRICT\): 1 event\(s\) a registry would refuse\.\n {2}\S+: incompatible\n {4}- FORWARD incompatible: \[optional-field-added\] .*PROPERTY_REMOVED_FROM_CLOSED_CONTENT_MODEL/,
    );
  });

  it('json: a `registry` member beside the changes, with rule, direction and difference', () => {
    const result = diff(
      'required-field-added',
      '--format',
      'json',
      '--level',
      'BACKWARD_TRANSITIVE',
      '--policy',
      'LENIENT',
    );
    const json = JSON.parse(result.stdout) as { changes: unknown[]; registry: Record<string, unknown> };
    expect(json.changes.length).toBeGreaterThan(0);
    expect(json.registry).toMatchObject({ level: 'BACKWARD_TRANSITIVE', policy: 'LENIENT' });
    const [event] = json.registry.events as { status: string; rules: unknown[] }[];
    expect(event!.status).toBe('incompatible');
    expect(event!.rules).toEqual([
      {
        direction: 'backward',
        rule: 'required-field-added',
        attr: 'lines[].unit',
        breaks: 'producers',
        difference: 'REQUIRED_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL',
      },
    ]);
  });

  it('without --level the report is unchanged', () => {
    expect(diff('optional-field-added').stdout).not.toContain('Schema registry verdict');
  });

  it('an unknown level is a usage error (exit 2)', () => {
    const result = diff('optional-field-added', '--level', 'SIDEWAYS');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('SIDEWAYS');
  });
});

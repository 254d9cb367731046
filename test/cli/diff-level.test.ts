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
      /Schema registry verdict \(Confluent FULL, JSON Schema policy STRICT\): 1 event\(s\) a registry would refuse\.\n {2}\S+: incompatible\n {4}- FORWARD incompatible: PROPERTY_REMOVED_FROM_CLOSED_CONTENT_MODEL at #\/properties\/coupon — .*\[optional-field-added\]/,
    );
    // Since DGS-24228 a LENIENT registry accepts a property removed from a closed model.
    expect(diff('optional-field-added', '--level', 'FULL', '--policy', 'LENIENT').stdout).toContain(
      'a registry would accept every changed event',
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
        difference: 'REQUIRED_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL',
        path: '#/properties/lines/items/properties/unit',
        rule: 'required-field-added',
        attr: 'lines[].unit',
        breaks: 'producers',
      },
    ]);
  });

  it('field-renamed-judged-compatible: a rename is refused at FULL STRICT, never "accept every changed event" under a breaking finding', () => {
    const full = diff('field-renamed', '--level', 'FULL');
    expect(full.stdout).not.toContain('a registry would accept every changed event');
    expect(full.stdout).toMatch(
      /BACKWARD incompatible: PROPERTY_REMOVED_FROM_CLOSED_CONTENT_MODEL at #\/properties\/note /,
    );
  });

  it("where eventry's gate is stricter than the registry, it says so and why (format change)", () => {
    const result = diff('format-changed', '--level', 'FULL', '--format', 'json');
    const { registry } = JSON.parse(result.stdout) as {
      registry: { events: { status: string; stricter: { rule: string; why: string }[] }[] };
    };
    expect(registry.events[0]!.status).toBe('compatible');
    expect(registry.events[0]!.stricter).toContainEqual(
      expect.objectContaining({ rule: 'format-changed', why: expect.stringContaining('ignores `format`') }),
    );
    expect(diff('format-changed', '--level', 'BACKWARD').stdout).toContain(
      "eventry's gate is stricter here (BACKWARD): [format-changed]",
    );
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

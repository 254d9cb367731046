import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { defineEvent } from '../../generators/runtime/event-entry.js';
import type { CompiledExports, CompiledValidator } from '../../generators/runtime/runtime.js';
import { type BuiltPackages, buildPackages } from '../emit/package/build-packages.js';
import { REPO } from '../helpers.js';

/**
 * An event's entry point runs on `event-runtime.js`, the bundle of event-entry.ts, whose `defineEvent`
 * runs only code of the same build (docs/decisions/0198): every event of the catalogue answers there
 * exactly as its group, on the run time's full `defineEvent`, answers.
 */
let built: BuiltPackages;
beforeAll(async () => {
  built = await buildPackages(join(REPO, 'catalogue'));
}, 120_000);

/**
 * Compares, in a plain Node process (vitest's module pipeline transforms every module a test imports,
 * far too slowly for 276 entry points), each event's entry point with its group on the event's examples
 * and their variants (each top-level field removed or given an odd value, an extra field, non-objects),
 * in each mode: `validate`'s result, `isEvent`, what `assertEvent` throws. Prints the count and the
 * keys that disagree.
 */
const COMPARE = `
import { readFileSync } from 'node:fs';
const [out, groups] = JSON.parse(process.argv[1]);
const OPTIONS = [undefined, { mode: 'tolerant', maxErrors: 1 }];
const ODD = [null, 1.5, 'x', [1]];
function variants(payload) {
  const out = [payload, { ...payload, not_in_the_schema: 1 }, null, [], 'text', 7];
  for (const field of Object.keys(payload)) {
    const { [field]: _, ...without } = payload;
    out.push(without);
    for (const value of ODD) out.push({ ...payload, [field]: value });
  }
  return out;
}
function outcome(validate, isEvent, assertEvent, payload, options) {
  let thrown;
  try { assertEvent(payload, options); } catch (error) { thrown = [error.name, error.message, error.body]; }
  return [validate(payload, options), isEvent(payload, options), thrown];
}
let compared = 0;
const differ = [];
for (const [slug, keys] of groups) {
  const index = await import(\`\${out}/\${slug}/index.js\`);
  for (const key of keys) {
    const entry = await import(\`\${out}/\${slug}/events/\${key}.js\`);
    const examples = JSON.parse(readFileSync(new URL(\`\${out}/\${slug}/examples/\${key}.json\`), 'utf8'));
    const byEntry = [];
    const byGroup = [];
    for (const example of Object.values(examples))
      for (const payload of variants(example))
        for (const options of OPTIONS) {
          byEntry.push(outcome(entry.validate, entry.isEvent, entry.assertEvent, payload, options));
          byGroup.push(outcome((p, o) => index.validate(key, p, o), (p, o) => index.isEvent(key, p, o),
            (p, o) => index.assertEvent(key, p, o), payload, options));
        }
    if (JSON.stringify(byEntry) !== JSON.stringify(byGroup)) differ.push(key);
    compared += byEntry.length;
  }
}
console.log(JSON.stringify({ compared, differ }));
`;

describe("an event's entry point and its group agree", () => {
  it('on every event of the two largest groups: examples, their variants, both modes', () => {
    const groups = [...built.catalogue.groups]
      .sort((a, b) => b.events.length - a.events.length)
      .slice(0, 2)
      .map((group) => [group.slug, group.events]);
    const printed = execFileSync(
      process.execPath,
      ['--input-type=module', '-e', COMPARE, JSON.stringify([pathToFileURL(built.out).href, groups])],
      { encoding: 'utf8', maxBuffer: 1 << 24 },
    );
    const { compared, differ } = JSON.parse(printed) as { compared: number; differ: string[] };
    expect(differ).toEqual([]);
    expect(compared).toBeGreaterThan(5_000);
  }, 120_000);

  it('on any value, as property-generated payloads', async () => {
    const group = built.catalogue.groups.find((candidate) => candidate.slug === 'billing')!;
    const index = await built.importGroup(group.slug);
    const entries = await Promise.all(group.events.map((key) => built.importEvent(group.slug, key)));
    fc.assert(
      fc.property(fc.nat(group.events.length - 1), fc.anything(), (at, payload) => {
        expect(entries[at]!.validate(payload)).toEqual(index.validate(group.events[at]!, payload));
      }),
      { numRuns: 500 },
    );
  });

  it('throw the one EventValidationError class of the process', async () => {
    const group = built.catalogue.groups[0]!;
    const entry = (await built.importEvent(group.slug, group.events[0]!)) as never as {
      EventValidationError: unknown;
    };
    const runtime = await import(pathToFileURL(join(built.out, 'runtime', 'runtime.js')).href);
    expect(entry.EventValidationError).toBe(runtime.EventValidationError);
  });
});

describe("the entry point's defineEvent", () => {
  const earlier =
    (context: unknown) =>
    (exports: CompiledExports): CompiledValidator => {
      exports.context = context;
      exports.entry = () => ({ valid: true });
      return () => true;
    };

  it('refuses code generated for another run time, naming the event, rather than run it the wrong way', () => {
    for (const context of ['open', 'argument', undefined]) {
      expect(() => defineEvent('a.created-v1', earlier(context))).toThrow(
        'eventry: the validator of `a.created-v1` was not generated for this run time (context "list"); rebuild the package.',
      );
    }
  });

  it("gives code of the same build its entry as `validate`, and `isEvent` that result's validity", () => {
    const api = defineEvent('a.created-v1', (exports) => {
      exports.context = 'list';
      exports.entry = (payload) => (payload === 1 ? exports.valid! : exports.failedWith!([], undefined));
      return () => undefined;
    });
    expect(api.validate(1)).toEqual({ valid: true });
    expect(api.isEvent(1)).toBe(true);
    expect(api.isEvent(2)).toBe(false);
  });
});

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OutputFile } from '../../../generators/emit/context.js';
import type { EmitCache, FastContext as EmitContext } from '../../../generators/execute/fast/emit-context.js';
import { groupPackageUnits } from '../../../generators/execute/fast/group-units.js';
import type { Catalogue } from '../../../generators/model.js';
import { validationSchema } from '../../../generators/schema/json-schema.js';
import { loadValid, REPO } from '../../helpers.js';

// A group generated again (its description edited, or one of its events) takes the validator code of
// each validation schema it finds in the last build's cache entry, instead of compiling it.

/** An in-memory emit cache one build deep, as the disk cache is (entries JSON-copied). */
function memoryCache(): EmitCache & {
  entries: Map<string, { key: string; files: OutputFile[]; extra?: unknown }>;
} {
  const entries = new Map<string, { key: string; files: OutputFile[]; extra?: unknown }>();
  const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
  return {
    entries,
    get: (unit, key) => (entries.get(unit)?.key === key ? copy(entries.get(unit)!.files) : undefined),
    set: (unit, key, files, extra) => void entries.set(unit, copy({ key, files, extra })),
    last: (unit) => {
      const entry = entries.get(unit);
      return entry && copy({ files: entry.files, extra: entry.extra });
    },
  };
}

const plain: EmitContext = { readExisting: () => undefined };

async function generate(model: Catalogue, slug: string, context: EmitContext): Promise<Map<string, string>> {
  const [unit] = groupPackageUnits(model, context, new Set([slug]));
  return new Map((await unit!.files()).map((file) => [file.path, file.contents!]));
}

function withGroupDescription(model: Catalogue, slug: string, description: string): Catalogue {
  return { ...model, groups: model.groups.map((g) => (g.slug === slug ? { ...g, description } : g)) };
}

function withEventTitle(model: Catalogue, key: string, title: string): Catalogue {
  const events = Object.assign(Object.create(null), model.events) as Catalogue['events'];
  events[key] = { ...model.events[key]!, title };
  return { ...model, events };
}

/** The event with its first field's required flag flipped: a change of what its validator checks. */
function withFirstFieldFlipped(model: Catalogue, key: string): Catalogue {
  const events = Object.assign(Object.create(null), model.events) as Catalogue['events'];
  const event = model.events[key]!;
  events[key] = {
    ...event,
    fields: event.fields.map((field, i) => (i === 0 ? { ...field, required: !field.required } : field)),
  };
  return { ...model, events };
}

describe('validators taken from the last build when their schemas are unchanged', () => {
  const model = loadValid(join(REPO, 'catalogue'));
  const group = model.groups.find((g) => g.events.length > 8)!;
  // Two events of different validators (events of the same fields share one, and its place).
  const schema = (key: string) => JSON.stringify(validationSchema(model, key));
  const first = group.events[0]!;
  const second = group.events.find((key) => schema(key) !== schema(first))!;

  it('an edited group and an edited event give the files a build without cache gives', async () => {
    const cache = memoryCache();
    const context = { ...plain, cache };
    const versions = [
      model,
      withGroupDescription(model, group.slug, 'Edited.'),
      withEventTitle(withGroupDescription(model, group.slug, 'Edited.'), first, 'Edited title'),
      withFirstFieldFlipped(model, first),
      model,
    ];
    for (const version of versions) {
      expect(await generate(version, group.slug, context)).toEqual(
        await generate(version, group.slug, plain),
      );
    }
  });

  it('takes the last entry’s code for an unchanged schema and compiles a changed one', async () => {
    const cache = memoryCache();
    const context = { ...plain, cache };
    await generate(model, group.slug, context);
    // Mark the two events' code in the entry (same length, so every recorded place stays right).
    const entry = [...cache.entries.values()][0]!;
    const places = entry.extra as { key: string; file: string; start: number; end: number }[];
    for (const key of [first, second]) {
      const place = places.find((p) => p.key === key)!;
      const file = entry.files.find((f) => f.path === place.file)!;
      const mark = `/*taken ${key}*/`.padEnd(place.end - place.start, ' ');
      file.contents = file.contents!.slice(0, place.start) + mark + file.contents!.slice(place.end);
    }
    // The group's description and an event's title change no validation schema; a field's required
    // flag changes the first event's.
    const retitled = withEventTitle(
      withGroupDescription(model, group.slug, 'Edited.'),
      first,
      'Edited title',
    );
    const kept = [...(await generate(retitled, group.slug, context)).values()].join('\n');
    expect(kept).toContain(`/*taken ${first}*/`);
    expect(kept).toContain(`/*taken ${second}*/`);
    const edited = withFirstFieldFlipped(retitled, first);
    const files = [...(await generate(edited, group.slug, context)).values()].join('\n');
    expect(files).toContain(`/*taken ${second}*/`);
    expect(files).not.toContain(`/*taken ${first}*/`);
  });

  it('ignores places that do not fit the entry’s files', async () => {
    const cache = memoryCache();
    const context = { ...plain, cache };
    await generate(model, group.slug, context);
    const entry = [...cache.entries.values()][0]!;
    entry.extra = [
      { key: first, digest: 'x', file: 'nowhere.js', start: 0, end: 5 },
      ...(entry.extra as { key: string; end: number }[]).map((p) => ({ ...p, end: p.end + 10 ** 9 })),
      'not a place',
    ];
    const edited = withGroupDescription(model, group.slug, 'Edited.');
    expect(await generate(edited, group.slug, context)).toEqual(await generate(edited, group.slug, plain));
  });
});

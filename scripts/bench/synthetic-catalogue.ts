/**
 * A synthetic catalogue of any size for the scale benchmarks: `copies` renamed copies of a real
 * catalogue (the seed), so the events keep the seed's real mix of flat, wide, nested and composed
 * payloads. Copy `k` renames group slugs to `<slug>-c<k>` and prefixes every event type with `c<k>.`,
 * rewriting `same_as` / `extends` / `upgrade.from` references to events so each copy composes within itself; the named
 * shapes are shared by all copies (as a large platform shares its common shapes).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMap, isScalar, parseDocument } from 'yaml';

/** What was written. */
export interface SyntheticCatalogue {
  dir: string;
  events: number;
  groups: number;
}

/** Writes `copies` renamed copies of the catalogue at `sourceDir` into `targetDir` (created). */
export function writeSyntheticCatalogue(
  sourceDir: string,
  targetDir: string,
  copies: number,
): SyntheticCatalogue {
  mkdirSync(join(targetDir, 'groups'), { recursive: true });
  writeFileSync(join(targetDir, 'eventry.config.yaml'), readFileSync(join(sourceDir, 'eventry.config.yaml')));
  writeFileSync(join(targetDir, 'shapes.yaml'), readFileSync(join(sourceDir, 'shapes.yaml')));
  const groupFiles = readdirSync(join(sourceDir, 'groups')).filter((name) => name.endsWith('.yaml'));
  const texts = groupFiles.map((name) => readFileSync(join(sourceDir, 'groups', name), 'utf8'));
  const eventKeys = new Set<string>();
  for (const text of texts) {
    const events = parseDocument(text).get('events');
    if (isMap(events))
      for (const pair of events.items) if (isScalar(pair.key)) eventKeys.add(String(pair.key.value));
  }
  let events = 0;
  for (let copy = 1; copy <= copies; copy++) {
    const tag = `c${String(copy).padStart(String(copies).length, '0')}`;
    const rename = (key: string) => `${tag}.${key}`;
    for (const text of texts) {
      const doc = parseDocument(text);
      const slug = String(doc.getIn(['group', 'slug']));
      doc.setIn(['group', 'slug'], `${slug}-${tag}`);
      doc.setIn(['group', 'title'], `${String(doc.getIn(['group', 'title']))} (${tag})`);
      const eventMap = doc.get('events');
      if (!isMap(eventMap)) continue;
      for (const pair of eventMap.items) {
        if (!isScalar(pair.key)) continue;
        pair.key.value = rename(String(pair.key.value));
        events++;
        if (!isMap(pair.value)) continue;
        for (const reference of ['same_as', 'extends']) {
          const target = pair.value.get(reference);
          if (typeof target === 'string' && eventKeys.has(target)) pair.value.set(reference, rename(target));
        }
        const from = pair.value.getIn(['upgrade', 'from']);
        if (typeof from === 'string' && eventKeys.has(from))
          pair.value.setIn(['upgrade', 'from'], rename(from));
      }
      writeFileSync(join(targetDir, 'groups', `${slug}-${tag}.yaml`), doc.toString());
    }
  }
  return { dir: targetDir, events, groups: copies * groupFiles.length };
}

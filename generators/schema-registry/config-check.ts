import { isMap, isScalar, LineCounter, parseDocument } from 'yaml';
import { type CatalogueProblem, CONFIG_FILE } from '../load/index.js';
import { suggest } from '../load/suggest.js';
import type { Catalogue } from '../model.js';

/**
 * The `compatibility:` overrides of eventry.config.yaml must name groups and events that exist (the
 * loader checks their shape; what they name is only known with the history): an override of a typo
 * would silently leave the subject at the catalogue level. `subjects` are every event key the history
 * knows, so an override may keep naming an event removed since its last release.
 */
export function checkCompatibilityOverrides(
  catalogue: Catalogue,
  configText: string,
  subjects: Iterable<string>,
): CatalogueProblem[] {
  const config = catalogue.config.compatibility;
  if (!config || (!config.groups && !config.events)) return [];
  const lines = new LineCounter();
  const document = parseDocument(configText, { lineCounter: lines });
  const locate = (section: string, name: string): { line: number; column: number } => {
    const map = document.getIn(['compatibility', section], true);
    if (isMap(map)) {
      for (const pair of map.items) {
        if (isScalar(pair.key) && pair.key.value === name && pair.key.range) {
          const { line, col } = lines.linePos(pair.key.range[0]);
          return { line, column: col };
        }
      }
    }
    return { line: 1, column: 1 };
  };
  const problems: CatalogueProblem[] = [];
  const groups = catalogue.groups.map((group) => group.slug);
  for (const slug of Object.keys(config.groups ?? {})) {
    if (groups.includes(slug)) continue;
    const close = suggest(slug, groups);
    problems.push({
      code: 'invalid-value',
      message: `\`compatibility.groups\` names group \`${slug}\`, which the catalogue does not have.`,
      hint: close ? `did you mean \`${close}\`?` : `groups: ${groups.join(', ')}`,
      file: CONFIG_FILE,
      ...locate('groups', slug),
      pointer: `/compatibility/groups/${slug.replace(/~/g, '~0').replace(/\//g, '~1')}`,
    });
  }
  const known = new Set(subjects);
  for (const key of Object.keys(config.events ?? {})) {
    if (known.has(key)) continue;
    const close = suggest(key, known);
    problems.push({
      code: 'unknown-event',
      message: `\`compatibility.events\` names event \`${key}\`, which no release or the working catalogue has.`,
      ...(close ? { hint: `did you mean \`${close}\`?` } : {}),
      file: CONFIG_FILE,
      ...locate('events', key),
      pointer: `/compatibility/events/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`,
    });
  }
  return problems;
}

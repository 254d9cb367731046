import type { Catalogue, Group } from '../model.js';
import type { Navigation } from './render.js';

/** Up to this many groups, every page lists them all in its side navigation; past it, only its own. */
const NAV_GROUPS = 100;

/** Changelog pages list this many added events (shape pages this many users); the group pages list them all. */
export const LIST_CAP = 500;

/** The side navigation of a page in `group` (undefined: a page of the whole catalogue), at event `key`. */
export function navigation(catalogue: Catalogue, group?: Group, key?: string): Navigation {
  const all = catalogue.groups.length <= NAV_GROUPS;
  const groups = (all ? catalogue.groups : group ? [group] : []).map((g) => ({
    slug: g.slug,
    title: g.title,
    current: g.slug === group?.slug,
  }));
  return {
    groups,
    events: group?.events ?? [],
    ...(key ? { key } : {}),
    ...(all ? {} : { more: catalogue.groups.length }),
    ...(catalogue.ownership ? { teams: true } : {}),
  };
}

/** The first sentence (or line) of a text, for lists. */
export function summary(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const line = text.split('\n')[0]!;
  const stop = line.search(/\.(\s|$)/);
  return stop >= 0 ? line.slice(0, stop + 1) : line;
}

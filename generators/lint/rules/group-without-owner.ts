import { code, type LintRule, plural } from '../rule.js';

/**
 * A group with no `owner:` in a catalogue that defines its teams: nobody is asked to review a change
 * to its events, and a consumer has no one to ask. A catalogue without `teams.yaml` does not track
 * ownership at all, so the rule says nothing there (an owner cannot be named before the teams are).
 */
export const groupWithoutOwner: LintRule = {
  id: 'group-without-owner',
  description:
    'A group names no owner (`owner:`, a team of teams.yaml) in a catalogue that defines its teams: no one reviews changes to its events.',
  severity: 'warning',
  hint: 'Add `owner: <team id>` to the group, naming the team of teams.yaml that answers for its events.',
  check(ctx) {
    const teams = Object.keys(ctx.catalogue.ownership?.teams ?? {});
    if (teams.length === 0) return [];
    return Object.values(ctx.catalogue.groups)
      .filter((group) => group.owner === undefined)
      .sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0))
      .map((group) => ({
        message: `Group ${code(group.slug)} has no owner, though teams.yaml defines ${plural(teams.length, 'team')}.`,
        location: group.source,
        subject: `group ${group.slug}`,
      }));
  },
};

import type { ModelChange } from '../diff.js';
import type { Finding, Rule } from '../rule.js';
import { deprecationAdded } from './deprecation-added.js';
import { deprecationChanged } from './deprecation-changed.js';
import { deprecationRemoved } from './deprecation-removed.js';
import { descriptionChanged } from './description-changed.js';
import { enumAdded } from './enum-added.js';
import { enumRemoved } from './enum-removed.js';
import { enumValueAdded } from './enum-value-added.js';
import { enumValueRemoved } from './enum-value-removed.js';
import { eventAdded } from './event-added.js';
import { eventRemoved } from './event-removed.js';
import { eventRemovedWithoutDeprecation } from './event-removed-without-deprecation.js';
import { fieldRemoved } from './field-removed.js';
import { fieldRenamed } from './field-renamed.js';
import { formatAdded } from './format-added.js';
import { formatChanged } from './format-changed.js';
import { formatRemoved } from './format-removed.js';
import { objectClosed } from './object-closed.js';
import { objectOpened } from './object-opened.js';
import { optionalBecameRequired } from './optional-became-required.js';
import { optionalFieldAdded } from './optional-field-added.js';
import { requiredBecameOptional } from './required-became-optional.js';
import { requiredFieldAdded } from './required-field-added.js';
import { titleChanged } from './title-changed.js';
import { typeChanged } from './type-changed.js';

/**
 * The one registry of diff rules, in report order (event-level first, then fields, then docs). Ids are
 * stable: a retired rule's id is never given to another rule.
 */
export const RULES: readonly Rule[] = [
  eventAdded,
  eventRemoved,
  eventRemovedWithoutDeprecation,
  objectClosed,
  objectOpened,
  deprecationAdded,
  deprecationRemoved,
  optionalFieldAdded,
  requiredFieldAdded,
  fieldRemoved,
  fieldRenamed,
  optionalBecameRequired,
  requiredBecameOptional,
  typeChanged,
  formatAdded,
  formatChanged,
  formatRemoved,
  enumValueRemoved,
  enumValueAdded,
  enumAdded,
  enumRemoved,
  deprecationChanged,
  titleChanged,
  descriptionChanged,
];

/** The detail said of the shape itself: the change re-rooted at the shape, the same for every event it reaches. */
function shapeDetail(rule: Rule, change: ModelChange, via: { shape: string; attr: string | null }): string {
  if (change.kind === 'text-changed' && change.text === 'shape-description')
    return rule.check({ ...change, attr: null })!;
  const inShape = { ...change, attr: via.attr, event: via.shape, via: undefined } as ModelChange;
  if (inShape.kind === 'field-renamed' && change.kind === 'field-renamed')
    inShape.toAttr = join(via.attr, change.to.name);
  return rule.check(inShape)!;
}

/** `prefix.name` with the last segment of `path` replaced by `name` (the new name of a renamed field). */
function join(path: string | null, name: string): string {
  const at = path ? path.lastIndexOf('.') : -1;
  return at < 0 ? name : `${path!.slice(0, at)}.${name}`;
}

/** Rules by id. */
export const RULES_BY_ID: ReadonlyMap<string, Rule> = new Map(RULES.map((rule) => [rule.id, rule]));

/**
 * Classifies structural changes into findings: every rule that recognises a change reports it (an enum
 * that lost one value and gained another gives two findings). A change no rule recognises is a bug.
 */
export function classifyChanges(changes: readonly ModelChange[], rules: readonly Rule[] = RULES): Finding[] {
  const findings: Finding[] = [];
  for (const change of changes) {
    let matched = false;
    for (const rule of rules) {
      const detail = rule.check(change);
      if (detail === undefined) continue;
      matched = true;
      findings.push({
        event: change.event,
        group: change.group,
        attr: change.attr,
        ...(change.via ? { via: { ...change.via, detail: shapeDetail(rule, change, change.via) } } : {}),
        rule: rule.id,
        severity: rule.severity,
        breaks: rule.breaks,
        detail,
        ...(change.location ? { location: change.location } : {}),
        ...(change.oldLocation ? { oldLocation: change.oldLocation } : {}),
      });
    }
    if (!matched && rules === RULES) throw new Error(`no diff rule classifies a ${change.kind} change`);
  }
  return findings;
}

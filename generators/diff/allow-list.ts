import type { Ajv2020, ErrorObject } from 'ajv/dist/2020.js';
import type { CatalogueProblem, CatalogueSourceFile } from '../load/index.js';
import { unreadableProblem } from '../load/problem.js';
import { suggest } from '../load/suggest.js';
import { fromPointer, YamlSource } from '../load/yaml-source.js';
import type { SourceLocation } from '../model.js';
import allowListSchema from '../schema/source/allow-list.schema.json' with { type: 'json' };
import { requireAjv2020 } from '../shared/toolkit-files.js';
import type { Finding, RetiredRule } from './rule.js';
import { RETIRED_RULE_IDS } from './rules/index.js';

/** One reviewed, intentional breaking change, from `catalogue/allow-breaking.yaml`. */
export interface AllowEntry {
  event: string;
  rule: string;
  /** Field path; without it the entry allows the rule anywhere in the event. */
  attr?: string;
  reason: string;
  location: SourceLocation;
}

/** The entries, or the problems of the file (never both). */
export interface AllowList {
  entries: AllowEntry[];
  problems: CatalogueProblem[];
}

/** Rule ids an allow-list entry may name: the breaking rules the version gate blocks. */
export const ALLOWABLE_RULES: readonly string[] = allowListSchema.$defs.entry.properties.rule.enum;

let validate: ReturnType<Ajv2020['compile']> | undefined;

/** The allow list's schema check, compiled for a catalogue that has an allow list (`requireAjv2020`). */
function compileAllowListCheck(): ReturnType<Ajv2020['compile']> {
  const Ajv = requireAjv2020();
  return new Ajv({ allErrors: true, strict: true, verbose: true }).compile(allowListSchema);
}

/**
 * Reads and checks the allow-list file (absent means empty) against its JSON Schema. An entry naming a
 * retired rule (`retired`, the registry's by default) is told so, with the reason.
 */
export function readAllowList(
  file: CatalogueSourceFile | undefined,
  retired: readonly RetiredRule[] = RETIRED_RULE_IDS,
): AllowList {
  if (!file) return { entries: [], problems: [] };
  const unread = unreadableProblem(file);
  if (unread) return { entries: [], problems: [unread] };
  const parsed = YamlSource.parse(file);
  if (!parsed.source) return { entries: [], problems: parsed.problems };
  const source = parsed.source;
  if (source.value === null || source.value === undefined) return { entries: [], problems: [] };
  validate ??= compileAllowListCheck();
  if (!validate(source.value)) {
    const problems = (validate.errors ?? []).map((error) => toProblem(source, error, retired));
    return { entries: [], problems: problems.sort((a, b) => a.line - b.line || a.column - b.column) };
  }
  const raw = (source.value as { allow: Omit<AllowEntry, 'location'>[] }).allow;
  const entries = raw.map((entry, index) => ({
    event: entry.event,
    rule: entry.rule,
    ...(entry.attr !== undefined ? { attr: entry.attr } : {}),
    reason: entry.reason,
    location: source.at(['allow', index]),
  }));
  return { entries, problems: [] };
}

/** Whether an entry allows a finding: same event and rule, and the same field when it names one. */
export function allows(entry: Omit<AllowEntry, 'location' | 'reason'>, finding: Finding): boolean {
  return (
    entry.event === finding.event &&
    entry.rule === finding.rule &&
    (entry.attr === undefined || entry.attr === finding.attr)
  );
}

/** Whether two entries name the same change (the reason may have been reworded). */
export function sameEntry(
  a: Omit<AllowEntry, 'location' | 'reason'>,
  b: Omit<AllowEntry, 'location' | 'reason'>,
): boolean {
  return a.event === b.event && a.rule === b.rule && a.attr === b.attr;
}

function toProblem(
  source: YamlSource,
  error: ErrorObject,
  retired: readonly RetiredRule[],
): CatalogueProblem {
  const path = fromPointer(error.instancePath);
  if (error.keyword === 'additionalProperties') {
    const key = String((error.params as { additionalProperty: string }).additionalProperty);
    const allowed = path.length === 0 ? ['allow'] : ['event', 'rule', 'attr', 'reason'];
    const guess = suggest(key, allowed);
    return source.problem(
      'unknown-key',
      [...path, key],
      `Unknown key \`${key}\` in the allow-list.`,
      `${guess ? `Did you mean \`${guess}\`? ` : ''}Allowed: ${allowed.join(', ')}.`,
      true,
    );
  }
  if (error.keyword === 'required') {
    const key = (error.params as { missingProperty: string }).missingProperty;
    const hint =
      key === 'reason'
        ? 'Say why the break is acceptable: the reviewer and the changelog read it.'
        : 'Each entry names `event`, `rule` and `reason` (and optionally `attr`).';
    return source.problem('invalid-value', path, `Missing required key \`${key}\` in the allow-list.`, hint);
  }
  if (error.keyword === 'enum' && path[path.length - 1] === 'rule') {
    const value = String(error.data ?? '');
    const gone = retired.find((rule) => rule.id === value);
    if (gone)
      return source.problem(
        'invalid-value',
        path,
        `\`${value}\` is a retired rule: ${gone.reason}`,
        'No finding carries this rule id any more: remove the entry.',
      );
    const guess = suggest(value, ALLOWABLE_RULES);
    return source.problem(
      'invalid-value',
      path,
      `\`${value}\` is not a breaking rule the version gate blocks.`,
      `${guess ? `Did you mean \`${guess}\`? ` : ''}Allowed: ${ALLOWABLE_RULES.join(', ')}.`,
    );
  }
  const where = path.length === 0 ? 'The allow-list' : `\`${path.join('.')}\``;
  return source.problem('invalid-value', path, `${where} ${error.message ?? 'is invalid'}.`);
}

import picomatch from 'picomatch';
import { RE2JS } from 're2js';
import { suggest } from '../load/suggest.js';
import type { LintConfig, LintSeverity, SourceLocation } from '../model.js';
import type { ErrorCode } from '../shared/error-codes.js';
import type { FindingSeverity, LintRule, NamePattern } from './rule.js';
import { LINT_RULES, LINT_RULES_BY_ID, RETIRED_LINT_RULE_IDS } from './rules/index.js';

/** A problem with the `lint:` settings: a usage error of the lint, reported where it was written. */
export interface LintConfigProblem {
  code: Extract<ErrorCode<'lint'>, 'unknown-lint-rule' | 'invalid-lint-pattern'>;
  message: string;
  hint: string;
  location: SourceLocation;
}

/** The settings a lint runs with, resolved from the preset and `lint.rules`. */
export interface ResolvedLintConfig {
  severity(rule: LintRule): LintSeverity;
  pattern(rule: LintRule): NamePattern | undefined;
  /** Whether an ignore entry covers this rule at this file. */
  ignored(rule: string, file: string): boolean;
  baseline: string;
  problems: LintConfigProblem[];
}

/** The baseline file, relative to the catalogue, unless `lint.baseline` names another. */
const DEFAULT_BASELINE = 'lint-baseline.json';

/** `strict` raises every rule one step: off and info to warning, warning to error. */
function strict(severity: LintSeverity): FindingSeverity {
  return severity === 'error' || severity === 'warning' ? 'error' : 'warning';
}

/**
 * Resolves `lint:` of eventry.config.yaml (`configText`, to locate problems): unknown rule ids and
 * patterns that are not regular expressions are problems, never silently ignored settings.
 */
export function resolveLintConfig(config: LintConfig | undefined, configText = ''): ResolvedLintConfig {
  const problems: LintConfigProblem[] = [];
  const locate = (needle: string): SourceLocation => locateInConfig(configText, needle);
  const severities = new Map<string, LintSeverity>();
  const patterns = new Map<string, NamePattern>();
  for (const [id, setting] of Object.entries(config?.rules ?? {})) {
    const rule = LINT_RULES_BY_ID.get(id);
    if (!rule) {
      problems.push(unknownRule(id, locate(`${id}:`)));
      continue;
    }
    const severity = typeof setting === 'string' ? setting : setting.severity;
    if (severity) severities.set(id, severity);
    if (typeof setting === 'object' && setting.pattern !== undefined) {
      try {
        patterns.set(id, compilePattern(setting.pattern));
      } catch (error) {
        problems.push({
          code: 'invalid-lint-pattern',
          message: `The pattern of \`${id}\` is not a regular expression eventry runs: ${(error as Error).message}.`,
          hint: 'Write a regular expression in RE2 syntax (no backreferences or lookaround), e.g. `^[a-z][a-z0-9_.]*$`.',
          location: locate(setting.pattern),
        });
      }
    }
  }
  const ignores = (config?.ignore ?? []).map((entry) => {
    for (const id of entry.rules ?? [])
      if (!LINT_RULES_BY_ID.has(id)) problems.push(unknownRule(id, locate(id)));
    return {
      match: picomatch(entry.path, { dot: true }),
      rules: entry.rules ? new Set(entry.rules) : undefined,
    };
  });
  const preset = config?.preset ?? 'recommended';
  return {
    severity(rule) {
      const set = severities.get(rule.id);
      if (set) return set;
      return preset === 'strict' ? strict(rule.severity) : rule.severity;
    },
    pattern(rule) {
      return patterns.get(rule.id) ?? (rule.pattern !== undefined ? compilePattern(rule.pattern) : undefined);
    },
    ignored(rule, file) {
      return ignores.some((entry) => (!entry.rules || entry.rules.has(rule)) && entry.match(file));
    },
    baseline: config?.baseline ?? DEFAULT_BASELINE,
    problems,
  };
}

/**
 * A pattern compiled for RE2 (`re2js`): matching is linear in the name, so no pattern in a config
 * (`^(a+)+$` and the like) can hang `lint`, `build`, `check` or MCP (docs/decisions/0097). Throws on
 * a pattern RE2 does not take (backreferences, lookaround), with its reason.
 */
export function compilePattern(source: string): NamePattern {
  const compiled = RE2JS.compile(source);
  return { source, test: (text) => compiled.test(text) };
}

/** The problem for a rule id the registry does not have, with what it may have meant. */
export function unknownRule(id: string, location: SourceLocation): LintConfigProblem {
  const retired = RETIRED_LINT_RULE_IDS.find((entry) => entry.id === id);
  const near = suggest(
    id,
    LINT_RULES.map((rule) => rule.id),
  );
  return {
    code: 'unknown-lint-rule',
    message: retired ? `Lint rule \`${id}\` was retired: ${retired.reason}` : `\`${id}\` is not a lint rule.`,
    hint:
      near && !retired
        ? `Did you mean \`${near}\`? (\`eventry lint --list-rules\` lists them)`
        : 'See `eventry lint --list-rules`.',
    location,
  };
}

/** Where `needle` is first written in eventry.config.yaml (its first line when it is not found). */
function locateInConfig(text: string, needle: string): SourceLocation {
  const lines = text.split('\n');
  for (const [i, line] of lines.entries()) {
    const column = line.indexOf(needle);
    if (column >= 0 && !line.trimStart().startsWith('#'))
      return { file: 'eventry.config.yaml', line: i + 1, column: column + 1 };
  }
  return { file: 'eventry.config.yaml', line: 1, column: 1 };
}

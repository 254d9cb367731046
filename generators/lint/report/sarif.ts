import type { LintResult } from '../lint.js';
import type { FindingSeverity, LintFinding, LintRule } from '../rule.js';
import { LINT_RULES } from '../rules/index.js';
import { SUPPRESSION_CODES } from '../suppress.js';
import { fingerprint, sourcePath } from './text.js';

/** SARIF's levels for ours (`note` is SARIF's info). */
const LEVEL: Record<FindingSeverity | 'off', 'error' | 'warning' | 'note' | 'none'> = {
  error: 'error',
  warning: 'warning',
  info: 'note',
  off: 'none',
};

/** The SARIF 2.1.0 schema a log names, as GitHub code scanning documents it. */
const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

/** A rule's descriptor: id, description and hint, its default level. */
function descriptor(rule: Pick<LintRule, 'id' | 'description' | 'hint' | 'severity'>) {
  return {
    id: rule.id,
    shortDescription: { text: rule.description },
    help: { text: rule.hint },
    defaultConfiguration: { level: LEVEL[rule.severity] },
  };
}

/**
 * A SARIF 2.1.0 log (for GitHub code scanning): one run of eventry, every rule described, each new
 * finding a result at its catalogue line; findings the baseline records are results too, marked
 * `unchanged`, so code scanning keeps them open rather than closing them as fixed.
 */
export function formatSarif(result: LintResult, root: string): string {
  const rules = [
    ...LINT_RULES.map(descriptor),
    ...SUPPRESSION_CODES.map((id) =>
      descriptor({
        id,
        description: 'An inline suppression comment is wrong.',
        hint: 'Fix or delete the comment.',
        severity: 'error',
      }),
    ),
  ];
  const index = new Map(rules.map((rule, i) => [rule.id, i]));
  const hasBaseline = result.baselined.length > 0 || result.fixed > 0;
  const toResult = (finding: LintFinding, state: 'new' | 'unchanged') => ({
    ruleId: finding.rule,
    ...(index.has(finding.rule) ? { ruleIndex: index.get(finding.rule)! } : {}),
    level: LEVEL[finding.severity],
    message: { text: `${finding.message} ${finding.hint}` },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: encodeURI(sourcePath(root, finding.location)), uriBaseId: '%SRCROOT%' },
          region: { startLine: finding.location.line, startColumn: finding.location.column },
        },
      },
    ],
    partialFingerprints: { 'eventryFinding/v1': fingerprint(finding) },
    ...(hasBaseline ? { baselineState: state } : {}),
  });
  const log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'eventry', informationUri: 'https://eventry.dev/lint', rules } },
        results: [
          ...result.findings.map((finding) => toResult(finding, 'new')),
          ...result.baselined.map((finding) => toResult(finding, 'unchanged')),
        ],
        columnKind: 'unicodeCodePoints',
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

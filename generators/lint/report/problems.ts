import { escapeData, escapeProperty } from '../../diff/report/github.js';
import { printablePath } from '../../load/problem.js';
import type { SourceLocation } from '../../model.js';
import { LINT_RULES } from '../rules/index.js';
import { sourcePath } from './text.js';

/**
 * Why the lint did not run: a catalogue that does not load, `lint:` settings or a baseline that cannot
 * be used. Printed in the format asked for, so a machine reading `--format json|sarif|github` never
 * gets text it cannot parse.
 */
export interface LintProblem {
  code: string;
  message: string;
  hint?: string;
  location: SourceLocation;
}

export type LintFormat = 'text' | 'json' | 'sarif' | 'github';

/** `text` with its control characters escaped: a hostile name cannot drive the terminal or forge lines. */
export const printable = (text: string): string => printablePath(text);

/** The problems in `format` (text: with `closing`, the line that says nothing was linted). */
export function formatProblems(
  problems: readonly LintProblem[],
  format: LintFormat,
  root: string,
  closing: string,
): string {
  const where = (problem: LintProblem) => sourcePath(root, problem.location);
  if (format === 'json') {
    const entries = problems.map((problem) => ({
      code: problem.code,
      severity: 'error',
      file: where(problem),
      line: problem.location.line,
      column: problem.location.column,
      message: problem.message,
      ...(problem.hint ? { hint: problem.hint } : {}),
    }));
    return `${JSON.stringify({ linted: false, problems: entries, summary: { problems: entries.length } }, null, 2)}\n`;
  }
  if (format === 'sarif') return sarifOfProblems(problems, root);
  if (format === 'github')
    return problems
      .map((problem) => {
        const { line, column } = problem.location;
        const text = problem.hint ? `${problem.message}\n${problem.hint}` : problem.message;
        return `::error file=${escapeProperty(where(problem))},line=${line},col=${column},title=${escapeProperty(problem.code)}::${escapeData(text)}\n`;
      })
      .join('');
  const lines = problems.map((problem) => {
    const { line, column } = problem.location;
    const hint = problem.hint ? `\n    hint: ${printable(problem.hint)}` : '';
    return `${where(problem)}:${line}:${column}: error ${problem.code}: ${printable(problem.message)}${hint}\n`;
  });
  return `${lines.join('')}${closing}\n`;
}

/** A SARIF 2.1.0 log of a run that did not lint: each problem a result, the invocation unsuccessful. */
function sarifOfProblems(problems: readonly LintProblem[], root: string): string {
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'eventry',
            informationUri: 'https://eventry.dev/lint',
            rules: LINT_RULES.map((rule) => ({ id: rule.id, shortDescription: { text: rule.description } })),
          },
        },
        invocations: [{ executionSuccessful: false }],
        results: problems.map((problem) => ({
          ruleId: problem.code,
          level: 'error',
          message: { text: problem.hint ? `${problem.message} ${problem.hint}` : problem.message },
          locations: [
            {
              physicalLocation: {
                artifactLocation: {
                  uri: encodeURI(sourcePath(root, problem.location)),
                  uriBaseId: '%SRCROOT%',
                },
                region: { startLine: problem.location.line, startColumn: problem.location.column },
              },
            },
          ],
        })),
        columnKind: 'unicodeCodePoints',
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

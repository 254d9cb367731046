import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadCatalogue } from '../../generators/load/index.js';
import type { Catalogue } from '../../generators/model.js';
import { declarationText } from '../../generators/usage/declaration.js';
import { type ProjectUsage, scanProjectFiles } from '../../generators/usage/scan.js';
import { CASES, HEADER } from './corpus-cases.js';
import { declarationProblems, makeProject, type UsageWork, usageWork } from './project.js';

// Every pattern of the corpus is a file of one project, scanned alone (`scanProjectFiles`): one type
// check for the whole corpus.
let work: UsageWork;
let results: Map<string, ProjectUsage>;
const fileOf = (index: number) => `case${String(index).padStart(2, '0')}.ts`;

beforeAll(async () => {
  work = await usageWork();
  const files = Object.fromEntries(CASES.map((c, index) => [fileOf(index), `${HEADER}${c.code}\n`]));
  const project = makeProject(join(work.work, 'project'), work.packages, files);
  const loaded = loadCatalogue(work.catalogue);
  if (!loaded.ok) throw new Error('the fixture catalogue does not load');
  results = scanProjectFiles(project, loaded.catalogue as Catalogue);
}, 120_000);

describe('usage scan corpus: what each pattern declares', () => {
  it('has at least 40 patterns', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40);
  });

  it.each(CASES.map((c, index) => [c.name, c, index] as const))('%s', (_name, c, index) => {
    const found = [...results.entries()].find(([file]) => file.endsWith(`/${fileOf(index)}`));
    expect(found, 'the case was scanned').toBeDefined();
    const usage = found![1];
    const errors = usage.findings.filter((f) => f.severity === 'error');
    if (c.error) {
      expect(errors.map((f) => f.code)).toContain(c.error);
      expect(errors[0]!.line).toBeGreaterThan(HEADER.split('\n').length - 1);
      return;
    }
    expect(errors, JSON.stringify(errors)).toEqual([]);
    const text = declarationText('ledger', usage, 'consumers.schema.json');
    expect(parse(text).consumes).toEqual(c.consumes);
    const warnings = usage.findings.filter((f) => f.code === 'usage-unresolved');
    expect(warnings.length, JSON.stringify(warnings)).toBe(c.warnings ?? 0);
    expect(declarationProblems(work.catalogue, text)).toEqual([]);
  });
});

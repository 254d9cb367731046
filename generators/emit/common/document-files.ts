import { stringify } from 'yaml';
import { generatedNote } from '../../schema/generated-note.js';
import { YAML_OPTIONS } from '../../shared/yaml-writer.js';
import type { OutputFile } from '../context.js';

/**
 * A catalogue-wide document as `<path>.json` plus a `<path>.yaml` copy that carries the generated
 * note: the whole writers' text, which the fast executor's entry-by-entry writer
 * (`execute/fast/document-text.ts`) matches byte for byte.
 */
export function documentFiles(path: string, document: unknown): OutputFile[] {
  return [
    { path: `${path}.json`, contents: `${JSON.stringify(document, null, 2)}\n` },
    {
      path: `${path}.yaml`,
      contents: `# ${generatedNote('catalogue/')}\n${stringify(document, YAML_OPTIONS)}`,
    },
  ];
}

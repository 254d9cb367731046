import { _, type Code, type Name } from 'ajv/dist/compile/codegen/index.js';
import type { KeywordContext } from './keyword.js';
import { OPENED } from './names.js';
import { type Path, pathExpression } from './paths.js';

/**
 * An error other than the common three (missing, undocumented, mistyped), handed to the run's `report`
 * as ajv's error object (with its value, as in ajv's `verbose` mode).
 */
export function reportError(
  { gen, writer }: Pick<KeywordContext, 'gen' | 'writer'>,
  path: Path,
  keyword: string,
  params: Code,
  data: Name,
): void {
  writer.place(null);
  gen.code(
    _`${OPENED}.report({instancePath: ${pathExpression(path)}, keyword: ${keyword}, params: ${params}, data: ${data}})`,
  );
}

import { _, type Code, type Name } from 'ajv/dist/compile/codegen/index.js';
import type { KeywordContext } from './keyword.js';
import { ADD, OPTIONS, REPORTED, RUN } from './names.js';
import { type Path, pathExpression } from './paths.js';

/**
 * Lists one error's item (`item`, code that makes it): `run = add(run, options, item)`, which starts the
 * list at the payload's first error (see `add` in generators/runtime/list.ts).
 */
export function listItem({ gen }: Pick<KeywordContext, 'gen'>, item: Code): void {
  gen.assign(RUN, _`${ADD}(${RUN}, ${OPTIONS}, ${item})`);
}

/** An item written as a literal, for a place whose path and texts are known when the code is written. */
export function literalItem(item: { detail: string; code: string; attr: string }): Code {
  return _`{detail: ${item.detail}, code: ${item.code}, attr: ${item.attr}}`;
}

/**
 * An error other than the common three (missing, undocumented, mistyped), made into its item by the
 * run time's `reported` from ajv's error object (with its value, as in ajv's `verbose` mode).
 */
export function reportError(
  { gen, writer }: Pick<KeywordContext, 'gen' | 'writer'>,
  path: Path,
  keyword: string,
  params: Code,
  data: Name,
): void {
  writer.place(null);
  const error = _`{instancePath: ${pathExpression(path)}, keyword: ${keyword}, params: ${params}, data: ${data}}`;
  gen.assign(RUN, _`${REPORTED}(${RUN}, ${OPTIONS}, ${error})`);
}

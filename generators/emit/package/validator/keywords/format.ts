import { _, type Code, getProperty, type Name, not } from 'ajv/dist/compile/codegen/index.js';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { reportError } from '../errors.js';
import type { KeywordContext, KeywordDefinition } from '../keyword.js';
import { FULL_FORMATS } from '../names.js';

/** The prefix of the formats' constants: a validator that declares one reads `fullFormats`. */
export const FORMATS = 'formats';

/** `format` (of a string), checked by ajv-formats' full definition of it. */
export const formatKeyword: KeywordDefinition = {
  keyword: 'format',
  of: 'type',
  applies: (node) => node.format !== undefined,
  code(cxt: KeywordContext): void {
    const { gen, data, path } = cxt;
    const format = formatOf(cxt, cxt.node.format!);
    gen.if(not(format(data)), () => reportError(cxt, path, 'format', _`{format: ${cxt.node.format}}`, data));
  },
};

/** The format's check on `data`, declared once (`const formats0 = fullFormats.date`). */
function formatOf({ writer }: KeywordContext, format: string): (data: Name) => Code {
  const definition = (fullFormats as Record<string, unknown>)[format];
  if (definition === undefined) throw new Error(`unknown format "${format}"`);
  const declared = writer.declare(FORMATS, format, () => _`${FULL_FORMATS}${getProperty(format)}`);
  if (definition instanceof RegExp) return (data) => _`${declared}.test(${data})`;
  if (typeof definition === 'function') return (data) => _`${declared}(${data})`;
  const validate = (definition as { validate?: unknown }).validate;
  if (validate instanceof RegExp) return (data) => _`${declared}.validate.test(${data})`;
  return (data) => _`${declared}.validate(${data})`;
}

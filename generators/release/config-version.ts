import { Composer, CST, isMap, isScalar, Parser } from 'yaml';

/**
 * eventry.config.yaml with its top-level `version` set to `version`: the document is parsed with the
 * `yaml` library (so a quoted key, a flow mapping or a comment is read for what it is), and only that
 * scalar's source token is rewritten, so comments, quoting, folded text and key order stay byte for
 * byte. `recorded` is the version the file records now; `undefined` when it has no top-level
 * `version` scalar (or is not one YAML mapping), and then nothing can be written.
 */
export function setConfigVersion(
  text: string,
  version: string,
): { recorded: string; text: string } | undefined {
  const tokens = [...new Parser().parse(text)];
  const documents = [...new Composer({ keepSourceTokens: true }).compose(tokens)];
  const document = documents[0];
  if (documents.length !== 1 || !document || document.errors.length > 0 || !isMap(document.contents))
    return undefined;
  const pair = document.contents.items.find((item) => isScalar(item.key) && item.key.value === 'version');
  const value = pair?.value;
  if (!isScalar(value) || !value.srcToken || !CST.isScalar(value.srcToken)) return undefined;
  CST.setScalarValue(value.srcToken, version);
  return { recorded: String(value.value), text: tokens.map((token) => CST.stringify(token)).join('') };
}

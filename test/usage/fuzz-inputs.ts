import fc from 'fast-check';
import { HEADER } from './corpus-cases.js';

// Generated consumer code for the usage-scan fuzz test: random nesting of reads, casts, computed and
// bogus keys, array methods, spreads, escapes, and odd syntax (truncated files, stray brackets).

const TYPES = [
  'AccountCreatedV1',
  'AccountRemovedV2',
  'AccountRemovedV1 | AccountRemovedV2',
  'BillingLedgerEntryPostedV1',
  'ContractGroupsVersionCreatedV1',
  'MeterpointGasPartialV1',
  'InkConversationClosedV1',
  'GroupVersion',
  'Ledger',
  'unknown',
  'any',
];
const KEYS = [
  'account_number',
  'reason',
  'status',
  'tags',
  'changes',
  'ledger',
  'account',
  'number',
  'id',
  'created_versions',
  'traits',
  'identifier',
  'effective_period',
  'start',
  'data',
  'mprn',
  'nope',
  'length',
  'constructor',
  'toString',
  '__proto__',
];
const ODD_KEYS = [
  "'weird key'",
  "'__proto__'",
  "'0'",
  "''",
  "'a.b'",
  "'ünï'",
  '`tpl`',
  '0',
  '-1',
  'k',
  'i',
  'k as any',
];
const METHODS = [
  'map',
  'filter',
  'find',
  'findLast',
  'flatMap',
  'some',
  'sort',
  'reduce',
  'at',
  'slice',
  'concat',
  'flat',
  'forEach',
];

const expression: fc.Arbitrary<string> = fc.letrec<{ expr: string }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('e', 'e', 'e', 'other', 'k', 'i', 'null', '1'),
    fc
      .tuple(tie('expr'), fc.constantFrom(...KEYS), fc.boolean())
      .map(([x, key, optional]) => `${x}${optional ? '?.' : '.'}${key}`),
    fc
      .tuple(tie('expr'), fc.constantFrom(...ODD_KEYS, ...KEYS.map((key) => `'${key}'`)))
      .map(([x, key]) => `${x}[${key}]`),
    tie('expr').map((x) => `(${x} as any)`),
    fc.tuple(tie('expr'), fc.constantFrom(...TYPES)).map(([x, type]) => `(${x} as unknown as ${type})`),
    fc
      .tuple(tie('expr'), fc.constantFrom(...METHODS), tie('expr'))
      .map(([x, method, body]) =>
        method === 'reduce'
          ? `${x}.reduce((acc: any, x: any) => ${body.replaceAll('e', 'x')}, ${x})`
          : `${x}.${method}((x: any) => ${body.replaceAll('e', 'x')})`,
      ),
    tie('expr').map((x) => `[...${x}]`),
    tie('expr').map((x) => `({ ...${x}, extra: 1 })`),
    fc.tuple(tie('expr'), tie('expr')).map(([a, b]) => `(k ? ${a} : ${b})`),
    tie('expr').map((x) => `JSON.stringify(${x})`),
    fc
      .tuple(fc.constantFrom('values', 'entries', 'keys'), tie('expr'))
      .map(([fn, x]) => `Object.${fn}(${x})`),
    tie('expr').map((x) => `helper(${x})`),
    tie('expr').map((x) => `${x}!`),
  ),
})).expr;

/** How a file is made odd: left as is, truncated, with a stray bracket, deeply parenthesised. */
const mangle = fc.oneof(
  fc.constant((code: string) => code),
  fc.constant((code: string) => code),
  fc
    .integer({ min: 1, max: 400 })
    .map((cut) => (code: string) => code.slice(0, Math.max(HEADER.length, code.length - cut))),
  fc
    .constantFrom(')', '}', '{', '(', ']', '`', '/*', '"')
    .map((stray) => (code: string) => `${code}${stray}\n`),
  fc
    .integer({ min: 50, max: 600 })
    .map(
      (depth) => (code: string) => `${code}export const deep = ${'('.repeat(depth)}e0${')'.repeat(depth)};\n`,
    ),
);

/** One generated consumer file: a few functions over typed parameters, each returning an expression. */
export const consumerFile: fc.Arbitrary<string> = fc
  .tuple(fc.array(fc.tuple(fc.constantFrom(...TYPES), expression), { minLength: 1, maxLength: 4 }), mangle)
  .map(([functions, odd]) => {
    const body = functions
      .map(
        ([type, expr], index) =>
          `export function f${index}(e: ${type}, other: ${type}, k: string, i: number): unknown {\n  return ${expr};\n}`,
      )
      .join('\n');
    return odd(
      `${HEADER}declare const e0: unknown;\nfunction helper(x: unknown): unknown { return x; }\n${body}\n`,
    );
  });

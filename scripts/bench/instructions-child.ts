import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { deserialize } from 'node:v8';
import { createPeerAjv } from './peer-ajv.js';

/**
 * One count of the instructions bench (`instructions.ts`), run under valgrind: `calls` validations of
 * the row's payload by one contender, after a warm-up that lets V8 optimise the code. Its argument is
 * a JSON file of `ChildArguments`.
 */
export interface ChildArguments {
  contender: 'eventry' | 'ajv';
  /** The built packages' folder, the event's group and key. */
  out: string;
  slug: string;
  key: string;
  mode: 'strict' | 'tolerant';
  payload: string;
  /** The schema ajv compiles, serialised as the validation bench's threads receive it (structured clone). */
  schemaFile: string;
  valid: boolean;
  calls: number;
}

const WARM_UP = 100_000;
/** As in the validation bench: each call validates the next of 16 parsed copies (docs/decisions/0072). */
const COPIES = 16;

const args = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as ChildArguments;
const copies = Array.from({ length: COPIES }, () => JSON.parse(args.payload) as unknown);
const schema = deserialize(readFileSync(args.schemaFile)) as Record<string, unknown>;
let check: (payload: unknown) => boolean;
if (args.contender === 'ajv') {
  const validate = createPeerAjv({ allErrors: false }).compile(schema);
  check = (payload) => validate(payload) === true;
} else {
  const url = pathToFileURL(join(args.out, args.slug, 'index.js')).href;
  const group = (await import(url)) as {
    validate(key: string, payload: unknown, options: object): { valid: boolean };
  };
  // The key and the options as a caller writes them: literals.
  const options = args.mode === 'tolerant' ? "{ mode: 'tolerant' }" : "{ mode: 'strict' }";
  check = new Function(
    'group',
    `const options = ${options}; return (payload) => group.validate(${JSON.stringify(args.key)}, payload, options).valid;`,
  )(group) as typeof check;
}
const next = new Function(
  'check',
  'copies',
  `let at = 0; return () => check(copies[at = (at + 1) % ${COPIES}]);`,
)(check, copies) as () => boolean;
// The warm-up and the counted calls in loops of their own, each compiled on its own.
const run = (calls: number): number => {
  let agreed = 0;
  for (let i = 0; i < calls; i++) if (next() === args.valid) agreed += 1;
  return agreed;
};
if (run(WARM_UP) !== WARM_UP || run(args.calls) !== args.calls) {
  console.error(`${args.contender} disagrees on ${args.key} (${args.mode})`);
  process.exit(1);
}

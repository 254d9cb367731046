/**
 * Migrations compiled to JavaScript (issue 46): each becomes a function `(message) => next` over the
 * payload it starts from, with no interpreter at run time. `set: {cel}` compiles through the same CEL
 * compiler the data rules use (generators/cel/), over `message`, the input payload. The steps' semantics
 * are decision 0160's; the JSONata the registry serves (`jsonata.ts`) follows the same ones.
 */
import { checkExpression } from '../cel/check.js';
import { RuleCompiler } from '../cel/compile.js';
import type { CelType, RuleScope, TypedNode } from '../cel/types.js';
import type { Catalogue, Migration, MigrationStep } from '../model.js';
import { migrationHelperSource } from './steps-runtime.js';

/** The code of migrations for one module: helpers to declare once, then one function expression each. */
export interface MigrationsCode {
  /** Function declarations and `const`s to put once at the top of the module. */
  declarations: string;
  /** For each migration given, in order: a function expression `(message) => next`. */
  bodies: string[];
}

/** The code of one migration: `declarations` to put once in the module, `body` a function expression. */
export interface MigrationCode {
  declarations: string;
  body: string;
}

/** The name compiled code binds the input payload to (CEL's `message`). */
const INPUT = 'message';

/** Compiles several migrations into one module's code, the helpers they need declared once. */
export function migrationsCode(model: Catalogue, migrations: readonly Migration[]): MigrationsCode {
  const compiler = new RuleCompiler({ fieldRead: 'migField' });
  const bodies = migrations.map((migration) => migrationBody(model, migration, compiler));
  const declarations = [migrationHelperSource(), compiler.source().declarations].filter(Boolean).join('\n');
  return { declarations, bodies };
}

/** Compiles one migration (see `migrationsCode`). */
export function migrationCode(model: Catalogue, migration: Migration): MigrationCode {
  const { declarations, bodies } = migrationsCode(model, [migration]);
  return { declarations, body: bodies[0]! };
}

/**
 * The migration as a function, for the toolkit itself (the build's verification, the CLI, MCP): the same
 * code the packages get, turned into a function once. It never mutates its input; a CEL evaluation error
 * throws.
 */
export function migrationFunction(model: Catalogue, migration: Migration): (payload: unknown) => unknown {
  const { declarations, body } = migrationCode(model, migration);
  return new Function(`${declarations}\nreturn ${body};`)() as (payload: unknown) => unknown;
}

function migrationBody(model: Catalogue, migration: Migration, compiler: RuleCompiler): string {
  const scope = sourceScope(model, migration);
  const lines = migration.steps.flatMap((step) => stepCode(step, scope, compiler));
  const body = ['const next = migCopy(message);', ...lines, 'return next;']
    .map((line) => `  ${line}`)
    .join('\n');
  return `(${INPUT}) => {\n${body}\n}`;
}

/** The CEL scope of a migration's expressions: `message` is a payload of the version it starts from. */
function sourceScope(model: Catalogue, migration: Migration): RuleScope {
  const event = model.events[migration.from];
  if (!event) throw new Error(`migration from unknown event ${migration.from}`);
  return {
    variable: 'message',
    name: migration.from,
    fields: event.fields,
    shapeFields: (name) => model.shapes[name]?.fields,
  };
}

function stepCode(step: MigrationStep, scope: RuleScope, compiler: RuleCompiler): string[] {
  switch (step.kind) {
    case 'set': {
      const field = JSON.stringify(step.field);
      if ('cel' in step) return [`migSet(next, ${field}, ${celValue(step.cel, scope, compiler)});`];
      return [`migSet(next, ${field}, ${constant(step.value)});`];
    }
    case 'rename':
      return [`migRename(next, ${JSON.stringify(step.from)}, ${JSON.stringify(step.to)});`];
    case 'drop':
      return step.fields.map((path) => `migDrop(next, ${JSON.stringify(path)});`);
  }
}

/**
 * A constant as a JavaScript expression making a new value each time it runs (never shared between two
 * results); through `JSON.parse` when a key is `__proto__`, which an object literal would not keep.
 */
function constant(value: unknown): string {
  const json = JSON.stringify(value);
  return json.includes('"__proto__"') ? `JSON.parse(${JSON.stringify(json)})` : json;
}

/** The JavaScript giving the JSON value of a `set` step's CEL expression over the input payload. */
function celValue(expr: string, scope: RuleScope, compiler: RuleCompiler): string {
  const node = checked(expr, scope);
  return `migJson(${compiler.value(node, INPUT)}, ${JSON.stringify(jsonKind(node.type))})`;
}

/** What `migJson` must know of a value's CEL type to make JSON of it: timestamps are not JSON. */
function jsonKind(type: CelType): string {
  if (type.kind === 'timestamp') return 'timestamp';
  if (type.kind === 'list' && type.of.kind === 'timestamp') return 'list-timestamp';
  return '';
}

function checked(expr: string, scope: RuleScope): TypedNode {
  const result = checkExpression(expr, scope);
  // The loader refused the catalogue if this failed: reaching here is a bug, not bad input.
  if (!result.ok)
    throw new Error(`migration expression over ${scope.name} does not check: ${result.problems[0]?.message}`);
  return result.node;
}

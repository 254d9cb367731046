import { EXIT } from './exit-codes.js';

/**
 * The `load` area of the error-code registry (`error-codes.ts`): every problem the loader and the
 * readers of catalogue files report. A file of its own for its length, as the registry's largest area; the registry checks its shape
 * (`satisfies Record<string, ErrorArea>`).
 */
export const LOAD_ERRORS = {
  title: 'Catalogue problems',
  shown:
    '`file:line:column: error <code>: message` (the loader, and every reader of catalogue files: `check`, `lint`, `serve`, `diff`)',
  exit: EXIT.problems,
  codes: {
    'yaml-syntax': { meaning: 'The file is not valid YAML.' },
    'duplicate-key': { meaning: 'The same key appears twice in one YAML mapping.' },
    'unknown-key': { meaning: 'A key the catalogue format does not define.' },
    'invalid-value': {
      meaning: 'A value of the wrong kind (a number where text is expected, a missing required key, ...).',
    },
    'unknown-type': { meaning: 'A field type that is neither a built-in type nor a named shape.' },
    'unknown-shape': { meaning: 'A reference to a named shape that is not defined.' },
    'unknown-event': { meaning: 'A reference to an event key that is not defined.' },
    'composition-cycle': { meaning: '`same_as` / `extends` references that loop back on themselves.' },
    'field-type-conflict': { meaning: 'A field inherited through `extends` redefined with another type.' },
    'duplicate-event': { meaning: 'The same event key defined twice (in one file or in two).' },
    'duplicate-shape': { meaning: 'The same named shape defined twice.' },
    'duplicate-group': { meaning: 'Two files declare the same group slug.' },
    'invalid-event-key': {
      meaning: 'An event key that is not `<event_type>-<version>` with version vN or semver.',
    },
    'empty-group': { meaning: 'A group with no events.' },
    'invalid-format': { meaning: '`format` or `enum` on a field whose type cannot carry it.' },
    'missing-config': { meaning: 'The catalogue has no readable `eventry.config.yaml`.' },
    'yaml-tab': { meaning: 'A tab used as indentation (YAML indents with spaces only).' },
    'unresolved-alias': { meaning: 'A YAML alias (`*name`) with no anchor (`&name`) before it.' },
    'external-ref': {
      meaning:
        'An OpenAPI document given as a catalogue (`diff`, `check`) has a `$ref` into another file: only a self-contained document, as `npm run build` writes it, is read.',
    },
    'too-many-aliases': { meaning: 'YAML aliases that would expand too many times (an alias bomb).' },
    'too-deep': { meaning: 'YAML nested deeper than any catalogue file needs.' },
    'unreadable-file': {
      meaning:
        'An entry of the catalogue folder that cannot be read as a file (a folder, a FIFO or device, over 64 MiB, not UTF-8 text).',
    },
    'symlink-outside-catalogue': {
      meaning: 'A symbolic link in the catalogue folder to a file outside it (never read).',
    },
    'invalid-file-name': { meaning: 'A catalogue file name with a control character in it.' },
    'reserved-name': {
      meaning: 'A name the generated code cannot use (`__proto__`, a group called `catalogue`, ...).',
    },
    'name-too-long': { meaning: 'An event key or group slug too long to become a file name.' },
    'type-name-collision': { meaning: 'Two definitions that would become the same TypeScript name.' },
    'array-too-deep': { meaning: 'An array type nested deeper than the generated code supports.' },
    'duplicate-enum-value': { meaning: 'The same value listed twice in one `enum`.' },
    'unknown-team': { meaning: 'A reference to a team that `teams.yaml` does not define.' },
    'invalid-version-range': { meaning: 'A consumer declaration whose `versions` is not a semver range.' },
    'no-matching-version': {
      meaning: 'A consumer declaration whose version range matches no version of the event.',
    },
    'unknown-field': {
      meaning: 'A field path a consumer reads that exists in none of the versions it declares.',
    },
    'rule-syntax-error': {
      meaning: "A rule's `expr` (or a migration's `set: {cel}`) that is not valid CEL.",
    },
    'rule-unknown-field': {
      meaning:
        "A rule (or a migration's `set: {cel}`) that reads a field (or a variable) the event or shape does not have.",
    },
    'rule-type-mismatch': {
      meaning:
        "A rule (or a migration's `set: {cel}`) that applies an operator or function to values of the wrong type; a rule that is not a bool.",
    },
    'rule-unguarded-field': {
      meaning: "A rule (or a migration's `set: {cel}`) that reads an optional field without a `has()` guard.",
    },
    'rule-unsupported': {
      meaning: "A rule (or a migration's `set: {cel}`) that uses CEL outside the subset eventry compiles.",
    },
    'rule-too-deep': {
      meaning:
        "A rule (or a migration's `set: {cel}`) nested deeper than eventry compiles: 100 levels of expressions, or 100 terms in one `&&` or `||` chain.",
    },
    'duplicate-rule': { meaning: 'Two rules of one event or shape with the same `name`.' },
    'rule-unsatisfiable': {
      meaning: 'A rule that no test data the build draws keeps (impossible, or too narrow for `fake`).',
    },
    'migration-invalid-from': {
      meaning: 'An `upgrade.from` that is not an earlier version of the same event type.',
    },
    'migration-downgrade-alone': { meaning: 'A `downgrade:` without an `upgrade:` beside it.' },
    'migration-unknown-field': {
      meaning: "A migration step's field path that names no field of the version it reads or writes.",
    },
    'migration-invalid-path': {
      meaning: "A migration step's field path through an array, into a free `object` or into a scalar.",
    },
    'migration-invalid-value': { meaning: "A `set` step's `value` that does not fit the field's type." },
    'migration-type-mismatch': {
      meaning: "A `set` step's `cel` whose result type does not fit the field.",
    },
    'migration-required-unset': {
      meaning:
        'A required field of the version a migration makes that no step sets and the other version lacks.',
    },
    'migration-unverified': {
      meaning:
        'An `upgrade:` or `downgrade:` that gives, for a valid payload of its source version drawn by the build, a payload its target refuses (strict mode, rules included) or that throws; the message names the field and shows the shrunk counterexample.',
    },
  },
} as const;

import { LOAD_ERRORS } from './error-codes-load.js';
import { EXIT, type ExitStatus } from './exit-codes.js';

/**
 * Every error code eventry produces, in one registry: the code users and machines match on (never
 * changed, never reused), where it comes from, what it means, and the exit status or HTTP status it
 * goes with. `docs/error-codes.md` is generated from it (`npm run gen:error-codes`), and
 * `test/shared/error-codes.test.ts` fails on a code used in the source but missing here, or listed here
 * but produced nowhere. Lint rule ids and diff rule ids are not here: each has its own rule registry.
 */

/** One code: a one-line meaning, and the statuses it goes with when they differ from its area's. */
export interface ErrorCodeEntry {
  readonly meaning: string;
  readonly exit?: ExitStatus;
  readonly http?: number | readonly number[];
}

/** One area of codes: who produces them, how they reach the user, the statuses they go with. */
export interface ErrorArea {
  readonly title: string;
  /** Where the code appears (a printed line, a JSON body, ...). */
  readonly shown: string;
  readonly exit?: ExitStatus;
  readonly http?: number | readonly number[];
  readonly codes: Readonly<Record<string, ErrorCodeEntry>>;
}

/** The registry, by area. Numeric codes are written as text keys (`'40401'`); `ErrorCode` gives them as numbers. */
export const ERROR_CODE_REGISTRY = {
  load: LOAD_ERRORS,
  output: {
    title: 'Output folders',
    shown:
      '`eventry: error <code>: message` (`build`, `version`, `publish`, `registry export`); `[<code>]` after the message (`docs`)',
    exit: EXIT.usage,
    codes: {
      'out-unsafe': {
        meaning:
          "A place no output may go: `''` (an unset variable), the catalogue, a folder inside or above it, inside `node_modules/`, the file-system root, a kernel pseudo file system.",
      },
      'out-not-owned': { meaning: 'The output folder holds files eventry did not write (no marker).' },
      'docs-out-not-site': { meaning: 'The docs `--out` folder exists and is not a site eventry wrote.' },
      'write-failed': {
        meaning: 'A file of the build could not be written (the system error follows); nothing was written.',
        exit: EXIT.problems,
      },
      'toolkit-not-built': {
        meaning:
          'A compiled part of eventry itself (a worker module, precompiled templates or validators) is missing or older than the sources: run `npm run build:tool`.',
        exit: EXIT.internal,
      },
    },
  },
  usage: {
    title: 'Usage scan',
    shown:
      '`file:line:column: error <code>: message` (`eventry usage scan`; on an error nothing is written and the old declaration stays)',
    exit: EXIT.problems,
    codes: {
      'usage-unresolved': {
        meaning:
          'A read the scan cannot follow (a computed key, a value passed whole to code it cannot see): declared at the nearest path it can name (`lines[].*`, `*`). A warning.',
        exit: EXIT.ok,
      },
      'usage-unknown-field': { meaning: 'The code reads a key that no version of the event has.' },
      'usage-package-unresolved': {
        meaning:
          'An import of a group package does not resolve (the packages are not installed), or the project imports none.',
      },
      'usage-no-files': { meaning: "The project's tsconfig.json selects no source file." },
      'usage-too-deep': { meaning: 'Code nested, or a chain of values, deeper than the scan can follow.' },
      'usage-unknown-team': { meaning: '`--team` names no team of `teams.yaml`.', exit: EXIT.usage },
      'usage-not-generated': {
        meaning:
          'The declaration file exists and its first line is not the note `usage scan` writes (or it is not a regular file).',
      },
    },
  },
  docs: {
    title: 'Docs portal',
    shown: '`file: message [<code>]` (`eventry docs`; nothing is written)',
    exit: EXIT.problems,
    codes: {
      'docs-package-missing': {
        meaning: 'A group package the site needs is not built, or is incomplete: run `eventry build`.',
      },
      'docs-package-stale': {
        meaning:
          'A built group package lacks a validator or examples the catalogue has (it is older): run `eventry build`.',
      },
      'docs-validator-import': {
        meaning: 'A built validator imports a module the site cannot ship to the browser.',
      },
      'site-writer-stopped': {
        meaning: 'The thread writing the site stopped before the site was written; the last good site stays.',
        exit: EXIT.internal,
      },
    },
  },
  gate: {
    title: 'Version gate and release base',
    shown:
      '`eventry check: error <code>: message` / `eventry version: error <code>: message`; allow-list entries as `file:line:column: error <code>: message`',
    exit: EXIT.usage,
    codes: {
      'not-a-repository': { meaning: 'Not inside a git repository, where releases are found.' },
      'shallow-history': {
        meaning: 'The clone is shallow and the base commit is not in it: fetch the history.',
      },
      'base-not-found': { meaning: 'The base named (`--base`, `EVENTRY_BASE`, a release) names nothing.' },
      'base-without-catalogue': { meaning: 'The base exists but holds no catalogue to compare with.' },
      'base-does-not-load': {
        meaning: 'The catalogue at the base has problems, so the gate cannot compare.',
      },
      'stale-allow-entry': {
        meaning: 'An allow-list entry that matches no breaking change against the base.',
        exit: EXIT.problems,
      },
      'consumed-allow-entry': {
        meaning: 'An allow-list entry carried by the last release: a warning, an error after the next.',
        exit: EXIT.ok,
      },
      'expired-allow-entry': {
        meaning: 'An allow-list entry carried by two releases: it allows nothing.',
        exit: EXIT.problems,
      },
    },
  },
  lint: {
    title: 'Lint settings',
    shown: '`file:line:column: error <code>: message` (`eventry lint`, the lint step of `check`)',
    exit: EXIT.problems,
    codes: {
      'unknown-lint-rule': { meaning: '`lint.rules` names a rule that does not exist (or was retired).' },
      'invalid-lint-pattern': {
        meaning:
          'The `pattern` of a rule in `lint.rules` is not a regular expression RE2 runs (no backreferences or lookaround).',
      },
      'invalid-lint-baseline': {
        meaning:
          'The lint baseline cannot be used: not a baseline, or not a regular file inside the catalogue of at most 64 MiB.',
      },
    },
  },
  publish: {
    title: 'npm registry',
    shown: '`eventry: error <code>: message` (`publish`, `version`, `npm:` sources)',
    exit: EXIT.usage,
    codes: {
      'registry-url': {
        meaning:
          'The `--registry` URL is not `http:` or `https:` with a host, or holds white space or a control character.',
      },
      'registry-timeout': {
        meaning:
          '`EVENTRY_REGISTRY_TIMEOUT` or `EVENTRY_REGISTRY_DEADLINE` is not a positive number of seconds.',
      },
    },
  },
  fake: {
    title: 'Test payloads (testing entry points)',
    shown: 'one line on stderr (`eventry fake`); the `package-missing` tool error (MCP `fake_payload`)',
    exit: EXIT.usage,
    codes: {
      'no-packages': { meaning: 'No group packages in the packages folder: run `npm run build` first.' },
      'unknown-event': { meaning: 'No event with that key in the group packages.' },
      'no-testing-entry': { meaning: 'The group package has no testing entry point: rebuild it.' },
      'cannot-load': { meaning: "The group package's testing entry point fails to load." },
    },
  },
  testing: {
    title: "Test data for events with data rules (a group package's testing entry)",
    shown:
      'the `code` of the `RuleDataError` that `fake`, `arbitrary` or `invalid` throws; the build reports an unsatisfiable rule as the load code `rule-unsatisfiable`',
    codes: {
      rule_unsatisfiable: {
        meaning:
          'No payload drawn within the bound keeps the rule: it may be impossible, or too narrow for random data.',
      },
      rule_unbreakable: {
        meaning:
          '`invalid` found no payload that passes the schema and breaks this rule alone: it may never break, or only with another rule.',
      },
    },
  },
  migration: {
    title: "Migrations between versions (a group package's `upcast` and `downcast`)",
    shown:
      'the `code` of the `MigrationError` that `upcast` or `downcast` throws; its message names both keys',
    codes: {
      unknown_event: { meaning: 'A key (the source or the target) that is not an event of the package.' },
      other_event_type: { meaning: 'A target that is not a version of the source key’s event type.' },
      no_migration_path: {
        meaning:
          'No chain of declared upgrades (for `upcast`) or downgrades (for `downcast`) leads from the source to the target, or the target is on the wrong side of it.',
      },
      payload_not_object: { meaning: 'A payload that is not a JSON object.' },
    },
  },
  validate: {
    title: 'Payload files and lines',
    shown:
      '`[<code>]` after the message, `code` in `--format json` / NDJSON output (`eventry validate`); `stdin:LINE: error <code>: message` (`eventry upcast`)',
    exit: EXIT.problems,
    codes: {
      unreadable_file: {
        meaning: 'A payload file named on the command line that cannot be read.',
        exit: EXIT.usage,
      },
      invalid_encoding: { meaning: 'A payload file or line that is not UTF-8 text.' },
      invalid_json: { meaning: 'A payload file or line that is not JSON.' },
      invalid_line: {
        meaning:
          'An NDJSON line that is not `{"event": KEY, "payload": {...}}`, or longer than `--max-bytes`.',
      },
      unknown_event: { meaning: 'An NDJSON line naming an event the group packages do not have.' },
      migration_failed: {
        meaning:
          'A payload line `eventry upcast` cannot convert: not a JSON object, or a migration step whose expression fails on it.',
      },
    },
  },
  payload: {
    title: "Payload validation (the platform's 400 body, from the group packages)",
    shown:
      '`code` of the body and of each item of `errors` (`validate()` of a group package, `eventry validate`, the playground)',
    exit: EXIT.problems,
    http: 400,
    codes: {
      event_failed_validation: {
        meaning: 'Body code: the payload does not match the event; `errors` lists why.',
      },
      unknown_event: { meaning: 'Body code: no event with that key in the package.' },
      required: { meaning: 'Item: a required field is missing.' },
      unknown_field: { meaning: 'Item: a field the event does not document (strict mode).' },
      invalid_type: { meaning: 'Item: a value of the wrong JSON type.' },
      invalid_format: {
        meaning: 'Item: a string that does not have the field’s format (date-time, uuid, ...).',
      },
      invalid_value: {
        meaning: 'Item: a value the field does not allow (not in its `enum`, or another constraint failed).',
      },
      unreadable_payload: {
        meaning: 'Item: reading the payload threw (a getter or proxy that fails); the reason follows.',
      },
      rule_violated: {
        meaning: "Item: the payload breaks one of the event's rules (`rules:`); `detail` is its message.",
      },
      too_many_problems: { meaning: 'Item: the last item when `maxErrors` is reached; it counts the rest.' },
    },
  },
  serve: {
    title: 'Schema registry server (Confluent `error_code`)',
    shown: '`{"error_code": <code>, "message": ...}` with the HTTP status (`eventry serve`)',
    codes: {
      '400': { meaning: 'A malformed request (bad percent-encoding, a body that is not JSON).', http: 400 },
      '404': { meaning: 'No such route.', http: 404 },
      '405': { meaning: 'A method the route does not offer (the registry is read-only).', http: 405 },
      '408': { meaning: 'The request (or its body) took too long to arrive.', http: 408 },
      '413': { meaning: 'The request body is larger than the server accepts.', http: 413 },
      '40401': { meaning: 'Subject not found.', http: 404 },
      '40402': { meaning: 'Version not found for the subject.', http: 404 },
      '40403': { meaning: 'Schema not found.', http: 404 },
      '42201': { meaning: 'Invalid schema (not JSON Schema, or not one the checker can read).', http: 422 },
      '42202': { meaning: 'Invalid version (not `latest`, `-1` or 1 to 2^31-1).', http: 422 },
      '42205': {
        meaning: 'Operation not permitted: every write, since schemas change through the catalogue.',
        http: 422,
      },
      '42210': {
        meaning:
          'Schema too large to judge: over the limits of a compatibility check (20000 JSON objects and arrays, 2000 `$ref`, 200000 comparison steps, 20 s); nesting deeper than 64 levels is 42201.',
        http: 422,
      },
      '50001': { meaning: 'Internal error; the server log has the details.', http: 500 },
    },
  },
  mcp: {
    title: 'MCP tool errors',
    shown:
      'the tool result text `<code>: message` and `_meta["eventry/error"].code` (`eventry mcp`, `serve --mcp`)',
    codes: {
      'unknown-event': { meaning: 'No event with that key (with a did-you-mean).' },
      'unknown-event-type': { meaning: 'No event type with that name (with a did-you-mean).' },
      'unknown-field': { meaning: 'No field with that path in any version of the event type.' },
      'different-event-types': { meaning: 'Two keys to compare that are not versions of one event type.' },
      'package-missing': {
        meaning: 'The group package that answers this is not built: run `eventry build`.',
      },
      'input-too-large': { meaning: 'An argument larger than the server accepts.' },
      'input-too-deep': { meaning: 'A schema or payload argument nested deeper than the server accepts.' },
      'invalid-schema': { meaning: 'A candidate schema the compatibility checker cannot read.' },
      'unknown-subject': { meaning: 'No registry subject with that name.' },
      'no-registry': {
        meaning: "The server has no release history (it runs outside the catalogue's repository).",
      },
      'no-migration-path': {
        meaning:
          'No chain of `upgrade:` / `downgrade:` steps leads from that event version to the one asked for.',
      },
      'migration-failed': {
        meaning:
          'A migration cannot convert that payload (not a JSON object, or a step whose expression fails on it).',
      },
      internal: { meaning: 'The tool could not answer (a bug; the server log has the details).' },
    },
  },
  'mcp-http': {
    title: 'MCP protocol errors (JSON-RPC `error.code`, stdio and HTTP)',
    shown:
      '`{"jsonrpc": "2.0", "id": <id or null>, "error": {"code": <code>, ...}}`: a line on `eventry mcp`\'s stdout, or the body with the HTTP status (`serve --mcp`, `/mcp`)',
    codes: {
      '-32000': { meaning: 'A method other than POST: the endpoint is stateless.', http: 405 },
      '-32600': {
        meaning:
          'A message that is not one JSON-RPC 2.0 request, notification or response (a batch, no `jsonrpc`, a null or object id, params that are not an object).',
        http: 400,
      },
      '-32700': {
        meaning: 'A body or stdio line that is not JSON (400), or a message too large (413).',
        http: [400, 413],
      },
    },
  },
} as const satisfies Record<string, ErrorArea>;

/** The areas of the registry (`load`, `serve`, ...). */
export type ErrorAreaName = keyof typeof ERROR_CODE_REGISTRY;

/** A numeric code's text key as the number it is; any other code as it is. */
type CodeValue<K> = K extends `${infer N extends number}` ? N : K;

/** A registered code of one area (all areas by default); a code not in the registry fails `tsc`. */
export type ErrorCode<A extends ErrorAreaName = ErrorAreaName> = {
  [Area in A]: CodeValue<keyof (typeof ERROR_CODE_REGISTRY)[Area]['codes']>;
}[A];

/** The meaning of each code of one area, keyed by code. */
export function meaningsOf<A extends ErrorAreaName>(area: A): Record<ErrorCode<A> & string, string> {
  const codes: Readonly<Record<string, ErrorCodeEntry>> = ERROR_CODE_REGISTRY[area].codes;
  return Object.fromEntries(Object.entries(codes).map(([code, entry]) => [code, entry.meaning])) as Record<
    ErrorCode<A> & string,
    string
  >;
}

/** The HTTP status or statuses a code is answered with, when it has one. */
export function httpStatusOf(area: ErrorAreaName, code: string | number): readonly number[] {
  const areaEntry: ErrorArea = ERROR_CODE_REGISTRY[area];
  const http = areaEntry.codes[String(code)]?.http ?? areaEntry.http;
  return http === undefined ? [] : typeof http === 'number' ? [http] : http;
}

/** What each exit status means, for the table (`EXIT` names them; every status has a line here). */
export const EXIT_MEANINGS = {
  [EXIT.ok]: 'Done; nothing to report (warnings may have been printed).',
  [EXIT.problems]: 'The input has problems: a bad catalogue, an invalid payload, gate findings, lint errors.',
  [EXIT.usage]:
    'The command line, a file named on it, or the environment is wrong (a usage error); nothing was done.',
  [EXIT.internal]: 'A bug in eventry itself (sysexits EX_SOFTWARE); `EVENTRY_DEBUG=1` shows where.',
} as const satisfies Record<ExitStatus, string>;

/**
 * The run time of every generated group package: it turns the precompiled ajv validators of an event
 * into `validate` / `isEvent` / `assertEvent`, and ajv's errors into the platform's 400 body. Authored
 * once here; the build copies it into each package as `runtime.js` (with `runtime.d.ts`). No
 * dependencies, no `eval`: safe under a strict content security policy.
 */

const VALID = Object.freeze({ valid: true });
/** What no caller can pass as an event key. */
const NO_KEY = Symbol('no event key');

/** The error `assertEvent` throws; `body` is exactly the platform's 400 body. */
export class EventValidationError extends Error {
  constructor(body) {
    super(body.detail);
    this.name = 'EventValidationError';
    this.code = body.code;
    this.errors = body.errors;
    this.body = body;
  }
}

/**
 * ajv's generated functions default their second argument to a fresh object on every call; passing
 * one shared context saves the allocation. Nothing writes to it.
 */
const CONTEXT = Object.freeze({ instancePath: '' });

/**
 * One event's API from its generated validators, each compiled on first use (a group package's
 * import only pre-parses its events' code). `compileFast` defines the first-error validators of both
 * modes and returns this event's own `check(payload, tolerant, context)` over them: a function per
 * event, so its calls into the validators stay monomorphic however many events a process validates.
 * `compileFull` returns the all-errors validator of the strict schema, which runs only once a fast one
 * has failed. Tolerant errors are the strict ones less `additionalProperties`: the two schemas differ
 * in nothing else.
 */
export function defineEvent(key, compileFast, compileFull) {
  let check;
  let complete;
  function validate(payload, options) {
    const isTolerant = options === undefined ? false : readMode(options);
    check ??= compileFast({});
    try {
      if (check(payload, isTolerant, CONTEXT)) return VALID;
    } catch (error) {
      return failure(key, [unreadable(error)]);
    }
    complete ??= compileFull({});
    return explain(key, complete, payload, isTolerant);
  }
  return {
    key,
    validate,
    isEvent: (payload, options) => validate(payload, options) === VALID,
    assertEvent: (payload, options) => {
      const result = validate(payload, options);
      if (result !== VALID) throw new EventValidationError(result.error);
    },
  };
}

/** A group's API over its events: the same calls, with the event key first. */
export function defineGroup(packageName, events) {
  const byKey = new Map(events.map((api) => [api.key, api.validate]));
  const eventKeys = Object.freeze(events.map((api) => api.key));

  // Producers and consumers mostly validate runs of one event: remember the last one looked up.
  let lastKey = NO_KEY;
  let lastValidate;
  function validate(key, payload, options) {
    if (key === lastKey) return lastValidate(payload, options);
    const validateEvent = byKey.get(key);
    if (validateEvent === undefined) return unknownEvent(packageName, key);
    lastKey = key;
    lastValidate = validateEvent;
    return validateEvent(payload, options);
  }

  return {
    eventKeys,
    validate,
    isEvent: (key, payload, options) => validate(key, payload, options) === VALID,
    assertEvent: (key, payload, options) => {
      const result = validate(key, payload, options);
      if (result !== VALID) throw new EventValidationError(result.error);
    },
  };
}

/** Matchers for vitest and jest (`expect.extend(matchers)`): `expect(payload).toBeValidEvent(key)`. */
export function createMatchers(validate) {
  return {
    toBeValidEvent(received, key, options) {
      const result = validate(key, received, options);
      const what = `a valid \`${describeKey(key)}\` event (${readMode(options) ? 'tolerant' : 'strict'} mode)`;
      if (result.valid) {
        return { pass: true, message: () => `expected the payload not to be ${what}, but it is` };
      }
      const lines = result.error.errors.map(
        (item) => `  ${item.attr === '' ? '(payload)' : item.attr}: ${item.detail}`,
      );
      return {
        pass: false,
        message: () => [`expected the payload to be ${what}: ${result.error.detail}`, ...lines].join('\n'),
      };
    },
  };
}

/** Maps ajv errors (all-errors run of the strict schema) to the platform's error items. */
export function toErrorItems(ajvErrors, payload, tolerant) {
  const items = [];
  for (const error of ajvErrors) {
    const keyword = error.keyword;
    if (keyword === 'additionalProperties' && tolerant) continue;
    // A value of the wrong type also fails its enum: that is one problem, already reported.
    if (keyword === 'enum' && hasTypeError(ajvErrors, error.instancePath)) continue;
    items.push(toErrorItem(error, payload));
  }
  return items;
}

function toErrorItem(error, payload) {
  const path = toDotPath(error.instancePath);
  switch (error.keyword) {
    case 'required': {
      const attr = joinPath(path, error.params.missingProperty);
      return { detail: `\`${attr}\` is required but missing.`, code: 'required', attr };
    }
    case 'additionalProperties': {
      const attr = joinPath(path, error.params.additionalProperty);
      return {
        detail: `\`${attr}\` is not a documented field; only documented fields may be sent.`,
        code: 'unknown_field',
        attr,
      };
    }
    case 'type':
      return { detail: typeDetail(path, error, payload), code: 'invalid_type', attr: path };
    case 'format': {
      const format = error.params.format;
      return {
        detail: `${subject(path)} must be ${FORMATS[format] ?? `in format \`${format}\``}.`,
        code: 'invalid_format',
        attr: path,
      };
    }
    case 'enum':
      return {
        detail: `${subject(path)} must be one of ${error.params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}.`,
        code: 'invalid_value',
        attr: path,
      };
    default:
      return {
        detail: `${subject(path)} is not valid (${error.keyword}).`,
        code: 'invalid_value',
        attr: path,
      };
  }
}

function hasTypeError(ajvErrors, instancePath) {
  for (const error of ajvErrors) {
    if (error.keyword === 'type' && error.instancePath === instancePath) return true;
  }
  return false;
}

/** An ajv instance path (JSON Pointer) as the platform's dot path: `/a/0/b~1c` -> `a.0.b/c`. */
export function toDotPath(pointer) {
  if (pointer === '') return '';
  if (!pointer.includes('~')) {
    // A top-level field, the most common case, needs no replacement.
    return pointer.indexOf('/', 1) === -1 ? pointer.slice(1) : pointer.slice(1).replaceAll('/', '.');
  }
  return pointerParts(pointer).join('.');
}

function pointerParts(pointer) {
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
}

const FORMATS = {
  date: 'a date (YYYY-MM-DD)',
  'date-time': 'a date-time (ISO 8601, e.g. 2024-01-31T12:00:00Z)',
};

const TYPES = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
};

function explain(key, complete, payload, tolerant) {
  let items;
  try {
    complete(payload, CONTEXT);
    items = toErrorItems(complete.errors ?? [], payload, tolerant);
  } catch (error) {
    items = [unreadable(error)];
  }
  if (items.length === 0) {
    // The fast validator failed and the complete one found nothing: the payload changed while read.
    items = [
      {
        detail: 'The payload gave different values each time it was read.',
        code: 'unreadable_payload',
        attr: '',
      },
    ];
  }
  return failure(key, items);
}

function failure(key, errors) {
  const count = errors.length === 1 ? '1 problem' : `${errors.length} problems`;
  return {
    valid: false,
    error: {
      detail: `The payload is not a valid \`${key}\` event: ${count}.`,
      code: 'event_failed_validation',
      errors,
    },
  };
}

function unknownEvent(packageName, key) {
  return {
    valid: false,
    error: {
      detail: `\`${describeKey(key)}\` is not an event of ${packageName}.`,
      code: 'unknown_event',
      errors: [],
    },
  };
}

function unreadable(error) {
  let reason;
  try {
    reason = error instanceof Error ? `${error.name}: ${error.message}` : typeof error;
  } catch {
    reason = 'unknown error';
  }
  return { detail: `The payload could not be read (${reason}).`, code: 'unreadable_payload', attr: '' };
}

function readMode(options) {
  try {
    return options !== null && typeof options === 'object' && options.mode === 'tolerant';
  } catch {
    return false;
  }
}

function describeKey(key) {
  return typeof key === 'string' ? key : `(a ${typeof key})`;
}

function joinPath(path, name) {
  return path === '' ? name : `${path}.${name}`;
}

function subject(path) {
  return path === '' ? 'The payload' : `\`${path}\``;
}

function typeDetail(path, error, payload) {
  const expected = error.params.type;
  const want = TYPES[expected] ?? expected;
  const got = describeValue(valueAt(payload, error.instancePath));
  if (got === 'null' && path !== '') {
    return `${subject(path)} must be ${want}, not null; leave out an optional field that has no value.`;
  }
  return got === undefined
    ? `${subject(path)} must be ${want}.`
    : `${subject(path)} must be ${want}, not ${got}.`;
}

/** The value at a JSON Pointer, read defensively (the failure path only): undefined when unreadable. */
function valueAt(payload, pointer) {
  if (pointer === '') return { value: payload };
  try {
    let value = payload;
    if (pointer.includes('~')) {
      for (const part of pointerParts(pointer)) value = value[part];
      return { value };
    }
    let start = 1;
    for (let end = pointer.indexOf('/', 1); end !== -1; end = pointer.indexOf('/', start)) {
      value = value[pointer.slice(start, end)];
      start = end + 1;
    }
    return { value: value[pointer.slice(start)] };
  } catch {
    return undefined;
  }
}

function describeValue(found) {
  if (found === undefined) return undefined;
  const { value } = found;
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'number':
      if (Number.isInteger(value)) return 'an integer';
      return Number.isFinite(value) ? 'a number with a fraction' : String(value);
    case 'string':
      return 'a string';
    case 'boolean':
      return 'a boolean';
    case 'bigint':
      return 'a BigInt';
    case 'undefined':
      return 'undefined';
    case 'object':
      return 'an object';
    default:
      return `a ${typeof value}`;
  }
}

/**
 * The helpers compiled migrations call, as JavaScript text put once at the top of a module (a group's
 * `migrations.js`, a portal module, or the tool's own `new Function`): plain functions over JSON values,
 * with no imports. Text, not `Function.prototype.toString()` of functions here: that text would be
 * whatever compiled this file (tsc for the toolkit, another transform under a test runner), and a build
 * must write the same bytes however the toolkit was loaded. The semantics are decision 0160's; the
 * tests hold them through `migrationFunction` (test/migrate/).
 */
const MIGRATION_HELPER_SOURCE = `/** A deep copy of a JSON value: objects and arrays are new, own keys only (\`__proto__\` kept as a key). */
function migCopy(value) {
    if (typeof value !== 'object' || value === null)
        return value;
    if (Array.isArray(value))
        return value.map(migCopy);
    const copy = {};
    for (const key of Object.keys(value))
        migPut(copy, key, migCopy(value[key]));
    return copy;
}
/** Sets an own key, \`__proto__\` included, without touching the prototype. */
function migPut(target, key, value) {
    if (key === '__proto__')
        Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
    else
        target[key] = value;
}
/** A field read by a CEL expression: an absent field throws, as CEL's "no such key" does. */
function migField(target, key) {
    if (typeof target !== 'object' || target === null || !Object.hasOwn(target, key))
        throw new RangeError(\`no such key: \${key}\`);
    return target[key];
}
/** Whether \`value\` is a plain JSON object (not an array, not null). */
function migIsObject(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
/** The object at \`path\` in \`root\`, each missing (or non-object) one on the way made \`{}\`. */
function migParent(root, path) {
    let at = root;
    for (let i = 0; i < path.length - 1; i++) {
        const key = path[i];
        const next = Object.hasOwn(at, key) ? at[key] : undefined;
        if (migIsObject(next))
            at = next;
        else {
            const made = {};
            migPut(at, key, made);
            at = made;
        }
    }
    return at;
}
/** The object holding the last key of \`path\`, or undefined when a field on the way is absent. */
function migFind(root, path) {
    let at = root;
    for (let i = 0; i < path.length - 1; i++) {
        if (!migIsObject(at) || !Object.hasOwn(at, path[i]))
            return undefined;
        at = at[path[i]];
    }
    return migIsObject(at) && Object.hasOwn(at, path[path.length - 1]) ? at : undefined;
}
/** \`set\`: the field at \`path\` becomes \`value\`, parents created. */
function migSet(root, path, value) {
    migPut(migParent(root, path), path[path.length - 1], value);
}
/** \`rename\`: a present \`from\` moves to \`to\` (parents created); an absent one changes nothing. */
function migRename(root, from, to) {
    const holder = migFind(root, from);
    if (holder === undefined)
        return;
    const key = from[from.length - 1];
    const value = holder[key];
    delete holder[key];
    migSet(root, to, value);
}
/** \`drop\`: the field at \`path\` is removed when present. */
function migDrop(root, path) {
    const holder = migFind(root, path);
    if (holder !== undefined)
        delete holder[path[path.length - 1]];
}
/**
 * A CEL value as JSON: an int (BigInt) becomes a number, a timestamp (\`[seconds, nanos]\`) its RFC 3339
 * text, lists and objects are copied (the result never shares a value with the input payload).
 */
function migJson(value, kind) {
    if (typeof value === 'bigint') {
        const number = Number(value);
        if (!Number.isSafeInteger(number))
            throw new RangeError('int out of the range a JSON number holds');
        return number;
    }
    if (typeof value === 'number' && !Number.isFinite(value))
        throw new RangeError(\`\${value} is not JSON\`);
    if (kind === 'timestamp' && Array.isArray(value)) {
        const [seconds, nanos] = value;
        const text = new Date(seconds * 1000).toISOString().slice(0, 19);
        const fraction = nanos === 0 ? '' : \`.\${String(nanos).padStart(9, '0').replace(/0+$/, '')}\`;
        return \`\${text}\${fraction}Z\`;
    }
    if (Array.isArray(value))
        return value.map((item) => migJson(item, kind === 'list-timestamp' ? 'timestamp' : ''));
    return migCopy(value);
}
`;

/** The source text of every helper, for a module of compiled migrations. */
export function migrationHelperSource(): string {
  return MIGRATION_HELPER_SOURCE;
}

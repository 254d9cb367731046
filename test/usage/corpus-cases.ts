// The usage-scan corpus: code patterns a consumer writes, each with the declaration it must produce.
// `consumes` is the declaration's `consumes` (event type -> versions and fields), `warnings` the count of
// `usage-unresolved` warnings, `error` the code of a refusal.

export interface CorpusCase {
  name: string;
  code: string;
  consumes?: Record<string, { versions: string; fields?: string[] }>;
  warnings?: number;
  error?: string;
}

/** Imported by every case (types only, and the account group's guards). */
export const HEADER = `import type { AccountCreatedV1, AccountRemovedV1, AccountRemovedV2 } from '@fixture-events/account';
import { isEvent, assertEvent } from '@fixture-events/account';
import type { BillingLedgerEntryPostedV1, ContractGroupsVersionCreatedV1, GroupVersion, GroupTrait, Ledger, MeterpointGasPartialV1, InkConversationClosedV1 } from '@fixture-events/billing';
`;

const created = (...fields: string[]) => ({ 'account.created': { versions: '1', fields } });
const removed = (versions: string, ...fields: string[]) => ({ 'account.removed': { versions, fields } });
const groups = (...fields: string[]) => ({ 'contract-groups.version-created': { versions: '1', fields } });
const ledger = (...fields: string[]) => ({ 'billing.ledger.entry_posted': { versions: '1', fields } });

export const CASES: CorpusCase[] = [
  // Plain reads.
  {
    name: 'property of a parameter',
    code: 'export const f = (e: AccountCreatedV1) => e.account_number;',
    consumes: created('account_number'),
  },
  {
    name: 'nested property',
    code: 'export const f = (e: BillingLedgerEntryPostedV1) => e.ledger.account.number;',
    consumes: ledger('ledger.account.number'),
  },
  {
    name: 'optional chain',
    code: 'export const f = (e?: BillingLedgerEntryPostedV1) => e?.ledger?.id;',
    consumes: ledger('ledger.id'),
  },
  {
    name: 'string literal element access',
    code: "export const f = (e: AccountCreatedV1) => e['status'];",
    consumes: created('status'),
  },
  {
    name: 'destructuring with rename',
    code: 'export function f(e: AccountRemovedV2) { const { reason, account_number: n } = e; return reason + n; }',
    consumes: removed('2', 'account_number', 'reason'),
  },
  {
    name: 'nested destructuring in a parameter',
    code: 'export const f = ({ ledger: { account } }: BillingLedgerEntryPostedV1) => account.number;',
    consumes: ledger('ledger.account.number'),
  },
  {
    name: 'a variable holding a field',
    code: 'export function f(e: BillingLedgerEntryPostedV1) { const l = e.ledger; return l.number; }',
    consumes: ledger('ledger.number'),
  },
  {
    name: 'a shape typed parameter (found by its type)',
    code: 'export const f = (l: Ledger) => l.number;',
    consumes: ledger('ledger.number'),
  },
  {
    name: 'a helper called with a field (followed to its callers)',
    code: 'const n = (l: Ledger) => l.id;\nexport const f = (e: BillingLedgerEntryPostedV1) => n(e.ledger);',
    consumes: ledger('ledger.id'),
  },
  {
    name: 'array item index',
    code: 'export const f = (e: AccountCreatedV1) => e.tags?.[0]?.[1];',
    consumes: created('tags[][]'),
  },
  {
    name: 'array length only',
    code: 'export const f = (e: AccountCreatedV1) => e.account_user_emails.length;',
    consumes: created('account_user_emails'),
  },
  // Unions and narrowing.
  {
    name: 'union parameter',
    code: 'export const f = (e: AccountRemovedV1 | AccountRemovedV2) => e.account_number;',
    consumes: removed('1 || 2', 'account_number'),
  },
  {
    name: 'union variable',
    code: 'declare const v: AccountRemovedV1 | AccountRemovedV2;\nexport const f = () => v.status;',
    consumes: removed('1 || 2', 'status'),
  },
  {
    name: 'union return type',
    code: 'declare function load(): AccountRemovedV1 | AccountRemovedV2;\nexport const f = () => load().account_number;',
    consumes: removed('1 || 2', 'account_number'),
  },
  {
    name: '`in` narrowing within a union',
    code: "export function f(e: AccountCreatedV1 | AccountRemovedV2) { return 'reason' in e ? e.reason : e.account_number; }",
    consumes: { ...created('account_number'), ...removed('2', 'reason') },
  },
  {
    name: 'isEvent || isEvent',
    code: "export function f(p: unknown) { if (isEvent('account.removed-v1', p) || isEvent('account.removed-v2', p)) return p.account_number; return ''; }",
    consumes: removed('1 || 2', 'account_number'),
  },
  {
    name: 'isEvent && a check',
    code: "export function f(p: unknown) { return isEvent('account.removed-v2', p) && p.reason.length > 0; }",
    consumes: removed('2', 'reason'),
  },
  {
    name: 'assertEvent',
    code: "export function f(p: unknown) { assertEvent('account.removed-v2', p); return p.reason; }",
    consumes: removed('2', 'reason'),
  },
  {
    name: 'switch over keys',
    code: "export function f(key: string, p: unknown) { switch (true) { case isEvent('account.removed-v1', p): return p.status; case isEvent('account.removed-v2', p): return p.reason; } return undefined; }",
    consumes: removed('1 || 2', 'reason', 'status'),
  },
  {
    name: 'a type guard of the team',
    code: 'function isV2(e: AccountRemovedV1 | AccountRemovedV2): e is AccountRemovedV2 { return (e as AccountRemovedV2).reason !== undefined; }\nexport const f = (e: AccountRemovedV1 | AccountRemovedV2) => (isV2(e) ? e.reason : e.account_number);',
    consumes: removed('1 || 2', 'account_number', 'reason'),
  },
  // A `same_as` payload is one type for two events: with no name in sight, both are declared.
  {
    name: 'a discriminated handler map',
    code: "type Handlers = { [K in 'a' | 'b']: (e: K extends 'a' ? AccountRemovedV1 : AccountRemovedV2) => string };\nexport const h: Handlers = { a: (e) => e.account_number, b: (e) => e.reason };",
    consumes: { ...created('account_number'), ...removed('1 || 2', 'account_number', 'reason') },
  },
  {
    name: 'an intersection with a type of the team',
    code: 'export const f = (e: AccountRemovedV2 & { seen: boolean }) => (e.seen ? e.reason : e.status);',
    consumes: removed('2', 'reason', 'status'),
  },
  // Generics.
  {
    name: 'a generic constrained to a union',
    code: 'export function f<T extends AccountRemovedV1 | AccountRemovedV2>(e: T) { return e.account_number; }',
    consumes: removed('1 || 2', 'account_number'),
  },
  {
    name: 'a generic pick helper',
    code: "function pick<T, K extends keyof T>(o: T, k: K): T[K] { return o[k]; }\nexport const f = (e: AccountRemovedV2) => pick(e, 'reason').length;",
    consumes: removed('2', '*'),
    warnings: 1,
  },
  {
    name: 'a generic identity helper',
    code: 'const id = <T>(x: T): T => x;\nexport const f = (e: BillingLedgerEntryPostedV1) => id(e.ledger).number;',
    consumes: ledger('ledger.number'),
  },
  {
    name: 'a generic first-item helper',
    code: 'function first<T>(xs: readonly T[]): T | undefined { return xs[0]; }\nexport const f = (e: ContractGroupsVersionCreatedV1) => first(e.created_versions)?.identifier;',
    consumes: groups('created_versions[].identifier'),
  },
  // Array methods.
  {
    name: 'map',
    code: 'export const f = (e: ContractGroupsVersionCreatedV1) => e.created_versions.map((v) => v.identifier);',
    consumes: groups('created_versions[].identifier'),
  },
  {
    name: 'filter then map',
    code: 'export const f = (e: ContractGroupsVersionCreatedV1) => e.created_versions.filter((v) => v.traits.length > 0).map((x) => x.identifier);',
    consumes: groups('created_versions[].identifier', 'created_versions[].traits'),
  },
  {
    name: 'find',
    code: "export const f = (e: ContractGroupsVersionCreatedV1) => e.created_versions.find((v) => v.identifier === 'x')?.effective_period.end;",
    consumes: groups('created_versions[].effective_period.end', 'created_versions[].identifier'),
  },
  {
    name: 'findLast and at',
    code: 'export const f = (e: ContractGroupsVersionCreatedV1) => [e.created_versions.findLast(() => true)?.identifier, e.created_versions.at(-1)?.traits];',
    consumes: groups('created_versions[].identifier', 'created_versions[].traits'),
  },
  {
    name: 'slice, sort, reverse chain',
    code: 'export const f = (e: ContractGroupsVersionCreatedV1) => e.created_versions.slice().sort((a, b) => a.identifier.localeCompare(b.identifier)).reverse()[0]?.effective_period.start;',
    consumes: groups('created_versions[].effective_period.start', 'created_versions[].identifier'),
  },
  {
    name: 'concat of two arrays',
    code: 'export const f = (a: ContractGroupsVersionCreatedV1, b: ContractGroupsVersionCreatedV1) => a.created_versions.concat(b.created_versions).map((v) => v.identifier);',
    consumes: groups('created_versions[].identifier'),
  },
  {
    name: 'flatMap then map',
    code: 'export const f = (e: ContractGroupsVersionCreatedV1) => e.created_versions.flatMap((v) => v.traits).map((t) => t.identifier);',
    consumes: groups('created_versions[].traits[].identifier'),
  },
  {
    name: 'map then flat',
    code: 'export const f = (e: ContractGroupsVersionCreatedV1) => e.created_versions.map((v) => v.traits).flat().map((t) => t.data);',
    consumes: groups('created_versions[].traits[].data'),
  },
  {
    name: 'reduce accumulator',
    code: 'export const f = (e: ContractGroupsVersionCreatedV1) => e.created_versions.reduce((best, v) => (v.identifier > best.identifier ? v : best)).effective_period.end;',
    consumes: groups('created_versions[].effective_period.end', 'created_versions[].identifier'),
  },
  {
    name: 'for-of loop',
    code: 'export function f(e: ContractGroupsVersionCreatedV1) { const out: string[] = []; for (const { traits } of e.created_versions) for (const t of traits) out.push(t.identifier); return out; }',
    consumes: groups('created_versions[].traits[].identifier'),
  },
  {
    name: 'array spread then index',
    code: 'export const f = (e: ContractGroupsVersionCreatedV1) => [...e.created_versions][0]?.identifier;',
    consumes: groups('created_versions[].identifier'),
  },
  {
    name: 'array destructuring',
    code: 'export function f(e: ContractGroupsVersionCreatedV1) { const [first] = e.created_versions; return first?.identifier; }',
    consumes: groups('created_versions[].identifier'),
  },
  {
    name: 'Array.from with a mapping callback (found by its type)',
    code: 'export const f = (e: ContractGroupsVersionCreatedV1) => Array.from(e.created_versions, (v) => v.effective_period.end);',
    consumes: groups('created_versions[].effective_period.end'),
  },
  {
    name: 'a Map keyed by a field',
    code: 'export function f(e: ContractGroupsVersionCreatedV1, k: string) { const m = new Map(e.created_versions.map((v) => [v.identifier, v] as const)); return m.get(k)!.traits; }',
    consumes: groups('created_versions[].identifier', 'created_versions[].traits'),
  },
  {
    name: 'async callbacks under Promise.all',
    code: 'export const f = (e: ContractGroupsVersionCreatedV1) => Promise.all(e.created_versions.map(async (v) => v.effective_period.start));',
    consumes: groups('created_versions[].effective_period.start'),
  },
  {
    name: 'a class holding the payload',
    code: 'export class C { constructor(private e: AccountRemovedV2) {} r() { return this.e.reason; } }',
    consumes: removed('2', 'reason'),
  },
  {
    name: 'destructuring in two steps',
    code: 'export function f(e: BillingLedgerEntryPostedV1) { const { ledger: l } = e; const { account: { number } } = l; return number; }',
    consumes: ledger('ledger.account.number'),
  },
  {
    name: 'optional chains through arrays',
    code: 'export const f = (e?: ContractGroupsVersionCreatedV1) => e?.created_versions?.[0]?.traits?.map((t) => t?.identifier);',
    consumes: groups('created_versions[].traits[].identifier'),
  },
  // Spreads, copies, Object.*.
  {
    name: 'object spread copy',
    code: 'export function f(e: BillingLedgerEntryPostedV1) { const copy = { ...e, seen: true }; return copy.ledger.number; }',
    consumes: ledger('ledger.number'),
  },
  {
    name: 'Object.values of a shape',
    code: 'export const f = (e: BillingLedgerEntryPostedV1) => Object.values(e.ledger.account);',
    consumes: ledger('ledger.account.*'),
  },
  {
    name: 'Object.entries of the payload',
    code: 'export const f = (e: AccountRemovedV2) => Object.entries(e).length;',
    consumes: removed('2', '*'),
  },
  {
    name: 'structuredClone',
    code: 'export const f = (e: BillingLedgerEntryPostedV1) => structuredClone(e.ledger).account.number;',
    consumes: ledger('ledger.account.number'),
  },
  // What it cannot follow: declared wider, with a warning.
  {
    name: 'computed key',
    code: 'export const f = (e: AccountRemovedV2, k: string) => (e as unknown as Record<string, unknown>)[k];',
    consumes: removed('2', '*'),
    warnings: 1,
  },
  {
    name: 'computed key on a shape',
    code: 'export const f = (e: BillingLedgerEntryPostedV1, k: string) => (e.ledger as any)[k];',
    consumes: ledger('ledger.*'),
    warnings: 1,
  },
  {
    name: 'keyof union key (resolved)',
    code: "export const f = (e: AccountRemovedV2, k: 'reason' | 'status') => e[k];",
    consumes: removed('2', 'reason', 'status'),
  },
  {
    name: 'the payload passed to JSON.stringify',
    code: 'export const f = (e: BillingLedgerEntryPostedV1) => JSON.stringify(e.ledger);',
    consumes: ledger('ledger.*'),
    warnings: 1,
  },
  {
    name: 'the payload passed to an unseen function',
    code: 'declare function send(x: unknown): void;\nexport const f = (e: AccountRemovedV2) => send(e);',
    consumes: removed('2', '*'),
    warnings: 1,
  },
  {
    name: 'a string field passed along (no warning)',
    code: 'export const f = (e: AccountRemovedV2) => console.log(e.reason);',
    consumes: removed('2', 'reason'),
  },
  {
    name: 'an any cast reading a real field',
    code: 'export const f = (e: AccountRemovedV2) => (e as any).reason;',
    consumes: removed('2', 'reason'),
  },
  {
    name: 'pushed into a typed array (no escape)',
    code: 'export function f(e: AccountRemovedV2) { const xs: AccountRemovedV2[] = []; xs.push(e); return xs[0]!.reason; }',
    consumes: removed('2', 'reason'),
  },
  {
    name: 'open object: any key under it',
    code: "export const f = (e: AccountRemovedV2) => e.changes['some_key'];",
    consumes: removed('2', 'changes.some_key'),
  },
  {
    name: 'open object: a key that is not a path',
    code: "export const f = (e: AccountRemovedV2) => e.changes['some key'];",
    consumes: removed('2', 'changes.*'),
    warnings: 1,
  },
  {
    name: 'partial event: an undocumented key',
    code: "export const f = (e: MeterpointGasPartialV1) => [e.mprn, e['supplier']];",
    consumes: { 'meterpoint.gas.partial': { versions: '1', fields: ['mprn', 'supplier'] } },
  },
  // Refusals: a read that cannot be named in the catalogue's terms.
  {
    name: 'an any cast reading a key no version has',
    code: 'export const f = (e: AccountRemovedV2) => (e as any).nope;',
    error: 'usage-unknown-field',
  },
  {
    name: 'a literal key the type does not declare',
    code: "export const f = (e: BillingLedgerEntryPostedV1) => (e.ledger as Record<string, unknown>)['nope'];",
    error: 'usage-unknown-field',
  },
  // Nothing read.
  { name: 'no payload at all', code: 'export const f = (x: { a: number }) => x.a;', consumes: {} },
  {
    name: 'a guard alone reads nothing',
    code: "export const f = (p: unknown) => isEvent('account.removed-v2', p);",
    consumes: {},
  },
];

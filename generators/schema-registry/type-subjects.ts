import type { DataContract } from './data-contract.js';
import type { History } from './history.js';
import type { SchemaEntry, SubjectVersion } from './subject-version.js';
import { keysByType } from './type-contract.js';

/**
 * The subject of each event type (issue 46): `account.created`, whose versions are the type's event
 * versions in order (version 1 is `account.created-v1`, ...), each with its text and its type-subject
 * contract (metadata `major_version`, migration rules from the version before). Confluent's clients
 * read one topic of several versions through it: a message written with any version's id is upgraded
 * (or downgraded) to the version asked for by the rules between. Why it is made so, and its ids:
 * docs/decisions/0170-type-subjects-and-migration-rules.md.
 */

/** A text and its type-subject contract: what an id names. */
interface TypeText {
  schema: string;
  contractText: string;
}

/**
 * Adds the type subjects of `history` to `subjects`, with ids in `schemas`. Called once every
 * per-version subject has its id, so none of those changes. Ids are given walking the history (each
 * point's types by name, versions in order), so they are the same on every load of the same history;
 * a text a type subject had at an earlier point and has no more keeps its id (listed nowhere).
 * A type whose name an event key's subject answers to (its key, or `<key>-value`), or another type's
 * `-value` alias, gets no type subject.
 */
export function addTypeSubjects(
  history: History,
  subjects: Map<string, SubjectVersion[]>,
  schemas: Map<number, SchemaEntry>,
  freeId: (identity: string) => number,
): void {
  const idOf = new Map<string, number>();
  const released = new Set<string>();
  const identity = (text: TypeText) => `${text.schema}\n${text.contractText}`;
  const last = history.points.at(-1);
  const lastTypes = keysByType(last?.schemas.keys() ?? []);
  // The names answered already: every event key's subject, and the `-value` alias of those and of types.
  const eventSubjects = new Set(subjects.keys());
  const taken = (name: string): boolean => {
    const base = name.endsWith('-value') ? name.slice(0, -'-value'.length) : undefined;
    return (
      eventSubjects.has(name) || (base !== undefined && (eventSubjects.has(base) || lastTypes.has(base)))
    );
  };
  for (const point of history.points) {
    for (const [type, keys] of keysByType(point.schemas.keys())) {
      if (taken(type)) continue;
      for (const key of keys) {
        const text = typeText(point.schemas, point.typeContracts, key);
        if (!text) continue;
        const id = identity(text);
        if (point.commit !== undefined) released.add(id);
        if (idOf.has(id)) continue;
        const entry = { id: freeId(id), schema: text.schema, uses: [], retired: true as const };
        schemas.set(entry.id, { ...entry, contract: JSON.parse(text.contractText) as DataContract });
        idOf.set(id, entry.id);
      }
    }
  }
  if (!last) return;
  for (const [type, keys] of lastTypes) {
    if (taken(type)) continue;
    const versions: SubjectVersion[] = [];
    for (const key of keys) {
      const text = typeText(last.schemas, last.typeContracts, key);
      if (!text) continue;
      const entry = schemas.get(idOf.get(identity(text))!)!;
      const version: SubjectVersion = {
        subject: type,
        version: versions.length + 1,
        id: entry.id,
        schema: text.schema,
        released: released.has(identity(text)),
        contract: entry.contract!,
        contractText: text.contractText,
        eventKey: key,
      };
      delete entry.retired;
      entry.uses.push(version);
      versions.push(version);
    }
    if (versions.length > 0) subjects.set(type, versions);
  }
}

function typeText(
  texts: ReadonlyMap<string, string>,
  contracts: ReadonlyMap<string, string> | undefined,
  key: string,
): TypeText | undefined {
  const schema = texts.get(key);
  const contractText = contracts?.get(key);
  return schema !== undefined && contractText !== undefined ? { schema, contractText } : undefined;
}

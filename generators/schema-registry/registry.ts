import { createHash } from 'node:crypto';
import type { CompatibilityLevel } from '../model.js';
import type { DataContract } from './data-contract.js';
import type { History } from './history.js';
import { firstGenerationText } from './schema-text.js';
import type { SchemaEntry, SubjectVersion } from './subject-version.js';
import { addTypeSubjects } from './type-subjects.js';

/**
 * The registry's state: subjects, versions and ids, computed from the release history alone (no
 * database), so ids are the same after a restart and on every clone. The rules (a subject per event
 * key, a version per changed schema, an id per text hash, the first texts' ids kept) are stated for
 * users in generators/schema-registry/README.md, "Versions and ids".
 */

export type { SchemaEntry, SubjectVersion } from './subject-version.js';

/** Compatibility settings, resolved from the working catalogue's `compatibility:`. */
export interface CompatibilitySettings {
  level: CompatibilityLevel;
  policy: 'STRICT' | 'LENIENT';
  groups: Map<string, CompatibilityLevel>;
  events: Map<string, CompatibilityLevel>;
}

/** The suffix of Confluent's TopicNameStrategy for record values. */
const VALUE_SUFFIX = '-value';

/** Subjects, versions and ids of a history; read-only once built. */
export class SchemaRegistryState {
  /** Versions by subject (event key), oldest first. */
  readonly subjects = new Map<string, SubjectVersion[]>();
  /** Schemas by id. */
  readonly schemas = new Map<number, SchemaEntry>();
  /** Group slug of each subject (from its latest schema's `x-group`). */
  readonly groups = new Map<string, string>();
  readonly compatibility: CompatibilitySettings;
  private readonly created: SubjectVersion[] = [];

  constructor(readonly history: History) {
    for (const point of history.points) {
      for (const [subject, schema] of [...point.schemas].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        const versions = this.subjects.get(subject) ?? [];
        const contractText = point.contracts?.get(subject);
        const last = versions.at(-1);
        // A new version when the schema or the contract changes (docs/decisions/0145).
        if (last?.schema === schema && last.contractText === contractText) continue;
        const entry: SubjectVersion = {
          subject,
          version: versions.length + 1,
          id: 0,
          schema,
          released: point.commit !== undefined,
          ...(contractText ? { contractText, contract: JSON.parse(contractText) as DataContract } : {}),
        };
        versions.push(entry);
        this.created.push(entry);
        this.subjects.set(subject, versions);
      }
    }
    // First-generation ids first, in the same order as before: they are exactly the ids handed out then.
    this.assignIds(
      (entry) => firstGenerationText(entry.subject, entry.schema),
      (entry, id, schema) => {
        entry.firstGeneration = { id, schema };
      },
      true,
    );
    this.assignIds(
      (entry) => entry.schema,
      (entry, id) => {
        entry.id = id;
      },
      false,
    );
    // After every per-version id, so none of those moves (docs/decisions/0170).
    addTypeSubjects(history, this.subjects, this.schemas, (identity) => freeId(identity, this.schemas));
    for (const [subject, versions] of this.subjects) {
      const group = groupOf(versions.at(-1)!.schema);
      if (group !== undefined) this.groups.set(subject, group);
    }
    const config = history.current.config.compatibility ?? {};
    this.compatibility = {
      level: config.level ?? 'BACKWARD',
      policy: config.policy ?? 'STRICT',
      groups: new Map(Object.entries(config.groups ?? {})),
      events: new Map(Object.entries(config.events ?? {})),
    };
  }

  /** Gives every version an id for the text `textOf` makes, in history order, avoiding ids taken. */
  private assignIds(
    textOf: (entry: SubjectVersion) => string | undefined,
    assign: (entry: SubjectVersion, id: number, schema: string) => void,
    retired: boolean,
  ): void {
    const idOf = new Map<string, number>();
    for (const entry of this.created) {
      const schema = textOf(entry);
      if (schema === undefined) continue;
      // A text with a data contract is another schema than the bare text, as in Confluent (the hash of
      // a text without one is what it always was); first texts predate contracts.
      const contract = retired ? undefined : entry.contract;
      const identity = contract ? `${schema}\n${entry.contractText}` : schema;
      let id = idOf.get(identity);
      if (id === undefined) {
        id = freeId(identity, this.schemas);
        idOf.set(identity, id);
        this.schemas.set(id, {
          id,
          schema,
          ...(contract ? { contract } : {}),
          uses: [],
          ...(retired ? { retired } : {}),
        });
      }
      assign(entry, id, schema);
      this.schemas.get(id)!.uses.push(entry);
    }
  }

  /**
   * Keeps every id `previous` resolved and this state does not: a reload within one process never
   * takes an id back (the ids of uncommitted edits, or of releases a history rewrite dropped). Such an
   * id resolves to the same text, listed nowhere, with no subject version (as a retired first text).
   * Should an id be taken here by another text (a hash collision across reloads), this state's wins.
   */
  keepIdsOf(previous: SchemaRegistryState): void {
    for (const [id, entry] of previous.schemas) {
      if (this.schemas.has(id)) continue;
      const contract = entry.contract ? { contract: entry.contract } : {};
      this.schemas.set(id, { id, schema: entry.schema, ...contract, uses: [], retired: true });
    }
  }

  /** The subject a name means (`account.created-v1` or `account.created-v1-value`), if there is one. */
  resolveSubject(name: string): string | undefined {
    if (this.subjects.has(name)) return name;
    if (name.endsWith(VALUE_SUFFIX)) {
      const key = name.slice(0, -VALUE_SUFFIX.length);
      if (this.subjects.has(key)) return key;
    }
    return undefined;
  }

  /** Whether a subject is an event type's (versions: the type's event versions), not an event key's. */
  isTypeSubject(subject: string): boolean {
    return this.subjects.get(subject)?.[0]?.eventKey !== undefined;
  }

  /** The compatibility level of a subject: its event's override, its group's, else the catalogue's. */
  levelOf(subject: string): CompatibilityLevel {
    const group = this.groups.get(subject);
    return (
      this.compatibility.events.get(subject) ??
      (group !== undefined ? this.compatibility.groups.get(group) : undefined) ??
      this.compatibility.level
    );
  }

  /** How many subject versions there are (every subject's versions together). */
  subjectVersionCount(): number {
    return this.created.length;
  }

  /** Every subject version in history order (releases oldest first, events by key): how `register` pushes. */
  historyOrder(): readonly SubjectVersion[] {
    return this.created;
  }
}

/** sha256 of the text (with the collision counter), as a positive 31-bit int. */
export function schemaId(schema: string, attempt = 0): number {
  const digest = createHash('sha256')
    .update(attempt === 0 ? schema : `${schema}\n${attempt}`)
    .digest();
  return digest.readUInt32BE(0) >>> 1;
}

function freeId(schema: string, taken: ReadonlyMap<number, SchemaEntry>): number {
  for (let attempt = 0; ; attempt += 1) {
    const id = schemaId(schema, attempt);
    if (id !== 0 && !taken.has(id)) return id;
  }
}

function groupOf(schema: string): string | undefined {
  try {
    const group = (JSON.parse(schema) as { 'x-group'?: unknown })['x-group'];
    return typeof group === 'string' ? group : undefined;
  } catch {
    return undefined;
  }
}

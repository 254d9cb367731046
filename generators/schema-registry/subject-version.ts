import type { DataContract } from './data-contract.js';

/** The registry's records (see registry.ts): a subject version, and a schema by id with its uses. */

/** One version of one subject. */
export interface SubjectVersion {
  subject: string;
  version: number;
  id: number;
  /** Canonical schema text. */
  schema: string;
  /** Whether it first appeared in a release (false: only in the working catalogue, not released yet). */
  released: boolean;
  /** The id and text an eventry before the `$id` change served for it: they still resolve. */
  firstGeneration?: { id: number; schema: string };
  /** Its event's rules and metadata, when it has rules (see dataContract); part of its identity. */
  contract?: DataContract;
  /** The contract's canonical text (what tells two versions apart). */
  contractText?: string;
  /** In a type subject (`account.created`, see type-subjects.ts): the event version it is. */
  eventKey?: string;
}

/** A schema by id (its text and data contract), and every subject version that has it. */
export interface SchemaEntry {
  id: number;
  schema: string;
  /** The rules and metadata every version with this id has (see SubjectVersion.contract). */
  contract?: DataContract;
  uses: SubjectVersion[];
  /** A first-generation text (see SubjectVersion.firstGeneration): resolves by id, listed nowhere. */
  retired?: true;
}

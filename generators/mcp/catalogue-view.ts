import type MiniSearch from 'minisearch';
import { fieldRows } from '../docs/fields.js';
import { eventMarkdown, importLine } from '../docs/markdown.js';
import { eventMigrations, type MigrationView } from '../docs/migrations.js';
import {
  type BuiltPackage,
  interfaceText,
  isProblem,
  openBuiltPackage,
  readExamples,
} from '../docs/package-files.js';
import { eventRules, type RuleRow } from '../docs/rules.js';
import { buildSearchIndex } from '../docs/search.js';
import { matchedFields, searchEvents } from '../docs/search-query.js';
import { compareVersions, versionsByType } from '../docs/versions.js';
import { readBaseline } from '../lint/baseline.js';
import { resolveLintConfig } from '../lint/config.js';
import { type LintResult, lintCatalogue } from '../lint/lint.js';
import type { LintFinding, RuleDataProbe } from '../lint/rule.js';
import { interfaceName } from '../load/event-key.js';
import { readCatalogueSources } from '../load/index.js';
import { suggest } from '../load/suggest.js';
import { type Catalogue, type EventVersion, eventDescription, groupPackageName } from '../model.js';
import type { ErrorBody } from '../runtime/runtime.js';
import type { FakeVariant, InvalidPayload } from '../runtime/testing.js';
import { shippedEventSchema } from '../schema/json-schema.js';
import type { SchemaRegistryState } from '../schema-registry/registry.js';
import { GroupPackages } from '../validate/group-packages.js';
import { loadTestingEntry } from '../validate/testing-entry.js';
import { type ConsumersInfo, consumersOf } from './consumers.js';
import { McpToolError } from './errors.js';

/**
 * What the MCP server answers from: the working catalogue (the one model), the built group packages
 * (their validators, interfaces and examples, as consumers get them) and, where the server runs over
 * the release history, the schema registry's state. Every answer is read-only.
 */
export interface CatalogueSources {
  catalogue: Catalogue;
  /** The folder `eventry build` writes the group packages into. */
  packagesDir: string;
  /** The registry state over the release history (`eventry serve`, `eventry mcp` in a git checkout). */
  registry?: SchemaRegistryState;
  /** The catalogue folder: its files give the lint its settings, inline suppressions and baseline. */
  catalogueDir?: string;
  /** The test data's probe of the data rules, for the lint (`LintOptions.ruleData`). */
  ruleData?: RuleDataProbe;
}

/** One lint finding about an event version. */
export interface LintInfo {
  rule: string;
  severity: string;
  message: string;
  hint: string;
  /** `file:line:column` in the catalogue. */
  location: string;
  /** Whether the catalogue's lint baseline records it (it does not fail the gate). */
  baselined: boolean;
}

/** One search hit. */
export interface SearchHit {
  key: string;
  title: string;
  group: string;
  score: number;
  /** The query terms matched, and in which indexed part (`key`, `title`, `fields`, `text`). */
  matched: { term: string; in: string[] }[];
  /** Field paths whose name matched a query term. */
  fields: string[];
}

/** One field of an event version, shape fields expanded (`lines[].amount`). */
export interface FieldInfo {
  path: string;
  type: string;
  required: boolean;
  description?: string;
  format?: string;
  enum?: string;
}

/** Everything a consumer needs to know about one event version. */
export interface EventInfo {
  key: string;
  type: string;
  version: string;
  group: string;
  package: string;
  title: string;
  description: string;
  status: 'current' | 'deprecated';
  partial: boolean;
  deprecated?: { since: string; replacedBy?: string; note?: string };
  fields: FieldInfo[];
  /** The data rules every payload must keep (none: absent), as the event page lists them. */
  rules?: RuleRow[];
  /** Its `upgrade` (from an earlier version) and `downgrade` steps, as the event page lists them (none: absent). */
  migrations?: MigrationView[];
  jsonSchema: Record<string, unknown>;
  interfaceName: string;
  typescript?: string;
  importLine: string;
  examples?: { minimal: unknown; full: unknown };
}

/** A change between two versions of an event type, as eventry's diff classifies it. */
export interface ChangeInfo {
  rule: string;
  severity: string;
  /** The field's dot path; empty for a change of the event as a whole. */
  attr: string;
  detail: string;
}

/** The largest payload or schema accepted, as `eventry serve` accepts request bodies. */
export const MAX_INPUT_BYTES = 1 << 20;

/** The largest JSON-RPC message either transport reads: an argument at its limit and the envelope around it. */
export const MAX_MESSAGE_BYTES = MAX_INPUT_BYTES + 64 * 1024;

/** Read-only questions over the catalogue, each answered from the one model and the built packages. */
export class CatalogueView {
  private searchIndex: MiniSearch | undefined;
  private lintResult: LintResult | undefined;
  private readonly packages = new Map<string, BuiltPackage | undefined>();
  private readonly validators: GroupPackages;

  constructor(readonly sources: CatalogueSources) {
    this.validators = new GroupPackages(sources.packagesDir);
  }

  get catalogue(): Catalogue {
    return this.sources.catalogue;
  }

  /**
   * Event versions by the words of their key, title, group, field paths, shape names and descriptions,
   * best first: the portal's search (generators/docs/search-query.ts), over the same index.
   */
  search(query: string, limit: number): SearchHit[] {
    this.searchIndex ??= buildSearchIndex(this.catalogue);
    return searchEvents(this.searchIndex, query)
      .slice(0, limit)
      .map((hit) => {
        const event = this.catalogue.events[hit.id as string]!;
        const matched = Object.entries(hit.match).map(([term, parts]) => ({ term, in: [...parts].sort() }));
        const paths = fieldRows(this.catalogue, event.fields).map((row) => row.path);
        return {
          key: event.key,
          title: event.title,
          group: event.group,
          score: Math.round(hit.score * 1000) / 1000,
          matched,
          fields: matchedFields(hit, [...new Set(paths)]),
        };
      });
  }

  /** The event version a key names, or a coded error with the closest key. */
  event(key: string): EventVersion {
    const event = Object.hasOwn(this.catalogue.events, key) ? this.catalogue.events[key] : undefined;
    if (event) return event;
    const guess = suggest(key, Object.keys(this.catalogue.events));
    throw new McpToolError(
      'unknown-event',
      `No event \`${key}\` in the catalogue.${guess ? ` Did you mean \`${guess}\`?` : ''}`,
    );
  }

  /** One event version in full. */
  eventInfo(key: string): EventInfo {
    const event = this.event(key);
    const pkg = this.packageOf(event);
    const examples = pkg ? readExamples(pkg, key) : undefined;
    const typescript = pkg ? interfaceText(pkg, key) : undefined;
    const rules = eventRules(this.catalogue, event);
    const migrations = eventMigrations(event);
    return {
      key,
      type: event.type,
      version: event.version,
      group: event.group,
      package: groupPackageName(this.catalogue, { slug: event.group }),
      title: event.title,
      description: eventDescription(event),
      status: event.deprecated ? 'deprecated' : 'current',
      partial: event.partial !== undefined,
      ...(event.deprecated ? { deprecated: { ...event.deprecated } } : {}),
      fields: this.fields(event),
      ...(rules.length > 0 ? { rules } : {}),
      ...(migrations.length > 0 ? { migrations } : {}),
      jsonSchema: shippedEventSchema(this.catalogue, key),
      interfaceName: interfaceName(key),
      ...(typescript ? { typescript } : {}),
      importLine: importLine(this.catalogue, event),
      ...(examples && !isProblem(examples) ? { examples } : {}),
    };
  }

  /** The event's fields, shape fields expanded in place. */
  fields(event: EventVersion): FieldInfo[] {
    return fieldRows(this.catalogue, event.fields).map((row) => ({
      path: row.path,
      type: row.type,
      required: row.required,
      ...(row.description ? { description: row.description } : {}),
      ...(row.format ? { format: row.format } : {}),
      ...(row.enumValues ? { enum: row.enumValues } : {}),
    }));
  }

  /** The versions of an event type (`account.created`), or of the type of an event key, oldest first. */
  versions(typeOrKey: string): EventVersion[] {
    const byType = versionsByType(this.catalogue);
    const type = Object.hasOwn(this.catalogue.events, typeOrKey)
      ? this.catalogue.events[typeOrKey]!.type
      : typeOrKey;
    const list = byType.get(type);
    if (list) return list;
    const guess = suggest(typeOrKey, [...byType.keys()]);
    throw new McpToolError(
      'unknown-event-type',
      `No event type \`${typeOrKey}\` in the catalogue.${guess ? ` Did you mean \`${guess}\`?` : ''}`,
    );
  }

  /** eventry's findings from one version of an event type to another. */
  diff(fromKey: string, toKey: string): ChangeInfo[] {
    const from = this.event(fromKey);
    const to = this.event(toKey);
    if (from.type !== to.type) {
      throw new McpToolError(
        'different-event-types',
        `\`${fromKey}\` and \`${toKey}\` are versions of different event types (\`${from.type}\`, \`${to.type}\`).`,
      );
    }
    return compareVersions(this.catalogue, from, to).map((finding) => ({
      rule: finding.rule,
      severity: finding.severity,
      attr: finding.attr ?? '',
      detail: finding.detail,
    }));
  }

  /** Validates a payload with the group package's own validator: `valid`, or the platform's 400 body. */
  async validate(
    key: string,
    payload: unknown,
    mode: 'strict' | 'tolerant',
  ): Promise<{ valid: true } | { valid: false; body: ErrorBody }> {
    this.event(key);
    const validate = await this.validators.validatorFor(key);
    if (!validate) {
      throw new McpToolError(
        'package-missing',
        `The group package of \`${key}\` is not built in \`${this.sources.packagesDir}\`: run \`eventry build\`.`,
      );
    }
    const result = validate(key, payload, { mode });
    return result.valid ? { valid: true } : { valid: false, body: result.error };
  }

  /**
   * Who reads an event type (or one version, given its key), and `field` of it when given; the owning
   * team and the producers of each version.
   */
  consumers(typeOrKey: string, field: string | undefined): ConsumersInfo {
    const versions = Object.hasOwn(this.catalogue.events, typeOrKey)
      ? [this.catalogue.events[typeOrKey]!]
      : this.versions(typeOrKey);
    return consumersOf(this.catalogue, versions, field);
  }

  /**
   * Test payloads of an event version from its group package's own `testing` entry point: one payload
   * of `variant`, or with `invalid` every payload with one known problem and the error item it gets.
   */
  async fake(
    key: string,
    options: { seed: string; variant: FakeVariant; invalid: boolean },
  ): Promise<{ kind: 'payload'; payload: unknown } | { kind: 'invalid'; invalid: InvalidPayload[] }> {
    this.event(key);
    const entry = await loadTestingEntry(this.sources.packagesDir, key);
    if (!entry.ok) {
      throw new McpToolError(
        'package-missing',
        `The group package of \`${key}\` cannot give test payloads (${entry.problem.message.replace(/\.$/, '')}): run \`eventry build\`.`,
      );
    }
    const { testing } = entry;
    if (options.invalid) return { kind: 'invalid', invalid: testing.invalid(key, { seed: options.seed }) };
    return { kind: 'payload', payload: testing.fake(key, { seed: options.seed, variant: options.variant }) };
  }

  /** The lint findings about one event version (its fields and its versions), baselined ones marked. */
  lint(key: string): LintInfo[] {
    this.event(key);
    this.lintResult ??= this.runLint();
    const about = (finding: LintFinding) =>
      finding.subject === `event ${key}` || finding.subject.startsWith(`event ${key} `);
    const info = (finding: LintFinding, baselined: boolean): LintInfo => ({
      rule: finding.rule,
      severity: finding.severity,
      message: finding.message,
      hint: finding.hint,
      location: `${finding.location.file}:${finding.location.line}:${finding.location.column}`,
      baselined,
    });
    return [
      ...this.lintResult.findings.filter(about).map((finding) => info(finding, false)),
      ...this.lintResult.baselined.filter(about).map((finding) => info(finding, true)),
    ];
  }

  private runLint(): LintResult {
    const dir = this.sources.catalogueDir;
    const ruleData = this.sources.ruleData ? { ruleData: this.sources.ruleData } : {};
    if (dir === undefined) return lintCatalogue(this.catalogue, ruleData);
    const files = readCatalogueSources(dir);
    const configText = files.find((file) => file.path === 'eventry.config.yaml')?.text;
    const config = resolveLintConfig(this.catalogue.config.lint, configText);
    const read = readBaseline(dir, config.baseline);
    const baseline = read.ok ? read.baseline : undefined;
    return lintCatalogue(this.catalogue, { files, config, ...(baseline ? { baseline } : {}), ...ruleData });
  }

  /** The event version's page in Markdown. */
  markdown(key: string): string {
    const event = this.event(key);
    const pkg = this.packageOf(event);
    const examples = pkg ? readExamples(pkg, key) : undefined;
    const typescript = pkg ? interfaceText(pkg, key) : undefined;
    return eventMarkdown(this.catalogue, event, {
      ...(examples && !isProblem(examples) ? { examples } : {}),
      ...(typescript ? { typescript } : {}),
    });
  }

  private packageOf(event: EventVersion): BuiltPackage | undefined {
    if (!this.packages.has(event.group)) {
      const group = this.catalogue.groups.find((candidate) => candidate.slug === event.group)!;
      const pkg = openBuiltPackage(this.sources.packagesDir, group);
      this.packages.set(event.group, isProblem(pkg) ? undefined : pkg);
    }
    return this.packages.get(event.group);
  }
}

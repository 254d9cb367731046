import { createHash } from 'node:crypto';
import { type Catalogue, type Group, groupPackageName } from '../../model.js';
import { entryDigest, modelDigest } from '../../model-digest.js';
import { shippedEventSchema, validationSchema } from '../../schema/json-schema.js';
import { type EmitCache, type EmitContext, generatedNote, jsonFile, type OutputFile } from '../context.js';
import { exampleFor } from './examples.js';
import { emitPackageJson, groupSourceHash, groupUsesFormats } from './package-json.js';
import { emitReadme } from './readme.js';
import { RUNTIME_SLUG, RUNTIME_VERSION, runtimePackageName } from './runtime-package.js';
import { render } from './templates.js';
import { emitTestingFiles } from './testing.js';
import { emitGroupTypes, interfaceName } from './types.js';

/**
 * Events per chunk module. A module costs Node a fixed price to load besides its size, so the group's
 * index loads a few chunks rather than a module per event, and an event's entry point loads only its
 * chunk: both stay close to bare node (measured with whole processes, 36 events: one file per event
 * cost +45 ms to import the group; chunks of 8, +15 ms, and +5 ms for one event).
 */
const CHUNK_SIZE = 8;

/**
 * One npm package per event group, `packages/<slug>/`: types, precompiled validators with the
 * platform's error format, per-event entry points, JSON Schemas, examples, matchers, README. Never
 * writes `CHANGELOG.md` (`eventry version` keeps it). A group's files but its package.json (which
 * carries the existing version forward) are memoised in `context.cache` when there is one.
 */
export async function emitGroupPackages(model: Catalogue, context: EmitContext): Promise<OutputFile[]> {
  const files: OutputFile[] = [];
  for (const unit of groupPackageUnits(model, context))
    files.push(unit.packageJson(), ...(await unit.files()));
  return files;
}

/** One group's package, to be generated on demand (a build writes each as it goes). */
export interface GroupPackageUnit {
  slug: string;
  /** Covers every input of `files()` but the toolkit (see `groupUnitKey`). */
  key: string;
  /** Where `packageJson` goes. */
  packageJsonPath: string;
  /**
   * Made afresh whenever the package is generated: it carries forward the version `eventry version`
   * keeps in the output (a build that keeps the package keeps its package.json, as it is in the output).
   */
  packageJson(): OutputFile;
  /** The package's other files, from `context.cache` when it has them. */
  files(): Promise<OutputFile[]>;
}

/**
 * The group packages `emitGroupPackages` writes, one unit per group (or per group of `only`), nothing
 * generated yet.
 */
export function groupPackageUnits(
  model: Catalogue,
  context: EmitContext,
  only?: ReadonlySet<string>,
): GroupPackageUnit[] {
  const hashes = new SourceHashes(model, context);
  const units = model.groups
    .filter((group) => only === undefined || only.has(group.slug))
    .map((group) => groupPackageUnit(model, context, group, hashes));
  // A memo of some groups only would make the next build recompute the others.
  if (only === undefined) hashes.keep();
  return units;
}

function groupPackageUnit(
  model: Catalogue,
  context: EmitContext,
  group: Group,
  hashes: SourceHashes,
): GroupPackageUnit {
  if (group.slug === 'catalogue' || group.slug === RUNTIME_SLUG) {
    throw new Error(
      `a group may not be called \`${group.slug}\`: packages/${group.slug}/ holds the compiled catalogue or the run time`,
    );
  }
  const unit = `group-package-${group.slug}`;
  const { sourceHash, usesFormats } = hashes.of(group);
  const key = groupUnitKey(model, group, sourceHash);
  return {
    slug: group.slug,
    key,
    packageJsonPath: `${group.slug}/package.json`,
    packageJson: () => emitPackageJson(model, group, context, { sourceHash, usesFormats }),
    async files() {
      const cache = context.cache;
      let generated = cache?.get(unit, key);
      if (!generated) {
        // The last build's validators of this group, for the events whose schemas it left alone.
        const last = cache?.last?.(unit);
        const made = await emitGroupPackage(model, group, usesFormats, last && reusableValidators(last));
        generated = made.files;
        cache?.set(unit, key, generated, made.validators);
      }
      return generated;
    },
  };
}

/** The emit cache's unit that keeps each group's source hash from one build to the next. */
const SOURCE_HASHES_UNIT = 'group-source-hashes';

interface SourceHash {
  /** Digest of what `sourceHash` and `usesFormats` are computed from: the group's events and every shape. */
  inputs: string;
  sourceHash: string;
  usesFormats: boolean;
}

/**
 * Each group's `groupSourceHash` and `groupUsesFormats`, taken from the last build's when the group's
 * events and the shapes are as they were (at 10,000 events, computing them all was a fifth of an edit's
 * time): the group's own events by their model digest, the shapes all together.
 */
class SourceHashes {
  private readonly last: Map<string, SourceHash> | undefined;
  private readonly next = new Map<string, SourceHash>();
  private shapes: string | undefined;
  constructor(
    private readonly model: Catalogue,
    private readonly context: EmitContext,
  ) {
    const cache = context.cache;
    // Recalled once per cache until the next `keep`: a build's thread makes one `SourceHashes` per
    // group it generates, and reading the whole map for each was 2% of a 10,000-event build.
    let kept = cache ? RECALLED.get(cache) : undefined;
    if (cache && kept === undefined) {
      kept = cache.recall?.(SOURCE_HASHES_UNIT) ?? null;
      RECALLED.set(cache, kept);
    }
    this.last = kept instanceof Map ? (kept as Map<string, SourceHash>) : undefined;
  }
  of(group: Group): SourceHash {
    const memo = this.context.cache?.keep !== undefined;
    this.shapes ??= memo ? shapesDigest(this.model) : '';
    const inputs = memo ? groupInputs(this.model, group, this.shapes) : '';
    const last = this.last?.get(group.slug);
    const hash =
      memo &&
      last?.inputs === inputs &&
      typeof last.sourceHash === 'string' &&
      typeof last.usesFormats === 'boolean'
        ? last
        : {
            inputs,
            sourceHash: groupSourceHash(this.model, group),
            usesFormats: groupUsesFormats(this.model, group),
          };
    this.next.set(group.slug, hash);
    return hash;
  }
  keep(): void {
    const cache = this.context.cache;
    if (!cache?.keep) return;
    cache.keep(SOURCE_HASHES_UNIT, this.next);
    // The next `SourceHashes` on this cache recalls what it holds now.
    RECALLED.delete(cache);
  }
}

/** What `SourceHashes` recalled from each cache since it last kept there (null: nothing). */
const RECALLED = new WeakMap<EmitCache, unknown>();

/** `shapesDigest` of each model (every group's inputs start from it). */
const SHAPES_DIGESTS = new WeakMap<Catalogue, string>();

function shapesDigest(model: Catalogue): string {
  let digest = SHAPES_DIGESTS.get(model);
  if (digest === undefined) {
    const hash = createHash('sha256');
    for (const name of Object.keys(model.shapes))
      hash.update(`${name}\0${modelDigest(model.shapes[name]!)}\0`);
    digest = hash.digest('base64');
    SHAPES_DIGESTS.set(model, digest);
  }
  return digest;
}

function groupInputs(model: Catalogue, group: Group, shapes: string): string {
  const hash = createHash('sha256').update(shapes);
  for (const key of group.events) hash.update(`${key}\0${entryDigest(model.events, key)}\0`);
  return hash.digest('base64');
}

/**
 * Everything a group's generated files depend on: its events' schemas (which embed their shapes,
 * titles, descriptions and source file), the group's and the catalogue's names and the run time version
 * the package depends on. The templates are the cache's part of the key: its toolkit fingerprint
 * (`build/fingerprint.ts`) hashes the source folder they are read from.
 */
function groupUnitKey(model: Catalogue, group: Group, sourceHash: string): string {
  return JSON.stringify({
    sourceHash,
    group: { slug: group.slug, title: group.title, description: group.description, file: group.source.file },
    events: group.events,
    scope: model.config.scope,
    title: model.config.title,
    runtime: RUNTIME_VERSION,
  });
}

/**
 * Where a generated package holds each event's validator code: in which chunk file, from where to
 * where, and the digest of the `validationSchema` it was compiled from. A group generated again takes
 * the code of each schema it finds there instead of compiling it (an edit of one event, or of the
 * group's description, compiled all its events again: a tenth of the edit). Events that share a
 * validator have places that point at the same code.
 */
interface ValidatorPlace {
  key: string;
  digest: string;
  file: string;
  start: number;
  end: number;
}

/** Validator code from the last build's files of a group, by the digest of its `validationSchema`. */
type ReusableValidators = Map<string, string>;

/**
 * The validators a cache entry of a group's package can give back: only places that name one of its
 * chunk files and lie inside it (the entry is read from disk; anything else is ignored).
 */
function reusableValidators(last: { files: OutputFile[]; extra?: unknown }): ReusableValidators {
  const reusable: ReusableValidators = new Map();
  if (!Array.isArray(last.extra)) return reusable;
  const contents = new Map<string, string>();
  for (const file of last.files) {
    if (typeof file?.path === 'string' && typeof file.contents === 'string')
      contents.set(file.path, file.contents);
  }
  for (const place of last.extra as Partial<ValidatorPlace>[]) {
    const text = typeof place?.file === 'string' ? contents.get(place.file) : undefined;
    const { digest, start, end } = place ?? {};
    if (
      text === undefined ||
      typeof digest !== 'string' ||
      !Number.isInteger(start) ||
      !Number.isInteger(end) ||
      start! < 0 ||
      end! < start! ||
      end! > text.length
    )
      continue;
    reusable.set(digest, text.slice(start, end));
  }
  return reusable;
}

/** One validator of a group's package: its code, the events it checks, and the function that holds it. */
interface GroupValidator {
  /** The chunk function's name: `event<i>`, after the first event (in group order) it checks. */
  id: string;
  /** The digest of the events' `validationSchema`. */
  digest: string;
  code: string;
  usesFormats: boolean;
  keys: string[];
}

/**
 * The files of one group's package, but package.json; `usesFormats` is `groupUsesFormats` of the group;
 * `reusable`, validators of the last build to take where a schema is unchanged. Events whose
 * `validationSchema` is the same (same fields, types and shapes) share one validator, compiled once and
 * shipped once. Also where each event's validator is in the files, for the next build (`ValidatorPlace`).
 */
async function emitGroupPackage(
  model: Catalogue,
  group: Group,
  usesFormats: boolean,
  reusable?: ReusableValidators,
): Promise<{ files: OutputFile[]; validators: ValidatorPlace[] }> {
  const slug = group.slug;
  const note = generatedNote(`catalogue/${group.source.file}`);
  const packageName = groupPackageName(model, group);
  const runtimeName = runtimePackageName(model);
  // ajv is loaded only when some validator is compiled.
  let compile: typeof import('./validators.js').compileEventValidators | undefined;
  const bySchema = new Map<string, GroupValidator>();
  const ofEvent: GroupValidator[] = [];
  for (const [i, key] of group.events.entries()) {
    const schema = validationSchema(model, key);
    const text = JSON.stringify(schema);
    let validator = bySchema.get(text);
    if (validator === undefined) {
      const digest = createHash('sha256').update(text).digest('base64');
      const kept = reusable?.get(digest);
      let compiled: { code: string; usesFormats: boolean };
      if (kept !== undefined) compiled = { code: kept, usesFormats: FORMATS.test(kept) };
      else {
        compile ??= (await import('./validators.js')).compileEventValidators;
        compiled = compile(key, schema);
      }
      validator = { id: `event${i}`, digest, ...compiled, keys: [] };
      bySchema.set(text, validator);
    }
    validator.keys.push(key);
    ofEvent.push(validator);
  }
  const distinct = [...bySchema.values()];
  if (distinct.some((validator) => validator.usesFormats) !== usesFormats) {
    throw new Error(`the validators of ${group.slug} and its field formats disagree on ajv-formats`);
  }
  const chunks: { module: string; validators: GroupValidator[] }[] = [];
  const chunkOf = new Map<GroupValidator, string>();
  for (let start = 0; start < distinct.length; start += CHUNK_SIZE) {
    const module = `./chunks/${chunks.length}.js`;
    const validators = distinct.slice(start, start + CHUNK_SIZE);
    for (const validator of validators) chunkOf.set(validator, module);
    chunks.push({ module, validators });
  }
  const files: OutputFile[] = [
    emitReadme(model, group),
    { path: `${slug}/types.d.ts`, contents: emitGroupTypes(model, group, packageName) },
    {
      path: `${slug}/index.js`,
      contents: render('index.js', {
        note,
        packageName,
        runtimeName,
        chunks,
        events: group.events.map((key, i) => ({ key, id: ofEvent[i]!.id })),
      }),
    },
    { path: `${slug}/index.d.ts`, contents: render('index.d.ts', { note, packageName, runtimeName }) },
    { path: `${slug}/matchers.js`, contents: render('matchers.js', { note, packageName, runtimeName }) },
    { path: `${slug}/matchers.d.ts`, contents: render('matchers.d.ts', { note, runtimeName }) },
    ...emitTestingFiles(model, group, { note, packageName, runtimeName }),
  ];
  const validators: ValidatorPlace[] = [];
  chunks.forEach((chunk, n) => {
    const path = `${slug}/chunks/${n}.js`;
    const contents = render('chunk.js', {
      note,
      usesFormats: chunk.validators.some((validator) => validator.usesFormats),
      validators: chunk.validators.map((validator) => ({
        id: validator.id,
        code: validator.code,
        checks: validator.keys.join(', '),
        shared: validator.keys.length > 1,
      })),
    });
    files.push({ path, contents });
    let from = 0;
    for (const validator of chunk.validators) {
      const start = contents.indexOf(validator.code, from);
      if (start === -1) continue;
      from = start + validator.code.length;
      for (const key of validator.keys)
        validators.push({ key, digest: validator.digest, file: path, start, end: from });
    }
  });
  for (const [i, key] of group.events.entries()) {
    const validator = ofEvent[i]!;
    const eventNote = generatedNote(`catalogue/${model.events[key]!.source.file}`);
    files.push(
      {
        path: `${slug}/events/${key}.js`,
        contents: render('event.js', {
          note: eventNote,
          runtimeName,
          key,
          id: validator.id,
          chunk: `.${chunkOf.get(validator)!}`,
        }),
      },
      {
        path: `${slug}/events/${key}.d.ts`,
        contents: render('event.d.ts', {
          note: eventNote,
          runtimeName,
          key,
          interfaceName: interfaceName(key),
        }),
      },
      jsonFile(`${slug}/schemas/${key}.json`, shippedEventSchema(model, key)),
      jsonFile(`${slug}/examples/${key}.json`, {
        $comment: eventNote,
        minimal: exampleFor(model, key, 'minimal'),
        full: exampleFor(model, key, 'full'),
      }),
    );
  }
  return { files, validators };
}

/** Whether validator code reads `fullFormats` (as `compileEventValidators` tells of the code it makes). */
const FORMATS = /\bfullFormats\b/;

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { suggest } from '../load/suggest.js';
import type { ValidateOptions, ValidationResult } from '../runtime/runtime.js';

/** A group package's `validate`: the run time and generated validators consumers get. */
export type GroupValidate = (key: string, payload: unknown, options?: ValidateOptions) => ValidationResult;

/** The built group packages below the output root, by event key; each is imported on first use. */
export class GroupPackages {
  private readonly slugByKey = new Map<string, string>();
  private readonly loaded = new Map<string, Promise<GroupValidate>>();
  private readonly ready = new Map<string, GroupValidate>();

  /**
   * `guard` runs each import of a package (a build's reader lock, for the CLI: never while a build
   * commits into the folder).
   */
  constructor(
    private readonly outDir: string,
    private readonly guard: <T>(read: () => Promise<T>) => Promise<T> = (read) => read(),
  ) {
    let slugs: string[];
    try {
      slugs = readdirSync(outDir, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort();
    } catch {
      return;
    }
    for (const slug of slugs) {
      let names: string[];
      try {
        names = readdirSync(join(outDir, slug, 'events'));
      } catch {
        continue;
      }
      for (const name of names)
        if (name.endsWith('.js')) this.slugByKey.set(name.slice(0, -'.js'.length), slug);
    }
  }

  get size(): number {
    return this.slugByKey.size;
  }

  /** The validator of an event whose package is already imported: no await on the hot path. */
  loadedValidatorFor(key: string): GroupValidate | undefined {
    const slug = this.slugByKey.get(key);
    return slug === undefined ? undefined : this.ready.get(slug);
  }

  async validatorFor(key: string): Promise<GroupValidate | undefined> {
    const slug = this.slugByKey.get(key);
    if (slug === undefined) return undefined;
    let group = this.loaded.get(slug);
    if (!group) {
      const path = join(this.outDir, slug, 'index.js');
      group = this.guard(() => import(pathToFileURL(path).href)).then(
        (module: { validate: GroupValidate }) => {
          this.ready.set(slug, module.validate);
          return module.validate;
        },
        (error: unknown) => {
          throw new PackageLoadError(
            `cannot load the group package in \`${join(this.outDir, slug)}\`: ${error instanceof Error ? error.message : String(error)}${hint(error)}`,
          );
        },
      );
      this.loaded.set(slug, group);
    }
    return group;
  }

  suggest(key: string): string {
    const guess = suggest(key, this.slugByKey.keys());
    return guess === undefined ? '' : ` Did you mean \`${guess}\`?`;
  }
}

/** A group package that is there but cannot be imported (missing dependency, broken build). */
export class PackageLoadError extends Error {}

/** What to do when a package's own dependency is missing: packages resolve it like any npm package. */
function hint(error: unknown): string {
  if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') return '';
  return (
    '. Group packages import their dependencies (the run time package `<scope>/runtime`, ajv-formats) from a node_modules folder above them: ' +
    'build them inside a project that has those installed, or install them there.'
  );
}

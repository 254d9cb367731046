import type { Catalogue } from '../model.js';
import type { SiteHistory } from './history.js';
import type { BuiltPackage, DocsProblem } from './package-files.js';

/**
 * What a site file holds: its content, or `copyOf` a file whose bytes it has unchanged (a validator
 * module of a built package), which a writer may hard-link rather than copy (10,000 of them at 10k).
 */
export type SiteContent = string | Buffer | { copyOf: string };

/** Where a page or asset goes (path relative to the site root, `/`-separated) and what it holds. */
export type SiteSink = (path: string, content: SiteContent) => void | Promise<void>;

/** The sink of a site being generated, counting the pages and the other files handed to it. */
export class SiteOutput {
  pages = 0;
  files = 0;

  constructor(private readonly emit: SiteSink) {}

  // Awaited: a sink that writes asynchronously holds the generator back while its queue is full.
  async page(path: string, html: string): Promise<void> {
    await this.emit(path, html);
    this.pages++;
  }

  async file(path: string, content: SiteContent): Promise<void> {
    await this.emit(path, content);
    this.files++;
  }
}

/**
 * What each step of the site generation is given: the model, the built group packages by slug, the
 * release history, the output, and the problems found so far (a result with any is not ok).
 */
export interface SiteContext {
  readonly catalogue: Catalogue;
  readonly packages: ReadonlyMap<string, BuiltPackage>;
  readonly history: SiteHistory;
  readonly out: SiteOutput;
  readonly problems: DocsProblem[];
}

import { answerRead, notFound } from '../read-routes.js';
import { json, type ServedState } from '../served-state.js';
import { headersLines, layOut, objectsLines, REDIRECTS, type ReleaseEntry, releaseId } from './layout.js';
import { type ExportedRoute, exportedRoutes, requestPath } from './routes.js';
import { writeRelease } from './write.js';

/**
 * `eventry registry export`: the registry `serve` would answer for a state, as files a static host
 * serves unchanged. Every body is `serve`'s own answer (`answerRead`), so the two agree byte for byte.
 */

/** What an export did. */
export interface ExportSummary {
  /** The release id (a hash of its files: the same state gives the same id). */
  id: string;
  /** The release folder, relative to the export root (`releases/<id>`). */
  path: string;
  /** Whether it was written now, or was already there from an earlier export. */
  written: boolean;
  routes: number;
  /** The bytes of the release's files, manifests included. */
  bytes: number;
}

/**
 * Writes the static registry of `served` into `root` (a folder `checkOutputFolder` accepted). The files
 * are produced twice, as a stream each time: once for the release id, once to write them when that
 * release is not there yet; no body is held, so memory does not grow with the catalogue's bodies.
 */
export function exportRegistry(served: ServedState, root: string): ExportSummary {
  const placed = layOut(exportedRoutes(served.state));
  const bodyOf = (route: ExportedRoute): Buffer => {
    const answer = answerRead(served, requestPath(route));
    if (answer.status !== 200) throw new Error(`${requestPath(route)} answers ${answer.status}`);
    return answer.body;
  };
  function* files(): Generator<ReleaseEntry> {
    for (const { file, route } of placed) yield [file, bodyOf(route)];
    yield ['_headers', headersLines(placed)];
    yield ['objects.json', objectsLines(placed)];
    yield ['_redirects', Buffer.from(REDIRECTS)];
    // What a host answers for a path it has no file for (S3/CloudFront, GCS error document): `serve`'s own 404.
    yield ['404.json', json({ error_code: notFound().code, message: notFound().message })];
  }
  const { id, bytes } = releaseId(files());
  const { release, catalogueVersion } = served.release;
  const written = writeRelease(root, id, files, {
    catalogueVersion,
    releaseCommit: release?.commit ?? null,
  });
  return { id, ...written, routes: placed.length, bytes };
}

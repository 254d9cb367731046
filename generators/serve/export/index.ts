import { answerRead, notFound } from '../read-routes.js';
import { json, type ServedState } from '../served-state.js';
import { headersFile, layOut, objectsFile, REDIRECTS, releaseId } from './layout.js';
import { exportedRoutes, requestPath } from './routes.js';
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
  /** The bytes of the route bodies (the manifests not counted). */
  bytes: number;
}

/** Writes the static registry of `served` into `root` (a folder `checkOutputFolder` accepted). */
export function exportRegistry(served: ServedState, root: string): ExportSummary {
  const files = layOut(exportedRoutes(served.state), (route) => {
    const answer = answerRead(served, requestPath(route));
    if (answer.status !== 200) throw new Error(`${requestPath(route)} answers ${answer.status}`);
    return answer.body;
  });
  const id = releaseId(files);
  const contents = new Map(files.map(({ file, body }) => [file, body]));
  contents.set('_headers', Buffer.from(headersFile(files)));
  contents.set('objects.json', Buffer.from(objectsFile(files)));
  contents.set('_redirects', Buffer.from(REDIRECTS));
  // What a host answers for a path it has no file for (S3/CloudFront, GCS error document): `serve`'s own 404.
  contents.set('404.json', json({ error_code: notFound().code, message: notFound().message }));
  const { release, catalogueVersion } = served.release;
  const written = writeRelease(root, id, contents, {
    catalogueVersion,
    releaseCommit: release?.commit ?? null,
  });
  const bytes = files.reduce((sum, file) => sum + file.body.length, 0);
  return { id, ...written, routes: files.length, bytes };
}

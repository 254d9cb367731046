import { existsSync, readdirSync, realpathSync, statfsSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { ErrorCode } from './error-codes.js';
import { writeAtomically } from './fs.js';

// One rule for every command that writes a folder of its own (`build`, `docs`, and `version` and
// `publish` through the build): it writes only into a folder that is new, empty, or carries its
// marker, and never into a folder that holds the user's sources. Checked before anything is touched.

/** Why an output folder is refused: a place no output may go, or a folder that is someone else's. */
export interface OutputFolderProblem {
  code: Extract<ErrorCode<'output'>, 'out-unsafe' | 'out-not-owned'>;
  message: string;
}

/** What a writer claims: the folder, how the user named it, its marker, and what it must never cover. */
export interface OutputClaim {
  /** The folder as the user gave it (for messages); '' is refused. */
  given: string;
  /** The folder, resolved. */
  dir: string;
  /** The option that named it, for messages (`--out`). */
  option: string;
  /** The file at the folder's root that says this writer made it. */
  marker: string;
  /** Folders of the user's sources (the catalogue): the output may be none of them, above or inside one. */
  sources: readonly string[];
  /** Folders the output may be below but neither be nor be above (the project, the repository). */
  roots?: readonly string[];
  /** Another proof that a folder without the marker is this writer's (an output from before markers). */
  owns?: (dir: string) => boolean;
  /** The working folder messages name folders relative to (default: the process's). */
  cwd?: string;
}

/** Kernel file systems that are not storage: writing there hangs or changes the running system. */
const PSEUDO_FILE_SYSTEMS = new Set([
  0x9fa0, // proc
  0x62656572, // sysfs
  0x1cd1, // devpts
  0x27e0eb, // cgroup
  0x63677270, // cgroup2
  0x64626720, // debugfs
  0x74726163, // tracefs
  0x73636673, // securityfs
  0xcafe4a11, // bpf
  0x6165676c, // pstore
  0x62656570, // configfs
  0xde5e81e4, // efivarfs
  0x65735543, // fusectl
  0x42494e4d, // binfmt_misc
  0x19800202, // mqueue
]);

/** Folders of the system itself (`/dev` is a tmpfs, so its type alone does not tell). */
const PSEUDO_ROOTS = ['/proc', '/sys', '/dev'];

/**
 * Whether `claim` may be written: undefined when it may, else the problem to report (a usage error).
 * Reads only: nothing is created, so a refused run has touched nothing.
 */
export function checkOutputFolder(claim: OutputClaim): OutputFolderProblem | undefined {
  const { option, given } = claim;
  const unsafe = (why: string): OutputFolderProblem => ({
    code: 'out-unsafe',
    message: `${option} ${given === '' ? "''" : given} ${why}; give a folder of its own (e.g. a new one).`,
  });
  if (given.trim() === '') return unsafe('is empty, which would name the current folder');
  const real = realPath(claim.dir);
  if (real === dirname(real)) return unsafe('is the root of the file system');
  if (PSEUDO_ROOTS.some((root) => real === root || real.startsWith(`${root}/`)) || onPseudoFs(real)) {
    return unsafe('is on a pseudo file system of the kernel, not storage');
  }
  if (real.split(sep).includes('node_modules'))
    return unsafe("is inside a node_modules folder (npm's, not eventry's)");
  for (const source of claim.sources) {
    const sourceReal = realPath(source);
    if (real === sourceReal) return unsafe(`is the catalogue folder ${shown(source, claim.cwd)}`);
    if (within(sourceReal, real)) return unsafe(`holds the catalogue folder ${shown(source, claim.cwd)}`);
    if (within(real, sourceReal)) return unsafe(`is inside the catalogue folder ${shown(source, claim.cwd)}`);
  }
  for (const root of claim.roots ?? []) {
    const rootReal = realPath(root);
    if (real === rootReal) return unsafe(`is the project folder ${shown(root, claim.cwd)} itself`);
    if (within(rootReal, real)) return unsafe(`holds the project folder ${shown(root, claim.cwd)}`);
  }
  const stat = statSync(real, { throwIfNoEntry: false });
  if (!stat?.isDirectory()) return undefined;
  const entries = readdirSync(real);
  if (entries.length === 0 || entries.includes(claim.marker) || claim.owns?.(real)) return undefined;
  return {
    code: 'out-not-owned',
    message:
      `${option} ${given} is a folder eventry did not write (it is not empty and has no ${claim.marker}); ` +
      'nothing was changed. Give an empty or new folder, or move its files away.',
  };
}

/** Puts the marker of an output folder in place (once a writer has committed its first output there). */
export function markOutputFolder(dir: string, marker: string, text: string): void {
  const path = join(dir, marker);
  if (!existsSync(path)) writeAtomically(path, text);
}

/** A folder as a message names it: relative to the working folder when inside it. */
function shown(dir: string, cwd = process.cwd()): string {
  const path = relative(cwd, resolve(dir));
  return path === '' ? '.' : path.startsWith('..') || isAbsolute(path) ? resolve(dir) : path;
}

/** Whether `inner` is `outer` or inside it. */
function within(inner: string, outer: string): boolean {
  const path = relative(outer, inner);
  return path === '' || (!path.startsWith('..') && !isAbsolute(path));
}

/** The real path of `path`, resolving the symbolic links of the part that exists. */
function realPath(path: string): string {
  const absolute = resolve(path);
  let existing = absolute;
  while (!existsSync(existing) && existing !== dirname(existing)) existing = dirname(existing);
  let real: string;
  try {
    real = realpathSync(existing);
  } catch {
    real = existing;
  }
  const rest = relative(existing, absolute);
  return rest === '' ? real : join(real, rest);
}

/** Whether the nearest existing folder of `real` is on a kernel pseudo file system. */
function onPseudoFs(real: string): boolean {
  let existing = real;
  while (!existsSync(existing) && existing !== dirname(existing)) existing = dirname(existing);
  try {
    return PSEUDO_FILE_SYSTEMS.has(statfsSync(existing).type);
  } catch {
    return false;
  }
}

/**
 * Every exit status an eventry command ends with, named in one place (the README's exit-code table is
 * this list). Commands return one of these; no command returns a bare number.
 */
export const EXIT = {
  /** Done; nothing to report. */
  ok: 0,
  /** The input has problems (catalogue, payload, gate findings, lint errors). */
  problems: 1,
  /** The command line, a file named on it, or the environment is wrong; nothing was done. */
  usage: 2,
  /** A bug in eventry itself (sysexits EX_SOFTWARE). */
  internal: 70,
} as const;

/** One of eventry's exit statuses. */
export type ExitStatus = (typeof EXIT)[keyof typeof EXIT];

/** Usage errors exit 2, as every eventry command documents. */
export const EXIT_USAGE = EXIT.usage;

/** A bug in eventry itself (sysexits EX_SOFTWARE): distinct from 1 (findings) and 2 (usage, I/O). */
export const EXIT_INTERNAL = EXIT.internal;

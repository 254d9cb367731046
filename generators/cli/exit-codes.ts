// Their own module, so that a command imports them without importing `main.ts`, which imports every
// command: that was an import cycle.

/** Usage errors exit 2, as every eventry command documents. */
export const EXIT_USAGE = 2;

/** A bug in eventry itself (sysexits EX_SOFTWARE): distinct from 1 (findings) and 2 (usage, I/O). */
export const EXIT_INTERNAL = 70;

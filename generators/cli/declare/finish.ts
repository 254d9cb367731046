import type { ExitStatus } from '../../shared/exit-codes.js';

/** How a command's action ends the run: with its exit status. */
export type Finish = (status: ExitStatus) => void;

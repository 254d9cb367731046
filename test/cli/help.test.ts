import { describe, expect, it } from 'vitest';
import { EXIT_INTERNAL, EXIT_USAGE } from '../../generators/cli/exit-codes.js';
import { runCliInProcess } from './in-process.js';

describe('eventry --help', () => {
  it('names every exit code a script may see, with what each means', async () => {
    const result = await runCliInProcess(['--help']);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/Exit codes: 0 success; 1 the input has problems/);
    expect(result.stdout).toContain(`${EXIT_USAGE} a usage error`);
    expect(result.stdout).toContain(`${EXIT_INTERNAL} an internal error`);
  });
});

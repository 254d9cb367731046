#!/usr/bin/env node
/** The `eventry` command line: builds the container from the process once and runs generators/cli with it. */
import { exitQuietlyOnClosedOutput, runCli } from '../generators/cli/main.js';

exitQuietlyOnClosedOutput([process.stdout, process.stderr]);
process.exitCode = await runCli(process.argv, {
  // Read on use: process.stdin is made on first access, and only `validate --ndjson -` and `mcp` read it.
  get stdin() {
    return process.stdin;
  },
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
});

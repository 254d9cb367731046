#!/usr/bin/env node
/** The `eventry` command line: builds the container from the process once and runs generators/cli with it. */
import type { Container } from '../generators/cli/container.js';
import { exitQuietlyOnClosedOutput, runCli } from '../generators/cli/main.js';

const io: Container = {
  // Read on use: process.stdin is made on first access, and only `validate --ndjson -` and `mcp` read it.
  get stdin() {
    return process.stdin;
  },
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  onSignal: (signal, handler) => {
    process.on(signal, handler);
    return () => process.off(signal, handler);
  },
  exit: (status) => process.exit(status),
};
exitQuietlyOnClosedOutput(io);
process.exitCode = await runCli(process.argv, io);

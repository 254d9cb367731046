#!/usr/bin/env node
/** The `eventry` command line: a thin shell over generators/cli, which loads each command lazily. */
import { exitQuietlyOnClosedOutput, runCli } from '../generators/cli/main.js';

exitQuietlyOnClosedOutput();
process.exitCode = await runCli(process.argv);

#!/usr/bin/env node
/** The `eventry` command line: a thin shell over generators/cli, which loads each command lazily. */
import { runCli } from '../generators/cli/main.js';

process.exitCode = await runCli(process.argv);

#!/usr/bin/env node
// The `fuzzpatch` executable (package.json "bin"); the build keeps the shebang and sets the run bit.
import { main } from "./main.ts";

process.exitCode = await main(process.argv.slice(2));

#!/usr/bin/env node
// Launcher: runs the TypeScript CLI through tsx (a devDependency, present
// after `npm ci` in a checkout), so `npx fuzzpatch` works without a build.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));

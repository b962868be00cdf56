#!/usr/bin/env node
/**
 * The `fuzzpatch` executable of the package (built to dist/cli/bin.cjs): runs
 * the CLI bundle (dist/cli/cli.cjs, the program of src/cli/run.ts with its
 * dependencies) through V8's code cache (./compile-cache.ts explains where
 * and why). The bundle is CommonJS because only a `vm.Script` takes cached
 * code on Node 20; it is wrapped and called as Node would call a module.
 * This file is built as CommonJS too: an ES module entry starts Node's ES
 * module loader, and importing `node:fs` there loads the stream modules,
 * about 7 ms of a 75 ms start.
 */

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Script } from "node:vm";
import { type CacheKey, cacheDir, cacheFile, pruneCache, readCache, writeCache } from "./compile-cache.ts";
import { BEFORE_V8_FLAGS } from "../syntax/wasm-tier.ts";

/** The bundle's sha256, written in by the build (scripts/build.ts); undeclared elsewhere. */
declare const FUZZPATCH_BUILD: string;

type ModuleBody = (exports: object, require: NodeJS.Require, module: { exports: object }, filename: string, dirname: string) => void;

const bundle = join(__dirname, "cli.cjs");
const source = readFileSync(bundle, "utf8");
// The server runs for a whole session: its start-up is not worth a cache file.
const command = process.argv[2] ?? "help";
const key: CacheKey = { command, build: FUZZPATCH_BUILD };
const dir = command === "mcp" ? undefined : cacheDir();
const file = dir === undefined ? undefined : cacheFile(dir, key);
const cached = file === undefined ? undefined : readCache(file);
const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: bundle, cachedData: cached });
if (dir !== undefined && file !== undefined && (cached === undefined || script.cachedDataRejected === true)) {
  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    writeCache(file, script.createCachedData());
    pruneCache(dir, key);
  };
  // At exit, so the cache holds every function the command compiled, not only the top level.
  process.once("exit", write);
  // V8 stamps cached code with a hash of its flags: code cached after the syntax layer changed
  // one (syntax/wasm-tier.ts) is rejected by every next start, which then writes it again.
  (globalThis as Record<symbol, unknown>)[Symbol.for(BEFORE_V8_FLAGS)] = write;
}
const body = script.runInThisContext() as ModuleBody;
const module = { exports: {} };
body.call(module.exports, module.exports, createRequire(bundle), module, bundle, dirname(bundle));

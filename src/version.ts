/**
 * The package's version, written in one place: package.json (shown by
 * `fuzzpatch --version`, sent to MCP clients). It sits below every layer
 * that shows it. The bundled CLI has it inlined by the build (esbuild
 * `define`: its chunks sit deeper than one level below the root); elsewhere
 * it is read at run time, this file being one level below the package root
 * both as source (src/) and as built code (dist/).
 */

import { readFileSync } from "node:fs";

export function readVersion(): string {
  const manifest: unknown = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  const version = (manifest as { version?: unknown }).version;
  if (typeof version !== "string") throw new Error("package.json has no version");
  return version;
}

/** Replaced by the version's text in the CLI bundle (scripts/build.ts); undeclared elsewhere. */
declare const FUZZPATCH_VERSION: string | undefined;

export const VERSION: string = typeof FUZZPATCH_VERSION === "string" ? FUZZPATCH_VERSION : readVersion();

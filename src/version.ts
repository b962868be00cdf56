/**
 * The package's version, read from package.json at run time so it is written
 * in one place (shown by `fuzzpatch --version`, sent to MCP clients). It sits
 * below every layer that shows it. This file is one level below the package
 * root both as source (src/) and as built code (dist/), so one relative URL
 * serves the checkout under tsx and the installed package.
 */

import { readFileSync } from "node:fs";

export function readVersion(): string {
  const manifest: unknown = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  const version = (manifest as { version?: unknown }).version;
  if (typeof version !== "string") throw new Error("package.json has no version");
  return version;
}

export const VERSION: string = readVersion();

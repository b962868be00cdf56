/**
 * `prepack` / `postpack`: the published package.json carries no `prepare`
 * script. In a clone `prepare` is what makes `npm ci` build dist/ (CI and the
 * README's first command rely on it), but in an installed package npm 11
 * lists it as an install script awaiting approval. So `strip` keeps the
 * manifest as written beside it and removes `prepare` (and these hooks) for the tarball, and
 * `restore` (after packing) puts the manifest back byte for byte. A strip
 * left over from a pack that failed is restored before stripping again.
 */

import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const MANIFEST = join(ROOT, "package.json");
const KEPT = join(ROOT, ".package.json.prepack");

function restore(): void {
  if (existsSync(KEPT)) renameSync(KEPT, MANIFEST);
}

function strip(): void {
  restore();
  const text = readFileSync(MANIFEST, "utf8");
  const manifest = JSON.parse(text) as { scripts?: Record<string, string> };
  if (manifest.scripts?.prepare === undefined) return;
  writeFileSync(KEPT, text);
  // The pack hooks too: they name this script, which the package does not ship.
  for (const hook of ["prepare", "prepack", "postpack"]) delete manifest.scripts[hook];
  writeFileSync(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
}

const mode = process.argv[2];
if (mode === "strip") strip();
else if (mode === "restore") restore();
else {
  console.error("usage: pack-manifest.ts strip|restore");
  process.exitCode = 2;
}

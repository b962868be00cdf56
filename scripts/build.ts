/**
 * `npm run build`: compiles src/ to dist/ (JavaScript and declarations, the
 * tree mirroring src/, so a new entry point needs only its line in
 * package.json "exports"), then fixes what tsc leaves undone:
 *
 * - tsc rewrites `./x.ts` to `./x.js` in JavaScript but not in declarations
 *   (TypeScript accepts `.ts` there, but editors and TypeScript before 5.0 do
 *   not find the file), so declaration specifiers are rewritten here;
 * - a rebuilt file can lose its run bit, so the executable gets it here.
 */

import { spawnSync } from "node:child_process";
import { chmodSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DIST = join(ROOT, "dist");
const BIN = join(DIST, "cli", "bin.js");

/** Relative specifiers ending in .ts in `from "…"`, `import("…")` and `export … from "…"`. */
const TS_SPECIFIER = /((?:from|import)\s*\(?\s*)(["'])(\.\.?\/[^"'\n]*?)\.ts\2/g;

function rewriteDeclarationSpecifiers(text: string): string {
  return text.replace(TS_SPECIFIER, (_all, lead: string, quote: string, path: string) => `${lead}${quote}${path}.js${quote}`);
}

function build(): number {
  rmSync(DIST, { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  const r = spawnSync(process.execPath, [tsc, "-p", join(ROOT, "tsconfig.build.json")], { stdio: "inherit" });
  if (r.status !== 0) return r.status ?? 1;
  for (const name of readdirSync(DIST, { recursive: true, encoding: "utf8" })) {
    if (!name.endsWith(".d.ts")) continue;
    const file = join(DIST, name);
    const text = readFileSync(file, "utf8");
    const fixed = rewriteDeclarationSpecifiers(text);
    if (fixed !== text) writeFileSync(file, fixed);
  }
  chmodSync(BIN, 0o755);
  return 0;
}

process.exitCode = build();

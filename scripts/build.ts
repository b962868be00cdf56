/**
 * `npm run build`: compiles the library's src/ to dist/ (JavaScript and
 * declarations, the tree mirroring src/, so a new entry point needs only its
 * line in package.json "exports"), bundles the command line, then fixes what
 * tsc leaves undone:
 *
 * - the CLI (src/cli/bin.ts) is one esbuild bundle with its dependencies,
 *   split at the dynamic imports (dist/cli/bin.js, dist/cli/chunks/): a
 *   command loads its own chunk and the engine, not a hundred modules
 *   (`npm run bench:startup` measures it). The MCP SDK and zod stay
 *   external, loaded by `fuzzpatch mcp` only;
 *
 * - tsc rewrites `./x.ts` to `./x.js` in JavaScript but not in declarations
 *   (TypeScript accepts `.ts` there, but editors and TypeScript before 5.0 do
 *   not find the file), so declaration specifiers are rewritten here;
 * - a rebuilt file can lose its run bit, so the executable gets it here.
 */

import { spawnSync } from "node:child_process";
import { build as bundle } from "esbuild";
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

/** The CLI bundle. */
async function bundleCli(): Promise<void> {
  const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
  await bundle({
    entryPoints: [join(ROOT, "src", "cli", "bin.ts")],
    outdir: join(DIST, "cli"),
    chunkNames: "chunks/[name]-[hash]",
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    // jsonc-parser's "main" is a UMD build that requires its parts at run time; its "module" is plain ESM.
    mainFields: ["module", "main"],
    external: ["@modelcontextprotocol/server", "zod"],
    define: { FUZZPATCH_VERSION: JSON.stringify(manifest.version) },
    // commander is CommonJS and requires Node's modules: give the ESM bundle a require.
    banner: { js: 'import { createRequire as __fuzzpatchRequire } from "node:module";\nconst require = __fuzzpatchRequire(import.meta.url);' },
    // Less source to read at every start, and a smaller tarball.
    minify: true,
    logLevel: "warning",
  });
}

async function build(): Promise<number> {
  rmSync(DIST, { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  const r = spawnSync(process.execPath, [tsc, "-p", join(ROOT, "tsconfig.build.json")], { stdio: "inherit" });
  if (r.status !== 0) return r.status ?? 1;
  await bundleCli();
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

process.exitCode = await build();

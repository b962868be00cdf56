/**
 * `npm run build`: compiles the library's src/ to dist/ (JavaScript and
 * declarations, the tree mirroring src/, so a new entry point needs only its
 * line in package.json "exports"), bundles the command line, then fixes what
 * tsc leaves undone:
 *
 * - the CLI is one esbuild bundle with its dependencies (dist/cli/cli.cjs),
 *   run by a small executable (dist/cli/bin.cjs) through V8's code cache:
 *   a start reads one file and compiles almost nothing (`npm run
 *   bench:startup` measures it). The MCP SDK and zod stay external,
 *   loaded by `fuzzpatch mcp` only;
 *
 * - tsc rewrites `./x.ts` to `./x.js` in JavaScript but not in declarations
 *   (TypeScript accepts `.ts` there, but editors and TypeScript before 5.0 do
 *   not find the file), so declaration specifiers are rewritten here;
 * - a rebuilt file can lose its run bit, so the executable gets it here;
 * - the syntax layer's grammars (.wasm files of the grammar packages, dev
 *   dependencies) are written brotli-compressed to dist/grammars/, where
 *   src/syntax/runtime.ts finds them: 19.7 MB ship as 1.3 MB.
 */

import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { build as bundle, type Plugin } from "esbuild";
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants } from "node:zlib";
import { LANGUAGES, SYNTAX_LANGUAGES } from "../src/syntax/languages.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DIST = join(ROOT, "dist");
const BIN = join(DIST, "cli", "bin.cjs");

/** Relative specifiers ending in .ts in `from "…"`, `import("…")` and `export … from "…"`. */
const TS_SPECIFIER = /((?:from|import)\s*\(?\s*)(["'])(\.\.?\/[^"'\n]*?)\.ts\2/g;

function rewriteDeclarationSpecifiers(text: string): string {
  return text.replace(TS_SPECIFIER, (_all, lead: string, quote: string, path: string) => `${lead}${quote}${path}.js${quote}`);
}

/**
 * commander requires node:child_process at load time for a feature the CLI
 * does not use (subcommands as separate executables); loading it costs every
 * start ~6 ms (a tenth of bare node's). commander gets a stand-in that loads
 * the real module on first use.
 */
const lazyChildProcess: Plugin = {
  name: "lazy-child-process",
  setup(build) {
    build.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer) ? { path: "child_process", namespace: "lazy-builtin" } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "lazy-builtin" }, () => ({
      contents: 'module.exports = new Proxy({}, { get: (_, key) => require("node:child_process")[key] });',
      loader: "js",
    }));
  },
};

/** What both CLI bundles are: one CommonJS file for Node 20, minified (less source to read at every start, and a smaller tarball). */
const CJS_FOR_NODE = { bundle: true, format: "cjs", platform: "node", target: "node20", minify: true, logLevel: "warning" } as const;

/**
 * The CLI: its program (src/cli/run.ts) bundled with its dependencies into
 * one CommonJS file, then the executable (src/cli/bin.ts), which runs that
 * bundle through V8's code cache and carries the bundle's content hash to
 * name the cache by. Returns nothing; throws when esbuild fails.
 */
async function bundleCli(): Promise<void> {
  const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
  const program = join(DIST, "cli", "cli.cjs");
  await bundle({
    ...CJS_FOR_NODE,
    entryPoints: [join(ROOT, "src", "cli", "run.ts")],
    outfile: program,
    // A code cache needs a vm.Script, which cannot import(): every dynamic import becomes a lazy
    // require, of the bundle's own modules (the commands, loaded as they run) and of the
    // MCP SDK and zod (kept out of the bundle; both ship CommonJS builds).
    supported: { "dynamic-import": false },
    // jsonc-parser's "main" is a UMD build that requires its parts at run time; its "module" is plain ESM.
    mainFields: ["module", "main"],
    // web-tree-sitter finds its own .wasm beside its module: it stays a package, loaded by a syntax check only.
    external: ["@modelcontextprotocol/server", "zod", "web-tree-sitter"],
    // CommonJS has no import.meta: its url is the bundle's own, as in a module.
    define: { FUZZPATCH_VERSION: JSON.stringify(manifest.version), "import.meta.url": "__fuzzpatchUrl" },
    banner: { js: 'const __fuzzpatchUrl = require("node:url").pathToFileURL(__filename).href;' },
    plugins: [lazyChildProcess],
  });
  const build = createHash("sha256").update(readFileSync(program)).digest("hex");
  await bundle({ ...CJS_FOR_NODE, entryPoints: [join(ROOT, "src", "cli", "bin.ts")], outfile: BIN, define: { FUZZPATCH_BUILD: JSON.stringify(build) } });
}

/**
 * Each language's grammar, brotli-compressed, into dist/grammars/. Quality 7:
 * 19.7 MB -> 1.31 MB in 1.2 s of CPU; quality 9 gives 1.31 MB in 15 s and
 * 11 gives 1.19 MB in 97 s, a slower build for 10 % less.
 */
function writeGrammars(): void {
  const dir = join(DIST, "grammars");
  mkdirSync(dir, { recursive: true });
  const require = createRequire(import.meta.url);
  for (const language of SYNTAX_LANGUAGES) {
    const { pkg, file } = LANGUAGES[language].grammar;
    const wasm = readFileSync(join(dirname(require.resolve(`${pkg}/package.json`)), file));
    const params = { [constants.BROTLI_PARAM_QUALITY]: 7, [constants.BROTLI_PARAM_SIZE_HINT]: wasm.length };
    writeFileSync(join(dir, `${file}.br`), brotliCompressSync(wasm, { params }));
  }
}

async function build(): Promise<number> {
  rmSync(DIST, { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  const r = spawnSync(process.execPath, [tsc, "-p", join(ROOT, "tsconfig.build.json")], { stdio: "inherit" });
  if (r.status !== 0) return r.status ?? 1;
  await bundleCli();
  writeGrammars();
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

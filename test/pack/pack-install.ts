/**
 * The package as a user gets it: packs the repository (the build runs through
 * `prepare`), installs the tarball into an empty temporary directory without
 * dev dependencies, and there checks each promise of the package with plain
 * `node` (no loader), the project's own `tsc` on a default `tsc --init`
 * configuration, and `npx fuzzpatch`. Run by `.ci/run` after the unit tests:
 * `npm run test:pack`. Prints one line per check and a closing
 * "N passed, N failed" line; exits 1 if any check failed.
 */

import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { join, relative } from "node:path";
import { installTarball, REPO } from "../../scripts/pack-install.ts";

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

// `npx fuzzpatch apply` journals its write: into a directory of this run, not the user's state directory.
const journalDir = mkdtempSync(join(tmpdir(), "fuzzpatch-pack-journal-"));
process.on("exit", () => rmSync(journalDir, { recursive: true, force: true }));
const env = { ...process.env, NO_COLOR: "1", FUZZPATCH_JOURNAL_DIR: journalDir };
const manifest = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { version: string };
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

function run(command: string, args: string[], cwd: string): Run {
  const r = spawnSync(command, args, { cwd, env, encoding: "utf8" });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs `code` with plain node in the consumer directory; `cjs` runs it as CommonJS. */
function node(code: string, cwd: string, cjs = false): Run {
  return run(process.execPath, ["--input-type", cjs ? "commonjs" : "module", "--eval", code], cwd);
}

function ok(r: Run, what: string): void {
  assert.equal(r.status, 0, `${what} exited ${r.status}\n${r.stdout}${r.stderr}`);
}

/** Every file under `dir` with its bytes. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else out.set(relative(dir, full), readFileSync(full, "base64"));
    }
  };
  walk(dir);
  return out;
}

const CONSUMER_TS = `import { applySearchReplace, createPatch, EditError, replace, type EditErrorCode, type ReplaceResult } from "fuzzpatch";
import { applyEdits, type ApplyEditsResult } from "fuzzpatch/node";

const result: ReplaceResult = replace("let a = 1;\\n", "a = 1", "a = 2");
const content: string = result.content;
const line: number = result.match.startLine;
const blocks = applySearchReplace(content, "<<<<<<< SEARCH\\na = 2\\n=======\\na = 3\\n>>>>>>> REPLACE\\n");
const patch: string = createPatch(content, blocks.content);
function codeOf(error: unknown): EditErrorCode | undefined {
  return error instanceof EditError ? error.code : undefined;
}
export async function dryRun(root: string): Promise<ApplyEditsResult> {
  return applyEdits(root, patch, { dryRun: true });
}
export { codeOf, line };
`;

const CORE_TS = `import { applyPatch, applySearchReplace, createPatch, replace, type ReplaceOptions } from "fuzzpatch";
const options: ReplaceOptions = { replaceAll: true };
export const out: string = replace("a a", "a", "b", options).content + applyPatch("x\\n", "").content;
export const blocks = applySearchReplace("x", "") && createPatch("x", "y");
`;

/** A type error on purpose: passes only if the declarations give `content` its real type (not any). */
const WRONG_TS = `import { replace } from "fuzzpatch";
const n: number = replace("a", "a", "b").content;
export { n };
`;

/** A strict consumer of every entry but ./ai (its `ai` peer is not installed), declarations checked in full. */
const STRICT_TS = `import { replace } from "fuzzpatch";
import { applyEdits, hashBytes } from "fuzzpatch/node";
import { runTool } from "fuzzpatch/tools";
export const out: string = replace("a", "a", "b").content + hashBytes("x");
export const later = [applyEdits, runTool];
`;

/** Type-checks STRICT_TS with the TypeScript that `tsc` (a command and its arguments) runs: strict, skipLibCheck off, @types/node listed. */
function checkStrictConsumer(tsc: string[]): void {
  const compilerOptions = {
    strict: true,
    module: "nodenext",
    target: "es2022",
    noEmit: true,
    skipLibCheck: false,
    types: ["node"],
    typeRoots: [join(REPO, "node_modules", "@types")],
  };
  writeFileSync(join(dir, "tsconfig.strict.json"), JSON.stringify({ compilerOptions, files: ["strict.ts"] }));
  writeFileSync(join(dir, "strict.ts"), STRICT_TS);
  const [command, ...args] = tsc as [string, ...string[]];
  ok(run(command, [...args, "-p", "tsconfig.strict.json"], dir), tsc.join(" "));
}

const installed = installTarball();
const dir = installed.dir;
const pkg = join(dir, "node_modules", "fuzzpatch");

const checks: { name: string; check: () => void }[] = [
  {
    name: "the tarball holds dist/, README.md, LICENSE and package.json only",
    check: () => {
      const files = execFileSync("tar", ["-tzf", installed.tarball], { encoding: "utf8" }).trim().split("\n");
      const stray = files.filter(
        (f) => !/^package\/(dist\/.+\.(js|d\.ts)|dist\/cli\/(bin|cli)\.cjs|dist\/grammars\/tree-sitter-\w+\.wasm\.br|README\.md|LICENSE|package\.json)$/.test(f),
      );
      assert.deepEqual(stray, []);
      for (const entry of ["dist/index.js", "dist/index.d.ts", "dist/node.js", "dist/node.d.ts", "dist/cli/bin.cjs", "dist/cli/cli.cjs"]) {
        assert.ok(files.includes(`package/${entry}`), `${entry} is missing`);
      }
    },
  },
  {
    // The README's figure is hand-written: it must stay within 5% of the tarball (it said 429 kB of 454).
    name: "the README's tarball size is the tarball's (within 5%)",
    check: () => {
      const said = /a (\d+(?:\.\d+)?) (kB|MB) tarball/.exec(readFileSync(join(REPO, "README.md"), "utf8"));
      assert.ok(said, 'README.md says "a N kB tarball" or "a N MB tarball"');
      const actual = statSync(installed.tarball).size / 1000;
      const stated = Number(said[1]) * (said[2] === "MB" ? 1000 : 1);
      assert.ok(Math.abs(stated - actual) <= actual * 0.05, `README says ${said[1]} ${said[2]}, the tarball is ${actual.toFixed(0)} kB`);
    },
  },
  {
    // npm 11 lists a dependency's prepare/install scripts as awaiting approval; prepack strips prepare.
    name: "the installed manifest has no lifecycle scripts, and the CLI is its executable and one bundle",
    check: () => {
      const manifestInstalled = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8")) as { scripts?: Record<string, string> };
      const lifecycle = Object.keys(manifestInstalled.scripts ?? {}).filter((s) => /^(pre|post)?(install|prepare|pack)$|^prepare$/.test(s));
      assert.deepEqual(lifecycle, []);
      const cli = readdirSync(join(pkg, "dist", "cli"), { recursive: true, encoding: "utf8" });
      assert.deepEqual(cli.sort(), ["bin.cjs", "cli.cjs"], "no per-module tsc output of src/cli");
    },
  },
  {
    // tsc leaves `./x.ts` in declarations; TypeScript >= 5 reads them, editors and older tools do not.
    name: "declarations import .js files, never .ts",
    check: () => {
      const bad: string[] = [];
      const walk = (d: string): void => {
        for (const entry of readdirSync(d, { withFileTypes: true })) {
          const full = join(d, entry.name);
          if (entry.isDirectory()) walk(full);
          else if (entry.name.endsWith(".d.ts") && /(from|import)\s*\(?\s*["']\.\.?\/[^"']*\.ts["']/.test(readFileSync(full, "utf8"))) {
            bad.push(relative(pkg, full));
          }
        }
      };
      walk(join(pkg, "dist"));
      assert.deepEqual(bad, []);
    },
  },
  {
    // Checked in the tarball: npm install would set the bit on the installed bin anyway, but a
    // clone runs dist/cli/bin.cjs as the build left it.
    name: "dist/cli/bin.cjs is packed with its run bit and starts with a shebang",
    check: () => {
      const listing = execFileSync("tar", ["-tvzf", installed.tarball], { encoding: "utf8" }).split("\n");
      const entry = listing.find((line) => line.endsWith(" package/dist/cli/bin.cjs")) ?? "(missing)";
      assert.match(entry, /^-rwxr-xr-x /);
      assert.match(readFileSync(join(pkg, "dist", "cli", "bin.cjs"), "utf8"), /^#!\/usr\/bin\/env node\n/);
    },
  },
  {
    name: 'plain node: import { replace } from "fuzzpatch"',
    check: () => {
      const r = node('import { replace } from "fuzzpatch"; console.log(JSON.stringify(replace("a\\n  b\\n", "b", "c")));', dir);
      ok(r, "node");
      const result = JSON.parse(r.stdout) as { content: string; match: { strategy: string } };
      assert.equal(result.content, "a\n  c\n");
      assert.equal(result.match.strategy, "exact");
    },
  },
  {
    name: 'plain node: applyEdits from "fuzzpatch/node" (dry run)',
    check: () => {
      writeFileSync(join(dir, "sample.txt"), "one\ntwo\n");
      const code = `import { applyEdits } from "fuzzpatch/node";
const r = await applyEdits(".", '\`\`\`json\\n{"path": "sample.txt", "oldString": "two", "newString": "TWO"}\\n\`\`\`\\n', { dryRun: true });
console.log(JSON.stringify({ applied: r.applied, failed: r.failed, diff: r.diff }));`;
      const r = node(code, dir);
      ok(r, "node");
      const result = JSON.parse(r.stdout) as { applied: number; failed: number; diff: string };
      assert.equal(result.applied, 1);
      assert.equal(result.failed, 0);
      assert.match(result.diff, /^\+TWO$/m);
      assert.equal(readFileSync(join(dir, "sample.txt"), "utf8"), "one\ntwo\n", "a dry run wrote the file");
    },
  },
  {
    name: 'plain node: runTool from "fuzzpatch/tools" edits a file; "fuzzpatch/mcp" exports the server',
    check: () => {
      writeFileSync(join(dir, "tool.txt"), "alpha\nbeta\n");
      const code = `import { runTool, toolDefinitions } from "fuzzpatch/tools";
import { createMcpServer, serveMcp } from "fuzzpatch/mcp";
const r = await runTool("edit_file", { path: "tool.txt", edits: [{ oldString: "beta", newString: "BETA" }] }, { root: "." });
console.log(JSON.stringify({ names: toolDefinitions.map((t) => t.name), isError: r.isError, mcp: [typeof createMcpServer, typeof serveMcp] }));`;
      const r = node(code, dir);
      ok(r, "node");
      const result = JSON.parse(r.stdout) as { names: string[]; isError: boolean; mcp: string[] };
      assert.ok(result.names.includes("edit_file"));
      assert.equal(result.isError, false);
      assert.deepEqual(result.mcp, ["function", "function"]);
      assert.equal(readFileSync(join(dir, "tool.txt"), "utf8"), "alpha\nBETA\n");
    },
  },
  {
    // The grammar packages are dev dependencies: an installed fuzzpatch reads its own dist/grammars/.
    name: "plain node: the syntax layer parses every language from the grammars in dist/grammars",
    check: () => {
      assert.throws(() => readFileSync(join(dir, "node_modules", "tree-sitter-python", "package.json")), /ENOENT/);
      const code = `import { SYNTAX_LANGUAGES, parse, checkSyntax } from "./node_modules/fuzzpatch/dist/syntax/index.js";
const clean = [];
for (const language of SYNTAX_LANGUAGES) { const tree = await parse("", language); clean.push(tree.rootNode.hasError === false); tree.delete(); }
const report = await checkSyntax("a.py", "def f():\\n    return 1\\n", "def f(:\\n    return 1\\n");
console.log(JSON.stringify({ count: clean.length, clean: clean.every(Boolean), lines: report.introduced.map((i) => i.line) }));`;
      const r = node(code, dir);
      ok(r, "node");
      assert.deepEqual(JSON.parse(r.stdout), { count: 17, clean: true, lines: [1] });
    },
  },
  {
    name: 'plain node: "fuzzpatch/openai" applies an apply_patch operation, "fuzzpatch/anthropic" a text editor call, with neither SDK installed',
    check: () => {
      writeFileSync(join(dir, "vendor.txt"), "one\r\ntwo\r\n");
      const code = `import { createApplyPatchEditor, codexApplyPatchTool } from "fuzzpatch/openai";
import { textEditorCall } from "fuzzpatch/anthropic";
const a = await createApplyPatchEditor({ root: "." }).updateFile({ type: "update_file", path: "vendor.txt", diff: "@@\\n one\\n-two\\n+2\\n" });
const b = await textEditorCall({ command: "str_replace", path: "vendor.txt", old_str: "one", new_str: "1" }, { root: "." });
console.log(JSON.stringify({ a: a.status, b: b.is_error, grammar: codexApplyPatchTool.format.syntax }));`;
      const r = node(code, dir);
      ok(r, "node");
      assert.deepEqual(JSON.parse(r.stdout), { a: "completed", b: false, grammar: "lark" });
      assert.equal(readFileSync(join(dir, "vendor.txt"), "utf8"), "1\r\n2\r\n");
    },
  },
  {
    // ESM only: Node >= 20.19 loads it through require(esm); older Node refuses with ERR_REQUIRE_ESM.
    name: 'plain node: require("fuzzpatch") from CommonJS',
    check: () => {
      const r = node('const { replace } = require("fuzzpatch"); console.log(replace("x y", "y", "z").content);', dir, true);
      if (process.features.require_module) {
        ok(r, "node");
        assert.equal(r.stdout, "x z\n");
      } else {
        assert.notEqual(r.status, 0);
        assert.match(r.stderr, /ERR_REQUIRE_ESM/);
      }
    },
  },
  {
    name: "tsc with a default `tsc --init` config type-checks a consumer",
    check: () => {
      ok(run(process.execPath, [tsc, "--init"], dir), "tsc --init");
      writeFileSync(join(dir, "consumer.ts"), CONSUMER_TS);
      ok(run(process.execPath, [tsc, "--noEmit", "-p", "."], dir), "tsc");
    },
  },
  {
    // The pure core must not need Node's types: its declarations are checked in full, without @types/node.
    name: "the core's declarations check with skipLibCheck off and no @types/node",
    check: () => {
      const config = { extends: "./tsconfig.json", compilerOptions: { skipLibCheck: false }, files: ["core.ts"] };
      writeFileSync(join(dir, "tsconfig.core.json"), JSON.stringify(config));
      writeFileSync(join(dir, "core.ts"), CORE_TS);
      ok(run(process.execPath, [tsc, "--noEmit", "-p", "tsconfig.core.json"], dir), "tsc");
    },
  },
  {
    name: "a strict consumer with skipLibCheck off type-checks with TypeScript 5.x",
    check: () => checkStrictConsumer([process.execPath, tsc]),
  },
  {
    // The newest TypeScript (7.x, the native port) defaults `types` to none: declarations naming Buffer must say they need node's.
    name: "the same consumer type-checks with the newest TypeScript from npm (npx typescript@latest)",
    check: () => checkStrictConsumer(["npx", "--yes", "--package", "typescript@latest", "tsc"]),
  },
  {
    name: "the same tsc rejects a wrong use of the types (they are not any)",
    check: () => {
      writeFileSync(join(dir, "wrong.ts"), WRONG_TS);
      const r = run(process.execPath, [tsc, "--noEmit", "-p", "."], dir);
      assert.notEqual(r.status, 0);
      assert.match(r.stdout, /wrong\.ts\(2,7\): error TS2322/);
      assert.doesNotMatch(r.stdout, /consumer\.ts/);
    },
  },
  {
    name: "npx fuzzpatch --version prints the package.json version",
    check: () => {
      const r = run("npx", ["fuzzpatch", "--version"], dir);
      ok(r, "npx fuzzpatch --version");
      assert.equal(r.stdout.trim(), manifest.version);
    },
  },
  {
    // The CLI bundle keeps web-tree-sitter external and finds the grammars at dist/grammars (../grammars from dist/cli).
    name: "npx fuzzpatch apply --json reports the syntax check of a Python edit",
    check: () => {
      writeFileSync(join(dir, "syn.py"), "def f(x):\n    return x\n");
      const edit = '{"path": "syn.py", "oldString": "def f(x):", "newString": "def f(x"}';
      const r = run("npx", ["fuzzpatch", "apply", `\`\`\`json\n${edit}\n\`\`\`\n`, "--dry-run", "--json"], dir);
      ok(r, "npx fuzzpatch apply --json");
      const report = JSON.parse(r.stdout) as { files: { syntax?: { language: string; introduced: { line: number }[] } }[] };
      assert.equal(report.files[0]?.syntax?.language, "python");
      assert.equal(report.files[0]?.syntax?.introduced[0]?.line, 1);
    },
  },
  {
    name: "npx fuzzpatch apply edits a copy of examples/",
    check: () => {
      cpSync(join(REPO, "examples"), join(dir, "examples"), { recursive: true });
      const before = snapshot(join(dir, "examples", "project"));
      const r = run("npx", ["fuzzpatch", "apply", "examples/response.md", "--root", "examples/project"], dir);
      ok(r, "npx fuzzpatch apply");
      const after = snapshot(join(dir, "examples", "project"));
      const changed = [...after.keys()].filter((f) => after.get(f) !== before.get(f)).sort();
      assert.deepEqual(changed, ["README.md", "src/config.js", "src/greet.js", "src/math.js", "src/strings.js"]);
      assert.match(readFileSync(join(dir, "examples", "project", "src", "config.js"), "utf8"), /retries: 5,/);
      // The write is in the journal, and undo takes it back byte for byte.
      const undo = run("npx", ["fuzzpatch", "undo", "--last", "--root", "examples/project"], dir);
      ok(undo, "npx fuzzpatch undo");
      assert.deepEqual(snapshot(join(dir, "examples", "project")), before);
    },
  },
];

let passed = 0;
let failed = 0;
try {
  for (const { name, check } of checks) {
    try {
      check();
      passed++;
      console.log(`ok - ${name}`);
    } catch (error) {
      failed++;
      console.log(`not ok - ${name}\n  ${String((error as Error).message ?? error).split("\n").join("\n  ")}`);
    }
  }
} finally {
  installed.dispose();
}
console.log(`pack-install: ${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;

/**
 * Issue 38, "a new user's first hour": what a newcomer met with real
 * `git diff` output beside `git apply`, a model's response sent twice, the
 * `--dry-run` diff re-applied, and the claims of the README and the help.
 * Each test failed before its fix.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { fuzzpatchTools } from "../src/ai.ts";
import { applyEdits } from "../src/node.ts";
import { runMain } from "./helpers/cli-run.ts";
import { makeTree } from "./helpers/temp-tree.ts";

const BOM = "\uFEFF";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", "-c", "core.fileMode=true", ...args], { cwd, encoding: "utf8" });

/** A repository holding `files` committed, then `edit` made to its working tree: returns the root and `git diff` (the tree restored). */
async function repoWithDiff(files: Record<string, string>, edit: Record<string, string>): Promise<{ root: string; base: string; patch: string }> {
  const t = await makeTree(files, "fuzzpatch-first-hour-");
  git(t.root, "init", "-q");
  git(t.root, "add", "-A");
  git(t.root, "commit", "-qm", "before");
  for (const [rel, text] of Object.entries(edit)) await writeFile(path.join(t.root, rel), text);
  const patch = git(t.root, "diff");
  git(t.root, "checkout", "-q", "--", ".");
  return { root: t.root, base: t.base, patch };
}

const BOM_FILE = `${BOM}line one\nline two\nline three\n`;
const BOM_EDITED = `${BOM}line one\nline TWO\nline three\n`;

test("a git diff of a file with a BOM matches exactly (git's context line carries the BOM), and writes what git apply writes", async () => {
  const { root, patch } = await repoWithDiff({ "f.txt": BOM_FILE }, { "f.txt": BOM_EDITED });
  assert.ok(patch.includes(` ${BOM}line one`), "git writes the BOM into the context line");
  const r = await applyEdits(root, patch);
  assert.equal(r.ok, true, JSON.stringify(r.errors));
  const op = r.files[0]?.edits?.[0];
  assert.equal(op?.strategy, "exact");
  assert.equal(op?.fuzzy, false);
  assert.equal(await readFile(path.join(root, "f.txt"), "utf8"), BOM_EDITED);
});

test("apply --3way of a plain git diff on an untouched checkout of a BOM file (and a CRLF file) applies, as git apply --3way does", async () => {
  const crlf = "one\r\ntwo\r\nthree\r\n";
  const { root, base, patch } = await repoWithDiff({ "f.txt": BOM_FILE, "w.txt": crlf }, { "f.txt": BOM_EDITED, "w.txt": crlf.replace("two", "TWO") });
  const file = path.join(base, "p.diff");
  await writeFile(file, patch);
  const r = await runMain(["apply", file, "--root", root, "--3way"]);
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /CONFLICT/);
  assert.equal(await readFile(path.join(root, "f.txt"), "utf8"), BOM_EDITED);
  assert.equal(await readFile(path.join(root, "w.txt"), "utf8"), crlf.replace("two", "TWO"));
});

const RETURNS = "function f() {\n  const a = 1;\n  return a;\n}\n";
const strayCases: { name: string; patch: string; code: number; stderr: RegExp; after: string }[] = [
  {
    name: "a line without a prefix inside a hunk's counted range, change lines below it: PARSE naming the line, nothing written",
    patch: "--- a/f.js\n+++ b/f.js\n@@ -1,4 +1,4 @@\n function f() {\n-  const a = 1;\nthis line has no prefix\n+  const a = 2;\n   return a;\n }\n",
    code: 1,
    stderr: /PARSE: f\.js: edit 1 \(udiff\): Line 6 is inside hunk 1 .*"this line has no prefix"/,
    after: RETURNS,
  },
  {
    name: "prose after a hunk whose count is one too many, no change below it: the diff ends there and applies",
    patch: "Here:\n--- a/f.js\n+++ b/f.js\n@@ -1,5 +1,5 @@\n function f() {\n-  const a = 1;\n+  const a = 2;\n   return a;\n\nThat changes a.\n",
    code: 0,
    stderr: /^(?![\s\S]*PARSE)/,
    after: RETURNS.replace("= 1", "= 2"),
  },
];

for (const c of strayCases) {
  test(`bare diff file: ${c.name}`, async () => {
    const t = await makeTree({ "f.js": RETURNS });
    const file = path.join(t.base, "p.diff");
    await writeFile(file, c.patch);
    const r = await runMain(["apply", file, "--root", t.root]);
    assert.equal(r.code, c.code, r.stderr);
    assert.match(r.stderr, c.stderr);
    assert.equal(await readFile(path.join(t.root, "f.js"), "utf8"), c.after);
  });
}

test("fuzzpatchTools' type has every tool present (strict code calls tools.read_file.execute unchecked); readOnly: true has read_file alone", async () => {
  const t = await makeTree({ "a.txt": "alpha\n" });
  const tools = fuzzpatchTools({ root: t.root });
  // Type-checked by `npm run typecheck`: with every tool optional this line failed ("possibly undefined").
  const execute = tools.read_file.execute;
  assert.equal(typeof execute, "function");
  const { toolDefinitions } = await import("../src/tools/definitions.ts");
  assert.deepEqual(Object.keys(tools).sort(), toolDefinitions.map((d) => d.name).sort());
  const readOnly = fuzzpatchTools({ root: t.root, readOnly: true });
  assert.deepEqual(Object.keys(readOnly), ["read_file"]);
  assert.equal(readOnly.edit_file, undefined);
});

test("package.json says where the project lives: repository, homepage, bugs, keywords", async () => {
  const manifest = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8")) as Record<string, unknown>;
  const repository = manifest.repository as { type?: string; url?: string } | undefined;
  assert.equal(repository?.type, "git");
  assert.match(repository?.url ?? "", /^git\+https:\/\/github\.com\/fuzzpatch\/fuzzpatch\.git$/);
  assert.match(String(manifest.homepage), /^https:\/\/github\.com\/fuzzpatch\/fuzzpatch#readme$/);
  assert.match(String((manifest.bugs as { url?: string } | undefined)?.url), /^https:\/\/github\.com\/fuzzpatch\/fuzzpatch\/issues$/);
  const keywords = manifest.keywords as string[];
  for (const word of ["diff", "patch", "str_replace", "llm", "mcp"]) assert.ok(keywords.includes(word), word);
});

test("README's --format row lists every format the registry has (anchored was left out)", async () => {
  const { formatNames } = await import("../src/formats/index.ts");
  const readme = await readFile(new URL("../README.md", import.meta.url), "utf8");
  const row = /\| `--format ([^`]+)` \|/.exec(readme);
  assert.ok(row, "README has a --format row");
  const listed = (row[1] as string).split("\\|").sort();
  assert.deepEqual(listed, ["auto", ...formatNames()].sort());
});

test("expectedHash: README, the edit_file schema and the tool description say one thing, and the tool does it (merged when served, else STALE)", async () => {
  const { EXPECTED_HASH, toolDefinitions } = await import("../src/tools/definitions.ts");
  const { runTool } = await import("../src/tools/run-tool.ts");
  const { VersionStore } = await import("../src/tools/version-store.ts");
  const { hashBytes } = await import("../src/node.ts");
  const readme = await readFile(new URL("../README.md", import.meta.url), "utf8");
  assert.ok(readme.replace(/\s+/g, " ").includes(EXPECTED_HASH), "README quotes the sentence");
  const editFile = toolDefinitions.find((d) => d.name === "edit_file");
  const schema = editFile?.inputSchema as unknown as { properties: { expectedHash: { description?: string } } };
  assert.equal(schema.properties.expectedHash.description, EXPECTED_HASH);
  assert.doesNotMatch(editFile?.description ?? "", /make sure the file has not changed/);

  const t = await makeTree({ "a.txt": "one\ntwo\nthree\nfour\nfive\n" });
  const versions = new VersionStore();
  const read = await runTool("read_file", { path: "a.txt" }, { root: t.root, versions });
  assert.equal(read.isError, false);
  const served = hashBytes(await readFile(path.join(t.root, "a.txt")));
  await writeFile(path.join(t.root, "a.txt"), "one\ntwo\nthree\nfour\nFIVE\n");
  const merged = await runTool("edit_file", { path: "a.txt", expectedHash: served, edits: [{ oldString: "one", newString: "ONE" }] }, { root: t.root, versions });
  assert.equal(merged.isError, false, merged.text);
  assert.equal(await readFile(path.join(t.root, "a.txt"), "utf8"), "ONE\ntwo\nthree\nfour\nFIVE\n");
  const unknown = await runTool("edit_file", { path: "a.txt", expectedHash: "0".repeat(64), edits: [{ oldString: "two", newString: "TWO" }] }, { root: t.root, versions });
  assert.equal(unknown.isError, true);
  assert.match(unknown.text, /^STALE: a\.txt changed since you read it/m);
});

test("diff --help gives exit code 2, as a missing file gets it; `fuzzpatch read` tells a shell user the command to read on", async () => {
  const help = await runMain(["diff", "--help"]);
  assert.match(help.stdout.replace(/\s+/g, " "), /2 on bad usage or a file that cannot be read/);
  const t = await makeTree({ "long.txt": "a\nb\nc\nd\n" });
  const missing = await runMain(["diff", path.join(t.root, "nope.txt"), path.join(t.root, "long.txt")]);
  assert.equal(missing.code, 2);
  const file = path.join(t.root, "long.txt");
  const read = await runMain(["read", file, "--limit", "2"]);
  assert.equal(read.code, 0, read.stderr);
  assert.doesNotMatch(read.stdout, /read_file/);
  assert.ok(read.stdout.includes(`run fuzzpatch read ${file} --offset 3 --limit 2 to read on`), read.stdout);
});

test("README documents runTool's structured field, and runTool returns it as said (ReadToolOutput for read_file, WriteToolOutput for a write)", async () => {
  const { runTool } = await import("../src/tools/run-tool.ts");
  const readme = (await readFile(new URL("../README.md", import.meta.url), "utf8")).replace(/\s+/g, " ");
  assert.ok(
    readme.includes(
      "A result may also carry `structured`: the result as data, what the MCP server sends as `structuredContent` (`ReadToolOutput` for read_file, `WriteToolOutput` for the tools that write, both exported by `fuzzpatch/tools`).",
    ),
  );
  const tools = await readFile(new URL("../src/tools.ts", import.meta.url), "utf8");
  assert.match(tools, /ReadToolOutput[\s\S]*WriteToolOutput[\s\S]*from "\.\/tools\/result-data\.ts"/);
  const t = await makeTree({ "a.txt": "one\n" });
  const read = await runTool("read_file", { path: "a.txt" }, { root: t.root });
  assert.equal((read.structured as { path?: string } | undefined)?.path, "a.txt", JSON.stringify(read.structured));
  const edit = await runTool("edit_file", { path: "a.txt", edits: [{ oldString: "one", newString: "ONE" }] }, { root: t.root });
  assert.equal(edit.isError, false, edit.text);
  assert.equal((edit.structured as { ok?: boolean } | undefined)?.ok, true, JSON.stringify(edit.structured));
});

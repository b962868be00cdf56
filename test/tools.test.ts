import assert from "node:assert/strict";
import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { hashBytes } from "../src/fs/read-file.ts";
import { lineTag } from "../src/index.ts";
import { type RunToolOptions, runTool, strictToolDefinitions, toolDefinitions } from "../src/tools.ts";
import type { JsonSchema } from "../src/tools/json-schema.ts";
import type { WriteToolOutput } from "../src/tools/result-data.ts";
import type { ToolResult } from "../src/tools/result-text.ts";
import { makeTree, snapshot } from "./helpers/temp-tree.ts";

const GREET = 'function greet(name) {\n    if (name) {\n        console.log("hello " + name);\n    }\n    return name;\n}\n\nfunction other() {\n    return 1;\n}\n';
const sha = (text: string | Buffer) => hashBytes(text);

interface Tree {
  root: string;
  outside: string;
  base: string;
}

interface Case {
  name: string;
  files?: Record<string, string | Buffer>;
  /** Extra setup (symlinks, a second root). */
  setup?: (t: Tree) => Promise<void>;
  tool: string;
  args: unknown | ((t: Tree) => unknown);
  options?: Partial<RunToolOptions> | ((t: Tree) => Partial<RunToolOptions>);
  isError: boolean;
  /** Substrings the result text must contain. */
  says?: (string | RegExp)[];
  /** Files (relative to root) and their exact content after the call; null = must not exist. */
  after?: Record<string, string | null>;
  /** Nothing under the temp directory may change. */
  unchanged?: boolean;
}

const cases: Case[] = [
  // --- read_file ---------------------------------------------------------------
  {
    name: "read_file shows numbered lines and the sha256 of the bytes",
    files: { "a.js": GREET },
    tool: "read_file",
    args: { path: "a.js" },
    isError: false,
    says: [`a.js (10 lines, sha256 ${sha(GREET)})`, ' 1→function greet(name) {\n 2→    if (name) {', " 7→\n", "10→}\n"],
    unchanged: true,
  },
  {
    name: "read_file pages with offset and limit and says how to read on",
    files: { "a.js": GREET },
    tool: "read_file",
    args: { path: "a.js", offset: 8, limit: 2 },
    isError: false,
    says: ["lines 8-9 of 10", "8→function other() {\n9→    return 1;\n", "(1 more line: call read_file with offset 10 to read on.)"],
  },
  {
    name: "read_file never shows part of a line too long for one view",
    files: { "min.js": `a\n${"x".repeat(150_000)}\nb\n` },
    tool: "read_file",
    args: { path: "min.js" },
    isError: false,
    says: ["1→a\n2→[not shown: this line is 150000 characters long, over the view limit of 100000]\n3→b\n"],
  },
  {
    name: "read_file shows a CRLF file without its CRs, hashing the real bytes",
    files: { "w.txt": "one\r\ntwo\r\n" },
    tool: "read_file",
    args: { path: "w.txt" },
    isError: false,
    says: [`sha256 ${sha("one\r\ntwo\r\n")}`, "1→one\n2→two\n"],
  },
  {
    name: "read_file of an empty file",
    files: { "e.txt": "" },
    tool: "read_file",
    args: { path: "e.txt" },
    isError: false,
    says: [`e.txt (empty file, sha256 ${sha("")})`],
  },
  {
    name: "read_file: offset past the end",
    files: { "a.js": GREET },
    tool: "read_file",
    args: { path: "a.js", offset: 11 },
    isError: true,
    says: ["INVALID_INPUT: offset 11 is past the end of a.js, which has 10 lines."],
  },
  {
    name: "read_file: a missing file points to create_file",
    tool: "read_file",
    args: { path: "nope.txt" },
    isError: true,
    says: ["NOT_FOUND: nope.txt does not exist", "create_file"],
  },
  {
    name: "read_file refuses a binary file",
    files: { "b.bin": Buffer.from([0x50, 0x4b, 0x00, 0x01]) },
    tool: "read_file",
    args: { path: "b.bin" },
    isError: true,
    says: ["BINARY:"],
  },
  {
    name: "read_file refuses a file over the size limit",
    files: { "big.txt": "x".repeat(2000) },
    tool: "read_file",
    args: { path: "big.txt" },
    options: { maxFileBytes: 1000 },
    isError: true,
    says: ["TOO_LARGE: big.txt is 2000 bytes"],
  },
  {
    name: "read_file refuses a path that climbs out of the root",
    tool: "read_file",
    args: { path: "../outside/secret.txt" },
    isError: true,
    says: ["UNSAFE_PATH:", "climbs out of the root"],
  },
  {
    name: "read_file refuses .git/",
    files: { ".git/config": "[core]\n" },
    tool: "read_file",
    args: { path: ".git/config" },
    isError: true,
    says: ["UNSAFE_PATH:", ".git/"],
  },
  {
    name: "read_file refuses a symlink that leads outside the root",
    setup: async (t) => symlink(path.join(t.outside, "secret.txt"), path.join(t.root, "link.txt")),
    tool: "read_file",
    args: { path: "link.txt" },
    isError: true,
    says: ["UNSAFE_PATH:", "symlink that leads outside the root"],
  },
  {
    name: "read_file takes an absolute path inside the root",
    files: { "a.js": GREET },
    tool: "read_file",
    args: (t: Tree) => ({ path: path.join(t.root, "a.js"), limit: 1 }),
    isError: false,
    says: ["a.js (lines 1-1 of 10", "1→function greet(name) {"],
  },

  // --- edit_file ---------------------------------------------------------------
  {
    name: "edit_file: an exact edit is written and the new sha256 reported",
    files: { "a.js": GREET },
    tool: "edit_file",
    args: { path: "a.js", edits: [{ oldString: "    return 1;", newString: "    return 2;" }] },
    isError: false,
    says: ["Applied 1 edit to a.js.", "- edit 1: exact, lines 9-9", `now sha256 ${sha(GREET.replace("return 1;", "return 2;"))}`, "-    return 1;\n+    return 2;"],
    after: { "a.js": GREET.replace("return 1;", "return 2;") },
  },
  {
    name: "edit_file: a fuzzy edit (wrong indentation, other quotes) keeps the file's indentation and warns",
    files: { "a.js": GREET },
    tool: "edit_file",
    args: { path: "a.js", edits: [{ oldString: "if (name) {\n  console.log('hello ' + name);\n}", newString: "if (name) {\n  console.log('hello, ' + name);\n}" }] },
    isError: false,
    says: ["matched fuzzily", "lines 2-4", "check in the diff"],
    // The model changed the text, not the quotes: the file's quotes stay (three-way merge).
    after: { "a.js": GREET.replace('"hello "', '"hello, "') },
  },
  {
    name: "edit_file: an edit copied from read_file output, line numbers included, applies",
    files: { "a.js": GREET },
    tool: "edit_file",
    args: { path: "a.js", edits: [{ oldString: ' 3→        console.log("hello " + name);\n 4→    }', newString: '        console.log("bye " + name);\n    }' }] },
    isError: false,
    says: ["- edit 1: matched fuzzily (line-numbers), lines 3-4"],
    after: { "a.js": GREET.replace('"hello "', '"bye "') },
  },
  {
    name: "edit_file: an ambiguous edit lists every candidate and writes nothing",
    files: { "a.js": GREET },
    tool: "edit_file",
    args: { path: "a.js", edits: [{ oldString: "}", newString: "};" }] },
    isError: true,
    says: ["Nothing was written: 1 of 1 edit failed.", "- edit 1 failed with AMBIGUOUS:", "lines 4-4", "lines 6-6", "lines 10-10"],
    unchanged: true,
  },
  {
    name: "edit_file: when the second edit fails the first is not written either",
    files: { "a.js": GREET },
    tool: "edit_file",
    args: {
      path: "a.js",
      edits: [
        { oldString: "function greet(name) {", newString: "function greet(who) {" },
        { oldString: "function absent() {\n    return 3;\n}", newString: "" },
      ],
    },
    isError: true,
    says: ["Nothing was written: 1 of 2 edits failed.", "- edit 1: exact, lines 1-1 (would apply; not written because another edit failed)", "- edit 2 failed with NOT_FOUND:", "The closest text is lines 8-10"],
    unchanged: true,
  },
  {
    name: "edit_file: later edits see the earlier ones",
    files: { "a.js": GREET },
    tool: "edit_file",
    args: {
      path: "a.js",
      edits: [
        { oldString: "return 1;", newString: "return one;" },
        { oldString: "return one;", newString: "return 1 + 0;" },
      ],
    },
    isError: false,
    after: { "a.js": GREET.replace("return 1;", "return 1 + 0;") },
  },
  {
    name: "edit_file: replaceAll changes every occurrence",
    files: { "a.js": GREET },
    tool: "edit_file",
    args: { path: "a.js", edits: [{ oldString: "return", newString: "yield", replaceAll: true }] },
    isError: false,
    after: { "a.js": GREET.replaceAll("return", "yield") },
  },
  {
    name: "edit_file: a path outside the root is refused and nothing outside changes",
    tool: "edit_file",
    args: { path: "../outside/secret.txt", edits: [{ oldString: "do not touch", newString: "touched" }] },
    isError: true,
    says: ["UNSAFE_PATH:"],
    unchanged: true,
  },
  {
    name: "edit_file: an absolute path outside every root is refused",
    tool: "edit_file",
    args: (t: Tree) => ({ path: path.join(t.outside, "secret.txt"), edits: [{ oldString: "do not touch", newString: "touched" }] }),
    isError: true,
    says: ["UNSAFE_PATH:", "outside the project root"],
    unchanged: true,
  },
  {
    name: "edit_file: a stale expectedHash is refused",
    files: { "a.js": GREET },
    tool: "edit_file",
    args: { path: "a.js", expectedHash: sha("what the model saw\n"), edits: [{ oldString: "return 1;", newString: "return 2;" }] },
    isError: true,
    says: [`STALE: a.js changed since you read it (its sha256 is ${sha(GREET)}`, "Read the file again"],
    unchanged: true,
  },
  {
    name: "edit_file: the current expectedHash lets the edit through",
    files: { "a.js": GREET },
    tool: "edit_file",
    args: { path: "a.js", expectedHash: sha(GREET).toUpperCase(), edits: [{ oldString: "return 1;", newString: "return 2;" }] },
    isError: false,
    after: { "a.js": GREET.replace("return 1;", "return 2;") },
  },
  {
    name: "edit_file: dryRun reports the diff and writes nothing",
    files: { "a.js": GREET },
    tool: "edit_file",
    args: { path: "a.js", dryRun: true, edits: [{ oldString: "return 1;", newString: "return 2;" }] },
    isError: false,
    says: ["Dry run: 1 edit would apply to a.js; nothing was written.", "+    return 2;"],
    unchanged: true,
  },
  {
    name: "edit_file: refused on a read-only server",
    files: { "a.js": GREET },
    tool: "edit_file",
    args: { path: "a.js", edits: [{ oldString: "return 1;", newString: "return 2;" }] },
    options: { readOnly: true },
    isError: true,
    says: ["INVALID_INPUT: edit_file is not available: this server is read-only."],
    unchanged: true,
  },
  {
    name: "edit_file: snake_case arguments and one edit at the top level (the str_replace habit)",
    files: { "a.js": GREET },
    tool: "edit_file",
    args: { file_path: "a.js", old_string: "return 1;", new_string: "return 2;" },
    isError: false,
    after: { "a.js": GREET.replace("return 1;", "return 2;") },
  },
  {
    name: "edit_file: the reference filesystem server's oldText/newText",
    files: { "a.js": GREET },
    tool: "edit_file",
    args: { path: "a.js", edits: [{ oldText: "return 1;", newText: "return 2;" }], dryRun: false },
    isError: false,
    after: { "a.js": GREET.replace("return 1;", "return 2;") },
  },
  {
    name: "edit_file: OpenAI strict arguments, every optional field null, are read as absent",
    files: { "a.js": GREET },
    tool: "edit_file",
    args: JSON.stringify({ path: "a.js", edits: [{ oldString: "return 1;", newString: "return 2;", replaceAll: null }], expectedHash: null, dryRun: null }),
    isError: false,
    after: { "a.js": GREET.replace("return 1;", "return 2;") },
  },
  {
    name: "read_file and apply_diff: null offset, limit and path are read as absent",
    files: { "a.js": GREET },
    tool: "apply_diff",
    args: { diff: "--- a/a.js\n+++ b/a.js\n@@ @@\n-    return 1;\n+    return 2;\n", path: null, dryRun: null },
    isError: false,
    after: { "a.js": GREET.replace("return 1;", "return 2;") },
  },
  {
    name: "edit_file: null for a required field is still missing",
    files: { "a.js": GREET },
    tool: "edit_file",
    args: { path: "a.js", edits: [{ oldString: null, newString: "x" }] },
    isError: true,
    says: ["- edits[0].oldString:"],
    unchanged: true,
  },
  {
    name: "edit_file: arguments as JSON text, edits as a JSON string",
    files: { "a.js": GREET },
    tool: "edit_file",
    args: JSON.stringify({ path: "a.js", edits: JSON.stringify([{ oldString: "return 1;", newString: "return 2;" }]) }),
    isError: false,
    after: { "a.js": GREET.replace("return 1;", "return 2;") },
  },
  {
    name: "edit_file: invalid arguments name each problem",
    files: { "a.js": GREET },
    tool: "edit_file",
    args: { path: "a.js", edits: [{ oldString: 3 }], expectedHash: "abc" },
    isError: true,
    says: ["INVALID_INPUT: The arguments of edit_file are not valid:", "- edits[0].oldString:", "- edits[0].newString:", "- expectedHash:"],
    unchanged: true,
  },
  {
    name: "edit_file: an empty oldString on an existing file is refused",
    files: { "a.js": GREET },
    tool: "edit_file",
    args: { path: "a.js", edits: [{ oldString: "", newString: "x" }] },
    isError: true,
    says: ["- edit 1 failed with INVALID_INPUT:\na.js already exists and is not empty"],
    unchanged: true,
  },

  // --- apply_diff --------------------------------------------------------------
  {
    name: "apply_diff: SEARCH/REPLACE blocks for two files, with a :start_line: hint",
    files: { "a.js": GREET, "b.txt": "alpha\nbeta\n" },
    tool: "apply_diff",
    args: {
      diff: "a.js\n<<<<<<< SEARCH\n:start_line:9\n-------\n    return 1;\n=======\n    return 2;\n>>>>>>> REPLACE\n\nb.txt\n<<<<<<< SEARCH\nbeta\n=======\ngamma\n>>>>>>> REPLACE\n",
    },
    isError: false,
    says: ["Applied 2 edits to 2 files.", "a.js (modified, now sha256", "- block 1: exact, lines 9-9", "b.txt (modified"],
    after: { "a.js": GREET.replace("return 1;", "return 2;"), "b.txt": "alpha\ngamma\n" },
  },
  {
    name: "apply_diff: a fuzzy @@ @@ diff with shifted indentation",
    files: { "a.js": GREET },
    tool: "apply_diff",
    args: { diff: "--- a/a.js\n+++ b/a.js\n@@ @@\n function other() {\n-  return 1;\n+  return 2;\n }\n" },
    isError: false,
    says: ["hunk 1:"],
    after: { "a.js": GREET.replace("return 1;", "return 2;") },
  },
  {
    name: "apply_diff: bare blocks with path",
    files: { "a.js": GREET },
    tool: "apply_diff",
    args: { path: "a.js", diff: "<<<<<<< SEARCH\n    return 1;\n=======\n    return 2;\n>>>>>>> REPLACE\n" },
    isError: false,
    after: { "a.js": GREET.replace("return 1;", "return 2;") },
  },
  {
    name: "apply_diff: one failing hunk of two files writes nothing",
    files: { "a.js": GREET, "b.txt": "alpha\nbeta\n" },
    tool: "apply_diff",
    args: { diff: "--- a/b.txt\n+++ b/b.txt\n@@ -1,2 +1,2 @@\n alpha\n-beta\n+gamma\n--- a/a.js\n+++ b/a.js\n@@ @@\n-function missing() {\n+function found() {\n" },
    isError: true,
    says: ["Nothing was written: 1 of 2 edits failed.", "b.txt (would be modified):", "- hunk 1: exact", "a.js:", "- the diff failed with NOT_FOUND:\nHunk 1"],
    unchanged: true,
  },
  {
    name: "apply_diff: a file creation and a deletion",
    files: { "old.txt": "bye\n" },
    tool: "apply_diff",
    args: { diff: "--- /dev/null\n+++ b/src/new.txt\n@@ -0,0 +1,2 @@\n+hello\n+world\n--- a/old.txt\n+++ /dev/null\n" },
    isError: false,
    says: ["src/new.txt (created", "old.txt (deleted)"],
    after: { "src/new.txt": "hello\nworld\n", "old.txt": null },
  },
  {
    name: "apply_diff: text with no edit in it is a PARSE error",
    files: { "a.js": GREET },
    tool: "apply_diff",
    args: { diff: "I would change the return value to 2." },
    isError: true,
    says: ["PARSE: No edits found in the input: it looks like prose"],
    unchanged: true,
  },
  {
    name: "apply_diff: a path into .git inside the diff is refused",
    files: { ".git/config": "[core]\n" },
    tool: "apply_diff",
    args: { diff: "--- a/.git/config\n+++ b/.git/config\n@@ @@\n-[core]\n+[core]\n+\thooksPath = /tmp\n" },
    isError: true,
    says: ["UNSAFE_PATH:"],
    unchanged: true,
  },

  // --- create_file -------------------------------------------------------------
  {
    name: "create_file writes a new file in new directories",
    tool: "create_file",
    args: { path: "src/deep/new.ts", content: "export const x = 1;\n" },
    isError: false,
    says: ["src/deep/new.ts (created, now sha256"],
    after: { "src/deep/new.ts": "export const x = 1;\n" },
  },
  {
    name: "create_file writes an empty file (a Python __init__.py)",
    tool: "create_file",
    args: { path: "pkg/__init__.py", content: "" },
    isError: false,
    says: ["pkg/__init__.py (created, now sha256 e3b0c442"],
    after: { "pkg/__init__.py": "" },
  },
  {
    name: "create_file never overwrites an existing file",
    files: { "a.js": GREET },
    tool: "create_file",
    args: { path: "a.js", content: "x\n" },
    isError: true,
    says: ["INVALID_INPUT: a.js already exists (", "create_file never overwrites a file"],
    unchanged: true,
  },
  {
    name: "create_file refuses a directory in the way",
    files: { "src/x.ts": "x\n" },
    tool: "create_file",
    args: { path: "src", content: "x\n" },
    isError: true,
    says: ["INVALID_INPUT:", "src is a directory"],
    unchanged: true,
  },
  {
    name: "create_file is refused on a read-only server",
    tool: "create_file",
    args: { path: "n.txt", content: "x\n" },
    options: { readOnly: true },
    isError: true,
    says: ["read-only"],
    unchanged: true,
  },
  {
    name: "create_file refuses a path outside the root",
    tool: "create_file",
    args: { path: "../outside/new.txt", content: "x\n" },
    isError: true,
    says: ["UNSAFE_PATH:"],
    unchanged: true,
  },

  // --- several roots, unknown tools --------------------------------------------
  {
    name: "an absolute path in the second root is edited there and named absolutely",
    setup: async (t) => {
      await mkdir(path.join(t.base, "second"));
      await writeFile(path.join(t.base, "second", "a.js"), GREET);
    },
    files: { "a.js": "first root's a.js\n" },
    tool: "edit_file",
    args: (t: Tree) => ({ path: path.join(t.base, "second", "a.js"), edits: [{ oldString: "return 1;", newString: "return 2;" }] }),
    options: (t: Tree) => ({ root: [t.root, path.join(t.base, "second")] }),
    isError: false,
    says: [/Applied 1 edit to \/.*\/second\/a\.js\./],
    after: { "a.js": "first root's a.js\n", "../second/a.js": GREET.replace("return 1;", "return 2;") },
  },
  {
    name: "no root at all is an error, not a crash",
    tool: "apply_diff",
    args: { diff: "--- a/x\n+++ b/x\n@@ @@\n-a\n+b\n" },
    options: { root: [] },
    isError: true,
    says: ["INVALID_INPUT: No root directory is configured"],
  },
  {
    name: "an unknown tool lists the tools",
    tool: "delete_file",
    args: { path: "a.js" },
    isError: true,
    says: ['INVALID_INPUT: There is no tool named "delete_file". The tools are: read_file, edit_file, edit_lines, apply_diff, create_file, undo_edit, apply_snippet.'],
  },
];

for (const c of cases) {
  test(`runTool: ${c.name}`, async () => {
    const t = await makeTree(c.files ?? {});
    await c.setup?.(t);
    const before = await snapshot(t.base);
    const args = typeof c.args === "function" ? (c.args as (t: Tree) => unknown)(t) : c.args;
    const extra = typeof c.options === "function" ? c.options(t) : (c.options ?? {});
    const result = await runTool(c.tool, args, { root: t.root, ...extra });
    assert.equal(result.isError, c.isError, result.text);
    for (const s of c.says ?? []) {
      if (typeof s === "string") assert.ok(result.text.includes(s), `expected ${JSON.stringify(s)} in:\n${result.text}`);
      else assert.match(result.text, s);
    }
    for (const [rel, content] of Object.entries(c.after ?? {})) {
      const actual = await readFile(path.join(t.root, rel), "utf8").catch(() => null);
      assert.equal(actual, content, rel);
    }
    if (c.unchanged) assert.deepEqual(await snapshot(t.base), before);
  });
}

test("runTool: the sha256 an edit reports is the one to send as the next expectedHash", async () => {
  const t = await makeTree({ "a.js": GREET });
  const first = await runTool("edit_file", { path: "a.js", edits: [{ oldString: "return 1;", newString: "return 2;" }] }, { root: t.root });
  const hash = /now sha256 ([0-9a-f]{64})/.exec(first.text)?.[1];
  assert.equal(hash, sha(await readFile(path.join(t.root, "a.js"))));
  const second = await runTool("edit_file", { path: "a.js", expectedHash: hash, edits: [{ oldString: "return 2;", newString: "return 3;" }] }, { root: t.root });
  assert.equal(second.isError, false, second.text);
  assert.equal(await readFile(path.join(t.root, "a.js"), "utf8"), GREET.replace("return 1;", "return 3;"));
});

test("runTool: every line of a read_file view, pasted back as oldString, matches its own place", async () => {
  const t = await makeTree({ "a.js": GREET });
  const view = (await runTool("read_file", { path: "a.js" }, { root: t.root })).text.split("\n");
  // Lines 2-4, numbers and all, exactly as the model saw them.
  const pasted = view.slice(2, 5).join("\n");
  const result = await runTool("edit_file", { path: "a.js", edits: [{ oldString: pasted, newString: "    if (name) console.log(name);" }] }, { root: t.root });
  assert.equal(result.isError, false, result.text);
  assert.equal(await readFile(path.join(t.root, "a.js"), "utf8"), GREET.replace('    if (name) {\n        console.log("hello " + name);\n    }', "    if (name) console.log(name);"));
});

test("toolDefinitions: object schemas a function-calling API accepts", () => {
  assert.deepEqual(
    toolDefinitions.map((d) => d.name),
    ["read_file", "edit_file", "edit_lines", "apply_diff", "create_file", "undo_edit", "apply_snippet"],
  );
  for (const def of toolDefinitions) {
    const schema = def.inputSchema as { type: string; properties: Record<string, unknown>; required?: string[]; $schema?: string };
    assert.equal(schema.type, "object", def.name);
    assert.equal(schema.$schema, undefined, def.name);
    for (const key of schema.required ?? []) assert.ok(key in schema.properties, `${def.name}: required ${key} has no property`);
    assert.ok(def.description.length > 100, def.name);
    assert.doesNotMatch(JSON.stringify(schema), /9007199254740991/);
  }
  const edit = toolDefinitions.find((d) => d.name === "edit_file");
  // Only create_file (which never overwrites) and read_file are non-destructive.
  assert.deepEqual(
    toolDefinitions.map((d) => [d.name, d.annotations.destructiveHint]),
    [
      ["read_file", false],
      ["edit_file", true],
      ["edit_lines", true],
      ["apply_diff", true],
      ["create_file", false],
      ["undo_edit", true],
      ["apply_snippet", true],
    ],
  );
  for (const code of ["AMBIGUOUS", "NOT_FOUND", "STALE"]) assert.ok(edit?.description.includes(code), code);
});

/** Every object node of `schema`, with its path. */
function objectNodes(schema: JsonSchema, at = "$"): [string, JsonSchema][] {
  const out: [string, JsonSchema][] = schema.properties ? [[at, schema]] : [];
  for (const [name, p] of Object.entries(schema.properties ?? {})) out.push(...objectNodes(p, `${at}.${name}`));
  if (schema.items) out.push(...objectNodes(schema.items, `${at}[]`));
  for (const [i, s] of (schema.anyOf ?? []).entries()) out.push(...objectNodes(s, `${at}|${i}`));
  return out;
}

test("strictToolDefinitions: every property required, the optional ones nullable, no keyword strict mode rejects", async () => {
  assert.deepEqual(
    strictToolDefinitions.map((d) => [d.name, d.description, d.annotations]),
    toolDefinitions.map((d) => [d.name, d.description, d.annotations]),
  );
  for (const [i, def] of strictToolDefinitions.entries()) {
    const loose = toolDefinitions[i]?.inputSchema as JsonSchema;
    for (const [at, node] of objectNodes(def.inputSchema)) {
      assert.deepEqual(node.required, Object.keys(node.properties ?? {}), `${def.name} ${at}`);
      assert.equal(node.additionalProperties, false, `${def.name} ${at}`);
    }
    assert.doesNotMatch(JSON.stringify(def.inputSchema), /"minLength"|"maxLength"/, def.name);
    for (const [name, property] of Object.entries(def.inputSchema.properties)) {
      const optional = !loose.required?.includes(name);
      assert.equal(Array.isArray(property.type) && property.type.includes("null"), optional, `${def.name}.${name}`);
    }
  }
  const edit = strictToolDefinitions.find((d) => d.name === "edit_file")?.inputSchema;
  assert.deepEqual(edit?.properties.edits?.items?.properties?.replaceAll?.type, ["boolean", "null"]);
  assert.deepEqual(edit?.properties.edits?.items?.required, ["oldString", "newString", "replaceAll"]);
  // The loose schemas are untouched by the strict variant.
  assert.deepEqual(toolDefinitions.find((d) => d.name === "edit_file")?.inputSchema.required, ["path", "edits"]);
});

test("strictToolDefinitions: arguments a strict model sends (all keys, null where not given) run for every tool", async () => {
  const t = await makeTree({ "a.js": GREET });
  const args: Record<string, Record<string, unknown>> = {
    read_file: { path: "a.js", offset: null, limit: null, anchors: null },
    edit_lines: {
      path: "a.js",
      edits: [{ op: "insert_after", from: null, to: null, at: `1#${lineTag(GREET.split("\n")[0] as string)}`, lines: ["// dry run"] }],
      expectedHash: null,
      dryRun: true,
    },
    edit_file: { path: "a.js", edits: [{ oldString: "return 1;", newString: "return 2;", replaceAll: null }], expectedHash: null, dryRun: null },
    apply_diff: { diff: "--- a/a.js\n+++ b/a.js\n@@ @@\n-    return 2;\n+    return 3;\n", path: null, dryRun: null },
    create_file: { path: "b.js", content: "b\n", dryRun: null },
    // A dry run of undoing the last write (create_file's).
    undo_edit: { path: null, id: null, merge: null, dryRun: true },
    apply_snippet: { path: "a.js", code_edit: "// ... existing code ...\nfunction other() {\n    return 9;\n}", instructions: null, dryRun: true },
  };
  for (const def of strictToolDefinitions) {
    const given = args[def.name] ?? {};
    assert.deepEqual(Object.keys(given).sort(), Object.keys(def.inputSchema.properties).sort(), def.name);
    const result = await runTool(def.name, given, { root: t.root });
    assert.equal(result.isError, false, `${def.name}: ${result.text}`);
  }
  assert.equal(await readFile(path.join(t.root, "a.js"), "utf8"), GREET.replace("return 1;", "return 3;"));
  assert.equal(await readFile(path.join(t.root, "b.js"), "utf8"), "b\n");
});

test("runTool: every tool returns its result as data too (structured), of its outputSchema's shape", async () => {
  const t = await makeTree({ "a.js": GREET });
  const data = (r: ToolResult) => r.structured as WriteToolOutput | undefined;
  const ok = await runTool("create_file", { path: "n/new.txt", content: "one\n" }, { root: t.root });
  assert.deepEqual(ok.structured, {
    ok: true,
    dryRun: false,
    files: [
      {
        path: "n/new.txt",
        status: "created",
        written: true,
        sha256: sha("one\n"),
        diff: data(ok)?.files[0]?.diff,
        edits: [{ status: "applied", strategy: "create", startLine: 1, endLine: 1, fuzzy: false, similarity: 1 }],
      },
    ],
    errors: [],
  });
  assert.match(data(ok)?.files[0]?.diff ?? "", /\+one/);
  const dry = await runTool("edit_file", { path: "a.js", dryRun: true, edits: [{ oldString: "return 1;", newString: "return 2;" }] }, { root: t.root });
  assert.equal(data(dry)?.dryRun, true);
  assert.equal(data(dry)?.files[0]?.written, false);
  assert.equal(data(dry)?.files[0]?.sha256, undefined);
  const refused = await runTool("edit_file", { path: "a.js" }, { root: t.root });
  assert.equal(data(refused)?.ok, false);
  assert.equal(data(refused)?.errors[0]?.code, "INVALID_INPUT");
  const readOnly = await runTool("apply_diff", { diff: "x" }, { root: t.root, readOnly: true });
  assert.equal(data(readOnly)?.errors[0]?.code, "INVALID_INPUT");
  const read = await runTool("read_file", { path: "a.js", offset: 2, limit: 2 }, { root: t.root });
  assert.deepEqual(read.structured, { ok: true, path: "a.js", sha256: sha(GREET), startLine: 2, endLine: 3, totalLines: GREET.split("\n").length - 1, errors: [] });
  const missing = await runTool("read_file", { path: "none.js" }, { root: t.root });
  assert.deepEqual(missing.structured, { ok: false, errors: [{ code: "NOT_FOUND", message: missing.text.replace(/^NOT_FOUND: /, "").trimEnd() }] });
  assert.equal((await runTool("no_such_tool", {}, { root: t.root })).structured, undefined);
  for (const def of toolDefinitions) assert.ok(def.outputSchema !== undefined && def.title !== "", def.name);
});

test("runTool: arbitrary arguments give a result, never a throw, and nothing outside the root changes", async () => {
  const t = await makeTree({ "a.js": GREET });
  const outsideBefore = await snapshot(t.outside);
  const path_ = fc.oneof(fc.constantFrom("a.js", "../outside/secret.txt", "/etc/hosts", ".git/x", "n/new.txt", ""), fc.string({ maxLength: 12 }));
  const fields = fc.record(
    {
      path: path_,
      edits: fc.oneof(fc.array(fc.record({ oldString: fc.string({ maxLength: 30 }), newString: fc.string({ maxLength: 30 }) }), { maxLength: 3 }), fc.jsonValue()),
      diff: fc.string({ maxLength: 80 }),
      content: fc.string({ maxLength: 30 }),
      offset: fc.integer({ min: -2, max: 20 }),
      limit: fc.integer({ min: -2, max: 20 }),
      dryRun: fc.boolean(),
    },
    { requiredKeys: [] },
  );
  const name = fc.constantFrom(...toolDefinitions.map((d) => d.name), "nope");
  await fc.assert(
    fc.asyncProperty(name, fc.oneof(fields, fc.jsonValue(), fc.string({ maxLength: 20 })), async (tool, args) => {
      const result = await runTool(tool, args, { root: t.root });
      assert.equal(typeof result.isError, "boolean");
      assert.ok(result.text.length > 0);
      assert.doesNotMatch(result.text, /internal error/);
    }),
    { numRuns: 200 },
  );
  assert.deepEqual(await snapshot(t.outside), outsideBefore);
});

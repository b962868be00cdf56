import assert from "node:assert/strict";
import { cp, readFile, stat, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { PassThrough, Writable } from "node:stream";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { createColors } from "../src/cli/colors.ts";
import { main } from "../src/cli/main.ts";
import { type Run, runCli, runMain } from "./helpers/cli-run.ts";
import { makeTree, read, snapshot } from "./helpers/temp-tree.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url));


const run = runCli;

// Every test here spawns the CLI (or runs main() without touching the process's
// state) in its own temporary tree, so they may run side by side.
describe("fuzzpatch CLI", { concurrency: 4 }, () => {
// --- every format -----------------------------------------------------------

const GREET = 'export function greet(name) {\n  return "Hello, " + name;\n}\n';
const GREET_NEW = 'export function greet(name) {\n  return "Hi, " + name + "!";\n}\n';

const formatCases: { name: string; files: Record<string, string>; response: string; expect: Record<string, string | null>; args?: string[] }[] = [
  {
    name: "SEARCH/REPLACE block after a file name",
    files: { "greet.js": GREET },
    response: 'Change:\n\ngreet.js\n```js\n<<<<<<< SEARCH\n  return "Hello, " + name;\n=======\n  return "Hi, " + name + "!";\n>>>>>>> REPLACE\n```\n',
    expect: { "greet.js": GREET_NEW },
  },
  {
    name: "unified diff with line numbers",
    files: { "greet.js": GREET },
    response: '```diff\n--- a/greet.js\n+++ b/greet.js\n@@ -1,3 +1,3 @@\n export function greet(name) {\n-  return "Hello, " + name;\n+  return "Hi, " + name + "!";\n }\n```\n',
    expect: { "greet.js": GREET_NEW },
  },
  {
    name: "fuzzy unified diff (@@ @@) given as a bare patch",
    files: { "greet.js": GREET },
    response: '--- greet.js\n+++ greet.js\n@@ @@\n export function greet(name) {\n-  return "Hello, " + name;\n+  return "Hi, " + name + "!";\n',
    expect: { "greet.js": GREET_NEW },
    args: ["--format", "udiff"],
  },
  {
    name: "str_replace as a fenced JSON tool call",
    files: { "greet.js": GREET },
    response: '```json\n{"path": "greet.js", "oldString": "return \\"Hello, \\" + name;", "newString": "return \\"Hi, \\" + name + \\"!\\";"}\n```\n',
    expect: { "greet.js": GREET_NEW },
  },
  {
    name: "create from /dev/null and delete to /dev/null",
    files: { "old.txt": "bye\n" },
    response: "```diff\n--- /dev/null\n+++ b/new/made.txt\n@@ -0,0 +1,2 @@\n+made\n+here\n--- a/old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n```\n",
    expect: { "new/made.txt": "made\nhere\n", "old.txt": null },
  },
  {
    name: "empty SEARCH on a missing file creates it",
    files: {},
    response: "fresh.txt\n```\n<<<<<<< SEARCH\n=======\nfresh content\n>>>>>>> REPLACE\n```\n",
    expect: { "fresh.txt": "fresh content\n" },
  },
];

for (const c of formatCases) {
  test(`apply: ${c.name}`, async () => {
    const t = await makeTree(c.files);
    // In process: these cases read stdin and an absolute --root, nothing of the process (a spawn cost ~0.3 s of CPU each).
    const r = await runMain(["apply", "-", "--root", t.root, ...(c.args ?? [])], c.response);
    assert.equal(r.code, 0, r.stderr);
    for (const [rel, want] of Object.entries(c.expect)) {
      if (want === null) await assert.rejects(stat(path.join(t.root, rel)));
      else assert.equal(await read(t.root, rel), want);
    }
    // The report on stderr; stdout holds the diff alone (a patch: issue 38).
    assert.match(r.stderr, /^(applied|warning):/m);
    assert.doesNotMatch(r.stdout, /^(applied|warning|note):/m);
  });
}

test("apply: the example response applies every format to the example project", async () => {
  const t = await makeTree({});
  await cp(path.join(REPO, "examples", "project"), t.root, { recursive: true });
  const r = await run(["apply", path.join(REPO, "examples", "response.md"), "--root", t.root], t.base);
  assert.equal(r.code, 0, r.stderr);
  assert.match(await read(t.root, "src/greet.js"), /export function greet\(name, greeting = "Hello"\)/);
  assert.match(await read(t.root, "src/math.js"), /if \(values.length === 0\) \{\n {4}return 0;/);
  assert.match(await read(t.root, "src/config.js"), /retries: 5,/);
  assert.equal(await read(t.root, "src/strings.js"), 'export function shout(text) {\n  return text.toUpperCase() + "!";\n}\n');
  assert.match(await read(t.root, "README.md"), /import `shout`/);
});

test("README command: npx fuzzpatch apply examples/response.md --dry-run shows the diff and writes nothing", async () => {
  const before = await snapshot(path.join(REPO, "examples"));
  // --ignore-scripts: the first npx of a clone installs it into npx's cache and would run its
  // `prepare` (the build, which empties dist/) while other test files run dist/cli/bin.cjs.
  const r = await run(["apply", "examples/response.md", "--root", "examples/project", "--dry-run"], REPO, "", ["npx", "--ignore-scripts", "fuzzpatch"]);
  assert.equal(r.code, 0, `${r.stderr}\n(npx runs the built dist/cli/bin.cjs: npm ci builds it, or npm run build)`);
  for (const file of ["src/greet.js", "src/math.js", "src/config.js", "src/strings.js", "README.md"]) {
    assert.match(r.stdout, new RegExp(`^\\+\\+\\+ b/${file.replace(".", "\\.")}$`, "m"));
  }
  assert.match(r.stderr, /Dry run/);
  assert.ok(!r.stdout.includes("\u001b["), "no colour codes when NO_COLOR is set");
  assert.deepEqual(await snapshot(path.join(REPO, "examples")), before);
});

// --- all-or-nothing, partial, dry run ----------------------------------------

const twoFiles = {
  "one.txt": "first\nline\n",
  "two.txt": "second\nline\n",
};
const secondFails = '```json\n[{"path": "one.txt", "oldString": "first", "newString": "FIRST"},\n {"path": "two.txt", "oldString": "not there at all", "newString": "x"}]\n```\n';

test("apply: when the second file fails, the first is left byte for byte (exit 1)", async () => {
  const t = await makeTree(twoFiles);
  const before = await snapshot(t.base);
  const r = await run(["apply", "-", "--root", t.root], t.base, secondFails);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^NOT_FOUND: two\.txt/m);
  assert.match(r.stderr, /Nothing written/);
  assert.deepEqual(await snapshot(t.base), before);
});

test("apply --partial: writes the file that succeeded, not the one that failed (exit 1)", async () => {
  const t = await makeTree(twoFiles);
  const r = await run(["apply", "-", "--root", t.root, "--partial"], t.base, secondFails);
  assert.equal(r.code, 1);
  assert.equal(await read(t.root, "one.txt"), "FIRST\nline\n");
  assert.equal(await read(t.root, "two.txt"), "second\nline\n");
});

test("apply --dry-run: prints the diff and leaves every byte untouched", async () => {
  const t = await makeTree(twoFiles);
  const before = await snapshot(t.base);
  const r = await run(["apply", "-", "--root", t.root, "--dry-run"], t.base, '```json\n{"path": "one.txt", "oldString": "first", "newString": "FIRST"}\n```\n');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^-first\n\+FIRST$/m);
  assert.deepEqual(await snapshot(t.base), before);
});

test("apply --json: prints a machine-readable report", async () => {
  const t = await makeTree(twoFiles);
  const r = await run(["apply", "-", "--root", t.root, "--json"], t.base, secondFails);
  assert.equal(r.code, 1);
  const report = JSON.parse(r.stdout);
  assert.equal(report.ok, false);
  assert.equal(report.written, false);
  assert.deepEqual(
    report.files.map((f: { path: string; status: string }) => [f.path, f.status]),
    [
      ["one.txt", "modified"],
      ["two.txt", "failed"],
    ],
  );
  assert.equal(report.files[1].edits[0].error.code, "NOT_FOUND");
  assert.equal(report.files[0].edits[0].strategy, "exact");
});

// --- line endings and BOM ------------------------------------------------------

test("apply: CRLF and BOM files round-trip, only the edited line changes", async () => {
  const bom = Buffer.from([0xef, 0xbb, 0xbf]);
  const t = await makeTree({
    "win.txt": "alpha\r\nbeta\r\ngamma\r\n",
    "bom.txt": Buffer.concat([bom, Buffer.from("alpha\nbeta\n")]),
  });
  const response = '```json\n[{"path": "win.txt", "oldString": "beta\\ngamma", "newString": "BETA\\ngamma"},\n {"path": "bom.txt", "oldString": "alpha", "newString": "ALPHA"}]\n```\n';
  const r = await run(["apply", "-", "--root", t.root], t.base, response);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(await readFile(path.join(t.root, "win.txt")), Buffer.from("alpha\r\nBETA\r\ngamma\r\n"));
  assert.deepEqual(await readFile(path.join(t.root, "bom.txt")), Buffer.concat([bom, Buffer.from("ALPHA\nbeta\n")]));
});

// --- refusals -------------------------------------------------------------------

const escapes: { name: string; path: (t: { outside: string }) => string; code: string }[] = [
  { name: "../ escape", path: () => "../outside/secret.txt", code: "UNSAFE_PATH" },
  { name: "absolute path", path: (t) => path.join(t.outside, "secret.txt"), code: "UNSAFE_PATH" },
  { name: "symlink out of the root", path: () => "link/secret.txt", code: "UNSAFE_PATH" },
  { name: ".git/config", path: () => ".git/config", code: "UNSAFE_PATH" },
  { name: "binary file", path: () => "blob.bin", code: "BINARY" },
];

for (const c of escapes) {
  test(`apply: refuses ${c.name}, nothing written anywhere`, async () => {
    const t = await makeTree({ ".git/config": "[core]\n", "blob.bin": Buffer.from([1, 0, 2, 0, 3]) });
    await symlink(t.outside, path.join(t.root, "link"));
    const before = await snapshot(t.base);
    const target = c.path(t);
    const response = `${target}\n\`\`\`\n<<<<<<< SEARCH\ndo not touch\n=======\npwned\n>>>>>>> REPLACE\n\`\`\`\n\n\`\`\`json\n${JSON.stringify({ path: target, oldString: "\u0002", newString: "x" })}\n\`\`\`\n`;
    const r = await run(["apply", "-", "--root", t.root, "--partial"], t.base, response);
    assert.equal(r.code, 1);
    assert.match(r.stderr, new RegExp(`^${c.code}: `, "m"));
    assert.ok(r.stderr.includes(target));
    assert.deepEqual(await snapshot(t.base), before);
  });
}

test("apply: a write failing midway (parent is a file) leaves every file as it was: nothing written, or the files already written restored", async () => {
  const t = await makeTree({ "one.txt": "one\n", blocker: "a file, not a directory\n" });
  const before = await snapshot(t.base);
  const response =
    '```json\n[{"path": "one.txt", "oldString": "one", "newString": "ONE"},\n {"path": "blocker/new.txt", "oldString": "", "newString": "new\\n"}]\n```\n';
  const r = await run(["apply", "-", "--root", t.root], t.base, response);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^IO: Writing blocker\/new\.txt failed/m);
  // Files are replaced directory by directory (transaction.ts): one.txt may or may not be written before blocker/ fails.
  assert.match(r.stderr, /Nothing was written\.|already written was restored/);
  assert.match(r.stderr, /^Nothing written: 1 other error\.$/m, "a failed write is not advised --partial");
  assert.deepEqual(await snapshot(t.base), before);
});

// --- replace and diff -----------------------------------------------------------

test("replace: --old/--new edits one file; --all replaces every occurrence", async () => {
  const t = await makeTree({ "f.txt": "a x\nb x\n" });
  const file = path.join(t.root, "f.txt");
  const ambiguous = await run(["replace", file, "--old", "x", "--new", "y"], t.base);
  assert.equal(ambiguous.code, 1);
  assert.match(ambiguous.stderr, /^AMBIGUOUS: /m);
  assert.equal(await read(t.root, "f.txt"), "a x\nb x\n");
  const all = await run(["replace", file, "--old", "x", "--new", "y", "--all"], t.base);
  assert.equal(all.code, 0, all.stderr);
  assert.equal(await read(t.root, "f.txt"), "a y\nb y\n");
});

test("replace: --old-file/--new-file read the texts from files", async () => {
  const t = await makeTree({ "f.txt": "keep\nold block\nkeep\n", "old.txt": "old block\n", "new.txt": "new block\n" });
  const r = await run(["replace", "root/f.txt", "--old-file", "root/old.txt", "--new-file", "root/new.txt"], t.base);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(await read(t.root, "f.txt"), "keep\nnew block\nkeep\n");
});

test("diff: prints a patch; --fuzzy drops the line numbers", async () => {
  const t = await makeTree({ "a.txt": "one\ntwo\nthree\n", "b.txt": "one\n2\nthree\n" });
  const plain = await run(["diff", "root/a.txt", "root/b.txt"], t.base);
  assert.equal(plain.code, 1, plain.stderr);
  assert.match(plain.stdout, /^@@ -1,3 \+1,3 @@$/m);
  assert.match(plain.stdout, /^-two\n\+2$/m);
  const fuzzy = await run(["diff", "root/a.txt", "root/b.txt", "--fuzzy"], t.base);
  assert.match(fuzzy.stdout, /^@@ @@$/m);
  assert.doesNotMatch(fuzzy.stdout, /@@ -\d/);
});

// --- usage and exit codes ---------------------------------------------------------

const usageCases: { name: string; args: string[]; input?: string; code: number; stderr: RegExp }[] = [
  { name: "unknown option", args: ["apply", "--bogus"], code: 2, stderr: /^INVALID_INPUT: unknown option/m },
  { name: "bad --format", args: ["apply", "-", "--format", "xml"], code: 2, stderr: /^INVALID_INPUT: .*--format/m },
  { name: "no command", args: [], code: 2, stderr: /Usage: fuzzpatch/ },
  { name: "prose without edits", args: ["apply", "-"], input: "I could not find anything to change.\n", code: 2, stderr: /^PARSE: No edits found/m },
  { name: "replace without --new", args: ["replace", "x.txt", "--old", "a"], code: 2, stderr: /^INVALID_INPUT: Missing --new/m },
  { name: "missing response file", args: ["apply", "nope.md"], code: 2, stderr: /^IO: Cannot read nope\.md/m },
];

for (const c of usageCases) {
  test(`usage: ${c.name} exits ${c.code}`, async () => {
    const t = await makeTree({});
    const r = await run(c.args, t.root, c.input);
    assert.equal(r.code, c.code);
    assert.match(r.stderr, c.stderr);
  });
}

test("apply --interactive: never prompts when stdin is not a terminal", async () => {
  const t = await makeTree({ "a.txt": "x = 1;\ny = 0;\nx = 1;\n" });
  await writeFile(path.join(t.base, "r.md"), '```json\n{"path": "a.txt", "oldString": "x = 1;", "newString": "x = 2;"}\n```\n');
  const r = await run(["apply", "r.md", "--root", t.root, "--interactive"], t.base, "1\n");
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^AMBIGUOUS: /m);
  assert.doesNotMatch(r.stderr, /Pick 1-/);
  assert.equal(await read(t.root, "a.txt"), "x = 1;\ny = 0;\nx = 1;\n");
});

test("apply: a fuzzy match prints a warning line naming its strategy", async () => {
  const t = await makeTree({ "f.js": "function f() {\n    return 1;\n}\n" });
  const response = `\`\`\`json\n${JSON.stringify({ path: "f.js", oldString: "function f() {\n  return 1;\n}", newString: "function f() {\n  return 2;\n}" })}\n\`\`\`\n`;
  const r = await run(["apply", "-", "--root", t.root], t.base, response);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /^warning: f\.js: edit 1 \(str-replace\) matched fuzzily \([a-z-]+.*lines 1-3\)/m);
  assert.equal(await read(t.root, "f.js"), "function f() {\n    return 2;\n}\n");
});

// --- patch and git apply habits: --check, -q, --stat, -p, -R, --target -------------

const HELP = "x\ny\nx\n";
const helpDiff = (header: string) => `--- ${header}\n+++ ${header.replace(/^a\//, "b/")}\n@@ -1,3 +1,3 @@\n x\n-y\n+Y\n x\n`;
const srBlock = (search: string, replace: string) => `<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE\n`;

const flagCases: {
  name: string;
  files: Record<string, string>;
  response: string;
  args: string[];
  code: number;
  /** Expected file contents after the run; null: the file must not exist. */
  expect?: Record<string, string | null>;
  stdout?: RegExp | "";
  stderr?: RegExp | "";
}[] = [
  {
    name: "--check: a response that applies prints nothing, exits 0, writes nothing",
    files: { "src/help.js": HELP },
    response: helpDiff("a/src/help.js"),
    args: ["--check"],
    code: 0,
    expect: { "src/help.js": HELP },
    stdout: "",
    stderr: "",
  },
  {
    name: "--check: a failing edit prints only the error, exits 1, writes nothing",
    files: { "src/help.js": HELP, "other.txt": "keep\n" },
    response: `src/help.js\n${srBlock("y", "Y")}\nother.txt\n${srBlock("absent", "x")}`,
    args: ["--check"],
    code: 1,
    expect: { "src/help.js": HELP, "other.txt": "keep\n" },
    stdout: "",
    stderr: /^NOT_FOUND: other\.txt: edit 2 /m,
  },
  {
    name: "-q: writes the change and prints nothing",
    files: { "src/help.js": HELP },
    response: helpDiff("a/src/help.js"),
    args: ["-q"],
    code: 0,
    expect: { "src/help.js": "x\nY\nx\n" },
    stdout: "",
    stderr: "",
  },
  {
    name: "--quiet: errors still reach stderr",
    files: { "src/help.js": HELP },
    response: `src/help.js\n${srBlock("absent", "x")}`,
    args: ["--quiet"],
    code: 1,
    expect: { "src/help.js": HELP },
    stdout: "",
    stderr: /^NOT_FOUND: src\/help\.js: /m,
  },
  {
    name: "--stat: files and changed line counts instead of the diff, nothing written",
    files: { "src/help.js": HELP, "b.txt": "1\n2\n" },
    response: `${helpDiff("a/src/help.js")}--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,3 @@\n+a\n+b\n+c\n--- a/b.txt\n+++ b/b.txt\n@@ -1,2 +1 @@\n 1\n-2\n`,
    args: ["--stat"],
    code: 0,
    expect: { "src/help.js": HELP, "b.txt": "1\n2\n", "new.txt": null },
    // git apply --stat's layout (a diff is read alone: patch-tables.ts).
    stdout: /^ src\/help\.js \| {4}2 \+-\n new\.txt {5}\| {4}3 \+\+\+\n b\.txt {7}\| {4}1 -\n 3 files changed, 4 insertions\(\+\), 2 deletions\(-\)\n(?![\s\S]*^@@)/m,
  },
  {
    name: "-p2: strips two leading components of the header path",
    files: { "src/help.js": HELP },
    response: helpDiff("a/proj/src/help.js"),
    args: ["-p2"],
    code: 0,
    expect: { "src/help.js": "x\nY\nx\n" },
  },
  {
    name: "--strip 1: strips a SEARCH/REPLACE path too",
    files: { "src/help.js": HELP },
    response: `proj/src/help.js\n${srBlock("y", "Y")}`,
    args: ["--strip", "1"],
    code: 0,
    expect: { "src/help.js": "x\nY\nx\n" },
  },
  {
    name: "-p0: the header path as written, a/ included",
    files: { "a/f.txt": HELP, "f.txt": HELP },
    response: helpDiff("a/f.txt"),
    args: ["-p0"],
    code: 0,
    expect: { "a/f.txt": "x\nY\nx\n", "f.txt": HELP },
  },
  {
    name: "a path not found suggests the stripped path that exists",
    files: { "src/help.js": HELP },
    response: helpDiff("a/proj/src/help.js"),
    args: [],
    code: 1,
    expect: { "src/help.js": HELP, "proj/src/help.js": null },
    stderr: /^NOT_FOUND: proj\/src\/help\.js: .*did you mean src\/help\.js\? use -p2/m,
  },
  {
    name: "-p longer than the path is refused before anything is applied",
    files: { "src/help.js": HELP },
    response: helpDiff("a/src/help.js"),
    args: ["-p3"],
    code: 2,
    expect: { "src/help.js": HELP },
    stderr: /^INVALID_INPUT: -p3 strips 3 leading components, but a\/src\/help\.js/m,
  },
  {
    name: "-R: undoes a numbered diff",
    files: { "src/help.js": "x\nY\nx\n" },
    response: helpDiff("a/src/help.js"),
    args: ["-R"],
    code: 0,
    expect: { "src/help.js": HELP },
    stdout: /^-Y\n\+y$/m,
  },
  {
    name: "--reverse: a diff that created a file deletes it; one that deleted a file creates it",
    files: { "made.txt": "made\nhere\n" },
    response: "```diff\n--- /dev/null\n+++ b/made.txt\n@@ -0,0 +1,2 @@\n+made\n+here\n--- a/gone.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n```\n",
    args: ["--reverse"],
    code: 0,
    expect: { "made.txt": null, "gone.txt": "bye\n" },
  },
  {
    name: "-R: a fuzzy diff is undone too",
    files: { "f.rs": "fn main() {\n    println!(\"Goodbye\");\n}\n" },
    response: '--- f.rs\n+++ f.rs\n@@ @@\n fn main() {\n-    println!("Hello");\n+    println!("Goodbye");\n }\n',
    args: ["-R"],
    code: 0,
    expect: { "f.rs": 'fn main() {\n    println!("Hello");\n}\n' },
  },
  {
    name: "-R: a SEARCH/REPLACE block is refused, nothing written",
    files: { "src/help.js": HELP },
    response: `src/help.js\n${srBlock("y", "Y")}`,
    args: ["-R"],
    code: 2,
    expect: { "src/help.js": HELP },
    stderr: /^INVALID_INPUT: --reverse undoes diffs only, and the edit of src\/help\.js at line 2 is a SEARCH\/REPLACE block/m,
  },
  {
    name: "--target: SEARCH/REPLACE blocks without a path",
    files: { "src/help.js": HELP },
    response: srBlock("y", "Y"),
    args: ["--target", "src/help.js"],
    code: 0,
    expect: { "src/help.js": "x\nY\nx\n" },
  },
  {
    name: "--target: a fenced diff without file headers",
    files: { "src/help.js": HELP },
    response: "Fix:\n```diff\n@@ -1,3 +1,3 @@\n x\n-y\n+Y\n x\n```\n",
    args: ["--target", "src/help.js"],
    code: 0,
    expect: { "src/help.js": "x\nY\nx\n" },
  },
  {
    name: "--target: bare hunks, and a header naming another file, go to the target",
    files: { "src/help.js": HELP },
    response: "--- a/elsewhere.js\n+++ b/elsewhere.js\n@@ @@\n x\n-y\n+Y\n",
    args: ["--target", "src/help.js"],
    code: 0,
    expect: { "src/help.js": "x\nY\nx\n", "elsewhere.js": null },
  },
  {
    name: "--target: an input editing two files is refused",
    files: { "src/help.js": HELP },
    response: `${helpDiff("a/one.js")}${helpDiff("a/two.js")}`,
    args: ["--target", "src/help.js"],
    code: 2,
    expect: { "src/help.js": HELP },
    stderr: /^INVALID_INPUT: --target src\/help\.js names one file, but the input edits 2 files \(one\.js, two\.js\)/m,
  },
];

for (const c of flagCases) {
  test(`apply ${c.name}`, async () => {
    const t = await makeTree(c.files);
    const r = await runMain(["apply", "-", "--root", t.root, ...c.args], c.response);
    assert.equal(r.code, c.code, `stdout:\n${r.stdout}\nstderr:\n${r.stderr}`);
    for (const [rel, want] of Object.entries(c.expect ?? {})) {
      if (want === null) await assert.rejects(stat(path.join(t.root, rel)), `${rel} must not exist`);
      else assert.equal(await read(t.root, rel), want, rel);
    }
    if (c.stdout === "") assert.equal(r.stdout, "");
    else if (c.stdout) assert.match(r.stdout, c.stdout);
    if (c.stderr === "") assert.equal(r.stderr, "");
    else if (c.stderr) assert.match(r.stderr, c.stderr);
  });
}

// --- library options: --preset, --max-file-bytes, --allow-binary ---------------------

// First and last lines match, the middle exists nowhere: OpenCode's BlockAnchor takes it, the default refuses.
const anchorOnly = JSON.stringify({ path: "f.js", oldString: "function f() {\n  totally();\n  different();\n}", newString: "function f() {\n  g();\n}" });

const libraryCases: { name: string; files: Record<string, string | Buffer>; response: string; args: string[]; code: number; stderr?: RegExp; changed: boolean }[] = [
  { name: "default preset refuses an anchor-only match", files: { "f.js": "function f() {\n  alpha();\n  beta();\n}\n" }, response: `\`\`\`json\n${anchorOnly}\n\`\`\`\n`, args: [], code: 1, stderr: /^NOT_FOUND: /m, changed: false },
  { name: "--preset opencode applies it", files: { "f.js": "function f() {\n  alpha();\n  beta();\n}\n" }, response: `\`\`\`json\n${anchorOnly}\n\`\`\`\n`, args: ["--preset", "opencode"], code: 0, changed: true },
  { name: "--max-file-bytes refuses a larger file", files: { "f.txt": "0123456789\n" }, response: `f.txt\n${srBlock("0123456789", "x")}`, args: ["--max-file-bytes", "10"], code: 1, stderr: /^TOO_LARGE: /m, changed: false },
  { name: "--max-file-bytes admits a file within it", files: { "f.txt": "0123456789\n" }, response: `f.txt\n${srBlock("0123456789", "x")}`, args: ["--max-file-bytes", "11"], code: 0, changed: true },
  { name: "a file with a NUL byte is refused", files: { "f.dat": "head\u0000\nvalue = 1\n" }, response: `f.dat\n${srBlock("value = 1", "value = 2")}`, args: [], code: 1, stderr: /^BINARY: /m, changed: false },
  { name: "--allow-binary edits it", files: { "f.dat": "head\u0000\nvalue = 1\n" }, response: `f.dat\n${srBlock("value = 1", "value = 2")}`, args: ["--allow-binary"], code: 0, changed: true },
  { name: "--preset with an unknown name is a usage error", files: {}, response: "", args: ["--preset", "loose"], code: 2, stderr: /^INVALID_INPUT: .*--preset/m, changed: false },
  { name: "--max-file-bytes must be a number", files: {}, response: "", args: ["--max-file-bytes", "lots"], code: 2, stderr: /^INVALID_INPUT: .*--max-file-bytes.*whole number/m, changed: false },
];

for (const c of libraryCases) {
  test(`apply: ${c.name}`, async () => {
    const t = await makeTree(c.files);
    const before = await snapshot(t.base);
    const r = await runMain(["apply", "-", "--root", t.root, ...c.args], c.response);
    assert.equal(r.code, c.code, r.stderr);
    if (c.stderr) assert.match(r.stderr, c.stderr);
    if (c.changed) assert.notDeepEqual(await snapshot(t.base), before);
    else assert.deepEqual(await snapshot(t.base), before);
  });
}

// --- --color -----------------------------------------------------------------------

const colorCases: { name: string; args: string[]; colored: boolean }[] = [
  { name: "auto (the default) on a pipe: plain", args: [], colored: false },
  { name: "always: coloured even with NO_COLOR set", args: ["--color", "always"], colored: true },
  { name: "never: plain", args: ["--color", "never"], colored: false },
];

for (const c of colorCases) {
  test(`--color ${c.name}`, async () => {
    const t = await makeTree({ "a.txt": "one\n", "b.txt": "two\n" });
    const diff = await run(["diff", "root/a.txt", "root/b.txt", ...c.args], t.base);
    const apply = await run(["apply", "-", "--root", t.root, "--dry-run", ...c.args], t.base, `a.txt\n${srBlock("one", "ONE")}`);
    for (const r of [diff, apply]) assert.equal(r.stdout.includes("\u001b["), c.colored, r.stdout);
  });
}

test("colours: each style wraps its text in its ANSI codes, a nested one of the same kind re-opens, and off is plain", () => {
  const c = createColors(true);
  assert.equal(c.red("x"), "\u001b[31mx\u001b[39m");
  assert.equal(c.bold("a"), "\u001b[1ma\u001b[22m");
  assert.equal(c.green(`a${c.red("b")}c`), "\u001b[32ma\u001b[31mb\u001b[32mc\u001b[39m");
  const off = createColors(false);
  assert.equal(off.yellow(off.cyan("text")), "text");
});

test("--color with an unknown value is a usage error", async () => {
  const t = await makeTree({});
  const r = await run(["apply", "-", "--color", "sometimes"], t.root, "");
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^INVALID_INPUT: .*--color/m);
});

// --- --interactive --------------------------------------------------------------------

const interactiveIgnored: { name: string; args: (responseFile: string) => string[]; why: RegExp }[] = [
  { name: "the response came from stdin", args: () => ["-"], why: /^note: --interactive ignored: the response came from stdin/m },
  { name: "stdin is not a terminal", args: (f) => [f], why: /^note: --interactive ignored: stdin is not a terminal/m },
];

for (const c of interactiveIgnored) {
  test(`apply --interactive says on stderr that it is ignored when ${c.name}`, async () => {
    const t = await makeTree({ "a.txt": "x = 1;\ny = 0;\nx = 1;\n" });
    const response = '```json\n{"path": "a.txt", "oldString": "x = 1;", "newString": "x = 2;"}\n```\n';
    await writeFile(path.join(t.base, "r.md"), response);
    const r = await run(["apply", ...c.args("r.md"), "--root", t.root, "--interactive"], t.base, response);
    assert.equal(r.code, 1);
    assert.match(r.stderr, c.why);
    assert.match(r.stderr, /^AMBIGUOUS: /m);
  });
}

/** Runs the CLI in this process with a terminal-like stdin that answers each prompt in turn. */
async function runWithTerminal(args: string[], answers: string[]): Promise<Run & { asked: number }> {
  const stdin = Object.assign(new PassThrough(), { isTTY: true }) as unknown as NodeJS.ReadStream;
  let stdout = "";
  let stderr = "";
  let asked = 0;
  const out = new Writable({
    write(chunk, _enc, done) {
      stdout += String(chunk);
      done();
    },
  });
  const err = new Writable({
    write(chunk, _enc, done) {
      stderr += String(chunk);
      if (String(chunk).includes("Pick 1-")) {
        asked++;
        (stdin as unknown as PassThrough).write(`${answers.shift() ?? "s"}\n`);
      }
      done();
    },
  });
  const code = await main(args, { out, err, env: { NO_COLOR: "1" } }, stdin);
  return { code, stdout, stderr, asked };
}

const TWO_RETURNS = "function a() {\n  return 1;\n}\nfunction b() {\n  return 1;\n}\n";
const returnHunk = "--- a/f.js\n+++ b/f.js\n@@ @@\n-  return 1;\n+  return 2;\n";

const interactiveCases: { name: string; answers: string[]; code: number; want: string; stderr: RegExp }[] = [
  {
    name: "an ambiguous diff hunk goes where the user picks",
    answers: ["2"],
    code: 0,
    want: "function a() {\n  return 1;\n}\nfunction b() {\n  return 2;\n}\n",
    stderr: /^f\.js: edit 1, hunk 1 matches 2 places:\n {2}\[1\] lines 2-2\n[\s\S]*\[2\] lines 5-5\n/m,
  },
  { name: "skipping leaves the hunk failed", answers: ["s"], code: 1, want: TWO_RETURNS, stderr: /AMBIGUOUS: f\.js: edit 1 \(udiff\): Hunk 1/ },
];

for (const c of interactiveCases) {
  test(`apply --interactive: ${c.name}`, async () => {
    const t = await makeTree({ "f.js": TWO_RETURNS });
    await writeFile(path.join(t.base, "r.patch"), returnHunk);
    const r = await runWithTerminal(["apply", path.join(t.base, "r.patch"), "--root", t.root, "--interactive"], c.answers);
    assert.equal(r.code, c.code, r.stderr);
    assert.equal(r.asked, 1);
    assert.match(r.stderr, c.stderr);
    assert.equal(await read(t.root, "f.js"), c.want);
  });
}

// --- diff exit codes --------------------------------------------------------------------

const diffExitCases: { name: string; files: Record<string, string>; code: number; stdout: RegExp | "" }[] = [
  { name: "equal files exit 0 and print nothing", files: { "a.txt": "one\n", "b.txt": "one\n" }, code: 0, stdout: "" },
  { name: "different files exit 1", files: { "a.txt": "one\n", "b.txt": "two\n" }, code: 1, stdout: /^-one\n\+two$/m },
  { name: "files differing only in line endings exit 1 and say so", files: { "a.txt": "one\n", "b.txt": "one\r\n" }, code: 1, stdout: /differ only in line endings/ },
  { name: "a missing file exits 2", files: { "a.txt": "one\n" }, code: 2, stdout: "" },
];

for (const c of diffExitCases) {
  test(`diff: ${c.name}`, async () => {
    const t = await makeTree(c.files);
    const r = await run(["diff", "root/a.txt", "root/b.txt"], t.base);
    assert.equal(r.code, c.code, r.stderr);
    if (c.stdout === "") assert.equal(r.stdout, "");
    else assert.match(r.stdout, c.stdout);
  });
}

// --- messages ---------------------------------------------------------------------------

test("apply --partial: no advice to use --partial", async () => {
  const t = await makeTree({ "one.txt": "first\n" });
  const r = await run(["apply", "-", "--root", t.root, "--partial"], t.base, `one.txt\n${srBlock("absent", "x")}`);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^Nothing written: 1 edit failed\.$/m);
  assert.doesNotMatch(r.stderr, /--partial/);
});

test("apply: --partial is advised only when a file is ready to write", async () => {
  const t = await makeTree(twoFiles);
  const ready = await run(["apply", "-", "--root", t.root], t.base, secondFails);
  assert.match(ready.stderr, /Use --partial/);
  const none = await run(["apply", "-", "--root", t.root], t.base, `one.txt\n${srBlock("absent", "x")}`);
  assert.doesNotMatch(none.stderr, /--partial/);
});

test("apply: a dry run and a real run count failures in the same words", async () => {
  const t = await makeTree(twoFiles);
  const dry = await run(["apply", "-", "--root", t.root, "--dry-run"], t.base, secondFails);
  const real = await run(["apply", "-", "--root", t.root], t.base, secondFails);
  const failures = (s: string) => /(\d+ edits? failed(?:, \d+ other errors?)?)/.exec(s)?.[1];
  assert.equal(dry.code, real.code);
  assert.equal(failures(dry.stderr), "1 edit failed");
  assert.equal(failures(real.stderr), failures(dry.stderr));
});

test("replace: prints the path as given, in the diff and in messages", async () => {
  const t = await makeTree({ "src/help.js": HELP });
  const ok = await run(["replace", "src/help.js", "--old", "y", "--new", "Y"], t.root);
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(ok.stdout, /^--- a\/src\/help\.js\n\+\+\+ b\/src\/help\.js$/m);
  // The report line on stderr; stdout is the diff alone (issue 38).
  assert.match(ok.stderr, /^applied: src\/help\.js: /m);
  assert.doesNotMatch(ok.stdout, /applied:/);
  const missing = await run(["replace", "src/nope.js", "--old", "y", "--new", "Y"], t.root);
  assert.match(missing.stderr, /^NOT_FOUND: src\/nope\.js: src\/nope\.js does not exist/m);
});

test("replace: an ambiguous edit advises --all, not replaceAll", async () => {
  const t = await makeTree({ "src/help.js": HELP });
  const r = await run(["replace", "src/help.js", "--old", "x", "--new", "z"], t.root);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /or use --all to change every occurrence\./);
  assert.doesNotMatch(r.stderr, /replaceAll/);
});

test("replace: takes the library options too (--preset, --max-file-bytes)", async () => {
  const t = await makeTree({ "f.js": "function f() {\n  alpha();\n  beta();\n}\n" });
  const args = ["replace", "f.js", "--old", "function f() {\n  totally();\n  different();\n}", "--new", "function f() {\n  g();\n}"];
  const tooLarge = await run([...args, "--preset", "opencode", "--max-file-bytes", "8"], t.root);
  assert.equal(tooLarge.code, 1);
  assert.match(tooLarge.stderr, /^TOO_LARGE: /m);
  const refused = await run(args, t.root);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /^NOT_FOUND: /m);
  const opencode = await run([...args, "--preset", "opencode"], t.root);
  assert.equal(opencode.code, 0, opencode.stderr);
  assert.equal(await read(t.root, "f.js"), "function f() {\n  g();\n}\n");
});

test("apply: JSON edits are counted from 1 in messages", async () => {
  const t = await makeTree({});
  const r = await run(["apply", "-", "--root", t.root], t.base, '[1, {"path": "a.txt"}]');
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^PARSE: Edit 1 is not an object\./m);
  assert.match(r.stderr, /^PARSE: Edit 2 (\(line \d+\) )?needs "path"/m);
  assert.doesNotMatch(r.stderr, /Edit 0/);
});

// --- issue 13: formats agents emit ------------------------------------------

test("apply: a response run twice leaves the bytes of the first run; the second exits 0 with a note", async () => {
  const t = await makeTree({ "greet.js": GREET });
  const response = 'greet.js\n```js\n<<<<<<< SEARCH\n  return "Hello, " + name;\n=======\n  return "Hi, " + name + "!";\n>>>>>>> REPLACE\n```\n';
  const first = await run(["apply", "-"], t.root, response);
  assert.equal(first.code, 0, first.stderr);
  assert.equal(await read(t.root, "greet.js"), GREET_NEW);
  const before = await snapshot(t.base);
  const second = await run(["apply", "-"], t.root, response);
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stderr, /^note: greet\.js: edit 1 \(search-replace\) The block at line 3 of the response: already applied \(its new text is at lines 2-2\); nothing to do\.$/m);
  assert.equal(second.stdout, "");
  assert.match(second.stderr, /^Nothing to change: 1 edit already applied\.$/m);
  assert.deepEqual(await snapshot(t.base), before);
  const json = await run(["apply", "-", "--json"], t.root, response);
  assert.equal(json.code, 0, json.stderr);
  const report = JSON.parse(json.stdout);
  assert.equal(report.ok, true);
  assert.equal(report.alreadyApplied, 1);
  assert.equal(report.files[0].status, "unchanged");
  assert.equal(report.files[0].edits[0].status, "already-applied");
  assert.equal(report.files[0].edits[0].note.code, "ALREADY_APPLIED");
});

test("apply: a response in no known format exits 2 with a PARSE error naming what it looks like and the formats", async () => {
  const t = await makeTree({});
  const r = await run(["apply", "-"], t.root, "```python\nprint('hi')\n```\n");
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^PARSE: No edits found in the input: it holds a fenced code block \(```python\) at line 1 without a file path/m);
  assert.match(r.stderr, /Accepted formats: .*search-replace \(/);
});

test("apply: a fence naming its file (```js:greet.js) edits that file, for blocks and for hunks without headers", async () => {
  const t = await makeTree({ "greet.js": GREET, "other.js": GREET });
  const response =
    '```js:greet.js\n<<<<<<< SEARCH\n  return "Hello, " + name;\n=======\n  return "Hi, " + name + "!";\n>>>>>>> REPLACE\n```\n\n' +
    '```diff:other.js\n@@ @@\n-  return "Hello, " + name;\n+  return "Hi, " + name + "!";\n```\n';
  const r = await run(["apply", "-"], t.root, response);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(await read(t.root, "greet.js"), GREET_NEW);
  assert.equal(await read(t.root, "other.js"), GREET_NEW);
});

test("apply: agents' JSON shapes end to end: a MultiEdit with a trailing comma, then text-editor commands as JSONL", async () => {
  const t = await makeTree({ "greet.js": GREET });
  const multi = '{"file_path": "greet.js", "edits": [\n  {"old_string": "Hello, ", "new_string": "Hi, "},\n  {"old_string": "+ name;", "new_string": "+ name + \\"!\\";"}, // the bang\n]}\n';
  const r = await run(["apply", "-"], t.root, multi);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(await read(t.root, "greet.js"), GREET_NEW);
  const jsonl = [
    JSON.stringify({ command: "insert", path: "greet.js", insert_line: 0, new_str: "// greeting helpers" }),
    JSON.stringify({ command: "create", path: "lib/made.js", file_text: "export const made = 1;\n" }),
  ].join("\n");
  const second = await run(["apply", "-"], t.root, jsonl);
  assert.equal(second.code, 0, second.stderr);
  assert.equal(await read(t.root, "greet.js"), `// greeting helpers\n${GREET_NEW}`);
  assert.equal(await read(t.root, "lib/made.js"), "export const made = 1;\n");
  const bad = await run(["apply", "-"], t.root, '{"path": "greet.js",\n "oldString": "a"\n "newString": "b"}');
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^PARSE: The input starts like JSON but is not valid JSON: CommaExpected at line 3, column 2\./m);
});

test("apply --format whole: a path line and a fenced file replace the file, and the report shows the diff; auto never guesses it", async () => {
  const t = await makeTree({ "greet.js": GREET });
  const response = `The whole file:\n\ngreet.js\n\`\`\`js\n${GREET_NEW}\`\`\`\n`;
  const auto = await run(["apply", "-"], t.root, response);
  assert.equal(auto.code, 2);
  assert.match(auto.stderr, /--format whole/);
  assert.equal(await read(t.root, "greet.js"), GREET);
  const whole = await run(["apply", "-", "--format", "whole"], t.root, response);
  assert.equal(whole.code, 0, whole.stderr);
  assert.equal(await read(t.root, "greet.js"), GREET_NEW);
  assert.match(whole.stdout, /^- {2}return "Hello, " \+ name;$/m);
  assert.match(whole.stdout, /^\+ {2}return "Hi, " \+ name \+ "!";$/m);
  const bad = await run(["apply", "-", "--format", "xml"], t.root, response);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^INVALID_INPUT: option '--format <format>' argument 'xml' is invalid\. Allowed choices are auto, v4a, str-replace, udiff, search-replace, whole, anchored, lazy\./m);
});

test("replace: run twice, the second is ALREADY_APPLIED even though the new text holds the old (no c = 300)", async () => {
  const t = await makeTree({ "f.js": "const c = 3;\n" });
  const first = await run(["replace", "f.js", "--old", "c = 3", "--new", "c = 30"], t.root);
  assert.equal(first.code, 0, first.stderr);
  const second = await run(["replace", "f.js", "--old", "c = 3", "--new", "c = 30"], t.root);
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stderr, /^note: f\.js: already applied \(its new text, which holds the old, is at lines 1-1\); nothing to do\.$/m);
  assert.equal(await read(t.root, "f.js"), "const c = 30;\n");
});
// --- issue 24: the patch as the argument, tables only, every failure in --json --------------------

test("apply TEXT: a V4A patch (or any text with a line break) given as the argument is the input, as Codex passes it", async () => {
  const t = await makeTree({ "greet.js": GREET });
  const patch = '*** Begin Patch\n*** Update File: greet.js\n@@\n export function greet(name) {\n-  return "Hello, " + name;\n+  return "Hi, " + name + "!";\n*** End Patch';
  const r = await runMain(["apply", patch, "--root", t.root]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(await read(t.root, "greet.js"), GREET_NEW);
  // A one-line argument is still a path.
  const missing = await runMain(["apply", "no-such-file.diff", "--root", t.root]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /^IO: Cannot read no-such-file\.diff/m);
});

test("apply --stat prints the table and nothing after it; errors still reach stderr", async () => {
  const t = await makeTree({ "src/help.js": HELP, "other.txt": "keep\n" });
  const r = await runMain(["apply", "--root", t.root, "--stat", "--partial", `${helpDiff("a/src/help.js")}\nother.txt\n${srBlock("absent", "x")}`]);
  assert.equal(r.code, 1);
  assert.equal(r.stdout, " src/help.js | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n");
  assert.match(r.stderr, /^NOT_FOUND: other\.txt: edit 2 /m);
  assert.equal(await read(t.root, "src/help.js"), HELP);
});

test("apply --json: top-level errors lists every failure (each failed edit and file), not only the errors tied to no file", async () => {
  const t = await makeTree({ "one.txt": "first\n", "two.txt": "second\n" });
  const response = `one.txt\n${srBlock("absent", "x")}\ntwo.txt\n${srBlock("also absent", "y")}\n../outside.txt\n${srBlock("a", "b")}`;
  const r = await runMain(["apply", "--root", t.root, "--json", response]);
  assert.equal(r.code, 1);
  const report = JSON.parse(r.stdout);
  assert.deepEqual(
    report.errors.map((e: { code: string; detail: { path?: string } }) => [e.code, e.detail.path]),
    [
      ["NOT_FOUND", "one.txt"],
      ["NOT_FOUND", "two.txt"],
      ["UNSAFE_PATH", "../outside.txt"],
    ],
  );
});
test("replace: a missing file advises --old '' (not oldString), and -q prints nothing but errors", async () => {
  const t = await makeTree({ "f.js": "const c = 3;\n" });
  const missing = await runMain(["replace", path.join(t.root, "nope.js"), "--old", "x", "--new", "y"]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /To create it, send --old ''; otherwise check the path/);
  const quiet = await runMain(["replace", path.join(t.root, "f.js"), "--old", "c = 3", "--new", "c = 4", "-q"]);
  assert.equal(quiet.code, 0, quiet.stderr);
  assert.equal(quiet.stdout + quiet.stderr, "");
  assert.equal(await read(t.root, "f.js"), "const c = 4;\n");
  const quietFail = await runMain(["replace", path.join(t.root, "f.js"), "--old", "absent", "--new", "x", "-q"]);
  assert.equal(quietFail.code, 1);
  assert.equal(quietFail.stdout, "");
  assert.match(quietFail.stderr, /^NOT_FOUND: /m);
});

test("apply: a path climbing out of the root quotes the .. (it read as an ellipsis); apply --help lists the formats", async () => {
  const t = await makeTree({});
  const r = await runMain(["apply", "--root", t.root, `../x.txt\n${srBlock("a", "b")}`]);
  assert.match(r.stderr, /climbs out of the root with ".."/);
  const help = await runMain(["apply", "--help"]);
  assert.equal(help.code, 0);
  for (const name of ["v4a", "str-replace", "udiff", "search-replace", "whole"]) assert.match(help.stdout, new RegExp(`^  ${name} +\\S`, "m"));
});
});

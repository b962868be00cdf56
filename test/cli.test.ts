import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cp, readFile, stat, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { makeTree, read, snapshot } from "./helpers/temp-tree.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url));
// The CLI from source through tsx (no build needed); the built bin is checked by test/pack/pack-install.ts.
const BIN = path.join(REPO, "src", "cli", "bin.ts");
const TSX = import.meta.resolve("tsx");

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[], cwd: string, input?: string): Run {
  const r = spawnSync(process.execPath, ["--import", TSX, BIN, ...args], {
    cwd,
    input: input ?? "",
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

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
    const r = run(["apply", "-", "--root", t.root, ...(c.args ?? [])], t.base, c.response);
    assert.equal(r.code, 0, r.stderr);
    for (const [rel, want] of Object.entries(c.expect)) {
      if (want === null) await assert.rejects(stat(path.join(t.root, rel)));
      else assert.equal(await read(t.root, rel), want);
    }
    assert.match(r.stdout, /^(applied|warning):/m);
  });
}

test("apply: the example response applies every format to the example project", async () => {
  const t = await makeTree({});
  await cp(path.join(REPO, "examples", "project"), t.root, { recursive: true });
  const r = run(["apply", path.join(REPO, "examples", "response.md"), "--root", t.root], t.base);
  assert.equal(r.code, 0, r.stderr);
  assert.match(await read(t.root, "src/greet.js"), /export function greet\(name, greeting = "Hello"\)/);
  assert.match(await read(t.root, "src/math.js"), /if \(values.length === 0\) \{\n {4}return 0;/);
  assert.match(await read(t.root, "src/config.js"), /retries: 5,/);
  assert.equal(await read(t.root, "src/strings.js"), 'export function shout(text) {\n  return text.toUpperCase() + "!";\n}\n');
  assert.match(await read(t.root, "README.md"), /import `shout`/);
});

test("README command: npx fuzzpatch apply examples/response.md --dry-run shows the diff and writes nothing", async () => {
  const before = await snapshot(path.join(REPO, "examples"));
  const r = spawnSync("npx", ["fuzzpatch", "apply", "examples/response.md", "--root", "examples/project", "--dry-run"], {
    cwd: REPO,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  assert.equal(r.status, 0, `${r.stderr}\n(npx runs the built dist/cli/bin.js: npm ci builds it, or npm run build)`);
  for (const file of ["src/greet.js", "src/math.js", "src/config.js", "src/strings.js", "README.md"]) {
    assert.match(r.stdout, new RegExp(`^\\+\\+\\+ b/${file.replace(".", "\\.")}$`, "m"));
  }
  assert.match(r.stdout, /Dry run/);
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
  const r = run(["apply", "-", "--root", t.root], t.base, secondFails);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^NOT_FOUND: two\.txt/m);
  assert.match(r.stdout, /Nothing written/);
  assert.deepEqual(await snapshot(t.base), before);
});

test("apply --partial: writes the file that succeeded, not the one that failed (exit 1)", async () => {
  const t = await makeTree(twoFiles);
  const r = run(["apply", "-", "--root", t.root, "--partial"], t.base, secondFails);
  assert.equal(r.code, 1);
  assert.equal(await read(t.root, "one.txt"), "FIRST\nline\n");
  assert.equal(await read(t.root, "two.txt"), "second\nline\n");
});

test("apply --dry-run: prints the diff and leaves every byte untouched", async () => {
  const t = await makeTree(twoFiles);
  const before = await snapshot(t.base);
  const r = run(["apply", "-", "--root", t.root, "--dry-run"], t.base, '```json\n{"path": "one.txt", "oldString": "first", "newString": "FIRST"}\n```\n');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^-first\n\+FIRST$/m);
  assert.deepEqual(await snapshot(t.base), before);
});

test("apply --json: prints a machine-readable report", async () => {
  const t = await makeTree(twoFiles);
  const r = run(["apply", "-", "--root", t.root, "--json"], t.base, secondFails);
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
  const r = run(["apply", "-", "--root", t.root], t.base, response);
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
    const r = run(["apply", "-", "--root", t.root, "--partial"], t.base, response);
    assert.equal(r.code, 1);
    assert.match(r.stderr, new RegExp(`^${c.code}: `, "m"));
    assert.ok(r.stderr.includes(target));
    assert.deepEqual(await snapshot(t.base), before);
  });
}

test("apply: a write failing midway (parent is a file) restores the files already written", async () => {
  const t = await makeTree({ "one.txt": "one\n", blocker: "a file, not a directory\n" });
  const before = await snapshot(t.base);
  const response =
    '```json\n[{"path": "one.txt", "oldString": "one", "newString": "ONE"},\n {"path": "blocker/new.txt", "oldString": "", "newString": "new\\n"}]\n```\n';
  const r = run(["apply", "-", "--root", t.root], t.base, response);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^IO: Writing blocker\/new\.txt failed/m);
  assert.match(r.stderr, /restored/);
  assert.deepEqual(await snapshot(t.base), before);
});

// --- replace and diff -----------------------------------------------------------

test("replace: --old/--new edits one file; --all replaces every occurrence", async () => {
  const t = await makeTree({ "f.txt": "a x\nb x\n" });
  const file = path.join(t.root, "f.txt");
  const ambiguous = run(["replace", file, "--old", "x", "--new", "y"], t.base);
  assert.equal(ambiguous.code, 1);
  assert.match(ambiguous.stderr, /^AMBIGUOUS: /m);
  assert.equal(await read(t.root, "f.txt"), "a x\nb x\n");
  const all = run(["replace", file, "--old", "x", "--new", "y", "--all"], t.base);
  assert.equal(all.code, 0, all.stderr);
  assert.equal(await read(t.root, "f.txt"), "a y\nb y\n");
});

test("replace: --old-file/--new-file read the texts from files", async () => {
  const t = await makeTree({ "f.txt": "keep\nold block\nkeep\n", "old.txt": "old block\n", "new.txt": "new block\n" });
  const r = run(["replace", "root/f.txt", "--old-file", "root/old.txt", "--new-file", "root/new.txt"], t.base);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(await read(t.root, "f.txt"), "keep\nnew block\nkeep\n");
});

test("diff: prints a patch; --fuzzy drops the line numbers", async () => {
  const t = await makeTree({ "a.txt": "one\ntwo\nthree\n", "b.txt": "one\n2\nthree\n" });
  const plain = run(["diff", "root/a.txt", "root/b.txt"], t.base);
  assert.equal(plain.code, 0, plain.stderr);
  assert.match(plain.stdout, /^@@ -1,3 \+1,3 @@$/m);
  assert.match(plain.stdout, /^-two\n\+2$/m);
  const fuzzy = run(["diff", "root/a.txt", "root/b.txt", "--fuzzy"], t.base);
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
    const r = run(c.args, t.root, c.input);
    assert.equal(r.code, c.code);
    assert.match(r.stderr, c.stderr);
  });
}

test("apply --interactive: never prompts when stdin is not a terminal", async () => {
  const t = await makeTree({ "a.txt": "x = 1;\ny = 0;\nx = 1;\n" });
  await writeFile(path.join(t.base, "r.md"), '```json\n{"path": "a.txt", "oldString": "x = 1;", "newString": "x = 2;"}\n```\n');
  const r = run(["apply", "r.md", "--root", t.root, "--interactive"], t.base, "1\n");
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^AMBIGUOUS: /m);
  assert.doesNotMatch(r.stderr, /Pick 1-/);
  assert.equal(await read(t.root, "a.txt"), "x = 1;\ny = 0;\nx = 1;\n");
});

test("apply: a fuzzy match prints a warning line naming its strategy", async () => {
  const t = await makeTree({ "f.js": "function f() {\n    return 1;\n}\n" });
  const response = `\`\`\`json\n${JSON.stringify({ path: "f.js", oldString: "function f() {\n  return 1;\n}", newString: "function f() {\n  return 2;\n}" })}\n\`\`\`\n`;
  const r = run(["apply", "-", "--root", t.root], t.base, response);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^warning: f\.js: edit 1 \(str-replace\) matched fuzzily \([a-z-]+.*lines 1-3\)/m);
  assert.equal(await read(t.root, "f.js"), "function f() {\n    return 2;\n}\n");
});

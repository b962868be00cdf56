/**
 * `fuzzpatch apply --reject` through the CLI: what applies is written, each
 * failed hunk or block goes to FILE.rej, exit 1. Diff cases are checked
 * against real `git apply --reject` on the same patch in another tree: the
 * same file bytes, the same exit code, the same .rej.
 */
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { applyPatch } from "../src/index.ts";
import { runMain } from "./helpers/cli-run.ts";
import { makeTree, read, snapshot } from "./helpers/temp-tree.ts";

const git = (cwd: string, ...args: string[]) => execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd, encoding: "utf8" });

const lines = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, k) => `${from + k}`);
const BEFORE = `${lines(1, 30).join("\n")}\n`;
/** The three-hunk change git diffs: lines 2, 15 and 28. */
const AFTER = BEFORE.replace("\n2\n", "\ntwo\n").replace("\n15\n", "\nfifteen\n").replace("\n28\n", "\ntwentyeight\n");
/** The file since the diff was made: lines 14-16 rewritten, so the middle hunk finds nothing (git's nor ours). */
const DRIFTED = BEFORE.replace("\n14\n15\n16\n", "\nfourteen = 14\nfifteen = 15\nsixteen = 16\n");

/** The patch `git diff` writes for `before` -> `after` of each file. */
async function gitPatch(files: Record<string, [string, string]>): Promise<string> {
  const t = await makeTree({}, "fuzzpatch-rejpatch-");
  for (const [rel, [before]] of Object.entries(files)) await writeFile(path.join(t.root, rel), before);
  git(t.root, "init", "-q");
  git(t.root, "add", "-A");
  git(t.root, "commit", "-qm", "before");
  for (const [rel, [, after]] of Object.entries(files)) await writeFile(path.join(t.root, rel), after);
  return git(t.root, "diff");
}

/** The files of a tree (bytes and modes), git's own directory left out. */
async function files(root: string): Promise<Map<string, string>> {
  return new Map([...(await snapshot(root))].filter(([k, v]) => v !== "dir" && !k.startsWith(".git")));
}

/** `git apply --reject` in a git repository holding `tree`, and `fuzzpatch apply --reject` in another. */
async function both(tree: Record<string, string>, patch: string, args: string[] = []) {
  const g = await makeTree(tree, "fuzzpatch-rejgit-");
  const f = await makeTree(tree, "fuzzpatch-rejfp-");
  git(g.root, "init", "-q");
  await writeFile(path.join(g.base, "p.diff"), patch);
  await writeFile(path.join(f.base, "p.diff"), patch);
  const gitRun = spawnSync("git", ["apply", "--reject", ...args, path.join(g.base, "p.diff")], { cwd: g.root, encoding: "utf8" });
  const fp = await runMain(["apply", path.join(f.base, "p.diff"), "--root", f.root, "--reject", ...args]);
  return { git: { code: gitRun.status, stderr: gitRun.stderr, tree: await files(g.root), root: g.root }, fp: { ...fp, tree: await files(f.root), root: f.root, base: f.base } };
}

/** The hunks of a .rej or a patch: from the first `@@` on. */
const hunksOf = (text: string) => text.slice(text.indexOf("\n@@") + 1);

test("reject: the middle hunk of three no longer matches: the same file and .rej as git apply --reject, exit 1", async () => {
  const patch = await gitPatch({ "f.txt": [BEFORE, AFTER] });
  const r = await both({ "f.txt": DRIFTED }, patch);
  assert.equal(r.git.code, 1, r.git.stderr);
  assert.equal(r.fp.code, 1, r.fp.stderr);
  // The first and last hunks applied, the middle one left out, byte for byte as git leaves them.
  assert.equal(await read(r.fp.root, "f.txt"), await read(r.git.root, "f.txt"));
  assert.match(await read(r.fp.root, "f.txt"), /^1\ntwo\n[\s\S]*fifteen = 15\n[\s\S]*\ntwentyeight\n29\n30\n$/);
  const gitRej = await read(r.git.root, "f.txt.rej");
  const fpRej = await read(r.fp.root, "f.txt.rej");
  // The rejected hunk's lines, and git's header line `diff a/f.txt b/f.txt<TAB>(rejected hunks)`.
  assert.equal(hunksOf(fpRej), hunksOf(gitRej));
  assert.equal(fpRej, gitRej);
  assert.equal(fpRej.split("\n")[0], "diff a/f.txt b/f.txt\t(rejected hunks)");
  assert.match(hunksOf(fpRej), /^@@ -12,7 \+12,7 @@\n 12\n 13\n 14\n-15\n\+fifteen\n 16\n 17\n 18\n$/);
  assert.deepEqual(r.fp.tree, r.git.tree);
  // stderr says why, and where the hunk went; the closing line counts it.
  assert.match(r.fp.stderr, /NOT_FOUND: f\.txt: edit 1 \(udiff\): Hunk 2 \(patch line 12\)/);
  assert.match(r.fp.stderr, /rejected: f\.txt: 1 hunk written to f\.txt\.rej\n/);
  assert.match(r.fp.stderr, /Applied 2 edits; wrote 1 file; 1 edit failed \(1 went to f\.txt\.rej\)\.\n$/);
});

test("reject: a JavaScript file, whose hunk headers git follows with the function name: the .rej is git's byte for byte", async () => {
  // Functions unlike each other, so that the drifted one's hunk has no look-alike to match fuzzily.
  const fn = (name: string, k: number) => `function ${name}(a, b) {\n  const ${name}Total = a * ${k};\n  log("${name}", b);\n  return ${name}Total + b;\n}\n`;
  const names = ["one", "two", "three", "four", "five", "six"];
  const before = names.map((n, k) => fn(n, k + 2)).join("\n");
  const after = before.replace('log("two", b);', 'log("TWO", b);').replace('log("five", b);', 'log("FIVE", b);');
  const patch = await gitPatch({ "m.js": [before, after] });
  assert.match(patch, /^@@ -\d+,\d+ \+\d+,\d+ @@ function /m);
  const drifted = before.replace(fn("five", 6), "function five(a, b) {\n  return a;\n}\n");
  const r = await both({ "m.js": drifted }, patch);
  assert.equal(r.git.code, 1, r.git.stderr);
  assert.equal(r.fp.code, 1, r.fp.stderr);
  assert.deepEqual(r.fp.tree, r.git.tree);
  assert.match(await read(r.fp.root, "m.js.rej"), /^diff a\/m\.js b\/m\.js\t\(rejected hunks\)\n@@ -\d+,\d+ \+\d+,\d+ @@ function four\(a, b\) \{\n/);
  assert.match(await read(r.fp.root, "m.js"), /log\("TWO", b\)/);
});

test("reject: a renamed file whose second hunk fails: moved with the first hunk, the .rej beside its new name, as git apply --reject", async () => {
  const t = await makeTree({}, "fuzzpatch-rejrename-");
  await writeFile(path.join(t.root, "a.txt"), BEFORE);
  git(t.root, "init", "-q");
  git(t.root, "add", "-A");
  git(t.root, "commit", "-qm", "before");
  git(t.root, "mv", "a.txt", "b.txt");
  await writeFile(path.join(t.root, "b.txt"), AFTER);
  git(t.root, "add", "-A");
  const patch = git(t.root, "diff", "--cached", "-M");
  assert.match(patch, /rename from a\.txt/);
  const r = await both({ "a.txt": DRIFTED }, patch);
  assert.equal(r.git.code, 1, r.git.stderr);
  assert.equal(r.fp.code, 1, r.fp.stderr);
  assert.deepEqual(r.fp.tree, r.git.tree);
  assert.deepEqual([...r.fp.tree.keys()].sort(), ["b.txt", "b.txt.rej"]);
  assert.match(await read(r.fp.root, "b.txt.rej"), /^diff a\/b\.txt b\/b\.txt\t\(rejected hunks\)\n@@ -12,7 \+12,7 @@\n/);
});

test("reject: without --reject nothing is written and no .rej appears, as git apply without it", async () => {
  const patch = await gitPatch({ "f.txt": [BEFORE, AFTER] });
  const t = await makeTree({ "f.txt": DRIFTED });
  await writeFile(path.join(t.base, "p.diff"), patch);
  const before = await snapshot(t.root);
  const r = await runMain(["apply", path.join(t.base, "p.diff"), "--root", t.root]);
  assert.equal(r.code, 1);
  assert.deepEqual(await snapshot(t.root), before);
});

test("reject: an existing .rej is replaced, as git replaces it; a file whose hunks all apply keeps its old .rej, as git's does", async () => {
  const patch = await gitPatch({ "f.txt": [BEFORE, AFTER], "g.txt": [BEFORE, BEFORE.replace("\n5\n", "\nfive\n")] });
  const r = await both({ "f.txt": DRIFTED, "g.txt": BEFORE, "f.txt.rej": "old rejects\n", "g.txt.rej": "old rejects\n" }, patch);
  assert.equal(r.git.code, 1);
  assert.equal(r.fp.code, 1, r.fp.stderr);
  assert.deepEqual(r.fp.tree, r.git.tree);
  assert.match(await read(r.fp.root, "f.txt.rej"), /^diff a\/f\.txt/);
  assert.equal(await read(r.fp.root, "g.txt.rej"), "old rejects\n");
  assert.match(await read(r.fp.root, "g.txt"), /\nfive\n/);
});

test("reject: a file the patch modifies is missing: reported, no .rej for it, the other file applied, exit 1, as git apply --reject", async () => {
  const patch = await gitPatch({ "a.txt": [BEFORE, BEFORE.replace("\n5\n", "\nfive\n")], "b.txt": [BEFORE, BEFORE.replace("\n5\n", "\nfive\n")] });
  const r = await both({ "a.txt": BEFORE }, patch);
  assert.equal(r.git.code, 1, r.git.stderr);
  assert.equal(r.fp.code, 1);
  assert.deepEqual(r.fp.tree, r.git.tree);
  assert.deepEqual([...r.fp.tree.keys()].sort(), ["a.txt"]);
  assert.match(r.fp.stderr, /NOT_FOUND: b\.txt: .*does not exist/);
  assert.doesNotMatch(r.fp.stderr, /rejected:/);
});

test("reject: --dry-run --reject writes nothing and says what it would reject; --json names the .rej", async () => {
  const patch = await gitPatch({ "f.txt": [BEFORE, AFTER] });
  const t = await makeTree({ "f.txt": DRIFTED });
  await writeFile(path.join(t.base, "p.diff"), patch);
  const before = await snapshot(t.root);
  const dry = await runMain(["apply", path.join(t.base, "p.diff"), "--root", t.root, "--reject", "--dry-run"]);
  assert.equal(dry.code, 1);
  assert.deepEqual(await snapshot(t.root), before);
  assert.match(dry.stderr, /rejected: f\.txt: 1 hunk would be written to f\.txt\.rej\n/);
  assert.match(dry.stderr, /Dry run: 2 edits would apply, 1 edit failed \(1 would go to f\.txt\.rej\); nothing written\.\n$/);

  const json = await runMain(["apply", path.join(t.base, "p.diff"), "--root", t.root, "--reject", "--dry-run", "--json"]);
  assert.deepEqual(await snapshot(t.root), before);
  const report = JSON.parse(json.stdout);
  assert.equal(report.ok, false);
  assert.equal(report.written, false);
  assert.deepEqual(report.files[0].reject, { path: "f.txt.rej", written: false });
  assert.deepEqual(
    report.files[0].edits.map((e: { status: string; rejected?: boolean }) => [e.status, e.rejected ?? false]),
    [
      ["applied", false],
      ["failed", true],
      ["applied", false],
    ],
  );
  assert.equal(report.errors.length, 1);

  const real = JSON.parse((await runMain(["apply", path.join(t.base, "p.diff"), "--root", t.root, "--reject", "--json"])).stdout);
  assert.deepEqual(real.files[0].reject, { path: "f.txt.rej", written: true });
  assert.equal(real.files[0].status, "modified");
  assert.equal(real.files[0].written, true);
});

test("reject: a second run after the file is fixed applies the rejected hunk and reports the others already applied; a third changes nothing", async () => {
  const patch = await gitPatch({ "f.txt": [BEFORE, AFTER] });
  const t = await makeTree({ "f.txt": DRIFTED });
  const p = path.join(t.base, "p.diff");
  await writeFile(p, patch);
  const first = await runMain(["apply", p, "--root", t.root, "--reject"]);
  assert.equal(first.code, 1);
  const rej = await read(t.root, "f.txt.rej");
  // The user puts lines 14-16 back as the patch expects them.
  await writeFile(path.join(t.root, "f.txt"), (await read(t.root, "f.txt")).replace("fourteen = 14\nfifteen = 15\nsixteen = 16\n", "14\n15\n16\n"));
  const second = await runMain(["apply", p, "--root", t.root, "--reject", "--json"]);
  assert.equal(second.code, 0, second.stderr);
  const report = JSON.parse(second.stdout);
  assert.deepEqual(
    report.files[0].edits.map((e: { status: string }) => e.status),
    ["already-applied", "applied", "already-applied"],
  );
  assert.equal(report.files[0].reject, undefined);
  assert.equal(await read(t.root, "f.txt"), AFTER);
  // The old .rej is left as it was (git leaves it too).
  assert.equal(await read(t.root, "f.txt.rej"), rej);
  const third = await runMain(["apply", p, "--root", t.root, "--reject"]);
  assert.equal(third.code, 0, third.stderr);
  // Every hunk standing: the patch as a whole is already applied (one edit).
  assert.match(third.stderr, /Nothing to change: 1 edit already applied\./);
  assert.equal(await read(t.root, "f.txt"), AFTER);
});

const SOURCE = "function add(a, b) {\n  return a + b;\n}\n\nfunction sub(a, b) {\n  return a - b;\n}\n\nfunction mul(a, b) {\n  return a * b;\n}\n";

const block = (search: string, replace: string) => `<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE\n`;

test("reject: SEARCH/REPLACE, one block of three fails: the other two are written, the failed one goes to the .rej under the path, and apply reads it back", async () => {
  const t = await makeTree({ "src/math.js": SOURCE });
  const failing = block("function divide(a, b) {\n  return a / b;\n}", "function divide(a, b) {\n  if (b === 0) throw new Error('zero');\n  return a / b;\n}");
  const response = `src/math.js\n${block("  return a + b;", "  return a + b; // sum")}\n${failing}\n${block("  return a * b;", "  return a * b; // product")}`;
  await writeFile(path.join(t.base, "r.md"), response);
  const r = await runMain(["apply", path.join(t.base, "r.md"), "--root", t.root, "--reject"]);
  assert.equal(r.code, 1, r.stderr);
  const after = await read(t.root, "src/math.js");
  assert.equal(after, SOURCE.replace("a + b;", "a + b; // sum").replace("a * b;", "a * b; // product"));
  const rej = await read(t.root, "src/math.js.rej");
  assert.equal(rej, `src/math.js\n${failing}`);
  assert.match(r.stderr, /NOT_FOUND: src\/math\.js: edit 2 \(search-replace\): The block at line 8 of the response: The SEARCH text was not found/);
  assert.match(r.stderr, /rejected: src\/math\.js: 1 block written to src\/math\.js\.rej\n/);

  // The .rej is a response `apply` reads: once the file has the function, the block applies.
  await writeFile(path.join(t.root, "src/math.js"), `${after}\nfunction divide(a, b) {\n  return a / b;\n}\n`);
  const retry = await runMain(["apply", path.join(t.root, "src/math.js.rej"), "--root", t.root]);
  assert.equal(retry.code, 0, retry.stderr);
  assert.match(await read(t.root, "src/math.js"), /if \(b === 0\) throw/);

  // The whole response again: every block already stands.
  const again = await runMain(["apply", path.join(t.base, "r.md"), "--root", t.root, "--reject"]);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stderr, /Nothing to change: 3 edits already applied\./);
});

test("reject: str_replace edits: a failed one goes to the .rej as a block, one replacing every occurrence as its JSON edit", async () => {
  const t = await makeTree({ "a.js": SOURCE });
  const edits = [
    { path: "a.js", oldString: "return a - b;", newString: "return a - b; // difference" },
    { path: "a.js", oldString: "return a % b;", newString: "return a % b; // rest" },
    { path: "a.js", oldString: "(x, y)", newString: "(p, q)", replaceAll: true },
  ];
  await writeFile(path.join(t.base, "e.json"), JSON.stringify(edits));
  const r = await runMain(["apply", path.join(t.base, "e.json"), "--root", t.root, "--reject", "--json"]);
  assert.equal(r.code, 1);
  assert.equal(await read(t.root, "a.js"), SOURCE.replace("a - b;", "a - b; // difference"));
  const rej = await read(t.root, "a.js.rej");
  assert.equal(rej, `a.js\n${block("return a % b;", "return a % b; // rest")}\n\`\`\`json\n${JSON.stringify({ path: "a.js", oldString: "(x, y)", newString: "(p, q)", replaceAll: true })}\n\`\`\`\n`);
  const report = JSON.parse(r.stdout);
  assert.deepEqual(report.files[0].reject, { path: "a.js.rej", written: true });
  assert.equal(report.failed, 2);
  assert.equal(report.errors.length, 2);
});

test("reject: a V4A chunk that fails goes to the .rej as a SEARCH/REPLACE block; the other chunk is written", async () => {
  const t = await makeTree({ "a.js": SOURCE });
  const patch = "*** Begin Patch\n*** Update File: a.js\n@@\n function add(a, b) {\n-  return a + b;\n+  return b + a;\n }\n@@\n function pow(a, b) {\n-  return a ** b;\n+  return Math.pow(a, b);\n }\n*** End Patch\n";
  const r = await runMain(["apply", patch, "--root", t.root, "--reject"]);
  assert.equal(r.code, 1, r.stderr);
  assert.equal(await read(t.root, "a.js"), SOURCE.replace("a + b", "b + a"));
  assert.equal(await read(t.root, "a.js.rej"), `a.js\n${block("function pow(a, b) {\n  return a ** b;\n}", "function pow(a, b) {\n  return Math.pow(a, b);\n}")}`);
  assert.match(r.stderr, /rejected: a\.js: 1 chunk written to a\.js\.rej/);
});

test("reject: a .rej path that leads out of the root is refused: nothing of that file is written, nothing outside changes", async () => {
  const patch = await gitPatch({ "f.txt": [BEFORE, AFTER] });
  const t = await makeTree({ "f.txt": DRIFTED });
  await symlink(path.join(t.outside, "secret.txt"), path.join(t.root, "f.txt.rej"));
  await writeFile(path.join(t.base, "p.diff"), patch);
  const inside = await snapshot(t.root);
  const outside = await snapshot(t.outside);
  const r = await runMain(["apply", path.join(t.base, "p.diff"), "--root", t.root, "--reject"]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /UNSAFE_PATH: f\.txt: /);
  assert.deepEqual(await snapshot(t.root), inside);
  assert.deepEqual(await snapshot(t.outside), outside);
  assert.equal(await readFile(path.join(t.outside, "secret.txt"), "utf8"), "do not touch\n");
});

test("reject: applyPatch with keepApplied applies the hunks it places, returns the others with their text, and skips those already applied", async () => {
  const patch = await gitPatch({ "f.txt": [BEFORE, AFTER] });
  assert.throws(() => applyPatch(DRIFTED, patch), /Hunk 2/);
  const r = applyPatch(DRIFTED, patch, { keepApplied: true });
  assert.equal(r.content, DRIFTED.replace("\n2\n", "\ntwo\n").replace("\n28\n", "\ntwentyeight\n"));
  assert.deepEqual(
    r.hunks.map((h) => h.index),
    [0, 2],
  );
  assert.deepEqual(
    r.rejected?.map((x) => [x.index, x.error.code, x.text]),
    [[1, "NOT_FOUND", "@@ -12,7 +12,7 @@\n 12\n 13\n 14\n-15\n+fifteen\n 16\n 17\n 18\n"]],
  );
  assert.deepEqual(r.skipped, []);
  // Once lines 14-16 are back, the kept hunks are skipped as already applied and the rejected one applies.
  const fixed = r.content.replace("fourteen = 14\nfifteen = 15\nsixteen = 16\n", "14\n15\n16\n");
  const again = applyPatch(fixed, patch, { keepApplied: true });
  assert.equal(again.content, AFTER);
  assert.deepEqual(
    again.skipped?.map((x) => [x.index, x.note.code]),
    [
      [0, "ALREADY_APPLIED"],
      [2, "ALREADY_APPLIED"],
    ],
  );
  assert.deepEqual(again.rejected, []);
});

test("reject: apply --help documents --reject", async () => {
  const r = await runMain(["apply", "--help"]);
  assert.match(r.stdout.replace(/\s+/g, " "), /--reject apply what applies and write each failed hunk or block to FILE\.rej \(as git apply --reject\); exit 1 if any/);
});

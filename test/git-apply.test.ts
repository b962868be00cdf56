/**
 * git's extended headers and git apply's reports, through the CLI, against
 * real `git apply` on the same patch: each patch is written by git itself
 * (`git diff --cached -M`, with copies found by `-C --find-copies-harder`),
 * applied by git in one copy of the tree and by fuzzpatch in another, and the
 * trees (bytes and permission bits) and exit codes must agree.
 */
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { chmod, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { runMain } from "./helpers/cli-run.ts";
import { makeTree, snapshot } from "./helpers/temp-tree.ts";

type Files = Record<string, string | { text: string; mode: number }>;

async function writeFiles(root: string, files: Files): Promise<void> {
  for (const [rel, f] of Object.entries(files)) {
    const abs = path.join(root, rel);
    await mkdir(path.dirname(abs), { recursive: true });
    await writeFile(abs, typeof f === "string" ? f : f.text);
    await chmod(abs, typeof f === "string" ? 0o644 : f.mode);
  }
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", "-c", "core.fileMode=true", ...args], { cwd, encoding: "utf8" });

/** The patch git writes for `before` -> `after` (null in `after`: the file is deleted). */
async function gitPatch(before: Files, after: Record<string, string | { text: string; mode: number } | null>, diffArgs: string[] = ["-M"]): Promise<string> {
  const t = await makeTree({}, "fuzzpatch-gitpatch-");
  await writeFiles(t.root, before);
  git(t.root, "init", "-q");
  git(t.root, "add", "-A");
  git(t.root, "commit", "-qm", "before", "--allow-empty");
  for (const [rel, f] of Object.entries(after)) {
    if (f === null) await rm(path.join(t.root, rel));
    else await writeFiles(t.root, { [rel]: f });
  }
  git(t.root, "add", "-A");
  return git(t.root, "diff", "--cached", ...diffArgs);
}

/** git apply and fuzzpatch apply on two copies of `before`: their exit codes, outputs and trees. */
async function both(before: Files, patch: string, args: string[] = []) {
  const g = await makeTree({}, "fuzzpatch-git-");
  const f = await makeTree({}, "fuzzpatch-fp-");
  await writeFiles(g.root, before);
  await writeFiles(f.root, before);
  await writeFile(path.join(g.base, "p.diff"), patch);
  await writeFile(path.join(f.base, "p.diff"), patch);
  const gitRun = spawnSync("git", ["apply", ...args, path.join(g.base, "p.diff")], { cwd: g.root, encoding: "utf8" });
  const fp = await runMain(["apply", path.join(f.base, "p.diff"), "--root", f.root, ...args]);
  return { git: { code: gitRun.status, stdout: gitRun.stdout, stderr: gitRun.stderr, tree: await files(g.root) }, fp: { ...fp, tree: await files(f.root) } };
}

/** The files of a tree with their bytes and modes; directories left out (git apply removes the ones a deletion empties, fuzzpatch keeps them). */
async function files(root: string): Promise<Map<string, string>> {
  return new Map([...(await snapshot(root))].filter(([, v]) => v !== "dir"));
}

const SH = "#!/bin/sh\necho hi\n";
const TEXT = "one\ntwo\nthree\nfour\nfive\nsix\n";

const cases: { name: string; before: Files; after: Record<string, string | { text: string; mode: number } | null>; diff?: string[] }[] = [
  { name: "mode only: made executable", before: { "run.sh": SH }, after: { "run.sh": { text: SH, mode: 0o755 } } },
  { name: "mode only: executable bit cleared", before: { "run.sh": { text: SH, mode: 0o755 } }, after: { "run.sh": { text: SH, mode: 0o644 } } },
  { name: "mode and content", before: { "run.sh": SH }, after: { "run.sh": { text: SH.replace("hi", "bye"), mode: 0o755 } } },
  { name: "new executable file", before: { "a.txt": TEXT }, after: { "tool.sh": { text: SH, mode: 0o755 } } },
  { name: "new empty file (headers only)", before: { "a.txt": TEXT }, after: { "empty.txt": "" } },
  { name: "deleted file", before: { "a.txt": TEXT, "gone.txt": "bye\n" }, after: { "gone.txt": null } },
  { name: "rename without a change", before: { "src/a.txt": TEXT }, after: { "src/a.txt": null, "lib/b.txt": TEXT } },
  { name: "rename with a changed line", before: { "a.txt": TEXT }, after: { "a.txt": null, "b.txt": TEXT.replace("four", "FOUR") } },
  { name: "rename of an executable file, with its mode changed", before: { "a.sh": { text: SH, mode: 0o755 } }, after: { "a.sh": null, "b.sh": SH } },
  { name: "copy without a change", before: { "a.txt": TEXT }, after: { "b.txt": TEXT }, diff: ["-C", "--find-copies-harder"] },
  { name: "copy with a changed line", before: { "a.txt": TEXT }, after: { "c.txt": TEXT.replace("two", "TWO") }, diff: ["-C", "--find-copies-harder"] },
  {
    name: "every kind in one patch",
    before: { "del.txt": "x\n", "m.sh": SH, "src/a.txt": TEXT, "keep.txt": TEXT },
    after: { "del.txt": null, "m.sh": { text: SH, mode: 0o755 }, "new.txt": "n\n", "src/a.txt": null, "src/b.txt": TEXT, "keep.txt": TEXT.replace("six", "SIX") },
  },
];

for (const c of cases) {
  test(`git header: ${c.name}: fuzzpatch apply leaves the tree git apply leaves`, async () => {
    const patch = await gitPatch(c.before, c.after, c.diff);
    const r = await both(c.before, patch);
    assert.equal(r.git.code, 0, r.git.stderr);
    assert.equal(r.fp.code, 0, `${r.fp.stderr}\n${patch}`);
    assert.deepEqual(r.fp.tree, r.git.tree, patch);
  });
}

test("git header: --numstat and --summary print what git apply prints, and write nothing", async () => {
  const c = cases.at(-1) as (typeof cases)[number];
  const patch = await gitPatch(c.before, c.after);
  for (const flag of ["--numstat", "--summary"]) {
    const r = await both(c.before, patch, [flag]);
    assert.equal(r.fp.code, 0, r.fp.stderr);
    assert.equal(r.fp.stdout, r.git.stdout, flag);
    assert.equal(r.fp.stderr, "");
    assert.deepEqual(r.fp.tree, r.git.tree);
  }
  const r = await both(c.before, patch, ["--stat", "--numstat", "--summary"]);
  // git's order: the table, the numbers, the summary; nothing after them.
  assert.match(r.fp.stdout, /^ del\.txt[\s\S]* 5 files changed[^\n]*\n0\t1\tdel\.txt\n[\s\S]*\n rename src\/\{a\.txt => b\.txt\} \(100%\)\n$/);
  assert.doesNotMatch(r.fp.stdout, /applied:|Dry run|Nothing/);
});

test("git header: a mode change undone by -R, a rename moved back", async () => {
  const c = cases.find((x) => x.name === "rename of an executable file, with its mode changed") as (typeof cases)[number];
  const patch = await gitPatch(c.before, c.after);
  const after = await both(c.before, patch);
  const t = await makeTree({});
  await writeFiles(t.root, { "b.sh": SH });
  await writeFile(path.join(t.base, "p.diff"), patch);
  const r = await runMain(["apply", path.join(t.base, "p.diff"), "--root", t.root, "-R"]);
  assert.equal(r.code, 0, r.stderr);
  const back = await files(t.root);
  const original = await makeTree({});
  await writeFiles(original.root, c.before);
  assert.deepEqual(back, await files(original.root));
  assert.notDeepEqual(after.fp.tree, back);
});

test("git header: a GIT binary patch is refused by name and nothing is written", async () => {
  const t = await makeTree({}, "fuzzpatch-gitbin-");
  await writeFile(path.join(t.root, "a.txt"), "text\n");
  git(t.root, "init", "-q");
  git(t.root, "add", "-A");
  git(t.root, "commit", "-qm", "before");
  await writeFile(path.join(t.root, "img.bin"), Buffer.from([0, 1, 2, 3, 255, 0, 7]));
  await writeFile(path.join(t.root, "a.txt"), "TEXT\n");
  git(t.root, "add", "-A");
  const patch = git(t.root, "diff", "--cached", "--binary");
  assert.match(patch, /GIT binary patch/);
  const r = await both({ "a.txt": "text\n" }, patch);
  assert.equal(r.git.code, 0);
  assert.equal(r.fp.code, 1);
  assert.match(r.fp.stderr, /^BINARY: The diff at line \d+ changes img\.bin as binary data \(GIT binary patch\); fuzzpatch applies text changes only/m);
  assert.equal(r.fp.tree.get("img.bin"), undefined);
  assert.equal(r.fp.tree.get("a.txt"), `644:${Buffer.from("text\n").toString("base64")}`);
});

test("git header: a symbolic link's mode is refused by name", async () => {
  const patch = "diff --git a/l b/l\nnew file mode 120000\nindex 0000000..2e65efe\n--- /dev/null\n+++ b/l\n@@ -0,0 +1 @@\n+a\n\\ No newline at end of file\n";
  const r = await both({ "a.txt": "x\n" }, patch);
  assert.equal(r.fp.code, 2);
  assert.match(r.fp.stderr, /mode 120000 \(a symbolic link\); fuzzpatch writes regular files only/);
});

test("two paths without rename lines are refused with how to rename", async () => {
  const r = await both({ "a.txt": "x\n" }, "--- a/a.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-x\n+y\n");
  assert.equal(r.fp.code, 2);
  assert.match(r.fp.stderr, /names two files \(--- a\.txt, \+\+\+ b\.txt\) without saying it renames one.*"rename from a\.txt" and "rename to b\.txt"/);
});

const CRLF = "one\r\ntwo\r\nthree\r\n";
const BOM_TEXT = "\uFEFFalpha\nbeta\n";
const CR_TEXT = "one\rtwo\rthree\r";
/** Patches whose `apply --dry-run` diff must itself be a patch (issue 38): every layout and git header in one patch, and each alone. */
const dryRunCases: { name: string; before: Files; after: Record<string, string | { text: string; mode: number } | null> }[] = [
  { name: "CRLF lines", before: { "c.txt": CRLF }, after: { "c.txt": CRLF.replace("two", "TWO") } },
  { name: "a BOM on the changed first line", before: { "b.txt": BOM_TEXT }, after: { "b.txt": BOM_TEXT.replace("alpha", "ALPHA") } },
  { name: "a new file with a BOM", before: { "a.txt": TEXT }, after: { "n.txt": BOM_TEXT } },
  { name: "a deleted CRLF file", before: { "a.txt": TEXT, "c.txt": CRLF }, after: { "c.txt": null } },
  { name: "a new CRLF file", before: { "a.txt": TEXT }, after: { "n.txt": CRLF } },
  { name: "a new CRLF file without a final newline", before: { "a.txt": TEXT }, after: { "n.txt": CRLF.slice(0, -2) } },
  { name: "mixed line endings", before: { "m.txt": "a\r\nb\nc\r\n" }, after: { "m.txt": "a\r\nB\nc\r\n" } },
  // CR-terminated lines (no LF: git reads the file as one line).
  { name: "CR lines", before: { "r.txt": CR_TEXT }, after: { "r.txt": CR_TEXT.replace("two", "TWO") } },
  { name: "CR lines without a final CR, a line added", before: { "r.txt": CR_TEXT.slice(0, -1) }, after: { "r.txt": `${CR_TEXT}four` } },
  { name: "a deleted file of CR lines", before: { "a.txt": TEXT, "r.txt": CR_TEXT }, after: { "r.txt": null } },
  {
    name: "a mode-only section followed by plain ones, a rename, a new and a deleted file",
    before: { "a.sh": SH, "b.txt": BOM_TEXT, "c.txt": CRLF, "del.txt": "x\n", "old.txt": TEXT },
    after: {
      "a.sh": { text: SH, mode: 0o755 },
      "b.txt": BOM_TEXT.replace("beta", "BETA"),
      "c.txt": CRLF.replace("three", "THREE"),
      "del.txt": null,
      "old.txt": null,
      "renamed.txt": TEXT.replace("two", "TWO"),
      "z.txt": "new\n",
    },
  },
];

for (const c of dryRunCases) {
  test(`apply --dry-run prints a patch: ${c.name}: git apply and fuzzpatch apply of it leave the tree the real apply leaves`, async () => {
    const patch = await gitPatch(c.before, c.after);
    const real = await both(c.before, patch);
    assert.equal(real.fp.code, 0, real.fp.stderr);
    assert.deepEqual(real.fp.tree, real.git.tree);
    const t = await makeTree({});
    await writeFiles(t.root, c.before);
    await writeFile(path.join(t.base, "p.diff"), patch);
    const dry = await runMain(["apply", "--dry-run", path.join(t.base, "p.diff"), "--root", t.root]);
    assert.equal(dry.code, 0, dry.stderr);
    // The report on stderr, none of it in the patch.
    assert.doesNotMatch(dry.stdout, /^(applied|warning|note|Dry run)/m);
    assert.match(dry.stderr, /^applied: [\s\S]*\nDry run: \d+ edits? would apply; nothing written\.\n$/);
    const again = await both(c.before, dry.stdout);
    assert.equal(again.git.code, 0, `${again.git.stderr}\n${dry.stdout}`);
    assert.deepEqual(again.git.tree, real.git.tree, dry.stdout);
    assert.equal(again.fp.code, 0, again.fp.stderr);
    assert.deepEqual(again.fp.tree, real.git.tree, dry.stdout);
  });
}

test("git header: --stat, --numstat and --summary read the patch alone, as git apply does: a patch that would not apply gets the same tables", async () => {
  const c = cases.at(-1) as (typeof cases)[number];
  const patch = await gitPatch(c.before, c.after);
  // A tree the patch does not apply to: every file's text differs, and the file to create already exists.
  const other: Files = { "del.txt": "y\n", "m.sh": "#!/bin/sh\n", "src/a.txt": "other\n", "keep.txt": "other\n", "new.txt": "there\n" };
  // Bars scaled down and a name past 50 columns shortened, as git apply --stat does.
  const long = "a/very/long/directory/name/that/goes/on/and/on/for/ever/file.txt";
  const lines = (n: number, w: string) => Array.from({ length: n }, (_, i) => `${w} ${i}\n`).join("");
  const wide = await gitPatch({ [long]: lines(30, "x"), "s.txt": TEXT }, { [long]: lines(30, "x") + lines(120, "y"), "s.txt": TEXT.replace("one", "ONE") });
  for (const [p, flags] of [[patch, ["--stat"]], [patch, ["--numstat"]], [patch, ["--summary"]], [patch, ["--stat", "--numstat", "--summary"]], [patch, ["--numstat", "-R"]], [wide, ["--stat"]]] as const) {
    const r = await both(other, p, [...flags]);
    assert.equal(r.git.code, 0, r.git.stderr);
    assert.equal(r.fp.code, 0, `${flags}: ${r.fp.stderr}`);
    assert.equal(r.fp.stdout, r.git.stdout, flags.join(" "));
    assert.equal(r.fp.stderr, "");
    assert.deepEqual(r.fp.tree, r.git.tree);
  }
});

test("a new file's CRLF lines: kept from a git diff (its headers LF), read as breaks from a response sent all in CRLF; sent again, already applied", async () => {
  const t = await makeTree({});
  const gitStyle = "--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,2 @@\n+one\r\n+two\r\n";
  const transport = gitStyle.replaceAll("\r\n", "\n").replace("n.txt", "m.txt").replaceAll("\n", "\r\n");
  await writeFile(path.join(t.base, "git.diff"), gitStyle);
  await writeFile(path.join(t.base, "crlf.diff"), transport);
  for (const name of ["git.diff", "crlf.diff"]) assert.equal((await runMain(["apply", path.join(t.base, name), "--root", t.root])).code, 0);
  assert.equal(await readFile(path.join(t.root, "n.txt"), "utf8"), "one\r\ntwo\r\n");
  assert.equal(await readFile(path.join(t.root, "m.txt"), "utf8"), "one\ntwo\n");
  const tree = await snapshot(t.root);
  const again = await runMain(["apply", path.join(t.base, "git.diff"), "--root", t.root]);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stderr, /already applied/);
  assert.deepEqual(await snapshot(t.root), tree);
});

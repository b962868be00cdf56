/**
 * The file layer as it runs where the system has no `/proc` (macOS, a Linux
 * without procfs): fd-place.ts then cannot ask the kernel where a descriptor
 * is and falls back to real paths and (device, inode) comparisons, and the
 * writes go by path. This file makes `/proc/self/fd` unreadable for its own
 * process (node --test runs each test file in its own process) and checks
 * that the ordinary work is unchanged and that the races of fs-races.test.ts
 * end as docs/security.md says they may: no file, temporary file or lock
 * file outside the root or left inside it, outside content never served or
 * written; only an empty directory made through a swapped one may be left
 * outside.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import { lstat, open, readFile, stat, symlink } from "node:fs/promises";
import { syncBuiltinESMExports } from "node:module";
import path from "node:path";
import { before, test } from "node:test";
import { pathOfOpen } from "../src/fs/fd-place.ts";
import { applyEdits } from "../src/node.ts";
import { runTool } from "../src/tools.ts";
import { directorySwapRace, fifoSwapRace, fileSwapRace } from "./helpers/race-scenarios.ts";
import { failureMidwayRestores } from "./helpers/transaction-scenarios.ts";
import { makeTree, snapshot } from "./helpers/temp-tree.ts";

before(() => {
  // `readlink` of /proc/self/fd/N is how fd-place.ts finds /proc; named imports of node:fs follow the patch once synced.
  const readlink = fs.readlinkSync;
  const hidden = ((p: fs.PathLike, ...rest: unknown[]) => {
    if (String(p).startsWith("/proc/")) throw Object.assign(new Error(`ENOENT: no such file or directory, readlink '${String(p)}'`), { code: "ENOENT" });
    return (readlink as (...a: unknown[]) => unknown)(p, ...rest);
  }) as typeof fs.readlinkSync;
  fs.readlinkSync = hidden;
  syncBuiltinESMExports();
});

test("the fallback is in effect: the kernel is not asked where a descriptor is", async () => {
  const t = await makeTree({ "a.txt": "a\n" });
  const handle = await open(path.join(t.root, "a.txt"), "r");
  try {
    assert.equal(await pathOfOpen(handle), undefined);
  } finally {
    await handle.close();
  }
});

test("edits, new files in new directories and deletions are written as with /proc, leaving no temp or lock file", async () => {
  const t = await makeTree({ "src/a.txt": "one\ntwo\nthree\n", "gone.txt": "bye\n" });
  await fs.promises.chmod(path.join(t.root, "src/a.txt"), 0o640);
  const patch = ["--- a/src/a.txt", "+++ b/src/a.txt", "@@ @@", " one", "-two", "+TWO", " three", "--- a/gone.txt", "+++ /dev/null", "@@ -1 +0,0 @@", "-bye", "--- /dev/null", "+++ b/deep/er/new.txt", "@@ -0,0 +1 @@", "+new", ""].join("\n");
  const r = await applyEdits(t.root, patch);
  assert.equal(r.ok, true, JSON.stringify(r.errors));
  assert.equal(await readFile(path.join(t.root, "src/a.txt"), "utf8"), "one\nTWO\nthree\n");
  assert.equal((await stat(path.join(t.root, "src/a.txt"))).mode & 0o777, 0o640);
  assert.equal(await readFile(path.join(t.root, "deep/er/new.txt"), "utf8"), "new\n");
  await assert.rejects(lstat(path.join(t.root, "gone.txt")), { code: "ENOENT" });
  const left = [...(await snapshot(t.root)).keys()].filter((k) => k.includes(".fuzzpatch-"));
  assert.deepEqual(left, []);
});

test("symlinks out of the root are refused, for reading and writing, and nothing outside changes", async () => {
  const t = await makeTree({ "keep.txt": "keep\n" });
  await symlink(t.outside, path.join(t.root, "out"));
  await symlink(path.join(t.outside, "secret.txt"), path.join(t.root, "secret-link"));
  const outsideBefore = await snapshot(t.outside);
  const edits = [
    { path: "out/secret.txt", oldString: "do not touch", newString: "touched" },
    { path: "secret-link", oldString: "do not touch", newString: "touched" },
    { path: "out/new.txt", oldString: "", newString: "new\n" },
  ];
  for (const edit of edits) {
    const r = await applyEdits(t.root, [edit]);
    assert.equal(r.ok, false, edit.path);
    assert.equal(r.files[0]?.error?.code ?? r.errors[0]?.code, "UNSAFE_PATH", edit.path);
  }
  const read = await runTool("read_file", { path: "secret-link" }, { root: t.root });
  assert.equal(read.isError, true);
  assert.doesNotMatch(read.text, /do not touch/);
  assert.deepEqual(await snapshot(t.outside), outsideBefore);
});

test("a failure midway restores written, created and deleted files", failureMidwayRestores);

test("race, item 1 without /proc: a directory swapped for a symlink out of the root: no file lands outside, none is left inside", { timeout: 60_000 }, (t) => directorySwapRace(t, { withoutProc: true }));

test("race, item 2 without /proc: a file swapped for a symlink out of the root is never served or written", { timeout: 60_000 }, (t) => fileSwapRace(t));

test("race, item 3 without /proc: a file swapped for a FIFO never hangs a call", { timeout: 60_000 }, (t) => fifoSwapRace(t));

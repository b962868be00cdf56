/**
 * The undo journal (src/fs/journal*.ts), `fuzzpatch undo` / `log` /
 * `report` / `apply --replay`, `undoWrite` and the `undo_edit` tool. Every
 * journal here is a temporary directory (journal-sandbox.ts sets the
 * process's; some tests pass their own), never the user's state directory.
 */
import assert from "node:assert/strict";
import { chmod, lstat, mkdir, readdir, readFile, stat, symlink, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { EditError } from "../src/errors.ts";
import { applyDelta, DELTA_FROM, encodeDelta, MAX_DEPTH, parseDelta } from "../src/fs/journal-delta.ts";
import { parseEntry } from "../src/fs/journal-entry.ts";
import { HASH_WHILE_WRITING_FROM, hashOnce, hashTextOnce, hashWhileWaiting, knownHashOf, rememberTextBytes } from "../src/fs/known-hashes.ts";
import { hashBytes } from "../src/fs/read-file.ts";
import { applyEdits, undoLast, undoWrite } from "../src/node.ts";
import { defaultJournalDir } from "../src/fs/journal-dir.ts";
import { blobsOf, listEntryIds, pruneJournal } from "../src/fs/journal-store.ts";
import { FileCache } from "../src/fs/file-cache.ts";
import { makeBundle, readBundle, replayBundle } from "../src/fs/report-bundle.ts";
import type { WriteToolOutput } from "../src/tools/result-data.ts";
import { runTool } from "../src/tools.ts";
import { runMain } from "./helpers/cli-run.ts";
import { TEST_JOURNAL_DIR } from "./helpers/journal-sandbox.ts";
import { makeTree, read, snapshot } from "./helpers/temp-tree.ts";

const lines = (from: number, to: number, word = "line") => `${Array.from({ length: to - from + 1 }, (_, k) => `${word} ${from + k}`).join("\n")}\n`;

/** A journal of the test's own, beside its tree. */
const journalOf = (t: { base: string }) => ({ dir: path.join(t.base, "journal") });

async function rejected(p: Promise<unknown>, code: string, message?: RegExp): Promise<Error> {
  let caught: unknown;
  await p.catch((e: unknown) => {
    caught = e;
  });
  assert.ok(caught instanceof Error, `expected ${code}, nothing was thrown`);
  assert.equal((caught as { code?: string }).code, code, (caught as Error).message);
  if (message) assert.match((caught as Error).message, message);
  return caught as Error;
}

test("the journal's place: FUZZPATCH_JOURNAL_DIR, else XDG_STATE_HOME (absolute only), else the platform's state directory", () => {
  assert.equal(defaultJournalDir({ FUZZPATCH_JOURNAL_DIR: "/j", XDG_STATE_HOME: "/x" }, "linux"), "/j");
  assert.equal(defaultJournalDir({ XDG_STATE_HOME: "/x", HOME: "/h" }, "linux"), "/x/fuzzpatch/journal");
  assert.equal(defaultJournalDir({ XDG_STATE_HOME: "relative", HOME: "/h" }, "linux"), "/h/.local/state/fuzzpatch/journal");
  assert.equal(defaultJournalDir({ HOME: "/h" }, "darwin"), "/h/Library/Application Support/fuzzpatch/journal");
  // The test processes themselves journal into a temporary directory.
  assert.equal(defaultJournalDir(), TEST_JOURNAL_DIR);
  assert.ok(!TEST_JOURNAL_DIR.startsWith(path.join(process.env.HOME ?? "/nonexistent", ".local")));
});

test("undo after str_replace: bytes and mode restored, the journal private (0700 / 0600), and the undo itself recorded", async () => {
  const t = await makeTree({ "a.txt": "one\ntwo\nthree\n" });
  await chmod(path.join(t.root, "a.txt"), 0o640);
  const before = await snapshot(t.root);
  const journal = journalOf(t);
  const r = await applyEdits(t.root, [{ path: "a.txt", oldString: "two", newString: "TWO" }], { journal });
  assert.ok(r.written && r.journal?.id, JSON.stringify(r.journal));
  assert.equal(await read(t.root, "a.txt"), "one\nTWO\nthree\n");
  for (const d of ["", "blobs", "entries"]) assert.equal((await stat(path.join(journal.dir, d))).mode & 0o777, 0o700, d);
  for (const d of ["blobs", "entries"]) for (const f of await readdir(path.join(journal.dir, d))) assert.equal((await stat(path.join(journal.dir, d, f))).mode & 0o777, 0o600, f);
  const undone = await undoLast({ root: t.root, path: "a.txt", journal });
  assert.equal(undone.id, r.journal.id);
  assert.deepEqual(undone.files.map((f) => [f.path, f.action]), [["a.txt", "restored"]]);
  assert.deepEqual(await snapshot(t.root), before);
  assert.ok(undone.journal?.id);
  // Undo is a stack: nothing left to undo under this root; undoing the undo redoes the write.
  await rejected(undoLast({ root: t.root, journal }), "NOT_FOUND");
  await undoWrite({ id: undone.journal.id, journal });
  assert.equal(await read(t.root, "a.txt"), "one\nTWO\nthree\n");
});

test("history versions are stored once each as blobs, long or short, whether or not an earlier write stored them; each byte string hashed once", async () => {
  const t = await makeTree({ "a.txt": lines(1, 20_000) });
  const journal = journalOf(t);
  // A long version (remembered by value) and a short one; the long one again in a second write, as the MCP server sends it.
  const long = lines(1, 20_001);
  const short = "line 1\n";
  const ids: string[] = [];
  for (const [from, to] of [["line 5\n", "line 5 edited\n"], ["line 6\n", "line 6 edited\n"]] as const) {
    const r = await applyEdits(t.root, [{ path: "a.txt", oldString: from, newString: to }], { journal, history: { "a.txt": [long, short] } });
    assert.ok(r.written && r.journal?.id, JSON.stringify(r.journal));
    ids.push(r.journal.id);
  }
  for (const id of ids) {
    const entry = parseEntry(id, await readFile(path.join(journal.dir, "entries", `${id}.json`), "utf8"));
    const history = (entry.options?.history as Record<string, string[]> | undefined)?.["a.txt"] ?? [];
    assert.deepEqual(history, [hashBytes(long), hashBytes(short)]);
    for (const [k, text] of [long, short].entries()) assert.equal(await readFile(path.join(journal.dir, "blobs", history[k] as string), "utf8"), text);
  }
  // The known hashes are the same sha256, for a buffer, for a text remembered by value and for one that is not.
  const bytes = Buffer.from(long);
  assert.equal(hashOnce(bytes), hashBytes(bytes));
  assert.equal(hashOnce(bytes), hashBytes(long));
  for (const text of [long, short, `${long}x`, long]) assert.equal(hashTextOnce(text), hashBytes(text));
  // Hashed a slice at a time while a write waits: the same sha256, found by hashOnce.
  const sliced = Buffer.from(lines(1, 200_000));
  assert.ok(sliced.length > HASH_WHILE_WRITING_FROM);
  await hashWhileWaiting(sliced);
  assert.equal(knownHashOf(sliced), hashBytes(Buffer.from(sliced)));
  // A text known as a file's UTF-8 (the file cache's entry) takes those bytes' hash.
  const other = `${long}y`;
  const otherBytes = Buffer.from(other);
  rememberTextBytes(other, () => hashOnce(otherBytes));
  assert.equal(hashTextOnce(other), hashBytes(otherBytes));
  // Found by the same string, and by an equal copy of it.
  assert.equal(hashTextOnce(other.split("").join("")), hashBytes(otherBytes));
});

test("undo twice goes two writes back; an id prefix names a write", async () => {
  const t = await makeTree({ "a.txt": "v1\n" });
  const journal = journalOf(t);
  const first = await applyEdits(t.root, [{ path: "a.txt", oldString: "v1", newString: "v2" }], { journal });
  await applyEdits(t.root, [{ path: "a.txt", oldString: "v2", newString: "v3" }], { journal });
  await undoLast({ root: t.root, journal });
  assert.equal(await read(t.root, "a.txt"), "v2\n");
  const second = await undoLast({ root: t.root, journal });
  assert.equal(second.id, first.journal?.id);
  assert.equal(await read(t.root, "a.txt"), "v1\n");
  await rejected(undoWrite({ id: "zzzz", journal }), "NOT_FOUND");
  await rejected(undoWrite({ id: "../../etc/passwd", journal }), "NOT_FOUND");
});

const RENAME_AND_MODE = [
  "diff --git a/old.txt b/new.txt",
  "similarity index 80%",
  "rename from old.txt",
  "rename to new.txt",
  "--- a/old.txt",
  "+++ b/new.txt",
  "@@ -1,3 +1,3 @@",
  " one",
  "-two",
  "+TWO",
  " three",
  "diff --git a/run.sh b/run.sh",
  "old mode 100644",
  "new mode 100755",
  "--- a/run.sh",
  "+++ b/run.sh",
  "@@ -1 +1 @@",
  "-echo hi",
  "+echo hello",
  "",
].join("\n");

const V4A = [
  "*** Begin Patch",
  "*** Add File: made/new.txt",
  "+fresh",
  "*** Delete File: gone.txt",
  "*** Update File: keep.txt",
  "@@",
  " keep",
  "-old",
  "+new",
  "*** End Patch",
  "",
].join("\n");

const cliCases: { name: string; files: Record<string, string>; patch: string; args?: string[]; code?: number; check: (root: string) => Promise<void> }[] = [
  {
    name: "a multi-file git diff with a rename and a mode change",
    files: { "old.txt": "one\ntwo\nthree\n", "run.sh": "echo hi\n" },
    patch: RENAME_AND_MODE,
    check: async (root) => {
      assert.equal(await read(root, "new.txt"), "one\nTWO\nthree\n");
      assert.equal((await stat(path.join(root, "run.sh"))).mode & 0o111, 0o111);
    },
  },
  {
    name: "a V4A patch that adds and deletes files",
    files: { "gone.txt": "bye\n", "keep.txt": "keep\nold\n" },
    patch: V4A,
    check: async (root) => {
      assert.equal(await read(root, "made/new.txt"), "fresh\n");
      await assert.rejects(stat(path.join(root, "gone.txt")));
    },
  },
  {
    name: "a --reject run (what applied, and the .rej written beside it)",
    files: { "f.txt": lines(1, 30) },
    patch: "--- a/f.txt\n+++ b/f.txt\n@@ -2,3 +2,3 @@\n line 1\n-line 2\n+line two\n line 3\n@@ -20,3 +20,3 @@\n no such\n-line\n+here\n",
    args: ["--reject"],
    code: 1,
    check: async (root) => {
      assert.match(await read(root, "f.txt"), /line two/);
      assert.match(await read(root, "f.txt.rej"), /no such/);
    },
  },
];

for (const c of cliCases) {
  test(`fuzzpatch undo after ${c.name}: every file as it was (bytes, modes, created files and directories gone, deleted files back)`, async () => {
    const t = await makeTree(c.files);
    const before = await snapshot(t.root);
    await writeFile(path.join(t.base, "p.diff"), c.patch);
    const applied = await runMain(["apply", path.join(t.base, "p.diff"), "--root", t.root, ...(c.args ?? [])]);
    assert.equal(applied.code, c.code ?? 0, applied.stderr);
    await c.check(t.root);
    const undo = await runMain(["undo", "--last", "--root", t.root]);
    assert.equal(undo.code, 0, undo.stderr);
    assert.match(undo.stdout, /^Undid write \S+ \(\d+ files? under /m);
    const after = await snapshot(t.root);
    // A directory the write made stays (empty): the undo restores files.
    for (const [k, v] of after) if (v === "dir" && !before.has(k)) after.delete(k);
    assert.deepEqual(after, before);
  });
}

test("undo is refused when a file changed since (the message shows how), and --merge takes only the write's change out", async () => {
  const t = await makeTree({ "f.txt": lines(1, 20) });
  const apply = await runMain(["replace", path.join(t.root, "f.txt"), "--old", "line 3", "--new", "line THREE"]);
  assert.equal(apply.code, 0, apply.stderr);
  // Another writer changes a line far from the edit.
  const changed = (await read(t.root, "f.txt")).replace("line 17", "line SEVENTEEN");
  await writeFile(path.join(t.root, "f.txt"), changed);
  const refused = await runMain(["undo", "--root", t.root]);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /^STALE: Cannot undo write \S+: a file it wrote has changed since/);
  assert.match(refused.stderr, /-line 17\n\+line SEVENTEEN/);
  assert.match(refused.stderr, /--merge/);
  assert.equal(await read(t.root, "f.txt"), changed, "nothing written");
  const merged = await runMain(["undo", "--root", t.root, "--merge"]);
  assert.equal(merged.code, 0, merged.stderr);
  assert.match(merged.stdout, /^merged: f\.txt$/m);
  assert.equal(await read(t.root, "f.txt"), lines(1, 20).replace("line 17", "line SEVENTEEN"));
});

test("--merge refuses on a conflict: the later change overlaps the write's", async () => {
  const t = await makeTree({ "f.txt": lines(1, 10) });
  const journal = journalOf(t);
  await applyEdits(t.root, [{ path: "f.txt", oldString: "line 5", newString: "line FIVE" }], { journal });
  const changed = (await read(t.root, "f.txt")).replace("line FIVE", "line 5 again");
  await writeFile(path.join(t.root, "f.txt"), changed);
  await rejected(undoLast({ root: t.root, journal, merge: true }), "CONFLICT", /line 5 again/);
  assert.equal(await read(t.root, "f.txt"), changed);
  // A file the write created and someone changed since is never deleted, merge or not.
  await applyEdits(t.root, [{ path: "n.txt", oldString: "", newString: "new\n" }], { journal });
  await writeFile(path.join(t.root, "n.txt"), "new\nmine\n");
  await rejected(undoLast({ root: t.root, path: "n.txt", journal, merge: true }), "CONFLICT", /created by that write and changed since/);
  assert.equal(await read(t.root, "n.txt"), "new\nmine\n");
});

test("an undo never writes from a damaged journal: a stored version whose sha256 does not match its name refuses the undo", async () => {
  const t = await makeTree({ "a.txt": "secret one\n" });
  const journal = journalOf(t);
  const r = await applyEdits(t.root, [{ path: "a.txt", oldString: "one", newString: "two" }], { journal });
  const beforeHash = (JSON.parse(await readFile(path.join(journal.dir, "entries", `${r.journal?.id}.json`), "utf8")) as { files: { before: string }[] }).files[0]?.before as string;
  await writeFile(path.join(journal.dir, "blobs", beforeHash), "tampered\n");
  await rejected(undoLast({ root: t.root, journal }), "IO", /damaged/);
  assert.equal(await read(t.root, "a.txt"), "secret two\n");
  // A damaged entry (not JSON) is refused the same way.
  await writeFile(path.join(journal.dir, "entries", `${r.journal?.id}.json`), "{");
  await rejected(undoWrite({ id: r.journal?.id as string, journal }), "IO", /damaged/);
});

test("a journal that cannot be written never blocks the edit: a symlinked journal directory gives a warning, and nothing is written through it", async () => {
  const t = await makeTree({ "a.txt": "x\n" });
  const elsewhere = path.join(t.base, "elsewhere");
  await mkdir(elsewhere);
  const dir = path.join(t.base, "linked");
  await symlink(elsewhere, dir);
  const r = await applyEdits(t.root, [{ path: "a.txt", oldString: "x", newString: "y" }], { journal: { dir } });
  assert.ok(r.ok && r.written);
  assert.equal(await read(t.root, "a.txt"), "y\n");
  assert.equal(r.journal?.id, undefined);
  assert.match(r.journal?.warning ?? "", /symbolic link.*cannot be undone/);
  assert.deepEqual(await readdir(elsewhere), []);
  // The CLI says so on stderr and still exits 0.
  const cli = await runMain(["replace", path.join(t.root, "a.txt"), "--old", "y", "--new", "z"]);
  assert.equal(cli.code, 0);
});

test("FUZZPATCH_JOURNAL=0 and --no-journal record nothing", async () => {
  const t = await makeTree({ "a.txt": "x\n" });
  const before = listEntryIds(TEST_JOURNAL_DIR).length;
  const noJournal = await runMain(["replace", path.join(t.root, "a.txt"), "--old", "x", "--new", "y", "--no-journal"]);
  assert.equal(noJournal.code, 0, noJournal.stderr);
  process.env.FUZZPATCH_JOURNAL = "0";
  try {
    const r = await applyEdits(t.root, [{ path: "a.txt", oldString: "y", newString: "z" }], { journal: true });
    assert.equal(r.journal, undefined);
    const tool = await runTool("edit_file", { path: "a.txt", edits: [{ oldString: "z", newString: "w" }] }, { root: t.root });
    assert.equal(tool.isError, false, tool.text);
  } finally {
    delete process.env.FUZZPATCH_JOURNAL;
  }
  assert.equal(listEntryIds(TEST_JOURNAL_DIR).length, before);
});

test("the journal is bounded: the oldest writes are dropped past the count, the size and the age, with the versions only they used", async () => {
  const t = await makeTree({ "a.txt": "0\n" });
  const dir = path.join(t.base, "journal");
  const ids: string[] = [];
  for (let k = 1; k <= 6; k++) {
    const r = await applyEdits(t.root, [{ path: "a.txt", oldString: `${k - 1}`, newString: `${k}` }], { journal: { dir, maxEntries: 3 } });
    ids.push(r.journal?.id as string);
  }
  assert.deepEqual(listEntryIds(dir), ids.slice(3));
  // The versions left are those of the entries left (each write's before and after, input and diff).
  const blobsLeft = async () => (await readdir(path.join(dir, "blobs"))).length;
  assert.ok((await blobsLeft()) <= 3 * 4, String(await blobsLeft()));
  await rejected(undoWrite({ id: ids[0] as string, journal: { dir } }), "NOT_FOUND");
  // Size: a bound of 40 kB keeps the last two of writes of 3 kB lines (each stores the line before and after, the input and the diff: ~15 kB new).
  const big = await makeTree({ "b.txt": "start\n" });
  const sized = path.join(big.base, "journal");
  for (let k = 1; k <= 4; k++) {
    await applyEdits(big.root, [{ path: "b.txt", oldString: (await read(big.root, "b.txt")).trimEnd(), newString: `${k}`.repeat(3000) }], { journal: { dir: sized, maxBytes: 40_000 } });
  }
  let total = 0;
  for (const d of ["blobs", "entries"]) for (const f of await readdir(path.join(sized, d))) total += (await lstat(path.join(sized, d, f))).size;
  assert.ok(total <= 40_000, `${total} bytes kept`);
  assert.equal(listEntryIds(sized).length, 2);
  // A write larger than the whole bound is not recorded (a warning), the edit stands.
  const huge = await applyEdits(big.root, [{ path: "b.txt", oldString: "4".repeat(3000), newString: "5".repeat(20_000) }], { journal: { dir: sized, maxBytes: 40_000 } });
  assert.ok(huge.written);
  assert.match(huge.journal?.warning ?? "", /larger than the undo journal's bound/);
  // Age: thirty-one days later everything is dropped.
  await pruneJournal(dir, { maxEntries: 1000, maxBytes: 1e9, maxAgeMs: 30 * 86_400_000 }, Date.now() + 31 * 86_400_000);
  assert.deepEqual(listEntryIds(dir), []);
  assert.equal(await blobsLeft(), 0);
});

test("fuzzpatch log lists the writes newest first, with what each changed and which undo took it back (--json)", async () => {
  const t = await makeTree({ "a.txt": "a\n", "gone.txt": "g\n" });
  await writeFile(path.join(t.base, "p.diff"), "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+b\n--- a/gone.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-g\n");
  assert.equal((await runMain(["apply", path.join(t.base, "p.diff"), "--root", t.root])).code, 0);
  const undo = await runMain(["undo", "--root", t.root, "--json"]);
  const undid = JSON.parse(undo.stdout) as { ok: boolean; id: string; journal: { id: string } };
  assert.ok(undid.ok);
  const log = await runMain(["log", "--root", t.root, "--json"]);
  const listed = JSON.parse(log.stdout) as { id: string; source: string; undoes?: string; undoneBy?: string; files: { path: string; kind: string }[] }[];
  assert.deepEqual(listed.map((e) => [e.id, e.source, e.undoes, e.undoneBy]), [
    [undid.journal.id, "cli undo", undid.id, undefined],
    [undid.id, "cli apply", undefined, undid.journal.id],
  ]);
  assert.deepEqual(listed[1]?.files, [{ path: "a.txt", kind: "write" }, { path: "gone.txt", kind: "delete" }]);
  const text = await runMain(["log", "--root", t.root]);
  assert.match(text.stdout, new RegExp(`${undid.id} .* cli apply .*\\(undone by ${undid.journal.id}\\)\\n    modified a\\.txt, deleted gone\\.txt`));
});

test("runTool undo_edit: the last write to a file, or by id; never a write outside the tool's roots", async () => {
  const t = await makeTree({ "a.js": "let x = 1;\n", "b.js": "let y = 1;\n" });
  const other = await makeTree({ "c.js": "let z = 1;\n" });
  assert.equal((await runTool("edit_file", { path: "a.js", edits: [{ oldString: "x = 1", newString: "x = 2" }] }, { root: t.root })).isError, false);
  assert.equal((await runTool("edit_file", { path: "b.js", edits: [{ oldString: "y = 1", newString: "y = 2" }] }, { root: t.root })).isError, false);
  const undo = await runTool("undo_edit", { path: "a.js" }, { root: t.root });
  assert.equal(undo.isError, false, undo.text);
  assert.match(undo.text, /^Undid write \S+:\nrestored: a\.js\n/);
  assert.equal(await read(t.root, "a.js"), "let x = 1;\n");
  assert.equal(await read(t.root, "b.js"), "let y = 2;\n");
  assert.deepEqual((undo.structured as WriteToolOutput | undefined)?.files.map((f) => [f.path, f.status, f.written]), [["a.js", "modified", true]]);
  // Another project's write, named by its id, is refused here.
  const elsewhere = await applyEdits(other.root, [{ path: "c.js", oldString: "z = 1", newString: "z = 2" }], { journal: true });
  const refused = await runTool("undo_edit", { id: elsewhere.journal?.id }, { root: t.root });
  assert.equal(refused.isError, true);
  assert.match(refused.text, /^UNSAFE_PATH: .*outside the roots/);
  assert.equal(await read(other.root, "c.js"), "let z = 2;\n");
  // Without path or id: the last write under the root (b.js).
  const last = await runTool("undo_edit", {}, { root: t.root });
  assert.equal(last.isError, false, last.text);
  assert.equal(await read(t.root, "b.js"), "let y = 1;\n");
  // A server without a journal offers no undo.
  assert.match((await runTool("undo_edit", { path: "a.js" }, { root: t.root, journal: false })).text, /^INVALID_INPUT: undo_edit is not available/);
});

test("report and --replay: the bundle reproduces the write byte for byte, redacted or not; a bundle that no longer matches is reported", async () => {
  const body = lines(1, 80, "secret");
  const t = await makeTree({ "src/app.txt": body, "old.txt": "one\ntwo\nthree\n", "run.sh": "echo hi\n" });
  const patch = `--- a/src/app.txt\n+++ b/src/app.txt\n@@ @@\n secret 39\n-secret 40\n+public 40\n secret 41\n${RENAME_AND_MODE}`;
  await writeFile(path.join(t.base, "p.diff"), patch);
  assert.equal((await runMain(["apply", path.join(t.base, "p.diff"), "--root", t.root])).code, 0);
  for (const redact of [false, true]) {
    const out = path.join(t.base, `bundle-${redact}.json`);
    const report = await runMain(["report", "--root", t.root, "-o", out, ...(redact ? ["--redact"] : [])]);
    assert.equal(report.code, 0, report.stderr);
    const bundle = await readBundle(out);
    assert.equal(bundle.redacted, redact);
    const app = bundle.files.find((f) => f.path === "src/app.txt")?.text ?? "";
    // Redacted: the lines far from the edit are placeholders, those near it and the input's are kept.
    assert.equal(app.includes("secret 1\n"), !redact);
    assert.match(app, /secret 37\n/);
    if (redact) assert.match(app, /^⟪redacted 1⟫\n/);
    const replay = await runMain(["apply", "--replay", out]);
    assert.equal(replay.code, 0, replay.stdout + replay.stderr);
    assert.match(replay.stdout, /^reproduced: write \S+ .* gives the same result byte for byte/);
  }
  // The directory form replays the same.
  const dirOut = path.join(t.base, "bundle-dir");
  assert.equal((await runMain(["report", "--root", t.root, "--dir", "-o", dirOut])).code, 0);
  assert.equal(await readFile(path.join(dirOut, "before", "src", "app.txt"), "utf8"), body);
  assert.equal((await runMain(["apply", "--replay", dirOut])).code, 0);
  // A bundle whose recorded result differs from what the input gives now is reported, exit 1.
  const bundle = await makeBundle(TEST_JOURNAL_DIR, { root: t.root });
  const wrong = { ...bundle, after: bundle.after.map((f) => (f.path === "src/app.txt" ? { ...f, text: body } : f)) };
  const replayed = await replayBundle(wrong);
  assert.equal(replayed.same, false);
  assert.deepEqual(replayed.differences, ["src/app.txt: its bytes differ from what the write left"]);
  await writeFile(path.join(t.base, "wrong.json"), JSON.stringify(wrong));
  const cli = await runMain(["apply", "--replay", path.join(t.base, "wrong.json")]);
  assert.equal(cli.code, 1);
  assert.match(cli.stdout, /^differs: .*\n {2}src\/app\.txt: its bytes differ/);
});

test("property: any sequence of journaled edits, undone as many times, gives back every file byte for byte", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.record({ file: fc.constantFrom("a.txt", "b.txt", "c/new.txt"), line: fc.nat(5), text: fc.string({ minLength: 1, maxLength: 6 }) }), { minLength: 1, maxLength: 5 }),
      async (steps) => {
        const t = await makeTree({ "a.txt": lines(1, 6), "b.txt": "x\r\ny\r\n" });
        const journal = journalOf(t);
        const before = await snapshot(t.root);
        let writes = 0;
        for (const s of steps) {
          const current = await readFile(path.join(t.root, s.file), "utf8").catch(() => undefined);
          const parts = current?.split("\n") ?? [];
          const old = current === undefined ? "" : (parts[s.line % Math.max(1, parts.length - 1)] as string);
          const r = await applyEdits(t.root, [{ path: s.file, oldString: old, newString: `${old}${s.text}` }], { journal });
          if (r.written) writes++;
        }
        for (let k = 0; k < writes; k++) await undoLast({ root: t.root, journal });
        await rejected(undoLast({ root: t.root, journal }), "NOT_FOUND");
        const after = await snapshot(t.root);
        for (const [k, v] of after) if (v === "dir" && !before.has(k)) after.delete(k);
        assert.deepEqual(after, before);
      },
    ),
    { numRuns: 25 },
  );
});

test("property: a journal entry read back throws nothing but EditError on any content", () => {
  const entryLike = fc.record(
    {
      format: fc.oneof(fc.constant(1), fc.jsonValue()),
      id: fc.oneof(fc.constant("0mx17pwzt-dab88b65"), fc.string()),
      time: fc.string(),
      root: fc.string(),
      source: fc.string(),
      version: fc.string(),
      files: fc.oneof(fc.array(fc.record({ path: fc.string(), kind: fc.constantFrom("write", "create", "delete", "x"), before: fc.string(), after: fc.string(), modeBefore: fc.jsonValue() }, { requiredKeys: [] })), fc.jsonValue()),
      read: fc.oneof(fc.array(fc.jsonValue()), fc.jsonValue()),
      undoes: fc.jsonValue(),
    },
    { requiredKeys: [] },
  );
  fc.assert(
    fc.property(fc.oneof(entryLike.map((e) => JSON.stringify(e)), fc.string()), (text) => {
      try {
        parseEntry("0mx17pwzt-dab88b65", text);
      } catch (error) {
        assert.ok(error instanceof EditError, String(error));
      }
    }),
    { numRuns: 500 },
  );
});

test("a journal entry whose format is an object that cannot be turned into a string is an EditError (found by the property above)", () => {
  assert.throws(
    () => parseEntry("0mx17pwzt-dab88b65", JSON.stringify({ format: { toString: false } })),
    (e: unknown) => e instanceof EditError && /format \{"toString":false\}/.test(e.message),
  );
});

test("an entry keeps a short input and diff itself (one file to sync, not three); a long one, and entries written as blobs before, are read the same", async () => {
  const t = await makeTree({ "a.txt": lines(1, 40) });
  const journal = journalOf(t);
  const edits = [{ path: "a.txt", oldString: "line 7\n", newString: "line 7 edited\n" }];
  const r = await applyEdits(t.root, edits, { journal });
  const id = r.journal?.id as string;
  const entryPath = path.join(journal.dir, "entries", `${id}.json`);
  const entry = parseEntry(id, await readFile(entryPath, "utf8"));
  assert.deepEqual(entry.input, { kind: "edits", text: JSON.stringify(edits) });
  assert.equal(entry.result?.diffText, r.diff);
  assert.equal(entry.result?.diff, undefined);
  // Only the file's versions are blobs.
  assert.deepEqual((await readdir(path.join(journal.dir, "blobs"))).sort(), [entry.files[0]?.before, entry.files[0]?.after].sort());
  const bundle = await makeBundle(journal.dir, { id });
  assert.deepEqual(bundle.input, edits);
  assert.equal(bundle.result.diff, r.diff);
  assert.ok(!("diffText" in bundle.result));
  // The same entry as an earlier version wrote it (input and diff as blobs) gives the same bundle.
  const asBlob = async (text: string) => {
    const hash = hashBytes(text);
    await writeFile(path.join(journal.dir, "blobs", hash), text, { mode: 0o600 });
    return hash;
  };
  const { diffText: _, ...result } = entry.result as NonNullable<typeof entry.result>;
  const old = { ...entry, input: { kind: "edits", blob: await asBlob(JSON.stringify(edits)) }, result: { ...result, diff: await asBlob(r.diff) } };
  await writeFile(entryPath, JSON.stringify(old));
  assert.deepEqual(await makeBundle(journal.dir, { id }), bundle);
  // An input over INLINE_MAX_BYTES goes to a blob.
  const long = `${"x".repeat(70_000)}\n`;
  const big = await applyEdits(t.root, [{ path: "a.txt", oldString: "line 9\n", newString: long }], { journal });
  const bigEntry = parseEntry(big.journal?.id as string, await readFile(path.join(journal.dir, "entries", `${big.journal?.id}.json`), "utf8"));
  assert.equal(bigEntry.input?.text, undefined);
  assert.equal(bigEntry.result?.diffText, undefined);
  assert.equal((await makeBundle(journal.dir, { id: big.journal?.id as string })).result.diff, big.diff);
  // An input record with neither is damaged.
  assert.throws(() => parseEntry(id, JSON.stringify({ ...entry, input: { kind: "text" } })), (e: unknown) => e instanceof EditError && /neither a blob nor a text/.test(e.message));
  await undoLast({ root: t.root, journal });
  await undoLast({ root: t.root, journal });
  assert.equal(await read(t.root, "a.txt"), lines(1, 40));
});

test("a large file's version after a write is stored as a delta on the version before, at most MAX_DEPTH deep; undo, report and the prune read through the chain", async () => {
  const original = lines(1, 20_000);
  assert.ok(Buffer.byteLength(original) >= DELTA_FROM);
  const t = await makeTree({ "a.txt": original });
  const journal = journalOf(t);
  const blobs = path.join(journal.dir, "blobs");
  const ids: string[] = [];
  const texts = [original];
  const edits = MAX_DEPTH + 4;
  for (let k = 1; k <= edits; k++) {
    const r = await applyEdits(t.root, [{ path: "a.txt", oldString: `line ${k * 500}\n`, newString: `line ${k * 500} edited\n` }], { journal });
    assert.ok(r.written && r.journal?.id, JSON.stringify(r.journal));
    ids.push(r.journal.id);
    texts.push(await read(t.root, "a.txt"));
  }
  // The first version and the one past MAX_DEPTH deltas whole; every other version a small delta.
  const names = await readdir(blobs);
  const deltas = names.filter((n) => n.endsWith(".delta"));
  assert.deepEqual(names.filter((n) => !n.endsWith(".delta")).sort(), [hashBytes(original), hashBytes(texts[MAX_DEPTH + 1] as string)].sort());
  assert.equal(deltas.length, edits - 1);
  for (const n of deltas) assert.ok((await stat(path.join(blobs, n))).size < 400, n);
  const last = ids[edits - 1] as string;
  assert.equal((await makeBundle(journal.dir, { id: last })).after[0]?.text, texts[edits]);
  // A delta's new bytes changed: the version it gives does not match its name, and nothing is written.
  const lastDelta = `${hashBytes(texts[edits] as string)}.delta`;
  const good = await readFile(path.join(blobs, lastDelta));
  await writeFile(path.join(blobs, lastDelta), Buffer.concat([good.subarray(0, -2), Buffer.from("X\n")]));
  await rejected(undoLast({ root: t.root, journal }), "IO", /damaged/);
  await writeFile(path.join(blobs, lastDelta), good);
  // The prune keeps what the entries left need, down their chains: the last 3 writes' deltas and the whole version under them.
  await pruneJournal(journal.dir, { maxEntries: 3, maxBytes: 1e9, maxAgeMs: 1e12 });
  assert.deepEqual(listEntryIds(journal.dir), ids.slice(-3));
  assert.deepEqual((await readdir(blobs)).sort(), [hashBytes(texts[MAX_DEPTH + 1] as string), ...[edits - 2, edits - 1, edits].map((k) => `${hashBytes(texts[k] as string)}.delta`)].sort());
  for (let k = edits; k > edits - 3; k--) {
    await undoLast({ root: t.root, journal });
    assert.equal(await read(t.root, "a.txt"), texts[k - 1]);
  }
  // The size bound counts the whole version a kept delta needs: a bound below it drops every write, and every version with them.
  await pruneJournal(journal.dir, { maxEntries: 1000, maxBytes: 100_000, maxAgeMs: 1e12 });
  assert.deepEqual(listEntryIds(journal.dir), []);
  assert.deepEqual(await readdir(blobs), []);
});

test("property: a delta gives back the version it was made from, and a delta file read back throws nothing but EditError on any content", () => {
  const big = (n: number) => Buffer.from(lines(1, n));
  fc.assert(
    fc.property(fc.nat(12_000), fc.nat(12_000), fc.string({ maxLength: 300 }), fc.nat(3), (at, len, text, depth) => {
      const base = big(12_000);
      const start = Math.min(at, base.length);
      const bytes = Buffer.concat([base.subarray(0, start), Buffer.from(text), base.subarray(Math.min(base.length, start + len))]);
      const delta = encodeDelta(hashBytes(base), depth, base, bytes);
      if (bytes.length < DELTA_FROM || bytes.length - (base.length - Math.min(len, base.length - start)) > bytes.length / 8) return;
      assert.ok(delta, "a small change of a large version is a delta");
      assert.ok(applyDelta("h", delta, base).equals(bytes));
      assert.equal(parseDelta("h", delta).header.depth, depth + 1);
    }),
    { numRuns: 200 },
  );
  const base = big(7_000);
  fc.assert(
    fc.property(fc.oneof(fc.jsonValue().map((v) => `${JSON.stringify(v)}\nabc`), fc.string(), fc.record({ delta: fc.constant(1), base: fc.constant("a".repeat(64)), size: fc.integer(), depth: fc.nat(), splices: fc.array(fc.array(fc.integer({ min: -2, max: 1e6 }))) }).map((h) => `${JSON.stringify(h)}\nxyz`)), (text) => {
      try {
        applyDelta("h", Buffer.from(text), base);
      } catch (error) {
        assert.ok(error instanceof EditError, String(error));
      }
    }),
    { numRuns: 500 },
  );
  // Too deep, or a change of most of the version: stored whole.
  assert.equal(encodeDelta("a".repeat(64), MAX_DEPTH, base, Buffer.concat([base, Buffer.from("x")])), undefined);
  assert.equal(encodeDelta("a".repeat(64), 0, base, Buffer.from(lines(1, 7_000, "other"))), undefined);
});

test("a journal's new files are written on their own (0600, synced, renamed); a temporary file a killed writer left there goes at the next prune", async () => {
  const t = await makeTree({ "a.txt": "one\n" });
  const journal = journalOf(t);
  await applyEdits(t.root, [{ path: "a.txt", oldString: "one", newString: "two" }], { journal });
  const names = async () => [...(await readdir(path.join(journal.dir, "blobs"))), ...(await readdir(path.join(journal.dir, "entries")))];
  assert.ok(!(await names()).some((n) => n.endsWith(".tmp")));
  // As a killed writer leaves it: its temporary name, older than debris.ts's STALE_TEMP_MS.
  const left = path.join(journal.dir, "entries", `.0mx17pwzt-dab88b65.json.fuzzpatch-${"0".repeat(6)}-1-${"a".repeat(8)}.tmp`);
  await writeFile(left, "{", { mode: 0o600 });
  const old = new Date(Date.now() - 11 * 60_000);
  await utimes(left, old, old);
  await pruneJournal(journal.dir, { maxEntries: 1000, maxBytes: 1e9, maxAgeMs: 1e12 });
  assert.ok(!(await names()).some((n) => n.endsWith(".tmp")), (await names()).join(", "));
  assert.equal(listEntryIds(journal.dir).length, 1);
  await undoLast({ root: t.root, journal });
  assert.equal(await read(t.root, "a.txt"), "one\n");
});

// The record is staged while the file's own write waits on the disk (journal.ts stageRecord) and placed after its rename.
for (const c of [
  { name: "a small file", text: lines(1, 40) },
  { name: "a file over HASH_WHILE_WRITING_FROM (its hash and record made while it syncs)", text: lines(1, Math.ceil(HASH_WHILE_WRITING_FROM / 9) + 1000) },
]) {
  test(`${c.name}: the journal's entry appears only once the file is in place; a write refused at the last moment (STALE) leaves no entry, no temporary file, and nothing in the file cache`, async () => {
    const t = await makeTree({ "a.txt": c.text });
    const journal = journalOf(t);
    const cache = new FileCache();
    const abs = path.join(t.root, "a.txt");
    const entriesDir = path.join(journal.dir, "entries");
    const tempFiles = async () => (await readdir(entriesDir).catch(() => [] as string[])).filter((n) => n.endsWith(".tmp"));
    const seenBeforeRename: number[] = [];
    const first = await applyEdits(t.root, [{ path: "a.txt", oldString: "line 20\n", newString: "line twenty\n" }], {
      journal,
      cache,
      hooks: {
        // Right before the rename: the new bytes are synced beside the file, the record may be staged, none is placed.
        beforeWrite: async () => {
          await new Promise((resolve) => setTimeout(resolve, 20));
          seenBeforeRename.push(listEntryIds(journal.dir).length);
        },
      },
    });
    assert.ok(first.written && first.journal?.id !== undefined, JSON.stringify(first.journal));
    assert.deepEqual(seenBeforeRename, [0]);
    assert.deepEqual(listEntryIds(journal.dir), [first.journal?.id]);
    assert.deepEqual(await tempFiles(), []);
    // The cache holds what was written.
    assert.equal(cache.latest(abs)?.text, c.text.replace("line 20\n", "line twenty\n"));

    // Another writer changes the file right before the rename: STALE, and the record staged meanwhile is dropped.
    const theirs = c.text.replace("line 20\n", "line XX\n");
    const second = await applyEdits(t.root, [{ path: "a.txt", oldString: "line 30\n", newString: "line thirty\n" }], {
      journal,
      cache,
      hooks: {
        beforeWrite: async () => {
          await new Promise((resolve) => setTimeout(resolve, 20));
          await writeFile(abs, theirs);
        },
      },
    });
    assert.equal(second.written, false);
    assert.equal(second.files[0]?.error?.code ?? second.errors[0]?.code, "STALE");
    assert.equal(second.journal, undefined);
    assert.equal(second.files[0]?.written, false);
    assert.equal(await read(t.root, "a.txt"), theirs);
    assert.deepEqual(listEntryIds(journal.dir), [first.journal?.id]);
    assert.deepEqual(await tempFiles(), []);
    assert.notEqual(cache.latest(abs)?.text, c.text.replace("line 20\n", "line twenty\n").replace("line 30\n", "line thirty\n"), "the failed write's text is not cached");
    // A version stored for the failed write is named by no entry: the prune removes it once past its grace.
    await pruneJournal(journal.dir, { maxEntries: 1000, maxBytes: 1e9, maxAgeMs: 1e12 }, Date.now() + 120_000);
    const entry = parseEntry(first.journal?.id as string, await readFile(path.join(entriesDir, `${first.journal?.id}.json`), "utf8"));
    const named = new Set(blobsOf(entry));
    for (const name of await readdir(path.join(journal.dir, "blobs"))) assert.ok(named.has(name.slice(0, 64)), `${name} is named by no entry`);
    // The journal still takes back the first write (the file is theirs now: undo refuses, then merges it out).
    await writeFile(abs, c.text.replace("line 20\n", "line twenty\n"));
    await undoLast({ root: t.root, journal });
    assert.equal(await read(t.root, "a.txt"), c.text);
  });
}

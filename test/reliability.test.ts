/**
 * Regression tests for issue 15 (reliability): each case reproduces a report
 * of the adversarial campaign and failed before its fix.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { chown, link, mkdir, readdir, readFile, rename, rm, stat, symlink, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { EditError } from "../src/errors.ts";
import { decodeText, encodeText } from "../src/fs/read-file.ts";
import { commitChanges, type PlannedChange } from "../src/fs/transaction.ts";
import { applyPatch, createPatch, replace } from "../src/index.ts";
import { applyEdits } from "../src/node.ts";
import { Document } from "../src/text/document.ts";
import { makeTree, read, snapshot } from "./helpers/temp-tree.ts";

const BOM = "\uFEFF";

// --- item 3: "\r\r\n" line ends ------------------------------------------------

const crcrlfCases: { name: string; content: string; old: string; new: string; want: string }[] = [
  { name: "one line changed", content: "a\r\r\nb\r\r\nc\r\r\n", old: "b", new: "B", want: "a\r\r\nB\r\r\nc\r\r\n" },
  { name: "two whole lines changed", content: "a\r\r\nb\r\r\nc\r\r\n", old: "a\nb", new: "A\nB", want: "A\r\r\nB\r\r\nc\r\r\n" },
  { name: "a line added takes the file's break", content: "a\r\r\nb\r\r\nc\r\r\n", old: "b\n", new: "B\nX\n", want: "a\r\r\nB\r\r\nX\r\r\nc\r\r\n" },
  { name: "a line deleted with its break", content: "a\r\r\nb\r\r\nc\r\r\n", old: "b\n", new: "", want: "a\r\r\nc\r\r\n" },
  { name: "last line without a break", content: "a\r\r\nb", old: "b", new: "b\nc", want: "a\r\r\nb\r\r\nc" },
];

for (const c of crcrlfCases) {
  test(`item 3: \\r\\r\\n file, ${c.name}: every other byte kept`, () => {
    assert.equal(replace(c.content, c.old, c.new).content, c.want);
  });
}

test("item 3: the document reads \\r\\r\\n as one break and maps offsets past both CRs", () => {
  const doc = Document.from("a\r\r\nbb\r\r\n");
  assert.equal(doc.text, "a\nbb\n");
  assert.deepEqual(doc.lines(0, 2), ["a", "bb"]);
  assert.equal(doc.eolAt(0), "\r\r\n");
  assert.equal(doc.breakAfter(0), "\r\r\n");
  assert.equal(doc.toRaw(2), 4);
  assert.equal(doc.raw.slice(doc.toRaw(doc.lineStart(1)), doc.toRaw(doc.lineEnd(1))), "bb");
});

test("item 3: the file layer leaves \\r\\r\\n to the core; a write changes only the edited line", () => {
  const bytes = Buffer.from("a\r\r\nb\r\r\nc\r\r\n");
  const { text, layout } = decodeText(bytes, "f", false);
  const edited = replace(text, "b", "B").content;
  assert.equal(encodeText(edited, layout).toString(), "a\r\r\nB\r\r\nc\r\r\n");
});

test("item 3: a patch removing the final newline of a \\r\\r\\n file removes the whole break", () => {
  for (const [a, b] of [
    ["x\r\r\nx\r\r\n", "x\r\r\nx"],
    ["x\r\r\ny\r\r\n", "x\r\r\nY"],
  ] as const) {
    assert.equal(applyPatch(a, createPatch(a, b)).content, b);
  }
});

// --- item 4: BOM in createPatch / applyPatch -----------------------------------

const bomCases: { name: string; a: string; b: string }[] = [
  { name: "BOM kept, line added after a tab-indented line", a: `${BOM}a\n\tb\n`, b: `${BOM}a\n\tb\n\tc\n` },
  { name: "BOM kept, first line changed", a: `${BOM}a\nb\n`, b: `${BOM}x\nb\n` },
  { name: "BOM kept, first line deleted", a: `${BOM}a\nb\nc\n`, b: `${BOM}b\nc\n` },
  { name: "BOM kept, line inserted at the top", a: `${BOM}\ta\n\tb\n`, b: `${BOM}\tz\n\ta\n\tb\n` },
  { name: "BOM kept, CRLF", a: `${BOM}a\r\n\tb\r\n`, b: `${BOM}a\r\n\tb\r\n\tc\r\n` },
  { name: "BOM added", a: "a\nb\n", b: `${BOM}a\nb\n` },
  { name: "BOM added with a change", a: "a\nb\n", b: `${BOM}x\nb\n` },
];

for (const c of bomCases) {
  test(`item 4: applyPatch(a, createPatch(a, b)) is b: ${c.name}`, () => {
    for (const fuzzy of [true, false]) {
      const patch = createPatch(c.a, c.b, { fuzzy });
      const got = applyPatch(c.a, patch);
      assert.equal(got.content, c.b, patch);
      assert.ok(got.hunks.every((h) => h.strategy === "exact"), `placed fuzzily: ${JSON.stringify(got.hunks)}`);
    }
  });
}

// --- item 11: no argument spreading of big arrays ------------------------------

test("item 11: createPatch on 130k identical lines with one inserted does not overflow the stack", () => {
  const a = "x\n".repeat(130_000);
  const b = `${a}y\n`;
  const standard = createPatch(a, b, { fuzzy: false });
  assert.equal(applyPatch(a, standard).content, b);
  // A fuzzy hunk would have to hold every line to be unique: it keeps its
  // context and is written with its numbers instead (issue 14).
  const fuzzy = createPatch(a, b, { fuzzy: true });
  assert.equal(fuzzy, "@@ -129998,3 +129998,4 @@\n x\n x\n x\n+y\n");
  assert.equal(applyPatch(a, fuzzy).content, b);
});

test("item 11: replaceAll over 200k occurrences reports its score without spreading them", () => {
  const content = "a".repeat(200_000);
  const r = replace(content, "a", "b", { replaceAll: true });
  assert.equal(r.content, "b".repeat(200_000));
  assert.equal(r.match.count, 200_000);
});

// --- item 2: two names of one file --------------------------------------------

const aliasCases: { name: string; make: (root: string) => Promise<void> }[] = [
  { name: "a symlink in the root", make: (root) => symlink("a.txt", path.join(root, "alias.txt")) },
  { name: "a hard link", make: (root) => link(path.join(root, "a.txt"), path.join(root, "alias.txt")) },
];

for (const c of aliasCases) {
  test(`item 2: edits to a file and to ${c.name} to it both land, in order`, async () => {
    const t = await makeTree({ "a.txt": "one\ntwo\n" });
    await c.make(t.root);
    const result = await applyEdits(t.root, [
      { path: "a.txt", oldString: "one", newString: "ONE" },
      { path: "alias.txt", oldString: "two", newString: "TWO" },
    ]);
    assert.equal(result.ok, true, JSON.stringify(result.errors));
    assert.equal(result.files.length, 1);
    assert.equal(await read(t.root, "a.txt"), "ONE\nTWO\n");
    assert.equal(await read(t.root, "alias.txt"), "ONE\nTWO\n");
  });
}

// --- item 5: a file changed between reading and writing ------------------------

test("item 5: a write whose file changed since it was read fails with STALE and writes nothing", async () => {
  const t = await makeTree({ "f.txt": "now\n", "g.txt": "g\n" });
  const abs = (p: string) => path.join(t.root, p);
  await assert.rejects(
    commitChanges([
      { rel: "g.txt", abs: abs("g.txt"), kind: "write", bytes: Buffer.from("G\n"), original: Buffer.from("g\n"), mode: 0o644 },
      { rel: "f.txt", abs: abs("f.txt"), kind: "write", bytes: Buffer.from("mine\n"), original: Buffer.from("then\n"), mode: 0o644 },
    ]),
    (e: unknown) => e instanceof EditError && e.code === "STALE" && e.detail.path === "f.txt",
  );
  assert.equal(await read(t.root, "f.txt"), "now\n");
  assert.equal(await read(t.root, "g.txt"), "g\n");
});

test("item 5: the check before the rename compares every byte: the same size with one byte changed, or the bytes read plus one more, are STALE", async () => {
  const original = `${"x".repeat(70_000)}\n`;
  for (const now of [`${"x".repeat(35_000)}y${"x".repeat(34_999)}\n`, `${original}!`, original.slice(0, -1)]) {
    const t = await makeTree({ "f.txt": now });
    const change: PlannedChange = { rel: "f.txt", abs: path.join(t.root, "f.txt"), kind: "write", bytes: Buffer.from("mine\n"), original: Buffer.from(original), mode: 0o644 };
    await assert.rejects(commitChanges([change]), (e: unknown) => e instanceof EditError && e.code === "STALE");
    assert.equal(await read(t.root, "f.txt"), now);
  }
  // The same bytes: written.
  const t = await makeTree({ "f.txt": original });
  await commitChanges([{ rel: "f.txt", abs: path.join(t.root, "f.txt"), kind: "write", bytes: Buffer.from("mine\n"), original: Buffer.from(original), mode: 0o644 }]);
  assert.equal(await read(t.root, "f.txt"), "mine\n");
});

test("item 5: a file created by someone else before a create is STALE; a deleted file changed since is STALE", async () => {
  const t = await makeTree({ "taken.txt": "theirs\n", "gone.txt": "changed\n" });
  const abs = (p: string) => path.join(t.root, p);
  for (const change of [
    { rel: "taken.txt", abs: abs("taken.txt"), kind: "create" as const, bytes: Buffer.from("mine\n"), original: Buffer.alloc(0) },
    { rel: "gone.txt", abs: abs("gone.txt"), kind: "delete" as const, bytes: Buffer.alloc(0), original: Buffer.from("original\n") },
  ]) {
    await assert.rejects(commitChanges([change]), (e: unknown) => e instanceof EditError && e.code === "STALE");
  }
  assert.equal(await read(t.root, "taken.txt"), "theirs\n");
  assert.equal(await read(t.root, "gone.txt"), "changed\n");
});

test("item 5: concurrent applyEdits in one process on one file: both edits, or one applied and one STALE", async () => {
  for (let round = 0; round < 20; round++) {
    const t = await makeTree({ "f.txt": "a\nb\n" });
    const [x, y] = await Promise.all([
      applyEdits(t.root, [{ path: "f.txt", oldString: "a", newString: "A" }]),
      applyEdits(t.root, [{ path: "f.txt", oldString: "b", newString: "B" }]),
    ]);
    const text = await read(t.root, "f.txt");
    for (const [r, mark] of [
      [x, "A"],
      [y, "B"],
    ] as const) {
      if (r.written) assert.ok(text.includes(mark), `round ${round}: reported written but ${mark} is missing from ${JSON.stringify(text)}`);
      else assert.deepEqual(r.errors.map((e) => e.code), ["STALE"], `round ${round}: ${JSON.stringify(r.errors)}`);
    }
    assert.ok(x.written || y.written, `round ${round}: neither edit was written`);
  }
});

test("item 5: two processes editing the same files at once never lose an update", async (context) => {
  const rounds = 25;
  const t = await makeTree(Object.fromEntries(Array.from({ length: rounds }, (_, r) => [`round-${r}.txt`, "a\nb\n"])));
  await mkdir(path.join(t.base, "barrier"));
  const script = new URL("./helpers/concurrent-writer.ts", import.meta.url).pathname;
  const run = (me: string, other: string, oldString: string, newString: string) =>
    promisify(execFile)(process.execPath, ["--import", "tsx", script, t.root, me, other, String(rounds), oldString, newString], {
      cwd: path.dirname(path.dirname(script)),
    });
  const [x, y] = await Promise.all([run("x", "y", "a", "A"), run("y", "x", "b", "B")]);
  const parse = (out: string) => out.trim().split("\n").map((l) => JSON.parse(l) as { round: number; written: boolean; codes: string[] });
  const xs = parse(x.stdout);
  const ys = parse(y.stdout);
  let stale = 0;
  for (let r = 0; r < rounds; r++) {
    const text = await read(t.root, `round-${r}.txt`);
    for (const [report, mark] of [
      [xs[r], "A"],
      [ys[r], "B"],
    ] as const) {
      assert.ok(report, `round ${r}: no report`);
      if (report.written) assert.ok(text.includes(mark), `round ${r}: written but ${mark} lost: ${JSON.stringify(text)}`);
      else {
        assert.deepEqual(report.codes, ["STALE"], `round ${r}`);
        stale++;
      }
    }
    assert.ok(xs[r]?.written || ys[r]?.written, `round ${r}: neither written`);
  }
  // No stray lock or temporary files are left behind.
  assert.deepEqual((await readdir(t.root)).filter((n) => n.startsWith(".")), []);
  context.diagnostic(`${stale} of ${rounds * 2} edits were STALE (all others landed)`);
});

// --- item 7: owner, group and hard links ----------------------------------------

test("item 7: an edit keeps the file's owner and group (as root) and its hard links", async () => {
  const t = await makeTree({ "f.txt": "x = 1\n" });
  const f = path.join(t.root, "f.txt");
  await link(f, path.join(t.root, "other-name.txt"));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) await chown(f, 1234, 5678);
  const before = await stat(f);
  const result = await applyEdits(t.root, [{ path: "f.txt", oldString: "x = 1", newString: "x = 2" }]);
  assert.equal(result.ok, true, JSON.stringify(result.errors));
  const after = await stat(f);
  assert.equal(await read(t.root, "other-name.txt"), "x = 2\n");
  assert.equal(after.ino, before.ino);
  assert.equal(after.nlink, 2);
  assert.deepEqual([after.uid, after.gid], [before.uid, before.gid]);
  // Written in place: its temporary file is removed, not left beside it.
  assert.deepEqual(await readdir(t.root), ["f.txt", "other-name.txt"]);
});

test("item 5: the directory's lock file held by another process: a write waits for it (TIMEOUT past the budget, nothing written); one left by a crash is taken over", async () => {
  const t = await makeTree({ "sub/f.txt": "x = 1\n", "sub/g.txt": "y = 1\n" });
  const lock = path.join(t.root, "sub", ".fuzzpatch-lock");
  await writeFile(lock, "12345\n");
  const edits = [
    { path: "sub/f.txt", oldString: "x = 1", newString: "x = 2" },
    { path: "sub/g.txt", oldString: "y = 1", newString: "y = 2" },
  ];
  const waited = await applyEdits(t.root, edits, { timeoutMs: 300 });
  assert.deepEqual(waited.errors.map((e) => e.code), ["TIMEOUT"]);
  assert.deepEqual([await read(t.root, "sub/f.txt"), await read(t.root, "sub/g.txt")], ["x = 1\n", "y = 1\n"]);
  assert.deepEqual((await readdir(path.join(t.root, "sub"))).sort(), [".fuzzpatch-lock", "f.txt", "g.txt"]);
  // Released by its owner: the same edits land, and no lock or temporary file is left.
  const released = applyEdits(t.root, edits);
  setTimeout(() => void rm(lock), 50);
  assert.equal((await released).ok, true);
  assert.deepEqual([await read(t.root, "sub/f.txt"), await read(t.root, "sub/g.txt")], ["x = 2\n", "y = 2\n"]);
  assert.deepEqual((await readdir(path.join(t.root, "sub"))).sort(), ["f.txt", "g.txt"]);
  // Older than 30 s: a crashed writer's, taken over.
  await writeFile(lock, "12345\n");
  const old = new Date(Date.now() - 60_000);
  await utimes(lock, old, old);
  const taken = await applyEdits(t.root, [{ path: "sub/f.txt", oldString: "x = 2", newString: "x = 3" }]);
  assert.equal(taken.ok, true, JSON.stringify(taken.errors));
  assert.equal(await read(t.root, "sub/f.txt"), "x = 3\n");
  assert.deepEqual((await readdir(path.join(t.root, "sub"))).sort(), ["f.txt", "g.txt"]);
});

test("item 5: a user's own file named .fuzzpatch-lock is never taken over as a stale lock: the write waits (TIMEOUT) and the file is kept", async () => {
  const t = await makeTree({ "f.txt": "x = 1\n", ".fuzzpatch-lock": "my notes\n" });
  const lock = path.join(t.root, ".fuzzpatch-lock");
  const old = new Date(Date.now() - 60_000);
  await utimes(lock, old, old);
  const r = await applyEdits(t.root, [{ path: "f.txt", oldString: "x = 1", newString: "x = 2" }], { timeoutMs: 300 });
  assert.deepEqual(r.errors.map((e) => e.code), ["TIMEOUT"]);
  assert.equal(await read(t.root, ".fuzzpatch-lock"), "my notes\n");
  assert.equal(await read(t.root, "f.txt"), "x = 1\n");
});

test("item 7: a file with one link is replaced atomically and keeps owner and group", async () => {
  const t = await makeTree({ "f.txt": "x = 1\n" });
  const f = path.join(t.root, "f.txt");
  if (process.getuid?.() === 0) await chown(f, 4321, 8765);
  const before = await stat(f);
  await applyEdits(t.root, [{ path: "f.txt", oldString: "x = 1", newString: "x = 2" }]);
  const after = await stat(f);
  assert.equal(await read(t.root, "f.txt"), "x = 2\n");
  assert.deepEqual([after.uid, after.gid, after.mode], [before.uid, before.gid, before.mode]);
});

// --- item 9: a directory swapped for a symlink between the check and the write ---

const swapCases: { name: string; edit: { path: string; oldString: string; newString: string } }[] = [
  { name: "an edit of an existing file", edit: { path: "sub/f.txt", oldString: "inside", newString: "written" } },
  { name: "a new file", edit: { path: "sub/new.txt", oldString: "", newString: "written\n" } },
  { name: "a new file in a new directory", edit: { path: "sub/deep/new.txt", oldString: "", newString: "written\n" } },
];

for (const c of swapCases) {
  test(`item 9: ${c.name}: a directory swapped for a link out of the root is refused, nothing lands outside`, async () => {
    const t = await makeTree({ "sub/f.txt": "inside\n" });
    await writeFile(path.join(t.outside, "f.txt"), "inside\n");
    const outsideBefore = await snapshot(t.outside);
    const result = await applyEdits(t.root, [c.edit], {
      hooks: {
        beforeWrite: async () => {
          // What an agent's shell running in parallel could do.
          await rename(path.join(t.root, "sub"), path.join(t.root, "sub-moved"));
          await symlink(t.outside, path.join(t.root, "sub"));
        },
      },
    });
    assert.equal(result.written, false);
    assert.deepEqual(result.errors.map((e) => e.code), ["UNSAFE_PATH"]);
    assert.deepEqual(await snapshot(t.outside), outsideBefore);
    assert.equal(await read(t.root, "sub-moved/f.txt"), "inside\n");
  });
}

// --- item 13: long names and deep paths -------------------------------------------

test("item 13: a file with a 240-byte name can be edited (the temporary name stays within 255 bytes)", async () => {
  for (const name of ["n".repeat(240), `${"é".repeat(120)}.txt`, "x".repeat(255)]) {
    const t = await makeTree({ [name]: "old\n" });
    const result = await applyEdits(t.root, [{ path: name, oldString: "old", newString: "new" }]);
    assert.equal(result.ok, true, JSON.stringify(result.errors));
    assert.equal(await read(t.root, name), "new\n");
    assert.deepEqual(await readdir(t.root), [name]);
  }
});

const deepCases: { name: string; path: string }[] = [
  { name: "a path of 2,000 components", path: `${"d/".repeat(2000)}f.txt` },
  { name: "a path of 65 components", path: `${"d/".repeat(64)}f.txt` },
  { name: "a path with a component over 255 bytes", path: `${"n".repeat(256)}/f.txt` },
  { name: "a path over 4,096 bytes", path: `${`${"p".repeat(100)}/`.repeat(41)}f.txt` },
];

for (const c of deepCases) {
  test(`item 13: ${c.name} is UNSAFE_PATH and creates no directory`, async () => {
    const t = await makeTree({});
    const result = await applyEdits(t.root, [{ path: c.path, oldString: "", newString: "x\n" }]);
    assert.equal(result.written, false);
    assert.equal(result.files[0]?.error?.code, "UNSAFE_PATH");
    assert.deepEqual(await readdir(t.root), []);
  });
}

test("item 13: a path of 64 components is accepted", async () => {
  const t = await makeTree({});
  const deep = `${"d/".repeat(63)}f.txt`;
  const result = await applyEdits(t.root, [{ path: deep, oldString: "", newString: "x\n" }]);
  assert.equal(result.ok, true, JSON.stringify(result.errors));
  assert.equal(await readFile(path.join(t.root, deep), "utf8"), "x\n");
});

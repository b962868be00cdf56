import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFile, realpath, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { applyEdits } from "../src/node.ts";
import { decodesBack, FileCache } from "../src/fs/file-cache.ts";
import { decodeText, encodeText, loadTextFile } from "../src/fs/read-file.ts";
import { keep, MIN_SCRATCH, ScratchHold } from "../src/fs/scratch.ts";
import { undoLast } from "../src/fs/undo.ts";
import { Document, lineScanStats } from "../src/text/document.ts";
import { shareDocument, sharedDocument } from "../src/text/document-pool.ts";
import { runTool, VersionStore } from "../src/tools.ts";
import { makeTree } from "./helpers/temp-tree.ts";

/** Every line-table answer of `doc`, read through its public methods. */
function tableOf(doc: Document): { count: number; starts: number[]; ends: number[]; at: number[]; style: string; final: boolean } {
  const count = doc.lineCount;
  const starts: number[] = [];
  const ends: number[] = [];
  for (let i = 0; i <= count; i++) starts.push(doc.lineStart(i));
  for (let i = 0; i < count; i++) ends.push(doc.lineEnd(i));
  const at: number[] = [];
  for (let o = 0; o <= doc.text.length; o++) at.push(doc.lineAt(o));
  return { count, starts, ends, at, style: doc.lineEndingStyle, final: doc.finalNewline };
}

const piece = fc.constantFrom("a", "bc", "\n", "\n\n", " x ", "\r", "\r\n", "\t", "é", "\uFEFF");
const textArb = fc.array(piece, { maxLength: 30 }).map((p) => p.join(""));

test("Document.edited gives the table a new document has, from any state of the old table", () => {
  fc.assert(
    fc.property(textArb, fc.nat(), fc.nat(), textArb, fc.nat(), (old, a, b, insert, readTo) => {
      const doc = Document.from(old);
      // The old table built as far as some lookup needed (or not at all).
      doc.hasLine(readTo % (old.length + 2));
      const from = a % (old.length + 1);
      const to = from + (b % (old.length - from + 1));
      const edited = `${old.slice(0, from)}${insert}${old.slice(to)}`;
      assert.deepEqual(tableOf(doc.edited(edited)), tableOf(Document.from(edited)));
    }),
    { numRuns: 2000 },
  );
});

test("Document.edited scans only the changed lines of a plain text whose table was built", () => {
  const lines = Array.from({ length: 5000 }, (_, i) => `line ${i}`);
  const doc = Document.from(`${lines.join("\n")}\n`);
  doc.indexLines();
  const before = lineScanStats.lines;
  const edited = doc.edited(`${lines.slice(0, 2500).join("\n")}\nnew a\nnew b\n${lines.slice(2500).join("\n")}\n`);
  assert.equal(edited.lineCount, 5002);
  assert.equal(edited.line(2501), "new b");
  assert.equal(edited.line(5001), "line 4999");
  assert.ok(lineScanStats.lines - before <= 4, `scanned ${lineScanStats.lines - before} lines`);
});

test("the pool finds a shared document by its text while its owner keeps it", () => {
  const text = `${"shared text\n".repeat(10)}`;
  const doc = Document.from(text);
  assert.notEqual(Document.from(text), doc);
  shareDocument(doc);
  assert.equal(Document.from(text), doc);
  assert.equal(Document.from(text.slice(0)), doc, "an equal copy of the text finds it too");
  assert.equal(sharedDocument(`${text}x`), undefined);
});

const layoutArb = fc.record({ bom: fc.boolean(), crlf: fc.boolean() });
const fileText = fc.array(fc.constantFrom("a", "\n", "\r", "\r\n", "\0", "\uFEFF", "é", "\ud800", "😀", " "), { maxLength: 20 }).map((p) => p.join(""));

test("decodesBack: when it says so, the bytes written read back as the same text and layout", () => {
  let kept = 0;
  fc.assert(
    fc.property(fileText, layoutArb, (text, layout) => {
      if (!decodesBack(text, layout)) return;
      kept++;
      assert.deepEqual(decodeText(encodeText(text, layout), "f", false), { text, layout: { ...layout } });
    }),
    { numRuns: 3000 },
  );
  assert.ok(kept > 300, `only ${kept} texts were kept`);
});

test("the entry a write leaves is what reading its bytes gives, or none (ASCII bytes are kept as their Latin-1 text)", () => {
  const asciiText = fc.array(fc.constantFrom("a", "\n", "\r", "\r\n", "\0", " ", "{}"), { maxLength: 20 }).map((p) => p.join(""));
  let kept = 0;
  fc.assert(
    fc.property(fc.oneof(asciiText, fileText), layoutArb, (text, layout) => {
      const cache = new FileCache();
      const bytes = encodeText(text, layout);
      cache.storeWritten("/f", bytes, text, layout, "");
      const entry = cache.latest("/f");
      let decoded: ReturnType<typeof decodeText> | undefined;
      try {
        decoded = decodeText(bytes, "f", false);
      } catch {
        // BINARY: such bytes are never an entry.
      }
      if (entry === undefined) return;
      kept++;
      assert.deepEqual({ text: entry.text, layout: { ...entry.layout } }, decoded);
      assert.equal(entry.text, text);
      assert.equal(cache.lookup("/f", bytes, false), entry);
    }),
    { numRuns: 3000 },
  );
  assert.ok(kept > 150, `only ${kept} entries were kept`);
});

test("a large file's read that is not the cache's entry keeps its own bytes: the next read into the reused buffer changes nothing", async () => {
  const size = 512 * 1024;
  const { root } = await makeTree({ "a.txt": "a".repeat(size), "b.txt": "b".repeat(size) });
  const [a, b] = ["a.txt", "b.txt"].map((n) => path.join(root, n)) as [string, string];
  const cache = new FileCache();
  await loadTextFile(a, "a.txt", { cache });
  await loadTextFile(b, "b.txt", { cache });
  // Another writer replaces both with other bytes of the same size: each read goes through the reused buffer and misses.
  await writeFile(a, "c".repeat(size));
  await writeFile(b, "d".repeat(size));
  const readA = await loadTextFile(a, "a.txt", { cache });
  const readB = await loadTextFile(b, "b.txt", { cache });
  assert.equal(cache.hits, 0);
  assert.ok(readA.bytes.every((x) => x === 0x63), "a.txt's bytes as read, not b.txt's");
  assert.equal(readA.text, "c".repeat(size));
  assert.ok(readB.bytes.every((x) => x === 0x64));
  // And a hit hands out bytes that stay the file's after later reads.
  const again = await loadTextFile(a, "a.txt", { cache });
  await loadTextFile(b, "b.txt", { cache });
  await writeFile(b, "e".repeat(size));
  await loadTextFile(b, "b.txt", { cache });
  assert.equal(cache.hits, 2);
  assert.ok(again.bytes.every((x) => x === 0x63));
  assert.equal(again.hash, createHash("sha256").update("c".repeat(size)).digest("hex"));
});

test("a large file changed by another writer (same size) while an edit is written is STALE, and keeps the other writer's bytes", async () => {
  const size = 600 * 1024;
  const line = "const value = 1;\n";
  const text = line.repeat(size / line.length);
  const { root } = await makeTree({ "big.js": text, "other.js": text });
  const cache = new FileCache();
  const theirs = text.replace("const value = 1;", "const value = 2;");
  // A write of another large file first, so the check's reused buffer holds other bytes of the same size.
  assert.ok((await applyEdits(root, [{ path: "other.js", oldString: "const value = 1;", newString: "const value = 4;", replaceAll: true }], { cache })).ok);
  const result = await applyEdits(root, [{ path: "big.js", oldString: text, newString: text.replace("const value = 1;", "const value = 3;") }], {
    cache,
    hooks: {
      beforeWrite: async (c) => {
        if (c.rel === "big.js") await writeFile(path.join(root, "big.js"), theirs);
      },
    },
  });
  assert.equal(result.written, false);
  assert.equal(result.files[0]?.error?.code ?? result.errors[0]?.code, "STALE");
  assert.equal(await readFile(path.join(root, "big.js"), "utf8"), theirs);
});

test("a second read of unchanged bytes is served from the cache: same text, same document, no decoding", async () => {
  const { root } = await makeTree({ "a.txt": "one\ntwo\n" });
  const abs = path.join(root, "a.txt");
  const cache = new FileCache();
  const first = await loadTextFile(abs, "a.txt", { cache });
  const second = await loadTextFile(abs, "a.txt", { cache });
  assert.equal(cache.hits, 1);
  assert.equal(second.text, first.text);
  assert.equal(Document.from(second.text), Document.from(first.text), "the engine finds the cached document");
  assert.equal(second.hash, first.hash);
});

test("a rewrite of the same size with the mtime set back is not taken for the cached file", async () => {
  const { root } = await makeTree({ "a.txt": "alpha\n" });
  const abs = path.join(root, "a.txt");
  const cache = new FileCache();
  await loadTextFile(abs, "a.txt", { cache });
  const before = await stat(abs);
  await writeFile(abs, "omega\n");
  await utimes(abs, before.atime, before.mtime);
  const again = await loadTextFile(abs, "a.txt", { cache });
  assert.equal(again.text, "omega\n");
  assert.equal(cache.hits, 0);
});

test("an entry decoded leniently (allowBinary) never serves a read that refuses binary files", async () => {
  const { root } = await makeTree({ "b.bin": Buffer.from([0x61, 0, 0x62, 0x0a]) });
  const abs = path.join(root, "b.bin");
  const cache = new FileCache();
  await loadTextFile(abs, "b.bin", { cache, allowBinary: true });
  await assert.rejects(loadTextFile(abs, "b.bin", { cache }), { code: "BINARY" });
});

test("the cache stays within its bound, dropping the least recently used file", async () => {
  const { root } = await makeTree({ "a.txt": "a".repeat(1000), "b.txt": "b".repeat(1000), "c.txt": "c".repeat(1000) });
  // The bound is two and a half entries (an entry: the bytes, the text, its line table): two fit, three do not.
  const probe = new FileCache();
  await loadTextFile(path.join(root, "a.txt"), "a.txt", { cache: probe });
  const bound = Math.floor(probe.size * 2.5);
  const cache = new FileCache(bound);
  for (const name of ["a.txt", "b.txt", "a.txt", "c.txt"]) await loadTextFile(path.join(root, name), name, { cache });
  assert.ok(cache.size <= bound, `holds ${cache.size} bytes`);
  await loadTextFile(path.join(root, "a.txt"), "a.txt", { cache });
  assert.equal(cache.hits, 2, "a.txt, used last, is kept");
  await loadTextFile(path.join(root, "b.txt"), "b.txt", { cache });
  assert.equal(cache.hits, 2, "b.txt was dropped");
  const tiny = new FileCache(10);
  await loadTextFile(path.join(root, "a.txt"), "a.txt", { cache: tiny });
  assert.equal(tiny.size, 0, "a file larger than the bound is not kept");
});

test("what applyEdits wrote is the next call's entry, with the line table carried over the edit", async () => {
  const lines = Array.from({ length: 3000 }, (_, i) => `  value_${i} = compute(${i});`);
  const { root } = await makeTree({ "big.js": `${lines.join("\n")}\n`, "crlf.txt": "a\r\nb\r\nc\r\n" });
  const cache = new FileCache();
  const edit = (oldString: string, newString: string, file = "big.js") => applyEdits(root, [{ path: file, oldString, newString }], { cache });
  // The file read and its whole line table built (as a first edit near its end would).
  Document.from((await loadTextFile(path.join(root, "big.js"), "big.js", { cache })).text).indexLines();
  assert.ok((await edit("value_2000 = compute(2000);", "value_2000 = computed(2000);")).ok);
  const cached = await loadTextFile(path.join(root, "big.js"), "big.js", { cache });
  assert.equal(cache.hits, 2, "the edit read the cached file, and the written bytes are recognised");
  assert.equal(cached.text, await readFile(path.join(root, "big.js"), "utf8"));
  // The written text's document carries the table over the edit: the next edit numbers no line again.
  const before = lineScanStats.lines;
  const second = await edit("value_2900 = compute(2900);", "value_2900 = computed(2900);\n  extra();");
  assert.ok(second.ok);
  assert.equal(second.files[0]?.edits[0]?.startLine, 2901);
  assert.ok(lineScanStats.lines - before <= 4, `scanned ${lineScanStats.lines - before} lines`);
  // A CRLF file: the core's text is LF; the bytes stay CRLF and read back from the cache as the same text.
  assert.ok((await edit("b", "B", "crlf.txt")).ok);
  assert.equal(await readFile(path.join(root, "crlf.txt"), "utf8"), "a\r\nB\r\nc\r\n");
  const crlf = await loadTextFile(path.join(root, "crlf.txt"), "crlf.txt", { cache });
  assert.deepEqual([crlf.text, crlf.layout], ["a\nB\nc\n", { bom: false, crlf: true }]);
});

test("a long written file's entry is its text and line table, for ASCII, non-ASCII and CRLF files alike", async () => {
  const body = (i: number) => `  value_${i} = compute(${i});`;
  const many = Array.from({ length: 40_000 }, (_, i) => body(i));
  const files: Record<string, string> = { "ascii.js": `${many.join("\n")}\n`, "utf8.js": `${many.join("\n")}\n// café\n`, "crlf.js": `${many.join("\r\n")}\r\n` };
  const { root } = await makeTree(files);
  const cache = new FileCache(256 * 1024 * 1024);
  for (const name of Object.keys(files)) {
    for (const [from, to] of [["value_20000 = compute(20000);", "value_20000 = computed(20000);"], ["value_30000 = compute(30000);", "value_30000 = computed(30000);\n  extra();"]] as const) {
      const r = await applyEdits(root, [{ path: name, oldString: from, newString: to }], { cache });
      assert.ok(r.ok, JSON.stringify(r.errors));
      const onDisk = await readFile(path.join(root, name));
      assert.ok(onDisk.length > 1024 * 1024);
      const kept = cache.latest(path.join(await realpath(root), name));
      assert.ok(kept, name);
      const text = decodeText(onDisk, name, false).text;
      assert.equal(kept.text, text, name);
      // Its line table, carried over the edit, numbers the lines as a fresh one does.
      assert.equal(kept.doc.lineAt(text.indexOf("extra()") === -1 ? text.indexOf("computed(20000)") : text.indexOf("extra()")), Document.from(text).lineAt(text.indexOf("extra()") === -1 ? text.indexOf("computed(20000)") : text.indexOf("extra()")));
    }
  }
});

test("runTool with a cache answers as without one, call after call", async () => {
  const text = Array.from({ length: 400 }, (_, i) => `    item(${i}, "v${i % 7}");`).join("\n");
  const cached = await makeTree({ "f.js": `${text}\n` });
  const plain = await makeTree({ "f.js": `${text}\n` });
  const withCache = { root: cached.root, versions: new VersionStore(), cache: new FileCache() };
  const without = { root: plain.root, versions: new VersionStore() };
  const calls: [string, unknown][] = [
    ["read_file", { path: "f.js", limit: 5 }],
    ["edit_file", { path: "f.js", edits: [{ oldString: 'item(10, "v3");', newString: 'item(10, "changed");' }] }],
    ["edit_file", { path: "f.js", edits: [{ oldString: '\titem(11, "v4");', newString: '\titem(11, "tabbed");' }] }],
    ["edit_file", { path: "f.js", edits: [{ oldString: 'item(12, "v5");\nitem(13, "v6");', newString: 'item(12, "x");\nitem(13, "y");' }] }],
    ["edit_file", { path: "f.js", edits: [{ oldString: 'item(10, "v3");', newString: "gone" }] }],
    ["edit_file", { path: "f.js", edits: [{ oldString: 'itemm(20, "v6");', newString: 'item(20, "typo fixed");' }] }],
    ["edit_file", { path: "f.js", edits: [{ oldString: "nowhere at all", newString: "x" }] }],
    ["apply_diff", { path: "f.js", diff: '<<<<<<< SEARCH\n    item(30, "v2");\n=======\n    item(30, "diffed");\n>>>>>>> REPLACE\n' }],
    ["read_file", { path: "f.js", offset: 9, limit: 6 }],
  ];
  for (const [name, args] of calls) {
    const a = await runTool(name, args, withCache);
    const b = await runTool(name, args, without);
    assert.equal(a.text.replaceAll(cached.root, "ROOT"), b.text.replaceAll(plain.root, "ROOT"), `${name} ${JSON.stringify(args)}`);
    assert.equal(a.isError, b.isError);
  }
  assert.equal(await readFile(path.join(cached.root, "f.js"), "utf8"), await readFile(path.join(plain.root, "f.js"), "utf8"));
  // Every call after the first read the file through the cache (a written file's answer reads nothing back).
  assert.ok(withCache.cache.hits >= calls.length - 1, `only ${withCache.cache.hits} hits`);
});

test("runTool's answer takes the written file's sha256 and text from the cache's entry, not from reading the file back", async () => {
  const { root } = await makeTree({ "f.txt": "alpha\nbeta\n" });
  const versions = new VersionStore();
  const options = { root, cache: new FileCache(), versions };
  await runTool("read_file", { path: "f.txt" }, options);
  const hits = options.cache.hits;
  const result = await runTool("edit_file", { path: "f.txt", edits: [{ oldString: "beta", newString: "delta" }] }, options);
  const sha = createHash("sha256").update("alpha\ndelta\n").digest("hex");
  assert.match(result.text, new RegExp(`now sha256 ${sha}`));
  assert.equal(versions.byHash(path.join(await realpath(root), "f.txt"), sha), "alpha\ndelta\n");
  assert.equal(options.cache.hits, hits + 1, "one read: the edit's");
});

test("a file changed by another writer between two calls is read as it is now", async () => {
  const { root } = await makeTree({ "f.txt": "alpha\nbeta\n" });
  const options = { root, cache: new FileCache() };
  await runTool("read_file", { path: "f.txt" }, options);
  await writeFile(path.join(root, "f.txt"), "alpha\ngamma\n");
  const result = await runTool("edit_file", { path: "f.txt", edits: [{ oldString: "gamma", newString: "delta" }] }, options);
  assert.equal(result.isError, false, result.text);
  assert.equal(await readFile(path.join(root, "f.txt"), "utf8"), "alpha\ndelta\n");
});

test("reused buffers: a hold gives back what it took, a file grown by a line fits the buffer before, and a kept buffer is never lent again", () => {
  // Empty the pool first (buffers earlier tests gave back): each is at least MIN_SCRATCH bytes.
  const drain = new ScratchHold();
  for (let i = 0; i < 4; i++) keep(drain.take(MIN_SCRATCH));
  const size = MIN_SCRATCH * 2;
  const first = new ScratchHold();
  const a = first.take(size);
  assert.equal(a.length, size);
  first.release();
  const second = new ScratchHold();
  const b = second.take(size + 80);
  assert.equal(b.buffer, a.buffer, "the buffer given back, with room for the longer file");
  assert.notEqual(second.take(size).buffer, a.buffer, "a buffer lent is not lent twice");
  keep(b);
  second.release();
  const third = new ScratchHold();
  assert.notEqual(third.take(size).buffer, a.buffer, "a kept buffer stays its keeper's");
  third.release();
  // Small reads take new buffers, never pooled ones.
  assert.ok(new ScratchHold().take(100).length === 100);
});

test("an ASCII file's entry keeps its text alone: other bytes of its size miss, and its hash and bytes stay the file's once the buffers it came from are reused", async () => {
  const line = "  const value = compute(1);\n";
  const body = `${line.repeat((600 * 1024) / line.length)}unique();\n`;
  const files = { "big.js": body, "bom.js": `\uFEFF${body}`, "other.js": `${body}other();\n` };
  const t = await makeTree(files);
  const real = await realpath(t.root);
  const cache = new FileCache(256 * 1024 * 1024);
  const journal = { dir: path.join(t.base, "journal") };
  const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
  for (const name of ["big.js", "bom.js"]) {
    const before = await readFile(path.join(t.root, name));
    const r = await applyEdits(t.root, [{ path: name, oldString: "unique();", newString: "done(); // edited" }], { cache, journal });
    assert.ok(r.written, JSON.stringify(r.errors));
    const entry = cache.latest(path.join(real, name));
    assert.ok(entry?.textOnly, name);
    // Other big writes reuse the buffers the edit read and wrote into.
    for (const [from, to] of [["other();", "other(2);"], ["other(2);", "other();"]] as const) assert.ok((await applyEdits(t.root, [{ path: "other.js", oldString: from, newString: to }], { cache, journal })).ok);
    const onDisk = await readFile(path.join(t.root, name));
    assert.equal(onDisk.toString("utf8"), before.toString("utf8").replace("unique();", "done(); // edited"), "written byte for byte");
    assert.equal(entry.hash, sha(onDisk));
    assert.ok(Buffer.from(entry.bytes).equals(onDisk), name);
    assert.equal(entry.text, decodeText(onDisk, name, false).text);
    // The same bytes read again: a hit; one byte changed (same size) by another writer: a miss, read as it is now.
    const hits = cache.hits;
    assert.equal((await loadTextFile(path.join(real, name), name, { cache })).hash, sha(onDisk));
    assert.equal(cache.hits, hits + 1);
    const theirs = Buffer.from(onDisk);
    theirs[theirs.length - 3] = 0x3b;
    await writeFile(path.join(t.root, name), theirs);
    const reread = await loadTextFile(path.join(real, name), name, { cache });
    assert.equal(cache.hits, hits + 1, "other bytes are not the entry");
    assert.ok(reread.bytes.equals(theirs));
    await writeFile(path.join(t.root, name), onDisk);
    // The journal's versions were written before the buffers went back: undo restores the bytes before the edit.
    const undone = await undoLast({ root: t.root, path: name, journal });
    assert.deepEqual(undone.files.map((f) => f.action), ["restored"]);
    assert.ok((await readFile(path.join(t.root, name))).equals(before), name);
  }
});

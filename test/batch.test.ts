/**
 * Batch: a case with content gets what `applyEdits` gives a file of those
 * bytes (reports and text), for generated responses in every format;
 * `applyMany` yields results in input order whatever the pool; cases with
 * a path are written (in order, per file) unless dry-run; the CLI prints
 * NDJSON, and its shards split the cases.
 */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import test from "node:test";
import fc from "fast-check";
import { type BatchCase, type BatchResult, applyCase, applyCaseWithDelta, errorData } from "../src/batch/apply-case.ts";
import { applyMany } from "../src/batch/apply-many.ts";
import { HELD_CHARS, HELD_TEXTS, HeldTexts } from "../src/batch/held-texts.ts";
import { fileOfLine, type InputLine, inputLines, isBlankLine } from "../src/batch/json-lines.ts";
import { textDelta, withDelta } from "../src/batch/text-delta.ts";
import { EditError } from "../src/errors.ts";
import { applyEdits, type EditReport } from "../src/fs/apply-edits.ts";
import { judgeFor, readyJudge } from "../src/fs/syntax-check.ts";
import { runCli } from "./helpers/cli-run.ts";
import { editArb, filesArb, render } from "./helpers/edit-responses.ts";
import { makeTree } from "./helpers/temp-tree.ts";

const plain = (v: unknown) => JSON.parse(JSON.stringify(v));

async function collect(cases: BatchCase[], options: Parameters<typeof applyMany>[1]): Promise<BatchResult[]> {
  const out: BatchResult[] = [];
  for await (const r of applyMany(cases, options)) out.push(r);
  return out;
}

test("a case with content gets the reports and the text applyEdits gives a file of those bytes", async () => {
  await fc.assert(
    fc.asyncProperty(filesArb, fc.array(editArb, { minLength: 1, maxLength: 3 }), fc.constantFrom("\n", "\r\n"), fc.boolean(), async (files, edits, eol, bom) => {
      const one = edits.map((e) => ({ ...e, path: "a.ts" }));
      const content = `${bom ? "\uFEFF" : ""}${(files["a.ts"] as string[]).join(eol)}${eol}`;
      const response = render(files, one);
      const got = await applyCase({ path: "a.ts", content, edit: response }, 1, {});
      const { root } = await makeTree({ "a.ts": content }, "fuzzpatch-batch-");
      const want = await applyEdits(root, response, { target: "a.ts" });
      assert.equal(got.ok, want.ok);
      if (want.errors.length > 0) return;
      const file = want.files[0];
      const asData = (e: EditReport) => plain({ ...e, ...(e.error && { error: errorData(e.error) }), ...(e.note && { note: errorData(e.note) }) });
      assert.deepEqual(plain(got.report.edits), (file?.edits ?? []).map(asData), "the same reports");
      assert.equal(got.report.status, file?.status);
      if (want.ok) assert.equal(got.content, await readFile(path.join(root, "a.ts"), "utf8"), "the text applyEdits wrote");
      else assert.equal(got.content, undefined);
    }),
    {
      numRuns: 60,
      // A block that empties the file, then one more: the file is still there (the case said "does not exist"; seed -674608355).
      examples: [
        [
          { "a.ts": ["const a = 1;", "const a = 1;", "const a = 1;"], "src/b.ts": ["const a = 1;"] },
          [
            { path: "a.ts", start: 0, length: 3, typo: false, replacement: [], format: "sr" },
            { path: "a.ts", start: 0, length: 1, typo: false, replacement: [], format: "sr" },
          ],
          "\n",
          false,
        ],
      ],
    },
  );
});

test("a case with content breaks a tie between places with the syntax judge, as applyEdits does (the property's seed -115373154)", async () => {
  // The blank line at the top and the one inside the unclosed `if` both fit; only one reading adds no syntax error.
  const content = "\nconst a = 1;\nif (x) {\n\n";
  const response = "*** Begin Patch\n*** Update File: a.ts\n@@\n-\n+added();\n*** End Patch\n";
  const got = await applyCase({ path: "a.ts", content, edit: response }, 1, {});
  const { root } = await makeTree({ "a.ts": content }, "fuzzpatch-batch-");
  const want = await applyEdits(root, response, { target: "a.ts" });
  assert.equal(want.files[0]?.edits[0]?.bySyntax, true, "the file layer decides it by syntax");
  assert.equal(got.ok, true);
  assert.equal(got.report.edits[0]?.bySyntax, true);
  assert.equal(got.content, await readFile(path.join(root, "a.ts"), "utf8"));
});

test("a result's text sent as its change to the case's text is rebuilt exactly, surrogate pairs cut or not", () => {
  // Texts from a few characters (a surrogate pair among them), so that edits share long starts and ends.
  const text = fc.array(fc.constantFrom("a", "b", "\n", "\uD83D\uDE00", "\uD83D", "é"), { maxLength: 40 }).map((cs) => cs.join(""));
  fc.assert(
    fc.property(text, text, text, text, (head, a, b, end) => {
      const base = head + a + end;
      const after = head + b + end;
      const delta = textDelta(base, after);
      assert.equal(withDelta(base, delta), after);
      assert.ok(delta.middle.length <= Math.max(a.length, b.length), "the change, not the text");
    }),
    { numRuns: 500 },
  );
});

test("a case's change as its formats said it rebuilds the result's text exactly, and is said for a text with one edit", async () => {
  await fc.assert(
    fc.asyncProperty(filesArb, fc.array(editArb, { minLength: 1, maxLength: 3 }), fc.constantFrom("\n", "\r\n"), async (files, edits, eol) => {
      const content = `${(files["a.ts"] as string[]).join(eol)}${eol}`;
      const c: BatchCase = { path: "a.ts", content, edit: render(files, edits.map((e) => ({ ...e, path: "a.ts" }))) };
      const { result, delta } = await applyCaseWithDelta(c, 1, {});
      assert.deepEqual(result, await applyCase(c, 1, {}), "the result applyCase gives");
      if (delta) assert.equal(withDelta(content, delta), result.content);
    }),
    { numRuns: 60 },
  );
  const one = await applyCaseWithDelta({ path: "a.ts", content: "one\ntwo\nthree\n", edit: "a.ts\n```\n<<<<<<< SEARCH\ntwo\n=======\nTWO\n>>>>>>> REPLACE\n```\n" }, 1, {});
  assert.deepEqual(one.delta, { start: 4, tail: 7, middle: "TWO" });
});

// Ties in a file of a known language: an exact match twice (the judge is never asked: one run), a
// line-trimmed tie (asked: a second run with the judge), each with and without a history to merge from.
const TIES: { name: string; content: string; response: string; history?: string[] }[] = [
  { name: "exact twice", content: "x = 1\ny = 2\nx = 1\n", response: "a.py\n```\n<<<<<<< SEARCH\nx = 1\n=======\nx = 3\n>>>>>>> REPLACE\n```\n" },
  {
    name: "exact twice, with a history",
    content: "x = 1\ny = 2\nx = 1\n",
    response: "a.py\n```\n<<<<<<< SEARCH\nx = 1\n=======\nx = 3\n>>>>>>> REPLACE\n```\n",
    history: ["x = 1\ny = 2\n"],
  },
  {
    name: "line-trimmed twice",
    content: "def f():\n    v = 1\n    return v\ndef g():\n    v = 1\n    return v\n",
    response: "a.py\n```\n<<<<<<< SEARCH\n  v = 1\n  return v\n=======\n  v = 2\n  return v\n>>>>>>> REPLACE\n```\n",
  },
  {
    name: "line-trimmed twice, with a history",
    content: "def f():\n    v = 1\n    return v\ndef g():\n    v = 1\n    return v\n",
    response: "a.py\n```\n<<<<<<< SEARCH\n  v = 1\n  return v\n=======\n  v = 2\n  return v\n>>>>>>> REPLACE\n```\n",
    history: ["def f():\n    v = 1\n    return v\n"],
  },
];

for (const t of TIES) {
  test(`a tie the syntax judge never weighs or cannot break gets what applyEdits gives: ${t.name}`, async () => {
    const got = await applyCase({ path: "a.py", content: t.content, edit: t.response, ...(t.history && { options: { history: t.history } }) }, 1, {});
    const { root } = await makeTree({ "a.py": t.content }, "fuzzpatch-batch-");
    const want = await applyEdits(root, t.response, { target: "a.py", ...(t.history && { history: { "a.py": t.history } }) });
    const asData = (e: EditReport) => plain({ ...e, ...(e.error && { error: errorData(e.error) }), ...(e.note && { note: errorData(e.note) }) });
    assert.equal(got.ok, want.ok);
    assert.deepEqual(plain(got.report.edits), (want.files[0]?.edits ?? []).map(asData));
    if (want.ok) assert.equal(got.content, await readFile(path.join(root, "a.py"), "utf8"));
  });
}

// The same ties, and the tie syntax breaks, once the judge and the grammar are loaded: one run with the judge from the start (apply-case.ts `runJudged`) gives what the probe's two runs gave.
const BREAKS = { name: "a tie syntax breaks (TypeScript)", content: "\nconst a = 1;\nif (x) {\n\n", response: "*** Begin Patch\n*** Update File: a.ts\n@@\n-\n+added();\n*** End Patch\n" };
for (const t of [...TIES, BREAKS]) {
  test(`with the judge loaded before, one run gives what the first call gave: ${t.name}`, async () => {
    const file = t === BREAKS ? "a.ts" : "a.py";
    const history = (t as { history?: string[] }).history;
    const c: BatchCase = { path: file, content: t.content, edit: t.response, ...(history && { options: { history } }) };
    const first = await applyCase(c, 1, {});
    // Loaded by the first call or an earlier test: the next call takes the one-run path.
    await judgeFor(file, t.content);
    assert.ok(readyJudge(file, t.content), "the judge and the grammar are loaded");
    const again = await applyCase(c, 1, {});
    assert.deepEqual(plain(again), plain(first));
    const { root } = await makeTree({ [file]: t.content }, "fuzzpatch-batch-");
    const want = await applyEdits(root, t.response, { target: file, ...(c.options?.history && { history: { [file]: c.options.history } }) });
    const asData = (e: EditReport) => plain({ ...e, ...(e.error && { error: errorData(e.error) }), ...(e.note && { note: errorData(e.note) }) });
    assert.deepEqual(plain(again.report.edits), (want.files[0]?.edits ?? []).map(asData), "the file layer's reports");
    if (t === BREAKS) assert.equal(again.report.edits[0]?.bySyntax, true);
  });
}

const CASES: BatchCase[] = [
  { id: "sr", path: "a.ts", content: "one\ntwo\n", edit: "a.ts\n```\n<<<<<<< SEARCH\ntwo\n=======\nTWO\n>>>>>>> REPLACE\n```\n" },
  { id: "json", path: "b.ts", content: "x = 1\n", edit: [{ path: "b.ts", oldString: "x = 1", newString: "x = 2" }] },
  { id: "missing", path: "c.ts", content: "a\n", edit: "c.ts\n```\n<<<<<<< SEARCH\nnot there\n=======\nb\n>>>>>>> REPLACE\n```\n" },
  { path: "d.ts", content: "q\n", edit: "--- a/d.ts\n+++ b/d.ts\n@@ -1 +1 @@\n-q\n+r\n", format: "udiff" },
  { id: 5, path: "e.ts", content: "a\nb\n", edit: "*** Begin Patch\n*** Update File: e.ts\n@@\n-b\n+B\n*** End Patch\n", options: { preset: "opencode" } },
];

test("applyMany: the results of every pool size are the in-thread ones, in input order", async () => {
  const many = Array.from({ length: 120 }, (_, k) => ({ ...(CASES[k % CASES.length] as BatchCase), id: k }));
  const inThread = await collect(many, { jobs: 0 });
  assert.deepEqual(
    inThread.slice(0, 5).map((r) => [r.id, r.ok, r.content]),
    [
      [0, true, "one\nTWO\n"],
      [1, true, "x = 2\n"],
      [2, false, undefined],
      [3, true, "r\n"],
      [4, true, "a\nB\n"],
    ],
  );
  assert.equal(inThread[2]?.error?.code, "NOT_FOUND");
  for (const jobs of [1, 2, 3]) assert.deepEqual(await collect(many, { jobs }), inThread, `jobs ${jobs}`);
});

test("held texts: the pool's mirror names the text the worker holds, for any order of texts, equal copies or the same strings", () => {
  fc.assert(
    fc.property(fc.array(fc.nat({ max: 2 * HELD_TEXTS }), { maxLength: 120 }), fc.boolean(), fc.constantFrom(40, 400, HELD_CHARS), (picks, copies, maxChars) => {
      const texts = Array.from({ length: 2 * HELD_TEXTS + 1 }, (_, k) => `text ${k}\n`.repeat(k + 1));
      // A bound on the characters held (texts of 7-119 characters here) lets texts go before the count does.
      const pool = new HeldTexts(HELD_TEXTS, maxChars);
      const worker = new HeldTexts(HELD_TEXTS, maxChars);
      for (const k of picks) {
        const sent = copies ? [...(texts[k] as string)].join("") : (texts[k] as string);
        // The pool's side (apply-many.ts `hold`), then the worker's (worker.ts `withHeldText`).
        const at = pool.find(sent);
        if (at < 0) pool.add(sent);
        else pool.take(at);
        if (at < 0) worker.add(sent);
        assert.equal(at < 0 ? sent : worker.take(at), texts[k]);
      }
    }),
  );
});

test("held texts: at most the count and the characters bound, the newest always held", () => {
  const held = new HeldTexts(3, 100);
  const a = "a".repeat(60);
  const b = "b".repeat(30);
  held.add(a);
  held.add(b);
  assert.deepEqual([held.find(a), held.find(b)], [0, 1]);
  held.add("c".repeat(20));
  assert.equal(held.find(a), -1, "110 characters: the oldest goes");
  assert.equal(held.take(0), b);
  const big = "d".repeat(500);
  held.add(big);
  assert.deepEqual([held.find(big), held.find(b)], [0, -1], "a text over the bound is held alone");
  const few = new HeldTexts(2, HELD_CHARS);
  for (const t of ["x", "y", "z"]) few.add(t);
  assert.deepEqual(["x", "y", "z"].map((t) => few.find(t)), [-1, 0, 1]);
});

test("applyMany: cases of recurring texts (held by a worker, posted without them) get the in-thread results", async () => {
  const files = Array.from({ length: HELD_TEXTS + 4 }, (_, k) => `def f${k}():\n    return ${k}\n`.repeat(3));
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  const cases: BatchCase[] = Array.from({ length: 150 }, (_, n) => {
    const k = next() % files.length;
    // Some cases carry a copy of the text (a pipeline reads each case anew), some the same string.
    const content = n % 3 === 0 ? [...(files[k] as string)].join("") : (files[k] as string);
    const edit = [{ path: "a.py", oldString: `    return ${k}\n`, newString: `    return ${k + n}\n`, replaceAll: n % 2 === 0 }];
    return { id: n, path: "a.py", content, edit };
  });
  const inThread = await collect(cases, { jobs: 0 });
  assert.equal(inThread.filter((r) => r.ok).length, cases.filter((_, n) => n % 2 === 0).length, "the replaceAll cases apply, the others are ambiguous");
  assert.ok(inThread.some((r) => r.ok && r.content?.includes("return")));
  for (const jobs of [2, 3]) assert.deepEqual(await collect(cases, { jobs }), inThread, `jobs ${jobs}`);
});

test("applyMany: a case's own id is said back; without one, its position", async () => {
  const results = await collect(CASES, { jobs: 1 });
  assert.deepEqual(
    results.map((r) => r.id),
    ["sr", "json", "missing", 4, 5],
  );
});

test("cases with a path are written under the root in input order (one file's cases on one worker), and not with dryRun", async () => {
  const { root } = await makeTree({ "f.txt": "v0\n", "g.txt": "w\n" }, "fuzzpatch-batch-");
  const steps: BatchCase[] = Array.from({ length: 30 }, (_, k) => ({ path: "f.txt", edit: [{ path: "f.txt", oldString: `v${k}`, newString: `v${k + 1}` }] }));
  steps.splice(10, 0, { path: "g.txt", edit: [{ path: "g.txt", oldString: "w", newString: "W" }] });
  const dry = await collect(steps, { jobs: 2, root, dryRun: true });
  assert.equal(dry[0]?.ok, true);
  assert.equal(dry[1]?.ok, false, "dry run: the second step finds v1 nowhere");
  assert.equal(await readFile(path.join(root, "f.txt"), "utf8"), "v0\n");
  const results = await collect(steps, { jobs: 2, root });
  assert.ok(results.every((r) => r.ok && r.report.written === true && r.content === undefined), JSON.stringify(results.find((r) => !r.ok)));
  assert.equal(await readFile(path.join(root, "f.txt"), "utf8"), "v30\n");
  assert.equal(await readFile(path.join(root, "g.txt"), "utf8"), "W\n");
});

const badCases: [string, unknown, string][] = [
  ["not an object", 42, "INVALID_INPUT"],
  ["no path", { edit: "x" }, "INVALID_INPUT"],
  ["content not a string", { path: "a", content: 1, edit: "x" }, "INVALID_INPUT"],
  ["edit not text or a list", { path: "a", content: "", edit: 3 }, "INVALID_INPUT"],
  ["bad engine option", { path: "a", content: "a\n", edit: [{ path: "a", oldString: "a", newString: "b" }], options: { fuzzyThreshold: 7 } }, "INVALID_INPUT"],
  ["a path case without a root", { path: "a", edit: "x" }, "INVALID_INPUT"],
  ["no edits in the response", { path: "a", content: "a\n", edit: "just prose" }, "PARSE"],
  ["an edit naming two files", { path: "a", content: "a\n", edit: [{ path: "a", oldString: "a", newString: "b" }, { path: "b", oldString: "a", newString: "b" }] }, "INVALID_INPUT"],
];
for (const [name, value, code] of badCases) {
  test(`a bad case is a failed result, never a throw: ${name}`, async () => {
    const r = await applyCase(value, 7, {});
    assert.equal(r.ok, false);
    assert.equal(r.error?.code, code, JSON.stringify(r.error));
  });
}

test("applyMany refuses bad options with INVALID_INPUT", () => {
  for (const jobs of [-1, 1.5, 1000]) assert.throws(() => applyMany([], { jobs }), (e: unknown) => e instanceof EditError && e.code === "INVALID_INPUT");
});

test("CLI batch: NDJSON results in order; shards split the cases; a bad line is a failed result; exit 1 when any case failed", async () => {
  const { root } = await makeTree({ "f.txt": "v0\n" }, "fuzzpatch-batch-");
  const lines = [...CASES.map((c) => JSON.stringify(c)), "", "{not json", JSON.stringify({ id: "file", path: "f.txt", edit: [{ path: "f.txt", oldString: "v0", newString: "v1" }] })];
  await writeFile(path.join(root, "cases.jsonl"), `${lines.join("\n")}\n`);
  const all = await runCli(["batch", "cases.jsonl", "--jobs", "2", "--dry-run"], root);
  assert.equal(all.code, 1, all.stderr);
  const results = all.stdout.trim().split("\n").map((l) => JSON.parse(l) as BatchResult);
  assert.deepEqual(
    results.map((r) => [r.id, r.ok]),
    [
      ["sr", true],
      ["json", true],
      ["missing", false],
      [4, true],
      [5, true],
      [7, false],
      ["file", true],
    ],
  );
  assert.equal(results[5]?.error?.code, "PARSE");
  assert.equal(await readFile(path.join(root, "f.txt"), "utf8"), "v0\n", "--dry-run writes nothing");
  const shards = await Promise.all(["1/3", "2/3", "3/3"].map((s) => runCli(["batch", "cases.jsonl", "--shard", s, "--jobs", "1", "--dry-run"], root)));
  const ids = shards.flatMap((s) => s.stdout.trim().split("\n").map((l) => (JSON.parse(l) as BatchResult).id));
  assert.deepEqual([...ids].sort(), results.map((r) => r.id).sort(), "the shards together are the whole");
  assert.deepEqual(
    shards[0]?.stdout.trim().split("\n").map((l) => (JSON.parse(l) as BatchResult).id),
    ["sr", 4, "file"],
  );
  const written = await runCli(["batch", "-", "--jobs", "1"], root, `${lines.at(-1)}\n`);
  assert.equal(written.code, 0, written.stderr);
  assert.equal(await readFile(path.join(root, "f.txt"), "utf8"), "v1\n");
  const badShard = await runCli(["batch", "cases.jsonl", "--shard", "4/3"], root);
  assert.equal(badShard.code, 2);
  assert.match(badShard.stderr, /--shard expects I\/N/);
  const missing = await runCli(["batch", "nope.jsonl"], root);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /Cannot read nope\.jsonl/);
});

/** The lines readline gives for `text` with `crlfDelay: Infinity` (what the CLI read before it read bytes). */
async function readlineLines(text: string): Promise<string[]> {
  const { createInterface } = await import("node:readline");
  const { Readable } = await import("node:stream");
  const out: string[] = [];
  for await (const line of createInterface({ input: Readable.from([Buffer.from(text, "utf8")]), crlfDelay: Number.POSITIVE_INFINITY })) out.push(line);
  return out;
}

test("inputLines cuts a byte stream where readline cuts its text, however the stream is chunked", async () => {
  const piece = fc.constantFrom("a", "{", "\n", "\r", "\r\n", " ", "é", "\u2028", "\uFEFF");
  await fc.assert(
    fc.asyncProperty(fc.array(piece, { maxLength: 40 }), fc.array(fc.nat(), { maxLength: 6 }), async (pieces, cuts) => {
      const bytes = Buffer.from(pieces.join(""), "utf8");
      const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
      const chunks = [0, ...at].map((from, k) => bytes.subarray(from, at[k] ?? bytes.length)).filter((c) => c.length > 0);
      async function* stream() {
        yield* chunks;
      }
      const got: InputLine[] = [];
      for await (const l of inputLines(stream())) got.push(l);
      const want = await readlineLines(pieces.join(""));
      assert.deepEqual(
        got.map((l) => new TextDecoder("utf-8", { ignoreBOM: true }).decode(l.bytes)),
        want,
      );
      assert.deepEqual(
        got.map((l) => l.line),
        want.map((_, k) => k + 1),
      );
      for (const l of got) assert.equal(isBlankLine(l.bytes), new TextDecoder("utf-8", { ignoreBOM: true }).decode(l.bytes).trim() === "");
    }),
    { numRuns: 300 },
  );
});

test("fileOfLine reads a case line's top-level path (when it has no content) as JSON.parse does, and never throws", () => {
  const value = fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.array(fc.string(), { maxLength: 2 }), fc.dictionary(fc.constantFrom("path", "content", "x"), fc.string(), { maxKeys: 2 }));
  const key = fc.constantFrom("path", "content", "id", "edit", "p\\u0061th", 'a\\"b', "x\\\\");
  fc.assert(
    fc.property(fc.array(fc.tuple(key, value), { maxLength: 5 }), fc.constantFrom("", " ", "\t"), (entries, space) => {
      const body = entries.map(([k, v]) => `"${k}"${space}:${space}${JSON.stringify(v)}`).join(`,${space}`);
      const text = `${space}{${space}${body}${space}}`;
      const parsed = JSON.parse(text) as Record<string, unknown>;
      const want = parsed.content === undefined && !("content" in parsed) && typeof parsed.path === "string" ? parsed.path : undefined;
      assert.equal(fileOfLine(Buffer.from(text, "utf8")), want, text);
    }),
    { numRuns: 500 },
  );
  fc.assert(fc.property(fc.string(), (text) => void fileOfLine(Buffer.from(text, "utf8"))));
});

import assert from "node:assert/strict";
import { test } from "node:test";
import { applyPatch as jsdiffApplyPatch } from "diff";
import fc from "fast-check";
import { EditError } from "../src/errors.ts";
import { type CreatePatchOptions, createPatch } from "../src/formats/create-patch.ts";
import { formatDiffForDisplay } from "../src/formats/display-diff.ts";
import { applyPatch } from "../src/formats/unified-apply.ts";
import { type FilePatch, type Hunk, parsePatch } from "../src/formats/unified-parse.ts";
import { repeatLengths } from "../src/text/repeats.ts";

interface Case {
  name: string;
  old: string;
  new: string;
  options?: CreatePatchOptions;
  expected: string;
}

const exampleRs = 'fn main() {\n    println!("Hello, world!");\n}\n';
const mainRs = 'fn main() {\n    println!("Hello!");\n}\n';

/** `n` lines of "0", each with its newline, where line `changed` (0-based) reads "1" if given. */
const zeros = (n: number, changed?: number) => Array.from({ length: n }, (_, i) => (i === changed ? "1\n" : "0\n")).join("");

const cases: Case[] = [
  {
    name: "spec: single-line replacement, fuzzy",
    old: exampleRs,
    new: exampleRs.replace("Hello, world", "Goodbye, world"),
    options: { fuzzy: true },
    expected: '@@ @@\n fn main() {\n-    println!("Hello, world!");\n+    println!("Goodbye, world!");\n }\n',
  },
  {
    name: "spec: single-line replacement, standard numbers and file headers",
    old: exampleRs,
    new: exampleRs.replace("Hello, world", "Goodbye, world"),
    options: { oldPath: "a/example.rs", newPath: "b/example.rs" },
    expected:
      '--- a/example.rs\n+++ b/example.rs\n@@ -1,3 +1,3 @@\n fn main() {\n-    println!("Hello, world!");\n+    println!("Goodbye, world!");\n }\n',
  },
  {
    name: "one path is used for both headers",
    old: "a\n",
    new: "b\n",
    options: { fuzzy: true, oldPath: "x.txt" },
    expected: "--- x.txt\n+++ x.txt\n@@ @@\n-a\n+b\n",
  },
  {
    name: "spec: beginning of file",
    old: mainRs,
    new: `// Copyright 2024 Example Corp.\n// Licensed under MIT\n${mainRs}`,
    expected: '@@ -1,3 +1,5 @@\n+// Copyright 2024 Example Corp.\n+// Licensed under MIT\n fn main() {\n     println!("Hello!");\n }\n',
  },
  {
    name: "spec: end of file, no final newline in the old text",
    old: "fn process() {\n}\n// End of implementation",
    new: "fn process() {\n}\n// End of implementation\n\nmod tests {}\n",
    expected:
      "@@ -1,3 +1,5 @@\n fn process() {\n }\n-// End of implementation\n\\ No newline at end of file\n+// End of implementation\n+\n+mod tests {}\n",
  },
  {
    name: "both texts without final newline",
    old: "a",
    new: "b",
    expected: "@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file\n",
  },
  {
    name: "unchanged last line without newline is marked once, as context",
    old: "a\nz",
    new: "b\nz",
    options: { fuzzy: true },
    expected: "@@ @@\n-a\n+b\n z\n\\ No newline at end of file\n",
  },
  {
    name: "removing the final newline",
    old: "a\nb\n",
    new: "a\nb",
    options: { fuzzy: true },
    expected: "@@ @@\n a\n-b\n+b\n\\ No newline at end of file\n",
  },
  {
    name: "created from empty",
    old: "",
    new: "x\ny\n",
    expected: "@@ -0,0 +1,2 @@\n+x\n+y\n",
  },
  {
    name: "emptied",
    old: "x\n",
    new: "",
    expected: "@@ -1 +0,0 @@\n-x\n",
  },
  {
    name: "CRLF texts diff as LF lines; the patch uses LF",
    old: "a\r\nb\r\nc\r\n",
    new: "a\r\nB\r\nc\r\n",
    options: { fuzzy: true },
    expected: "@@ @@\n a\n-b\n+B\n c\n",
  },
  {
    name: "a change of line endings only is no change",
    old: "a\r\nb\r\n",
    new: "a\nb\n",
    expected: "",
  },
  {
    name: "identical texts give an empty patch",
    old: "same\n",
    new: "same\n",
    expected: "",
  },
  {
    name: "context lines touching: one hunk",
    old: "1\n2\n3\n4\n5\n6\n",
    new: "1\nX\n3\n4\nY\n6\n",
    options: { context: 1 },
    expected: "@@ -1,6 +1,6 @@\n 1\n-2\n+X\n 3\n 4\n-5\n+Y\n 6\n",
  },
  {
    name: "context lines apart: two hunks with correct numbers",
    old: "1\n2\n3\n4\n5\n6\n7\n",
    new: "1\nX\n3\n4\n5\nY\n7\n",
    options: { context: 1 },
    expected: "@@ -1,3 +1,3 @@\n 1\n-2\n+X\n 3\n@@ -5,3 +5,3 @@\n 5\n-6\n+Y\n 7\n",
  },
  {
    name: "pure insertion with no context: numbers name the line before",
    old: "a\nb\n",
    new: "a\nnew\nb\n",
    options: { context: 0 },
    expected: "@@ -1,0 +2 @@\n+new\n",
  },
  {
    name: "fuzzy: context grows until the old side is unique",
    old: "A\nx\ny\nx\nB\nx\ny\nx\n",
    new: "A\nx\ny\nx\nB\nx\nY\nx\n",
    options: { fuzzy: true, context: 1 },
    expected: "@@ @@\n B\n x\n-y\n+Y\n x\n",
  },
  {
    name: "fuzzy: in equal lines the context grows to the one distinct line above, 10 lines up",
    old: `top\n${zeros(40)}`,
    new: `top\n${zeros(40, 10)}`,
    options: { fuzzy: true },
    expected: `@@ @@\n top\n${" 0\n".repeat(10)}-0\n+1\n${" 0\n".repeat(11)}`,
  },
  {
    name: "fuzzy: ... and 32 lines of growth on each side, the most it takes",
    old: `top\n${zeros(80)}`,
    new: `top\n${zeros(80, 34)}`,
    options: { fuzzy: true },
    expected: `@@ @@\n top\n${" 0\n".repeat(34)}-0\n+1\n${" 0\n".repeat(35)}`,
  },
  {
    name: "fuzzy: a hunk not unique within 32 more lines of context on each side keeps its context and gets its numbers",
    old: `top\n${zeros(80)}`,
    new: `top\n${zeros(80, 35)}`,
    options: { fuzzy: true },
    expected: "@@ -34,7 +34,7 @@\n 0\n 0\n 0\n-0\n+1\n 0\n 0\n 0\n",
  },
  {
    name: "fuzzy: 400 equal lines, one changed: numbered (only the whole file would be unique)",
    old: zeros(400),
    new: zeros(400, 150),
    options: { fuzzy: true },
    expected: "@@ -148,7 +148,7 @@\n 0\n 0\n 0\n-0\n+1\n 0\n 0\n 0\n",
  },
  {
    name: "fuzzy: numbered and unique hunks in one patch",
    old: `top\n${zeros(200)}`,
    new: `TOP\n${zeros(200, 150)}`,
    options: { fuzzy: true },
    expected: "@@ @@\n-top\n+TOP\n 0\n 0\n 0\n@@ -149,7 +149,7 @@\n 0\n 0\n 0\n-0\n+1\n 0\n 0\n 0\n",
  },
  {
    name: "fuzzy: uniqueness ignores surrounding whitespace",
    old: "  k\nv\nk\nv\n",
    new: "  k\nv\nk\nw\n",
    options: { fuzzy: true, context: 1 },
    expected: "@@ @@\n v\n k\n-v\n+w\n",
  },
  {
    name: "fuzzy: pure insertion with no context takes a line to anchor on",
    old: "p\nq\n",
    new: "p\nnew\nq\n",
    options: { fuzzy: true, context: 0 },
    expected: "@@ @@\n p\n+new\n",
  },
  {
    name: "-- then ++ would read as a file header: additions are written first",
    old: "-- a\n",
    new: "++ b\n",
    expected: "@@ -1 +1 @@\n+++ b\n--- a\n",
  },
  {
    name: "lines starting with marker characters are prefixed like any line",
    old: "@@ x\n\\ y\n- z\n",
    new: "@@ x\n\\ Y\n- z\n",
    options: { fuzzy: true },
    expected: "@@ @@\n @@ x\n-\\ y\n+\\ Y\n - z\n",
  },
];

for (const c of cases) {
  test(c.name, () => {
    assert.equal(createPatch(c.old, c.new, c.options), c.expected);
  });
}

test("spec: three changes in config.rs give three hunks that parse back", () => {
  const oldText =
    "use std::path::Path;\n\nstruct Config {\n    path: String,\n    timeout: u32,\n    retries: u8,\n}\n\nimpl Config {\n    fn new(path: &str) -> Self {\n        Config {\n            path: path.to_string(),\n            timeout: 30,\n            retries: 3,\n        }\n    }\n\n    fn helper(&self) {}\n\n    fn other(&self) {}\n\n    fn validate(&self) -> bool {\n        Path::new(&self.path).exists()\n    }\n}\n";
  const newText = oldText
    .replace("use std::path::Path;\n", "use std::path::Path;\nuse std::time::Duration;\n")
    .replace("timeout: u32", "timeout: Duration")
    .replace("timeout: 30", "timeout: Duration::from_secs(30)")
    .replace("        Path::new(&self.path).exists()\n", "        let path = Path::new(&self.path);\n        path.exists() && path.is_file()\n");
  const files = parsePatch(createPatch(oldText, newText, { oldPath: "config.rs" }));
  assert.equal(files.length, 1);
  assert.equal(files[0]?.newPath, "config.rs");
  assert.equal(files[0]?.hunks.length, 3);
  assert.equal(applyUnique(oldText, files[0]?.hunks ?? []), newText);
});

const badOptions: { name: string; options: CreatePatchOptions }[] = [
  { name: "negative context", options: { context: -1 } },
  { name: "fractional context", options: { context: 1.5 } },
  { name: "NaN context", options: { context: Number.NaN } },
];

for (const c of badOptions) {
  test(`invalid option: ${c.name}`, () => {
    assert.throws(
      () => createPatch("a\n", "b\n", c.options),
      (e: unknown) => e instanceof EditError && e.code === "INVALID_INPUT",
    );
  });
}

const displayCases: { name: string; patch: string; expected: string }[] = [
  {
    name: "common indentation of content lines is removed",
    patch: "--- a/f\n+++ b/f\n@@ @@\n         if (x) {\n-            a();\n+            b();\n         }\n",
    expected: "--- a/f\n+++ b/f\n@@ @@\n if (x) {\n-    a();\n+    b();\n }\n",
  },
  {
    name: "whitespace-only lines do not limit the trim",
    patch: "@@ @@\n     a\n \n-    b\n+    c\n",
    expected: "@@ @@\n a\n \n-b\n+c\n",
  },
  {
    name: "headers, markers and prose are untouched; no common indentation leaves the text as is",
    patch: "Fix:\n@@ -1,2 +1,2 @@\n x\n-  y\n\\ No newline at end of file\n",
    expected: "Fix:\n@@ -1,2 +1,2 @@\n x\n-  y\n\\ No newline at end of file\n",
  },
  {
    name: "tabs are trimmed as tabs",
    patch: "@@ @@\n \t\tfoo\n-\t\tbar\n+\t\t\tbaz\n",
    expected: "@@ @@\n foo\n-bar\n+\tbaz\n",
  },
];

for (const c of displayCases) {
  test(`formatDiffForDisplay: ${c.name}`, () => assert.equal(formatDiffForDisplay(c.patch), c.expected));
}

// ---------------------------------------------------------------------------
// Property tests

/** LF lines of a text as the patch sees them, plus whether it ends with a newline. */
function linesOf(text: string): { lines: string[]; finalNewline: boolean } {
  const t = text.replace(/\r\n/g, "\n");
  if (t === "") return { lines: [], finalNewline: true };
  const finalNewline = t.endsWith("\n");
  return { lines: (finalNewline ? t.slice(0, -1) : t).split("\n"), finalNewline };
}

function side(h: Hunk, which: "old" | "new"): string[] {
  return h.lines.filter((l) => l.kind !== (which === "old" ? "add" : "delete")).map((l) => l.text);
}

function occurrences(haystack: string[], needle: string[]): number[] {
  const found: number[] = [];
  for (let s = 0; s + needle.length <= haystack.length; s++) {
    if (needle.every((l, k) => haystack[s + k] === l)) found.push(s);
  }
  return found;
}

/** A reference applier for fuzzy output: every hunk at its one exact place (a numbered one at its number), in order. */
function applyUnique(oldText: string, hunks: Hunk[]): string {
  const { lines, finalNewline } = linesOf(oldText);
  const out: string[] = [];
  let cursor = 0;
  let endsWithNewline = finalNewline;
  for (const h of hunks) {
    const old = side(h, "old");
    let start: number;
    if (h.oldStart === undefined) {
      const at = occurrences(lines, old);
      assert.equal(at.length, 1, `hunk ${h.index} occurs ${at.length} times`);
      start = at[0] ?? 0;
    } else {
      start = old.length === 0 ? h.oldStart : h.oldStart - 1;
      assert.deepEqual(lines.slice(start, start + old.length), old, `hunk ${h.index} is at its number`);
    }
    assert.ok(start >= cursor, "hunks are in order and do not overlap");
    out.push(...lines.slice(cursor, start), ...side(h, "new"));
    cursor = start + old.length;
    if (cursor === lines.length) endsWithNewline = !h.newEofNoNewline;
  }
  out.push(...lines.slice(cursor));
  return out.length === 0 ? "" : out.join("\n") + (endsWithNewline ? "\n" : "");
}

// Few distinct lines, so texts repeat themselves and the hunks must grow; and
// every line that could be mistaken for patch syntax.
const lineArb = fc.constantFrom("a", "b", "c", "", " ", "  a", "}", "-- x", "++ y", "--- z", "+++ w", "-", "+", "@@ @@", "\\ No newline at end of file", "```");
const textArb = fc.tuple(fc.array(lineArb, { maxLength: 14 }), fc.boolean(), fc.boolean()).map(([ls, finalNewline, crlf]) => {
  if (ls.length === 0) return "";
  const eol = crlf ? "\r\n" : "\n";
  return ls.join(eol) + (finalNewline ? eol : "");
});
/** A second text made by editing the first, so diffs have both shared and changed parts. */
const pairArb = textArb.chain((a) =>
  fc
    .array(fc.tuple(fc.nat(), fc.constantFrom("delete", "insert", "replace"), lineArb), { maxLength: 4 })
    .chain((edits) =>
      fc.oneof(
        fc.constant(applyEdits(a, edits)),
        textArb, // sometimes an unrelated text
      ),
    )
    .map((b) => [a, b] as const),
);

function applyEdits(a: string, edits: [number, string, string][]): string {
  const { lines, finalNewline } = linesOf(a);
  for (const [pos, op, line] of edits) {
    const i = lines.length === 0 ? 0 : pos % (lines.length + 1);
    if (op === "insert" || lines.length === 0) lines.splice(i, 0, line);
    else if (op === "delete") lines.splice(Math.min(i, lines.length - 1), 1);
    else lines[Math.min(i, lines.length - 1)] = line;
  }
  return lines.length === 0 ? "" : lines.join("\n") + (finalNewline ? "\n" : "");
}

const contextArb = fc.integer({ min: 0, max: 4 });

function onlyFile(files: FilePatch[]): FilePatch {
  assert.equal(files.length, 1);
  const f = files[0];
  assert.ok(f);
  return f;
}

test("property: parsePatch(createPatch(a, b)) gives hunks whose sides are line runs of a and b", () => {
  fc.assert(
    fc.property(pairArb, contextArb, fc.boolean(), ([a, b], context, fuzzy) => {
      const patch = createPatch(a, b, { context, fuzzy });
      if (a.replace(/\r\n/g, "\n") === b.replace(/\r\n/g, "\n")) {
        assert.equal(patch, "");
        return;
      }
      const f = onlyFile(parsePatch(patch));
      assert.ok(f.hunks.length > 0);
      for (const h of f.hunks) {
        assert.ok(occurrences(linesOf(a).lines, side(h, "old")).length > 0, `old side of hunk ${h.index} not in a`);
        assert.ok(occurrences(linesOf(b).lines, side(h, "new")).length > 0, `new side of hunk ${h.index} not in b`);
      }
    }),
    { numRuns: 1500 },
  );
});

test("property: fuzzy hunks occur exactly once in a, and applying them there gives b", () => {
  fc.assert(
    fc.property(pairArb, contextArb, ([a, b], context) => {
      const patch = createPatch(a, b, { context, fuzzy: true });
      if (patch === "") return;
      assert.ok(patch.split("\n").every((l) => !l.startsWith("@@") || l === "@@ @@"));
      const f = onlyFile(parsePatch(patch));
      for (const h of f.hunks) {
        assert.equal(occurrences(linesOf(a).lines, side(h, "old")).length, 1, `hunk ${h.index}:\n${patch}`);
      }
      assert.equal(applyUnique(a, f.hunks), b.replace(/\r\n/g, "\n"));
    }),
    { numRuns: 1500 },
  );
});

test("property: jsdiff's own applyPatch applies the standard patch (LF texts)", () => {
  fc.assert(
    fc.property(pairArb, contextArb, ([a0, b0], context) => {
      const a = a0.replace(/\r\n/g, "\n");
      const b = b0.replace(/\r\n/g, "\n");
      const patch = createPatch(a, b, { context, fuzzy: false, oldPath: "a/f", newPath: "b/f" });
      if (patch === "") {
        assert.equal(a, b);
        return;
      }
      assert.equal(jsdiffApplyPatch(a, patch), b, patch);
    }),
    { numRuns: 1500 },
  );
});

test("property: standard hunk numbers locate the old side in a", () => {
  fc.assert(
    fc.property(pairArb, contextArb, ([a, b], context) => {
      const patch = createPatch(a, b, { context, fuzzy: false });
      if (patch === "") return;
      const old = linesOf(a).lines;
      for (const h of onlyFile(parsePatch(patch)).hunks) {
        const oldSide = side(h, "old");
        assert.equal(h.oldLines, oldSide.length);
        assert.equal(h.newLines, side(h, "new").length);
        const start = (h.oldStart ?? 0) - (oldSide.length === 0 ? 0 : 1);
        assert.deepEqual(old.slice(start, start + oldSide.length), oldSide);
      }
    }),
    { numRuns: 1000 },
  );
});

test("property: formatDiffForDisplay only removes leading whitespace from content lines", () => {
  fc.assert(
    fc.property(pairArb, ([a, b]) => {
      const patch = createPatch(a, b);
      const shown = formatDiffForDisplay(patch);
      const before = patch.split("\n");
      const after = shown.split("\n");
      assert.equal(after.length, before.length);
      before.forEach((l, i) => {
        const s = after[i] ?? "";
        if (s === l) return;
        // A changed line keeps its prefix and its text, losing only leading whitespace.
        assert.equal(s[0], l[0]);
        assert.ok(l.endsWith(s.slice(1)), `${JSON.stringify(l)} -> ${JSON.stringify(s)}`);
        assert.match(l.slice(1, l.length - s.length + 1), /^[ \t]+$/);
      });
    }),
    { numRuns: 300 },
  );
});

test("property: long runs of repeated lines: each hunk unique, or numbered at its place when 32 more lines on each side would not be; applyPatch gives b", () => {
  const longText = fc
    .array(fc.oneof({ arbitrary: fc.constant("x"), weight: 60 }, { arbitrary: fc.constant("y"), weight: 1 }), { minLength: 40, maxLength: 300 })
    .map((ls) => `${ls.join("\n")}\n`);
  const longPair = longText.chain((a) =>
    fc.array(fc.tuple(fc.nat(), fc.constantFrom("delete", "insert", "replace"), fc.constantFrom("x", "z")), { minLength: 1, maxLength: 3 }).map((edits) => [a, applyEdits(a, edits)] as const),
  );
  let numbered = 0;
  let unique = 0;
  fc.assert(
    fc.property(longPair, contextArb, ([a, b], context) => {
      const patch = createPatch(a, b, { context, fuzzy: true });
      if (patch === "") return;
      const hunks = onlyFile(parsePatch(patch)).hunks;
      const lines = linesOf(a).lines;
      for (const h of hunks) {
        const old = side(h, "old");
        if (h.oldStart === undefined) {
          unique++;
          assert.equal(occurrences(lines, old).length, 1);
          continue;
        }
        numbered++;
        const at = old.length === 0 ? h.oldStart : h.oldStart - 1;
        assert.deepEqual(lines.slice(at, at + old.length), old);
        const grown = lines.slice(Math.max(0, at - 32), at + old.length + 32);
        assert.ok(occurrences(lines, grown).length > 1, `hunk ${h.index} could have grown to a unique one:\n${patch}`);
      }
      assert.equal(applyUnique(a, hunks), b);
      assert.equal(applyPatch(a, patch).content, b);
    }),
    { numRuns: 300 },
  );
  // Both kinds were generated, so both branches above were checked.
  assert.ok(numbered > 0 && unique > 0, `numbered ${numbered}, unique ${unique}`);
});

test("repeatLengths: for each position, the longest run starting there that starts elsewhere too (up to a cap)", () => {
  const brute = (ids: number[]) =>
    ids.map((_, i) => {
      let best = 0;
      for (let j = 0; j < ids.length; j++) {
        let h = 0;
        while (j !== i && i + h < ids.length && j + h < ids.length && ids[i + h] === ids[j + h]) h++;
        best = Math.max(best, h);
      }
      return best;
    });
  fc.assert(
    fc.property(fc.array(fc.nat({ max: 3 }), { maxLength: 60 }), fc.integer({ min: 1, max: 20 }), (ids, cap) => {
      const expected = brute(ids);
      assert.deepEqual([...repeatLengths(Int32Array.from(ids))], expected);
      // Built only as deep as `cap`: lengths from there on read as `cap`.
      assert.deepEqual(
        [...repeatLengths(Int32Array.from(ids), cap)],
        expected.map((x) => Math.min(x, cap)),
      );
    }),
    { numRuns: 1000 },
  );
  assert.deepEqual([...repeatLengths(Int32Array.from([5, 5, 5, 5]))], [3, 3, 2, 1]);
  assert.deepEqual([...repeatLengths(Int32Array.from([0, 1, 2]))], [0, 0, 0]);
});

test("createPatch takes a time budget: an aborted signal is TIMEOUT, bad budget options are INVALID_INPUT", () => {
  const a = "a\nb\nc\n";
  const b = "a\nB\nc\n";
  const aborted = new AbortController();
  aborted.abort();
  assert.throws(() => createPatch(a, b, { signal: aborted.signal }), (e: unknown) => e instanceof EditError && e.code === "TIMEOUT");
  assert.throws(() => createPatch(a, b, { timeoutMs: -1 }), (e: unknown) => e instanceof EditError && e.code === "INVALID_INPUT" && /timeoutMs/.test(e.message));
  assert.throws(() => createPatch(a, b, { signal: {} as AbortSignal }), (e: unknown) => e instanceof EditError && e.code === "INVALID_INPUT" && /signal/.test(e.message));
  assert.equal(createPatch(a, b, { timeoutMs: 10_000, signal: new AbortController().signal }), createPatch(a, b));
  // Nothing to diff: no work, so no check either.
  assert.equal(createPatch(a, a, { signal: aborted.signal }), "");
});

// Issue 24 item 2: called the jsdiff way, createPatch(fileName, oldStr, newStr), the texts were misread silently.
const badCalls: { name: string; call: () => unknown; says: RegExp }[] = [
  { name: "jsdiff's createPatch(fileName, before, after)", call: () => createPatch("x.js", "a\n", "b\n" as never), says: /third argument must be an options object, got a string/ },
  { name: "jsdiff's six arguments", call: () => (createPatch as (...a: unknown[]) => string)("x.js", "a\n", "b\n", "old", "new", {}), says: /third argument must be an options object, got a string/ },
  { name: "a number as options", call: () => createPatch("a\n", "b\n", 3 as never), says: /got a number/ },
  { name: "an array as options", call: () => createPatch("a\n", "b\n", [] as never), says: /got an array/ },
  { name: "a non-boolean fuzzy", call: () => createPatch("a\n", "b\n", { fuzzy: "yes" as never }), says: /'fuzzy' must be true or false/ },
  { name: "a non-string oldPath", call: () => createPatch("a\n", "b\n", { oldPath: 1 as never }), says: /'oldPath' must be a string/ },
];
for (const c of badCalls) {
  test(`createPatch refuses ${c.name} with INVALID_INPUT showing the signature`, () => {
    assert.throws(c.call, (e: unknown) => e instanceof EditError && e.code === "INVALID_INPUT" && c.says.test(e.message) && /createPatch\(oldText, newText, options\?\)/.test(e.message));
  });
}

test("createPatch writes numbered hunks by default, count 1 left out as diff(1) does; fuzzy on request", () => {
  assert.equal(createPatch("", "x\n", { oldPath: "/dev/null", newPath: "b/x" }), "--- /dev/null\n+++ b/x\n@@ -0,0 +1 @@\n+x\n");
  assert.equal(createPatch("a\nb\n", "a\nc\n"), "@@ -1,2 +1,2 @@\n a\n-b\n+c\n");
  assert.equal(createPatch("a\nb\n", "a\nc\n", { fuzzy: true }), "@@ @@\n a\n-b\n+c\n");
});

import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { EditError, type EditErrorCode } from "../src/errors.ts";
import { createPatch } from "../src/formats/create-patch.ts";
import { type ApplyPatchOptions, applyPatch, applyPatchWithChange, type HunkReport, type PatchResult } from "../src/formats/unified-apply.ts";
import { applyChanges } from "../src/text/change-list.ts";
import { lineScanStats } from "../src/text/document.ts";
import { reverseUnifiedDiff } from "../src/formats/unified-reverse.ts";
import { specBeginning, specMulti, specSingle, specThreeHunks } from "./helpers/spec-patches.ts";

// ---------------------------------------------------------------------------
// The specification's own examples (fuzzy unified diff spec, "Examples").

const exampleRs = 'fn main() {\n    println!("Hello, world!");\n}\n';
const computeRs = `fn compute(x: i32) -> i32 {
    let y = x * 2;
    println!("Value: {}", y);
    println!("Debug info:");
    println!("  - multiplier: 2");
    println!("  - input: {}", x);
    y
}
`;
const configRs = `use std::path::Path;

struct Config {
    path: String,
    timeout: u32,
    retries: u8,
}

impl Config {
    fn new(path: &str) -> Self {
        Config {
            path: path.to_string(),
            timeout: 30,
            retries: 3,
        }
    }

    fn validate(&self) -> bool {
        Path::new(&self.path).exists()
    }
}
`;
const mainRs = 'fn main() {\n    println!("Hello!");\n}\n';
const footerRs = "fn process() {\n    // ... processing code\n}\n// End of implementation\n";

interface Case {
  name: string;
  content: string;
  patch: string;
  expected: string;
  options?: ApplyPatchOptions;
  /** Checks on the hunk reports. */
  hunks?: (hunks: HunkReport[]) => void;
}

const cases: Case[] = [
  {
    name: "spec: simple single-line replacement (context written with two spaces)",
    content: exampleRs,
    patch: specSingle,
    expected: 'fn main() {\n    println!("Goodbye, world!");\n}\n',
    hunks: (h) => assert.deepEqual([h[0]?.strategy, h[0]?.startLine, h[0]?.endLine], ["line-trimmed", 1, 3]),
  },
  {
    name: "spec: multi-line changes, example 1 (several lines replaced by fewer)",
    content: computeRs,
    patch: specMulti,
    expected: 'fn compute(x: i32) -> i32 {\n    let y = x + 10;\n    println!("Result: {}", y);\n    println!("Input was: {}", x);\n    y\n}\n',
  },
  {
    name: "spec: multi-line changes, example 2 (lines replaced by more)",
    content: computeRs,
    patch: `@@ @@
  fn compute(x: i32) -> i32 {
     let y = x * 2;
-    println!("Value: {}", y);
-    println!("Debug info:");
+    println!("Computing result...");
+    println!("Step 1: Initialize");
+    println!("Step 2: Multiply");
+    println!("Step 3: Validate");
     println!("  - multiplier: 2");
     println!("  - input: {}", x);
     y
  }
`,
    expected: computeRs.replace(
      '    println!("Value: {}", y);\n    println!("Debug info:");\n',
      '    println!("Computing result...");\n    println!("Step 1: Initialize");\n    println!("Step 2: Multiply");\n    println!("Step 3: Validate");\n',
    ),
  },
  {
    name: "spec: three hunks in one patch",
    content: configRs,
    patch: specThreeHunks,
    expected: configRs
      .replace("use std::path::Path;\n", "use std::path::Path;\nuse std::time::Duration;\n")
      .replace("timeout: u32,", "timeout: Duration,")
      .replace("timeout: 30,", "timeout: Duration::from_secs(30),")
      .replace("        Path::new(&self.path).exists()\n", "        let path = Path::new(&self.path);\n        path.exists() && path.is_file()\n"),
    hunks: (h) => {
      assert.deepEqual(
        h.map((r) => [r.index, r.startLine, r.endLine, r.strategy, r.score]),
        [
          [0, 1, 7, "exact", 1],
          [1, 10, 16, "exact", 1],
          [2, 18, 20, "exact", 1],
        ],
      );
    },
  },
  {
    name: "spec: beginning of file, header added (fenced patch, unprefixed last line is prose)",
    content: mainRs,
    patch: specBeginning,
    expected: `// Copyright 2024 Example Corp.\n// Licensed under MIT\n${mainRs}`,
  },
  {
    name: "spec: end of file as printed, context lines without their leading space",
    content: footerRs,
    patch:
      "--- filename: config.rs\n+++ filename: config.rs\n@@ @@\nfn process() {\n    // ... processing code\n}\n-// End of implementation\n+// End of implementation\n+\n+#[cfg(test)]\n+mod tests {\n+    // Tests go here\n+}\n",
    expected: `${footerRs}\n#[cfg(test)]\nmod tests {\n    // Tests go here\n}\n`,
  },
  // --- Matching through the cascade --------------------------------------
  {
    name: "hunk written with other indentation: found trimmed, added lines re-indented to the file",
    content: "class A {\n    run() {\n        go();\n    }\n}\n",
    patch: "@@ @@\n  run() {\n-    go();\n+    ready();\n+    go();\n  }\n",
    expected: "class A {\n    run() {\n        ready();\n        go();\n    }\n}\n",
    hunks: (h) => assert.equal(h[0]?.fuzzy, true),
  },
  {
    name: "a misremembered context line: found by the cascade, the file's own line is kept",
    content: "function computeTotal(items) {\n  let total = 0;\n  for (const item of items) total += item.price;\n  return total;\n}\n",
    patch: "@@ @@\n function computeTotal(items) {\n   let total = 0;\n-  for (const item of items) total += item.price;\n+  for (const item of items) total += item.price * item.qty;\n   return totl;\n }\n",
    expected: "function computeTotal(items) {\n  let total = 0;\n  for (const item of items) total += item.price * item.qty;\n  return total;\n}\n",
    hunks: (h) => {
      assert.equal(h[0]?.strategy, "block-anchor");
      assert.ok((h[0]?.score ?? 1) < 1);
    },
  },
  {
    name: "the opencode preset applies the spec's single-line replacement",
    content: exampleRs,
    patch: '@@ @@\n  fn main() {\n-    println!("Hello, world!");\n+    println!("Goodbye, world!");\n  }\n',
    options: { preset: "opencode" },
    expected: 'fn main() {\n    println!("Goodbye, world!");\n}\n',
  },
  {
    name: "a hunk line is a whole line: `foo();` does not match inside `x = foo();`",
    content: "x = foo();\nfoo();\n",
    patch: "@@ @@\n-foo();\n+bar();\n",
    expected: "x = foo();\nbar();\n",
  },
  {
    name: "trailing context is checked: of two places with the same leading context, the one whose trailing context fits",
    content: "if (a) {\n  x();\n  y();\n}\nif (a) {\n  x();\n  z();\n}\n",
    patch: "@@ @@\n if (a) {\n-  x();\n+  w();\n   z();\n",
    expected: "if (a) {\n  x();\n  y();\n}\nif (a) {\n  w();\n  z();\n}\n",
    hunks: (h) => assert.equal(h[0]?.startLine, 5),
  },
  {
    name: "deleted lines decide between places with the same context",
    content: "{\n  a\n}\n{\n  b\n}\n",
    patch: "@@ @@\n {\n-  b\n+  c\n }\n",
    expected: "{\n  a\n}\n{\n  c\n}\n",
  },
  {
    name: "blank context line without its space",
    content: "one\n\ntwo\nthree\n",
    patch: "@@ @@\n one\n\n-two\n+TWO\n three\n",
    expected: "one\n\nTWO\nthree\n",
  },
  {
    name: "lines starting with -- and ++ are removed and added as text",
    content: "SELECT 1;\n-- old note\n++i;\nSELECT 2;\n",
    patch: "@@ @@\n SELECT 1;\n--- old note\n-++i;\n+-- new note\n+++j;\n SELECT 2;\n",
    expected: "SELECT 1;\n-- new note\n++j;\nSELECT 2;\n",
  },
  {
    name: "lines that look like patch syntax are content",
    content: "@@ @@\n--- a\n+++ b\n\\ No newline at end of file\n",
    // Additions first: "---- a" directly followed by "++++ c" would be a file header pair.
    patch: "@@ @@\n @@ @@\n++++ c\n---- a\n ++++ b\n",
    expected: "@@ @@\n+++ c\n+++ b\n\\ No newline at end of file\n",
  },
  // --- File boundaries -----------------------------------------------------
  {
    name: "deleting the first line keeps the final newline",
    content: "first\nsecond\nthird\n",
    patch: "@@ @@\n-first\n second\n",
    expected: "second\nthird\n",
  },
  {
    name: "deleting the first line of a file without a final newline keeps it without",
    content: "first\nsecond",
    patch: "@@ @@\n-first\n second\n",
    expected: "second",
  },
  {
    name: "deleting the last line keeps the file's final newline",
    content: "a\nb\nc\n",
    patch: "@@ @@\n b\n-c\n",
    expected: "a\nb\n",
  },
  {
    name: "deleting the last line of a file without a final newline (no marker) keeps it without",
    content: "a\nb\nc",
    patch: "@@ @@\n b\n-c\n",
    expected: "a\nb",
  },
  {
    name: "\\ No newline on the old side only: the final newline is added",
    content: "a\nb",
    patch: "@@ @@\n a\n-b\n\\ No newline at end of file\n+b\n",
    expected: "a\nb\n",
  },
  {
    name: "\\ No newline on the new side only: the final newline is removed",
    content: "a\nb\n",
    patch: "@@ @@\n a\n-b\n+b\n\\ No newline at end of file\n",
    expected: "a\nb",
  },
  {
    name: "\\ No newline on both sides: the last line changes, still without newline",
    content: "a\nb",
    patch: "@@ @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n",
    expected: "a\nc",
  },
  {
    name: "the no-newline marker picks the occurrence at the end of the file",
    content: "x\ny\nx\ny",
    patch: "@@ @@\n x\n-y\n\\ No newline at end of file\n+z\n\\ No newline at end of file\n",
    expected: "x\ny\nx\nz",
    hunks: (h) => assert.equal(h[0]?.resolvedBy, "end-of-file"),
  },
  {
    name: "less context before the change than after: the match at the start of the file",
    content: "a\nb\nc\nd\na\nb\nc\n",
    patch: "@@ @@\n+top\n a\n b\n c\n",
    expected: "top\na\nb\nc\nd\na\nb\nc\n",
    hunks: (h) => assert.equal(h[0]?.resolvedBy, "boundary"),
  },
  {
    name: "less context after the change than before: the match at the end of the file",
    content: "a\nb\nc\nd\na\nb\nc\n",
    patch: "@@ @@\n a\n b\n c\n+bottom\n",
    expected: "a\nb\nc\nd\na\nb\nc\nbottom\n",
    hunks: (h) => assert.equal(h[0]?.resolvedBy, "boundary"),
  },
  // --- Several hunks -------------------------------------------------------
  {
    name: "hunks in order: the second hunk's text before and after the first is taken after it",
    content: "x\na\nx\nb\nx\n",
    patch: "@@ @@\n b\n@@ @@\n-x\n+y\n",
    expected: "x\na\nx\nb\ny\n",
    hunks: (h) => assert.deepEqual([h[1]?.startLine, h[1]?.resolvedBy], [5, "order"]),
  },
  {
    name: "a hunk may be found above the previous one when it is unique there",
    content: "a\nb\nc\nd\n",
    patch: "@@ @@\n-d\n+D\n@@ @@\n-a\n+A\n",
    expected: "A\nb\nc\nD\n",
  },
  {
    name: "adjacent hunks apply independently",
    content: "a\nb\nc\nd\ne\nf\n",
    patch: "@@ @@\n b\n-c\n+C\n@@ @@\n-d\n+D\n e\n",
    expected: "a\nb\nC\nD\ne\nf\n",
    hunks: (h) => assert.deepEqual(h.map((r) => r.merged), [false, false]),
  },
  {
    name: "overlapping hunks that agree are merged",
    content: "a\nb\nc\nd\ne\nf\n",
    patch: "@@ @@\n a\n-b\n+B\n c\n d\n@@ @@\n c\n d\n-e\n+E\n f\n",
    expected: "a\nB\nc\nd\nE\nf\n",
    hunks: (h) => assert.deepEqual(h.map((r) => r.merged), [true, true]),
  },
  {
    name: "a hunk repeated twice is applied once",
    content: "a\nb\nc\n",
    patch: "@@ @@\n a\n-b\n+B\n c\n@@ @@\n a\n-b\n+B\n c\n",
    expected: "a\nB\nc\n",
  },
  {
    name: "a line deleted by one overlapping hunk and kept as context by the other is deleted",
    content: "a\nb\nc\nd\n",
    patch: "@@ @@\n a\n-b\n c\n@@ @@\n b\n-c\n+C\n d\n",
    expected: "a\nC\nd\n",
  },
  // --- Hints and choices ----------------------------------------------------
  {
    name: "the header's line number decides between equal candidates",
    content: "x\na\nx\nb\nx\n",
    patch: "@@ -3,1 +3,1 @@\n-x\n+y\n",
    expected: "x\na\ny\nb\nx\n",
    hunks: (h) => assert.equal(h[0]?.resolvedBy, "line-hint"),
  },
  {
    name: "a later hunk's line number is shifted by the previous hunk's offset",
    content: "pad\nu\nx\nq\nx\nr\nx\n",
    // Written for the file without "pad": hunk 1 says line 1 and is found at 2, so hunk 2's line 4 means line 5.
    patch: "@@ -1,1 +1,1 @@\n-u\n+U\n@@ -4,1 +4,1 @@\n-x\n+Y\n",
    expected: "pad\nU\nx\nq\nY\nr\nx\n",
    hunks: (h) => assert.deepEqual([h[1]?.startLine, h[1]?.resolvedBy], [5, "line-hint"]),
  },
  {
    name: "resolveAmbiguity picks a candidate",
    content: "x\na\nx\nb\nx\n",
    patch: "@@ @@\n-x\n+y\n",
    options: { resolveAmbiguity: (cands) => cands.findIndex((c) => c.startLine === 5) },
    expected: "x\na\nx\nb\ny\n",
    hunks: (h) => assert.equal(h[0]?.resolvedBy, "callback"),
  },
  // --- Special hunks ----------------------------------------------------
  {
    name: "a context-only hunk verifies and changes nothing",
    content: "a\nb\nc\n",
    patch: "@@ @@\n a\n b\n",
    expected: "a\nb\nc\n",
    hunks: (h) => assert.deepEqual([h[0]?.changed, h[0]?.startLine, h[0]?.endLine], [false, 1, 2]),
  },
  {
    name: "a context-only hunk next to a change",
    content: "a\nb\nc\n",
    patch: "@@ @@\n a\n@@ @@\n-c\n+C\n",
    expected: "a\nb\nC\n",
  },
  {
    name: "additions only, in an empty file",
    content: "",
    patch: "@@ @@\n+one\n+two\n",
    expected: "one\ntwo\n",
    hunks: (h) => assert.equal(h[0]?.strategy, "create"),
  },
  {
    name: "a /dev/null creation patch on empty content, without final newline",
    content: "",
    patch: "--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n\\ No newline at end of file\n",
    expected: "one\ntwo",
  },
  {
    name: "a creation patch of one blank line",
    content: "",
    patch: "@@ -0,0 +1 @@\n+\n",
    expected: "\n",
  },
  {
    name: "additions only with a numbered header insert after the given line",
    content: "a\nb\nc\n",
    patch: "@@ -2,0 +3,1 @@\n+inserted\n",
    expected: "a\nb\ninserted\nc\n",
    hunks: (h) => assert.deepEqual([h[0]?.strategy, h[0]?.startLine, h[0]?.endLine], ["line-hint", 3, 2]),
  },
  {
    name: "deletions only (no context) are located by the deleted lines",
    content: "a\nb\nc\n",
    patch: "@@ @@\n-b\n",
    expected: "a\nc\n",
  },
  {
    name: "a deletion patch that removes every line yields empty content",
    content: "a\nb\n",
    patch: "--- a/f\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n",
    expected: "",
  },
  {
    name: "replacing a line by one empty line keeps the line",
    content: "a\nb\nc\n",
    patch: "@@ @@\n a\n-b\n+\n c\n",
    expected: "a\n\nc\n",
  },
  {
    name: "an old side of blank lines only is found as a run of blank lines",
    content: "a\n\n\nb\n",
    patch: "@@ @@\n \n-\n+x\n",
    expected: "a\n\nx\nb\n",
  },
  // --- Bytes of the file ------------------------------------------------------
  {
    name: "a CRLF file stays CRLF, added lines included",
    content: "a\r\nb\r\nc\r\n",
    patch: "@@ @@\n a\n-b\n+B\n+B2\n c\n",
    expected: "a\r\nB\r\nB2\r\nc\r\n",
  },
  {
    name: "a patch written with CRLF applies to an LF file as LF",
    content: "a\nb\nc\n",
    patch: "@@ @@\r\n a\r\n-b\r\n+B\r\n c\r\n",
    expected: "a\nB\nc\n",
  },
  {
    name: "the BOM is kept",
    content: "\uFEFFa\nb\n",
    patch: "@@ @@\n-a\n+A\n b\n",
    expected: "\uFEFFA\nb\n",
  },
  {
    name: "adding the final newline of a CRLF file adds CRLF",
    content: "a\r\nb",
    patch: "@@ @@\n a\n-b\n\\ No newline at end of file\n+b\n",
    expected: "a\r\nb\r\n",
  },
];

for (const c of cases) {
  test(c.name, () => {
    const result: PatchResult = applyPatch(c.content, c.patch, c.options);
    assert.equal(result.content, c.expected);
    c.hunks?.(result.hunks);
  });
}

// ---------------------------------------------------------------------------
// Failures: nothing is applied, and the error says which hunk and why.

interface ErrorCase {
  name: string;
  content: string;
  patch: string;
  code: EditErrorCode;
  message: RegExp;
  options?: ApplyPatchOptions;
  check?: (e: EditError) => void;
}

const errorCases: ErrorCase[] = [
  {
    name: "trailing context that does not match is not found, with the closest lines and how they differ",
    content: "function f() {\n  a();\n  b();\n  return 1;\n}\n\nfunction g() {}\n",
    // The differing context line is next to the change: patch's fuzz never reads past that one.
    patch: "@@ @@\n function f() {\n   a();\n-  b();\n+  B();\n   return 2; // changed\n",
    code: "NOT_FOUND",
    message: /^Hunk 1 \(patch line 1\): The hunk's old side .* was not found[\s\S]*closest text is lines 1-4[\s\S]*file line 4: return 1;[\s\S]*your text: {3}return 2; \/\/ changed/,
    check: (e) => {
      assert.equal(e.detail.index, 0);
      assert.equal(e.detail.closest?.startLine, 1);
    },
  },
  {
    name: "the same context in several places is AMBIGUOUS with every candidate's lines",
    content: "x\na\nx\nb\nx\n",
    patch: "@@ @@\n-x\n+y\n",
    code: "AMBIGUOUS",
    message: /Hunk 1 \(patch line 1\): .*matches 3 places[\s\S]*lines 1-1[\s\S]*lines 3-3[\s\S]*lines 5-5/,
    check: (e) => assert.deepEqual(e.detail.candidates?.map((c) => [c.startLine, c.endLine]), [[1, 1], [3, 3], [5, 5]]),
  },
  {
    name: "resolveAmbiguity returning undefined refuses",
    content: "x\na\nx\n",
    patch: "@@ @@\n-x\n+y\n",
    options: { resolveAmbiguity: () => undefined },
    code: "AMBIGUOUS",
    message: /matches 2 places/,
  },
  {
    name: "a hint that is not clearly nearest does not decide",
    content: "x\na\nx\nb\nx\n",
    patch: "@@ -4,1 +4,1 @@\n-x\n+y\n",
    code: "AMBIGUOUS",
    message: /matches 3 places/,
  },
  {
    name: "overlapping hunks that disagree are a CONFLICT",
    content: "a\nb\nc\n",
    patch: "@@ @@\n a\n-b\n+B\n c\n@@ @@\n a\n-b\n+X\n c\n",
    code: "CONFLICT",
    message: /Hunk 2 \(patch line 6\): It overlaps hunk 1 \(patch line 1\)/,
    check: (e) => assert.equal(e.detail.index, 1),
  },
  {
    name: "a context-only hunk whose lines are absent fails",
    content: "a\nb\n",
    patch: "@@ @@\n q\n",
    code: "NOT_FOUND",
    message: /Hunk 1 .*was not found/,
  },
  {
    name: "additions only without context in a non-empty file are a PARSE error",
    content: "a\n",
    patch: "@@ @@\n+b\n",
    code: "PARSE",
    message: /Hunk 1 \(patch line 1\): the hunk only adds lines and has no context lines/,
    check: (e) => assert.equal(e.detail.line, 1),
  },
  {
    name: "every failed hunk is listed; the code is the first failure's",
    content: "a\nb\nc\nd\n",
    patch: "@@ @@\n a\n-b\n+B\n@@ @@\n q\n-r\n+R\n@@ @@\n-d\n+D\n@@ @@\n+lonely\n",
    code: "NOT_FOUND",
    message: /^2 of 4 hunks failed; nothing was applied[\s\S]*Hunk 2 \(patch line 5\)[\s\S]*Hunk 4 \(patch line 12\): the hunk only adds lines/,
    check: (e) => {
      const failures = e.detail.failures as { index: number; code: string; message: string }[];
      assert.deepEqual(
        failures.map((f) => [f.index, f.code]),
        [
          [1, "NOT_FOUND"],
          [3, "PARSE"],
        ],
      );
      assert.match(failures[0]?.message ?? "", /^Hunk 2/);
    },
  },
  {
    name: "a single failure among several hunks says the others were found and nothing applied",
    content: "a\nb\n",
    patch: "@@ @@\n-a\n+A\n@@ @@\n-zzz\n+y\n",
    code: "NOT_FOUND",
    message: /^Hunk 2 \(patch line 4\)[\s\S]*Nothing was applied \(the other 1 hunk was found\)/,
    check: (e) => assert.equal((e.detail.failures as unknown[]).length, 1),
  },
  {
    name: "prose misread as unprefixed context is refused, with a note on the line",
    content: "a\nb\nc\nd\n",
    patch: "@@ @@\n-a\n+A\n\nAlso change c:\n-c\n+C\n",
    code: "NOT_FOUND",
    message: /Patch line 5 had no ' ', '-' or '\+' prefix and was read as unchanged context/,
  },
  {
    name: "a hunk changing the final newline must reach the end of the file",
    content: "a\nb\nc\n",
    patch: "@@ @@\n a\n-b\n+b\n\\ No newline at end of file\n",
    code: "NOT_FOUND",
    message: /changes the file's final newline.*1 more line/,
  },
  {
    name: "a patch for several files",
    content: "a\n",
    patch: "--- a/x\n+++ b/x\n@@ @@\n-a\n+b\n--- a/y\n+++ b/y\n@@ @@\n-c\n+d\n",
    code: "INVALID_INPUT",
    message: /2 files \(x, y\).*applyEdits/,
  },
  {
    name: "a creation patch on a file with content",
    content: "already here\n",
    patch: "--- /dev/null\n+++ b/x\n@@ -0,0 +1 @@\n+new\n",
    code: "CONFLICT",
    message: /creates the file/,
  },
  {
    name: "a deletion patch that leaves lines",
    content: "a\nb\nc\n",
    patch: "--- a/x\n+++ /dev/null\n@@ @@\n-a\n-b\n",
    code: "CONFLICT",
    message: /deletes the file .* 1 line of the file is not/,
  },
  {
    name: "a malformed patch is a PARSE error",
    content: "a\n",
    patch: "no diff here",
    code: "PARSE",
    message: /No hunk found/,
  },
  {
    name: "an unknown preset",
    content: "a\n",
    patch: "@@ @@\n-a\n+b\n",
    options: { preset: "nope" as never },
    code: "INVALID_INPUT",
    message: /Unknown preset/,
  },
  {
    name: "a fuzzyThreshold out of range",
    content: "a\n",
    patch: "@@ @@\n-a\n+b\n",
    options: { fuzzyThreshold: 2 },
    code: "INVALID_INPUT",
    message: /fuzzyThreshold/,
  },
];

for (const c of errorCases) {
  test(`error: ${c.name}`, () => {
    assert.throws(
      () => applyPatch(c.content, c.patch, c.options),
      (e: unknown) => {
        assert.ok(e instanceof EditError, `expected EditError, got ${String(e)}`);
        assert.equal(e.code, c.code, e.message);
        assert.match(e.message, c.message);
        c.check?.(e);
        return true;
      },
    );
  });
}

test("already applied: a patch applied before returns the content unchanged with a note, never an error", () => {
  const content = "a\nconst limit = computeLimit(config);\nc\n";
  const again = applyPatch(content, "@@ @@\n a\n-const limit = 10;\n+const limit = computeLimit(config);\n c\n");
  assert.equal(again.content, content);
  assert.equal(again.alreadyApplied?.code, "ALREADY_APPLIED");
  assert.match(again.alreadyApplied?.message ?? "", /lines 1-3/);
  const noop = applyPatch("a\nb\n", "@@ @@\n-a\n+a\n");
  assert.match(noop.alreadyApplied?.message ?? "", /already read as the patch's new side/);
  // The final newline a patch adds, added again.
  const eol = applyPatch("a\nb\n", "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n");
  assert.equal(eol.content, "a\nb\n");
  assert.equal(eol.alreadyApplied?.code, "ALREADY_APPLIED");
  // One hunk applied before and one not is a mismatch the model must see.
  assert.throws(
    () => applyPatch(content, "@@ @@\n a\n-const limit = 10;\n+const limit = computeLimit(config);\n@@ @@\n-c\n+d\n-e\n"),
    (e: unknown) => e instanceof EditError && e.code !== "ALREADY_APPLIED",
  );
});

test("fuzz: a context line two lines from the change gained, lost or changed since is read past, as patch's fuzz does; an insertion sent again is already applied, not applied again", () => {
  const file = "l1\nl2\nl3\nl4\nl5\nl6\nl7\n";
  const patch = "@@ -1,7 +1,7 @@\n l1\n l2\n l3\n-l4\n+L4\n l5\n l6\n l7\n";
  assert.equal(applyPatch(file.replace("l2\n", "l2\nnew\n"), patch).content, "l1\nl2\nnew\nl3\nL4\nl5\nl6\nl7\n");
  assert.equal(applyPatch(file.replace("l2\n", ""), patch).content, "l1\nl3\nL4\nl5\nl6\nl7\n");
  assert.equal(applyPatch(file.replace("l6\n", "L6X\n"), patch).content, "l1\nl2\nl3\nL4\nl5\nL6X\nl7\n");
  const insert = "@@ -1,6 +1,7 @@\n l1\n l2\n l3\n+NEW\n l4\n l5\n l6\n";
  const once = applyPatch(file, insert).content;
  const again = applyPatch(once, insert);
  assert.equal(again.content, once);
  assert.equal(again.alreadyApplied?.code, "ALREADY_APPLIED");
});

test("an exact numbered hunk far into a file is placed at its line without recording every line start before it; a hint where the text is not is not taken", () => {
  const lines = Array.from({ length: 60_000 }, (_, i) => `  call_${i}(x);`);
  const text = `${lines.join("\n")}\n`;
  const hunk = (at: number) => `@@ -${at},2 +${at},3 @@\n   call_50000(x);\n   call_50001(x);\n+  added();\n`;
  const before = lineScanStats.lines;
  const r = applyPatch(text, hunk(50_001));
  assert.equal(r.hunks[0]?.startLine, 50_001);
  assert.equal(r.content, text.replace("  call_50001(x);\n", "  call_50001(x);\n  added();\n"));
  assert.ok(lineScanStats.lines - before < 1000, `recorded ${lineScanStats.lines - before} line starts`);
  // Hinted at a line before or after the text: placed by the search, at its real line, all the same.
  for (const at of [10, 55_000]) assert.equal(applyPatch(text, hunk(at)).hunks[0]?.startLine, 50_001);
});

test("non-string input is INVALID_INPUT", () => {
  assert.throws(
    () => applyPatch(null as unknown as string, "@@ @@\n-a\n"),
    (e: unknown) => e instanceof EditError && e.code === "INVALID_INPUT",
  );
});

test("resolveAmbiguity is asked with every remaining candidate and the hunk", () => {
  const asked: unknown[] = [];
  applyPatch("x\na\nx\n", "@@ @@\n-x\n+y\n", {
    resolveAmbiguity: (cands, hunk) => {
      asked.push(cands.map((c) => [c.startLine, c.endLine, c.strategy]), hunk);
      return 0;
    },
  });
  assert.deepEqual(asked, [
    [
      [1, 1, "exact"],
      [3, 3, "exact"],
    ],
    { index: 0, line: 1, oldText: "x", newText: "y" },
  ]);
});

// ---------------------------------------------------------------------------
// Properties.

// Few distinct lines, so texts repeat themselves, and every line that could be
// mistaken for patch syntax.
const lineArb = fc.constantFrom("a", "b", "c", "", " ", "  a", "a  ", "\tt", "}", "-", "+", "--", "++", "-- x", "++ y", "--- z", "+++ w", "@@ @@", "@@ -1 +1 @@", "\\ No newline at end of file", "```");
const linesArb = fc.array(lineArb, { maxLength: 40 });
const join = (lines: string[], finalNewline: boolean, eol: string) => (lines.length === 0 ? "" : lines.join(eol) + (finalNewline ? eol : ""));

function edit(lines: string[], edits: [number, "delete" | "insert" | "replace", string][]): string[] {
  const out = [...lines];
  for (const [pos, op, line] of edits) {
    const i = out.length === 0 ? 0 : pos % (out.length + 1);
    if (op === "insert" || out.length === 0) out.splice(i, 0, line);
    else if (op === "delete") out.splice(Math.min(i, out.length - 1), 1);
    else out[Math.min(i, out.length - 1)] = line;
  }
  return out;
}

/** a, and b as an edit of a (shared and changed parts) or an unrelated text; b always written with LF. */
const roundTripArb = fc.record({
  a: linesArb,
  other: linesArb,
  edits: fc.array(fc.tuple(fc.nat(), fc.constantFrom("delete" as const, "insert" as const, "replace" as const), lineArb), { maxLength: 8 }),
  unrelated: fc.boolean(),
  aNewline: fc.boolean(),
  bNewline: fc.boolean(),
  crlf: fc.boolean(),
  context: fc.integer({ min: 0, max: 4 }),
});

for (const fuzzy of [true, false]) {
  test(`property: applyPatch(a, createPatch(a, b)) is b (${fuzzy ? "fuzzy" : "standard"} patches, CRLF, final newlines, repeated lines)`, () => {
    fc.assert(
      fc.property(roundTripArb, (r) => {
        const a = join(r.a, r.aNewline, r.crlf ? "\r\n" : "\n");
        const b = join(r.unrelated ? r.other : edit(r.a, r.edits), r.bNewline, "\n");
        const patch = createPatch(a, b, { fuzzy, context: r.context });
        if (patch === "") {
          assert.equal(a.replaceAll("\r\n", "\n"), b);
          return;
        }
        // The applier keeps the file's line endings: a CRLF file stays CRLF.
        const expected = a.includes("\r\n") ? b.replaceAll("\n", "\r\n") : b;
        // Without context, `a` -> `a`,`x` on a file where `x` follows `a` reads as an
        // insertion sent again (ALREADY_APPLIED): a patch with no context cannot tell.
        if (r.context === 0) {
          try {
            applyPatch(a, patch);
          } catch (error) {
            if (error instanceof EditError && error.code === "ALREADY_APPLIED") return;
          }
        }
        assert.equal(applyPatch(a, patch).content, expected, patch);
        // What the file layer diffs and writes from: the change, as a range of the text read.
        const { change } = applyPatchWithChange(a, patch);
        if (change) assert.equal(applyChanges(a, [change]), expected);
      }),
      { numRuns: 1500 },
    );
  });
}

test("property: a patch applies to the file with unrelated lines added above and below, and those bytes are kept", () => {
  fc.assert(
    fc.property(roundTripArb, (r) => {
      fc.pre(r.a.length > 0); // a creation patch has nothing to locate by
      const a = join(r.a, true, "\n");
      const b = join(edit(r.a, r.edits), true, "\n");
      const patch = createPatch(a, b, { fuzzy: true });
      if (patch === "") return;
      const head = "HEAD unique 1\r\nHEAD unique 2\n";
      const tail = "TAIL unique\n";
      const out = applyPatch(head + a + tail, patch).content;
      assert.equal(out, head + b + tail);
    }),
    { numRuns: 500 },
  );
});

test("property: applyPatch throws nothing but EditError on arbitrary patches and content", () => {
  const patchLine = fc.oneof(
    fc.constantFrom("@@ @@", "@@ -1,2 +1,2 @@", "@@ -0,0 +1 @@", "--- a/x", "+++ b/x", "--- /dev/null", "+++ /dev/null", "\\ No newline at end of file", ""),
    fc.tuple(fc.constantFrom(" ", "-", "+", ""), lineArb).map(([p, l]) => p + l),
  );
  fc.assert(
    fc.property(fc.array(patchLine, { maxLength: 16 }), linesArb, fc.boolean(), (patchLines, content, nl) => {
      try {
        const { result, change } = applyPatchWithChange(join(content, nl, "\n"), patchLines.join("\n"));
        assert.equal(typeof result.content, "string");
        if (change) assert.equal(applyChanges(join(content, nl, "\n"), [change]), result.content);
      } catch (e) {
        if (!(e instanceof EditError)) throw e;
      }
    }),
    { numRuns: 1500 },
  );
});

/** Every hunk's new side (context and added lines) stands in `text` as a run of lines, trailing blanks aside. */
function assertNewSidesStand(text: string, patch: string): void {
  const lines = text.split("\n").map((l) => l.trimEnd());
  for (const hunk of patch.split(/^@@.*$/m).slice(1)) {
    const side = hunk
      .split("\n")
      .filter((l) => l.startsWith(" ") || l.startsWith("+"))
      .map((l) => l.slice(1).trimEnd());
    const at = lines.findIndex((_, i) => side.every((l, k) => lines[i + k] === l));
    assert.ok(at >= 0, `reported already applied, but a hunk's new side is not in the text:\n${patch}`);
  }
}

// ---------------------------------------------------------------------------
// reverseUnifiedDiff (-R): the reversed diff undoes the diff.

for (const fuzzy of [true, false]) {
  test(`property: applyPatch(b, reverseUnifiedDiff(createPatch(a, b))) is a (${fuzzy ? "fuzzy" : "standard"} patches)`, () => {
    fc.assert(
      fc.property(roundTripArb, (r) => {
        const a = join(r.a, r.aNewline, "\n");
        const b = join(r.unrelated ? r.other : edit(r.a, r.edits), r.bNewline, "\n");
        const patch = createPatch(a, b, { fuzzy, context: r.context });
        if (patch === "") return;
        // Without context a fuzzy deletion reverses into an insertion with nothing to place it by (a PARSE refusal).
        fc.pre(!fuzzy || r.context > 0);
        const reversed = reverseUnifiedDiff(patch);
        // createPatch makes each hunk unique in a, not in b: a reversed hunk may be ambiguous
        // there (context cut short at an edge is evidence only with full context on the other side).
        let undone: ReturnType<typeof applyPatch>;
        try {
          undone = applyPatch(b, reversed);
        } catch (error) {
          if (error instanceof EditError && error.code === "AMBIGUOUS") return;
          throw error;
        }
        // A hunk whose new side already stands around its old side, trailing blanks aside, is
        // already applied by design (a block sent again, its trailing space dropped: real case
        // sympy-13647/try4/msg4/block0): then that is what must hold.
        if (undone.alreadyApplied) return assertNewSidesStand(b, reversed);
        assert.equal(undone.content, a, reversed);
        const again = applyPatch(a, reverseUnifiedDiff(reversed));
        if (again.alreadyApplied) return assertNewSidesStand(a, reverseUnifiedDiff(reversed));
        assert.equal(again.content, b, "reversed twice, the diff applies as before");
      }),
      { numRuns: 1000 },
    );
  });
}

const reverseCases: { name: string; patch: string; want: string }[] = [
  {
    name: "git headers keep a/ and b/ on their sides; mode lines and index swap",
    patch: "diff --git a/x b/x\nnew file mode 100644\nindex 0000000..e69de29\n--- /dev/null\n+++ b/x\n@@ -0,0 +1,2 @@\n+one\n+two\n",
    want: "diff --git a/x b/x\ndeleted file mode 100644\nindex e69de29..0000000\n--- a/x\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-one\n-two\n",
  },
  {
    name: "in a run of changes the new removed lines come first; a no-newline marker stays with its line",
    patch: "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+B\n+C\n",
    want: "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-B\n-C\n+b\n\\ No newline at end of file\n",
  },
  {
    name: "a removed `-- x` and an added `++ y` inside a numbered hunk are lines, not a file header",
    patch: "--- a/q.sql\n+++ b/q.sql\n@@ -1,2 +1,2 @@\n--- x\n+++ y\n select 1;\n",
    want: "--- a/q.sql\n+++ b/q.sql\n@@ -1,2 +1,2 @@\n-++ y\n+-- x\n select 1;\n",
  },
  {
    name: "a removed `-- x` is not put right before an added `++ y`: that pair would read as a file header",
    patch: "--- a/q.sql\n+++ b/q.sql\n@@ @@\n select 1;\n-++ y\n+-- x\n",
    want: "--- a/q.sql\n+++ b/q.sql\n@@ @@\n select 1;\n+++ y\n--- x\n",
  },
  {
    name: "fuzzy hunks, prose and context are kept; tails after @@ stay",
    patch: "Here:\n--- f.rs\n+++ f.rs\n@@ @@ fn main\n fn main() {\n-    old();\n+    new();\n }\n",
    want: "Here:\n--- f.rs\n+++ f.rs\n@@ @@ fn main\n fn main() {\n-    new();\n+    old();\n }\n",
  },
];

for (const c of reverseCases) {
  test(`reverseUnifiedDiff: ${c.name}`, () => {
    assert.equal(reverseUnifiedDiff(c.patch), c.want);
  });
}

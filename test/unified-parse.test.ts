import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { EditError } from "../src/errors.ts";
import { countingSignal } from "./helpers/counting-signal.ts";
import { detectEdits } from "../src/formats/response.ts";
import { type FilePatch, hunkNewText, hunkOldText, looksLikeUnifiedDiff, parsePatch, readPatch, readPatchIfComplete } from "../src/formats/unified-parse.ts";
import { specBeginning, specMulti, specSingle, specThreeHunks } from "./helpers/spec-patches.ts";

/** A compact view of a parse: paths, flags, and each hunk's lines with their prefix. */
function summarize(files: FilePatch[]) {
  return files.map((f) => ({
    oldPath: f.oldPath,
    newPath: f.newPath,
    isNew: f.isNew,
    isDeleted: f.isDeleted,
    hunks: f.hunks.map((h) => h.lines.map((l) => (l.kind === "context" ? " " : l.kind === "delete" ? "-" : "+") + l.text)),
  }));
}

function file(hunks: string[][], extra: Partial<{ oldPath: string; newPath: string; isNew: boolean; isDeleted: boolean }> = {}) {
  return { oldPath: extra.oldPath, newPath: extra.newPath, isNew: extra.isNew ?? false, isDeleted: extra.isDeleted ?? false, hunks };
}

interface Case {
  name: string;
  patch: string;
  expect: ReturnType<typeof file>[];
}

// As printed in the spec: the closing "}" lacks its leading space and is the last line.
const cases: Case[] = [
  {
    name: "spec: simple single-line replacement (filename: headers)",
    patch: specSingle,
    expect: [
      file([['  fn main() {', '-    println!("Hello, world!");', '+    println!("Goodbye, world!");', "  }"]], {
        oldPath: "example.rs",
        newPath: "example.rs",
      }),
    ],
  },
  {
    name: "spec: multi-line replacement",
    patch: specMulti,
    expect: [
      file(
        [
          [
            "  fn compute(x: i32) -> i32 {",
            "-    let y = x * 2;",
            '-    println!("Value: {}", y);',
            '-    println!("Debug info:");',
            '-    println!("  - multiplier: 2");',
            '-    println!("  - input: {}", x);',
            "+    let y = x + 10;",
            '+    println!("Result: {}", y);',
            '+    println!("Input was: {}", x);',
            "     y",
            "  }",
          ],
        ],
        { oldPath: "compute.rs", newPath: "compute.rs" },
      ),
    ],
  },
  {
    name: "spec: three hunks in one patch, a space-only line is blank context",
    patch: specThreeHunks,
    expect: [
      file(
        [
          [
            " use std::path::Path;",
            "+use std::time::Duration;",
            " ",
            " struct Config {",
            "     path: String,",
            "-    timeout: u32,",
            "+    timeout: Duration,",
            "     retries: u8,",
            " }",
          ],
          [
            "     fn new(path: &str) -> Self {",
            "         Config {",
            "             path: path.to_string(),",
            "-            timeout: 30,",
            "+            timeout: Duration::from_secs(30),",
            "             retries: 3,",
            "         }",
            "     }",
          ],
          [
            "     fn validate(&self) -> bool {",
            "-        Path::new(&self.path).exists()",
            "+        let path = Path::new(&self.path);",
            "+        path.exists() && path.is_file()",
            "     }",
          ],
        ],
        { oldPath: "config.rs", newPath: "config.rs" },
      ),
    ],
  },
  {
    name: "spec: beginning of file, fenced; the unprefixed last line is prose after the hunk",
    patch: specBeginning,
    expect: [
      file([["+// Copyright 2024 Example Corp.", "+// Licensed under MIT", " fn main() {", '     println!("Hello!");']], {
        oldPath: "main.rs",
        newPath: "main.rs",
      }),
    ],
  },
  {
    name: "spec: end-of-file example as printed: unprefixed lines before the change are context (leniency 8)",
    patch:
      "--- filename: config.rs\n+++ filename: config.rs\n@@ @@\nfn process() {\n    // ... processing code\n}\n-// End of implementation\n+// End of implementation\n+\n+#[cfg(test)]\n",
    expect: [
      file(
        [[" fn process() {", "    // ... processing code", " }", "-// End of implementation", "+// End of implementation", "+", "+#[cfg(test)]"]],
        { oldPath: "config.rs", newPath: "config.rs" },
      ),
    ],
  },
  {
    name: "unprefixed context between changes and blank lines before it are context",
    patch: "@@ @@\n-a\n+b\n\nAlso change c:\n-c\n+d\n",
    expect: [file([["-a", "+b", " ", " Also change c:", "-c", "+d"]])],
  },
  {
    name: "an unprefixed line with no change after it still ends the hunk as prose",
    patch: "@@ @@\n a\n-b\n+c\nThat is all.\n  - a bullet with an indent\n",
    expect: [file([[" a", "-b", "+c"]])],
  },
  {
    name: "end of file with correct prefixes and no-newline marker",
    patch: "@@ @@\n }\n-// End\n\\ No newline at end of file\n+// End\n+\n+mod tests {}\n",
    expect: [file([[" }", "-// End", "+// End", "+", "+mod tests {}"]])],
  },
  {
    name: "git a/ b/ prefixes are stripped, numbered header, text after @@ ignored",
    patch: "diff --git a/src/x.ts b/src/x.ts\nindex 1234..5678 100644\n--- a/src/x.ts\n+++ b/src/x.ts\n@@ -1,2 +1,2 @@ function f() {\n a\n-b\n+c\n",
    expect: [file([[" a", "-b", "+c"]], { oldPath: "src/x.ts", newPath: "src/x.ts" })],
  },
  {
    name: "plain paths keep their text; tab timestamps dropped",
    patch: "--- x.txt\t2024-01-01 10:00\n+++ x.txt\t2024-01-02 10:00\n@@ @@\n-a\n+b\n",
    expect: [file([["-a", "+b"]], { oldPath: "x.txt", newPath: "x.txt" })],
  },
  {
    name: "git C-quoted paths are unquoted",
    patch: '--- "a/sp ace\\303\\244.txt"\n+++ "b/sp ace\\303\\244.txt"\n@@ @@\n-a\n+b\n',
    expect: [file([["-a", "+b"]], { oldPath: "sp aceä.txt", newPath: "sp aceä.txt" })],
  },
  {
    name: "diff --git paths are used when a rename has no hunks",
    patch: "diff --git a/old name.txt b/new name.txt\nsimilarity index 100%\nrename from old name.txt\nrename to new name.txt\n",
    expect: [file([], { oldPath: "old name.txt", newPath: "new name.txt" })],
  },
  {
    name: "/dev/null marks a created file",
    patch: "--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n",
    expect: [file([["+one", "+two"]], { newPath: "new.txt", isNew: true })],
  },
  {
    name: "/dev/null marks a deleted file",
    patch: "--- a/old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-gone\n",
    expect: [file([["-gone"]], { oldPath: "old.txt", isDeleted: true })],
  },
  {
    name: "git new file mode without ---/+++ paths in the pair still marks new",
    patch: "diff --git a/n.txt b/n.txt\nnew file mode 100644\nindex 0000000..e69de29\n--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1 @@\n+hi\n",
    expect: [file([["+hi"]], { newPath: "n.txt", isNew: true })],
  },
  {
    name: "several files in one patch",
    patch: "--- a/one\n+++ b/one\n@@ @@\n-1\n+one\n--- a/two\n+++ b/two\n@@ @@\n x\n-2\n+two\n",
    expect: [file([["-1", "+one"]], { oldPath: "one", newPath: "one" }), file([[" x", "-2", "+two"]], { oldPath: "two", newPath: "two" })],
  },
  {
    name: "prose and fences around the patch",
    patch: "Here is the fix:\n\n```diff\n--- a/f\n+++ b/f\n@@ @@\n keep\n-old\n+new\n```\n\nThis replaces old with new.\n- a bullet that is prose\n",
    expect: [file([[" keep", "-old", "+new"]], { oldPath: "f", newPath: "f" })],
  },
  {
    name: "--- and +++ inside a hunk not forming a pair are removed/added lines",
    patch: "@@ @@\n x\n--- SQL comment\n y\n+++ counter\n",
    // The summary re-adds the prefix: removed "-- SQL comment" shows as "--- SQL comment".
    expect: [file([[" x", "--- SQL comment", " y", "+++ counter"]])],
  },
  {
    name: "--- then +++ inside a hunk is a file header",
    patch: "@@ @@\n x\n-a\n--- a/g\n+++ b/g\n@@ @@\n-b\n+c\n",
    expect: [file([[" x", "-a"]]), file([["-b", "+c"]], { oldPath: "g", newPath: "g" })],
  },
  {
    name: "--- +++ pair is a removal and an addition while the header counts still want both",
    patch: "@@ -1,2 +1,2 @@\n x\n--- a\n+++ b\n",
    expect: [file([[" x", "--- a", "+++ b"]])],
  },
  {
    name: "blank line inside a hunk is a blank context line",
    patch: "@@ @@\n a\n\n-b\n+c\n",
    expect: [file([[" a", " ", "-b", "+c"]])],
  },
  {
    name: "trailing blank lines are not context without counts",
    patch: "@@ @@\n a\n-b\n+c\n\n\n",
    expect: [file([[" a", "-b", "+c"]])],
  },
  {
    name: "trailing blank line is context when the counts ask for it",
    patch: "@@ -1,3 +1,3 @@\n a\n-b\n+c\n\n",
    expect: [file([[" a", "-b", "+c", " "]])],
  },
  {
    name: "hunk header counts that disagree with the body are ignored",
    patch: "@@ -10,9 +10,1 @@\n a\n-b\n+c\n d\n",
    expect: [file([[" a", "-b", "+c", " d"]])],
  },
  {
    name: "missing hunk header after file headers",
    patch: "--- a/f\n+++ b/f\n ctx\n-old\n+new\n",
    expect: [file([[" ctx", "-old", "+new"]], { oldPath: "f", newPath: "f" })],
  },
  {
    name: "trailing whitespace after @@ and a bare @@",
    patch: "@@ @@   \n-a\n+b\n@@\n-c\n+d\n",
    expect: [file([["-a", "+b"], ["-c", "+d"]])],
  },
  {
    name: "CRLF patch text",
    patch: "--- a/f\r\n+++ b/f\r\n@@ @@\r\n x\r\n-y\r\n+z\r\n",
    expect: [file([[" x", "-y", "+z"]], { oldPath: "f", newPath: "f" })],
  },
  {
    name: "hunks only: one file without paths",
    patch: "@@ @@\n-a\n+b\n@@ @@\n c\n-d\n",
    expect: [file([["-a", "+b"], [" c", "-d"]])],
  },
  {
    name: "lines whose text starts with marker characters",
    patch: "@@ @@\n @@ not a header\n-\\not a marker\n+-dash\n++plus\n  space\n",
    expect: [file([[" @@ not a header", "-\\not a marker", "+-dash", "++plus", "  space"]])],
  },
];

for (const c of cases) {
  test(c.name, () => {
    assert.deepEqual(summarize(parsePatch(c.patch)), c.expect);
  });
}

interface MetaCase {
  name: string;
  patch: string;
  check: (files: FilePatch[]) => void;
}

const metaCases: MetaCase[] = [
  {
    name: "header numbers are kept as hints, omitted count means 1",
    patch: "x\n@@ -3 +4,2 @@\n-a\n+b\n+c\n",
    check: (files) => {
      const h = files[0]?.hunks[0];
      assert.deepEqual([h?.oldStart, h?.oldLines, h?.newStart, h?.newLines, h?.line, h?.index], [3, 1, 4, 2, 2, 0]);
    },
  },
  {
    name: "@@ @@ hunk has no numbers",
    patch: "@@ @@\n-a\n+b\n",
    check: (files) => {
      const h = files[0]?.hunks[0];
      assert.equal(h?.oldStart, undefined);
      assert.equal(h?.newLines, undefined);
    },
  },
  {
    name: "no-newline marker after a removal marks the old side only",
    patch: "@@ @@\n x\n-a\n\\ No newline at end of file\n+a\n",
    check: (files) => {
      const h = files[0]?.hunks[0];
      assert.equal(h?.oldEofNoNewline, true);
      assert.equal(h?.newEofNoNewline, false);
    },
  },
  {
    name: "no-newline marker after an addition marks the new side only",
    patch: "@@ @@\n x\n-a\n+b\n\\ No newline at end of file\n",
    check: (files) => {
      const h = files[0]?.hunks[0];
      assert.deepEqual([h?.oldEofNoNewline, h?.newEofNoNewline], [false, true]);
    },
  },
  {
    name: "no-newline marker after context marks both sides",
    patch: "@@ @@\n-a\n+b\n z\n\\ No newline at end of file\n",
    check: (files) => {
      const h = files[0]?.hunks[0];
      assert.deepEqual([h?.oldEofNoNewline, h?.newEofNoNewline], [true, true]);
    },
  },
  {
    name: "hunk line and index count from the patch text",
    patch: "intro\n--- a/f\n+++ b/f\n@@ @@\n-a\n+b\n@@ @@\n-c\n+d\n",
    check: (files) => {
      assert.deepEqual(
        files[0]?.hunks.map((h) => [h.index, h.line]),
        [
          [0, 4],
          [1, 7],
        ],
      );
    },
  },
  {
    name: "missing hunk header: line is the first body line",
    patch: "--- a/f\n+++ b/f\n-a\n+b\n",
    check: (files) => assert.equal(files[0]?.hunks[0]?.line, 3),
  },
  {
    name: "unprefixedLines lists the patch lines read as context by leniency 8",
    patch: "@@ @@\nfn a() {\n\nx();\n-y();\n+z();\n}\n",
    check: (files) => {
      const h = files[0]?.hunks[0];
      assert.deepEqual(h?.unprefixedLines, [2, 4]);
      assert.deepEqual(
        h?.lines.map((l) => l.kind),
        ["context", "context", "context", "delete", "add"],
      );
    },
  },
  {
    name: "prefixed hunks have no unprefixedLines",
    patch: "@@ @@\n a\n-b\n",
    check: (files) => assert.equal(files[0]?.hunks[0]?.unprefixedLines, undefined),
  },
  {
    name: "hunkOldText and hunkNewText join the sides with \\n",
    patch: "@@ @@\n a\n-b\n+c\n+d\n e\n",
    check: (files) => {
      const h = files[0]?.hunks[0];
      assert.ok(h);
      assert.equal(hunkOldText(h), "a\nb\ne");
      assert.equal(hunkNewText(h), "a\nc\nd\ne");
    },
  },
];

for (const c of metaCases) test(c.name, () => c.check(parsePatch(c.patch)));

interface ErrorCase {
  name: string;
  patch: string;
  line: number;
  message: RegExp;
}

const errorCases: ErrorCase[] = [
  {
    name: "a forgotten '-' between removals is refused, not kept as context",
    patch: "@@ @@\n ctx\n-a\nb\n-c\n",
    line: 4,
    message: /Line 4 is inside hunk 1.*"b"/,
  },
  {
    name: "an unprefixed line after a removal is refused even with blank lines between",
    patch: "@@ @@\n ctx\n-a\n\nb\n+c\n",
    line: 5,
    message: /Line 5 is inside hunk 1.*"b".*Line 6 below/,
  },
  {
    name: "the refusal after a removal names the hunk and the prefix to add",
    patch: "@@ @@\n-x\n@@ @@\n ctx\n-a\nb\n-c\n",
    line: 6,
    message: /Line 6 is inside hunk 2 \(header at line 3\).*prefix it with '-'/,
  },
  {
    name: "no hunk at all",
    patch: "just some prose\n- a bullet\n",
    line: 1,
    message: /No hunk found.*'@@ @@'/,
  },
  {
    name: "empty text",
    patch: "",
    line: 1,
    message: /No hunk found/,
  },
  {
    name: "empty hunk",
    patch: "@@ @@\n@@ @@\n-a\n",
    line: 1,
    message: /Hunk 1 at line 1 has no lines/,
  },
  {
    name: "file header without hunks",
    patch: "--- a/f\n+++ b/f\n\nNothing to change.\n",
    line: 1,
    message: /file header at line 1 \(for f\) is not followed by any hunk/,
  },
  {
    name: "no-newline marker as the first hunk line",
    patch: "@@ @@\n\\ No newline at end of file\n-a\n",
    line: 2,
    message: /must directly follow the hunk line/,
  },
  {
    name: "old side continues after its no-newline marker",
    patch: "@@ @@\n-a\n\\ No newline at end of file\n-b\n",
    line: 4,
    message: /continues the old side of hunk 1 after .* at line 3/,
  },
];

for (const c of errorCases) {
  test(`error: ${c.name}`, () => {
    assert.throws(
      () => parsePatch(c.patch),
      (e: unknown) => {
        assert.ok(e instanceof EditError, "expected EditError");
        assert.equal(e.code, "PARSE");
        assert.equal(e.detail.line, c.line);
        assert.match(e.message, c.message);
        return true;
      },
    );
  });
}

const detectCases: { name: string; text: string; expected: boolean }[] = [
  { name: "fuzzy hunk", text: "@@ @@\n-a\n+b\n", expected: true },
  { name: "numbered hunk in prose", text: "Fix:\n@@ -1,2 +1,2 @@\n a\n-b\n", expected: true },
  { name: "file headers then body", text: "--- a/x\n+++ b/x\n-a\n", expected: true },
  { name: "SEARCH/REPLACE block", text: "<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n", expected: false },
  { name: "markdown with rules and bullets", text: "Title\n---\n- one\n+ two\n", expected: false },
  { name: "plain code", text: "function f() {\n  return 1;\n}\n", expected: false },
];

for (const c of detectCases) {
  test(`looksLikeUnifiedDiff: ${c.name}`, () => assert.equal(looksLikeUnifiedDiff(c.text), c.expected));
}

test("property: parsePatch throws nothing but EditError on arbitrary input", () => {
  const piece = fc.constantFrom("@@ @@", "@@ -1,2 +1,2 @@", "--- a/x", "+++ b/x", "diff --git a/x b/x", "```", "\\ No newline at end of file", "", " ", "-", "+", "--", "++", "\r");
  const lineArb = fc.oneof(piece, fc.string({ maxLength: 8 }), fc.tuple(fc.constantFrom(" ", "-", "+", "@", "\\"), fc.string({ maxLength: 5 })).map(([a, b]) => a + b));
  fc.assert(
    fc.property(fc.array(lineArb, { maxLength: 20 }), fc.constantFrom("\n", "\r\n"), (ls, eol) => {
      try {
        const files = parsePatch(ls.join(eol));
        for (const f of files) for (const h of f.hunks) assert.ok(h.lines.length > 0);
      } catch (e) {
        if (!(e instanceof EditError)) throw e;
        assert.equal(e.code, "PARSE");
        assert.equal(typeof e.detail.line, "number");
      }
    }),
    { numRuns: 2000 },
  );
});

test("property: readPatchIfComplete is readPatch, with undefined for its header-without-hunk and no-hunk errors; other errors still throw", () => {
  const piece = fc.constantFrom("@@ @@", "@@ -1,2 +1,2 @@", "--- a/x", "+++ b/x", "--- /dev/null", "diff --git a/x b/x", "new mode 100755", "old mode 100644", "", " a", "-a", "+b", "\\ No newline at end of file", "prose");
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 12 }), (ls) => {
      const text = `${ls.join("\n")}\n`;
      let expected: FilePatch[] | EditError;
      try {
        expected = readPatch(text);
      } catch (e) {
        expected = e as EditError;
      }
      const headerError = expected instanceof EditError && /is not followed by any hunk|No hunk found/.test(expected.message);
      if (expected instanceof EditError && !headerError) {
        assert.throws(() => readPatchIfComplete(text), (e) => e instanceof EditError && e.message === (expected as EditError).message);
      } else {
        assert.deepEqual(readPatchIfComplete(text), headerError ? undefined : expected);
      }
    }),
    { numRuns: 2000 },
  );
});

test("detectEdits: file sections that do not parse still name their file, and the stack-trace limit is restored", () => {
  const limit = Error.stackTraceLimit;
  const response = "--- a/x\n+++ b/x\n--- a/y\n+++ b/y\n@@ @@\n--- a/z\n+++ b/z\n@@ @@\n-a\n+b\n";
  const found = detectEdits(response);
  assert.deepEqual(
    found.edits.map((e) => e.path),
    ["x", "y", "z"],
  );
  assert.equal(Error.stackTraceLimit, limit);
});

test("property: looksLikeUnifiedDiff never throws", () => {
  fc.assert(fc.property(fc.string(), (s) => typeof looksLikeUnifiedDiff(s) === "boolean"));
});

// parsePatch is a public entry point: it takes the appliers' size limit and time budget.
const longPatch = `--- a/x\n+++ b/x\n@@ @@\n${" context line\n".repeat(50_000)}-old\n+new\n`;

test("parsePatch: a generous budget gives the same files as no options", () => {
  assert.deepEqual(parsePatch(longPatch, { timeoutMs: 60_000, signal: new AbortController().signal }), parsePatch(longPatch));
});

test("parsePatch: the budget is checked while reading, so a call stops mid-patch with TIMEOUT", () => {
  const { signal, reads } = countingSignal(3);
  assert.throws(
    () => parsePatch(longPatch, { signal }),
    (e: unknown) => e instanceof EditError && e.code === "TIMEOUT" && /parsing the patch/.test(e.message),
  );
  assert.equal(reads(), 4, "the fourth check, about line 12,288 of 50,005, stopped it");
});

test("parsePatch: a patch over maxResponseSize is TOO_LARGE before any work, and the limit can be raised", () => {
  assert.throws(
    () => parsePatch(longPatch, { maxResponseSize: 1000 }),
    (e: unknown) => e instanceof EditError && e.code === "TOO_LARGE" && /limit of 1,000/.test(e.message) && /'maxResponseSize'/.test(e.message),
  );
  const huge = `--- a/x\n+++ b/x\n@@ @@\n ${"y".repeat(8 * 1024 * 1024)}\n`;
  assert.throws(() => parsePatch(huge), (e: unknown) => e instanceof EditError && e.code === "TOO_LARGE");
  assert.equal(parsePatch(huge, { maxResponseSize: 9 * 1024 * 1024 })[0]?.hunks[0]?.lines.length, 1);
});

for (const [name, options] of [
  ["options that are not an object", "fast"],
  ["a signal that is not an AbortSignal", { signal: { aborted: true } }],
  ["a negative timeoutMs", { timeoutMs: -1 }],
  ["a maxResponseSize that is not a whole number", { maxResponseSize: 1.5 }],
] as const) {
  test(`parsePatch: ${name} is INVALID_INPUT`, () => {
    assert.throws(() => parsePatch("@@ @@\n-a\n+b\n", options as never), (e: unknown) => e instanceof EditError && e.code === "INVALID_INPUT");
  });
}

/**
 * Issue 22, the bytes part: inputs that were written wrongly or crashed the
 * core. Each case is the reduced reproduction from the adversarial campaign.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { applyPatch, createPatch, EditError, replace } from "../src/index.ts";

// Item 7: a `+` line's leading Unicode whitespace is text, not indentation to re-map.
for (const ws of ["\u3000", "\u00A0", "\u2003", "\u2028", "\uFEFF", "\f", "\v", "\u0085"]) {
  const name = `U+${(ws.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
  test(`item 7: an added line keeps its leading ${name}`, () => {
    assert.equal(applyPatch("a\n", `@@ -1 +1,2 @@\n a\n+${ws}b\n`).content, `a\n${ws}b\n`);
    assert.equal(applyPatch("  a\n", `@@ @@\n   a\n+  ${ws}b\n`).content, `  a\n  ${ws}b\n`);
    const before = `x\n  ${ws}y\nz\n`;
    const after = `x\n  ${ws}Y\n${ws}w\nz\n`;
    assert.equal(applyPatch(before, createPatch(before, after)).content, after);
  });
}


// Issue 20 (same area): a `\r` that ends a `+` line's text before `\ No newline at end of file` is the
// line's content in an LF file: only where the file's own breaks carry CRs are a hunk line's CRs its break.
const crCases: { name: string; content: string; patch: string; want: string }[] = [
  { name: "CR before no-newline marker, LF file", content: "a\n", patch: "@@ -1 +1,2 @@\n a\n+b\r\n\\ No newline at end of file\n", want: "a\nb\r" },
  { name: "CR inside an added line of an LF file", content: "a\n", patch: "@@ -1 +1,3 @@\n a\n+b\r\n+c\n", want: "a\nb\r\nc\n" },
  { name: "git diff of a CRLF file (CRs on body lines only)", content: "a\r\nb\r\n", patch: "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+B\r\n", want: "a\r\nB\r\n" },
  { name: "patch pasted from Windows (every break CRLF), LF file", content: "a\nb\n", patch: "@@ -1,2 +1,2 @@\r\n a\r\n-b\r\n+B\r\n", want: "a\nB\n" },
  // Item 9: a diff of a `\r\r\n` file whose lines keep their CRs.
  { name: "\\r\\r\\n file, diff lines keep their CRs", content: "a\r\r\nb\r\r\n", patch: "@@ -1,2 +1,3 @@\n a\r\r\n b\r\r\n+c\r\r\n", want: "a\r\r\nb\r\r\nc\r\r\n" },
  { name: "\\r\\r\\n file, CRLF patch", content: "a\r\r\nb\r\r\n", patch: "@@ -1,2 +1,3 @@\r\r\n a\r\r\n b\r\r\n+c\r\r\n", want: "a\r\r\nb\r\r\nc\r\r\n" },
  { name: "\\r\\r\\n file, LF patch", content: "a\r\r\nb\r\r\n", patch: "@@ -1,2 +1,3 @@\n a\n b\n+c\n", want: "a\r\r\nb\r\r\nc\r\r\n" },
];
for (const c of crCases) {
  test(`CRs in diff lines: ${c.name}`, () => {
    assert.equal(JSON.stringify(applyPatch(c.content, c.patch).content), JSON.stringify(c.want));
  });
}

// Item 11: a second BOM is text of the first line; the file's own BOM is the first one only.
const BOM = "\uFEFF";
test("item 11: a double BOM stays on an untouched first line", () => {
  const content = `${BOM}${BOM}a\nb\n`;
  assert.equal(applyPatch(content, "@@ @@\n a\n-b\n+B\n").content, `${BOM}${BOM}a\nB\n`);
  assert.equal(applyPatch(content, `@@ @@\n ${BOM}a\n-b\n+B\n`).content, `${BOM}${BOM}a\nB\n`);
  assert.equal(applyPatch(content, "@@ @@\n-b\n+B\n").content, `${BOM}${BOM}a\nB\n`);
  // A raw byte diff shows both BOMs on the context line.
  assert.equal(applyPatch(content, `@@ @@\n ${BOM}${BOM}a\n-b\n+B\n`).content, `${BOM}${BOM}a\nB\n`);
  // A single-BOM file diffed as bytes: the context line holds the file's BOM, which stays.
  assert.equal(applyPatch(`${BOM}a\nb\n`, `@@ @@\n ${BOM}a\n-b\n+B\n`).content, `${BOM}a\nB\n`);
});
test("item 11: createPatch -> applyPatch between 0, 1 and 2 BOMs", () => {
  for (const from of [0, 1, 2]) {
    for (const to of [0, 1, 2]) {
      for (const [x, y] of [
        ["a\nb\n", "a\nB\n"],
        ["a\nb\n", "A\nb\n"],
        ["", "a\n"],
        ["a\n", ""],
        // A file that is only its BOM, to a line without a final newline (the fuzz round trip's "\uFEFF" -> " ").
        ["", " "],
        // A kept line that is a BOM character, under a removed first line: text, not the file's BOM.
        ["\u3000\n\uFEFF\n", "\uFEFF\n"],
      ] as const) {
        const before = BOM.repeat(from) + x;
        const after = BOM.repeat(to) + y;
        const patch = createPatch(before, after);
        if (patch === "") {
          assert.equal(before, after);
          continue;
        }
        assert.equal(JSON.stringify(applyPatch(before, patch).content), JSON.stringify(after), `${from} -> ${to} BOMs: ${JSON.stringify(patch)}`);
      }
    }
  }
});

// Item 10: a diff has real line breaks, so a literal `\n` in one of its lines is text.
const escapedCases: { name: string; content: string; patch: string; want: string }[] = [
  { name: "context line holding a literal \\n", content: "x \\n @@\ny\n", patch: "@@ @@\n x \\n @@\n-y\n+Y\n", want: "x \\n @@\nY\n" },
  { name: "added line starting with a literal \\n", content: "x\n", patch: "@@ @@\n-x\n+\\n  foo\n", want: "\\n  foo\n" },
  { name: "added line with literal \\n after context", content: "a\nx\ny\n", patch: "@@ @@\n a\n x\n-y\n+Y\\nZ\n", want: "a\nx\nY\\nZ\n" },
  { name: "diff without real breaks is un-escaped whole", content: "a\nb\n", patch: "@@ @@\\n a\\n-b\\n+B\\n", want: "a\nB\n" },
];
for (const c of escapedCases) {
  test(`item 10: ${c.name}`, () => {
    assert.equal(applyPatch(c.content, c.patch).content, c.want);
  });
}
test("item 10: a context line with a literal \\n does not match two lines of the file", () => {
  assert.throws(() => applyPatch("x \n @@\ny\n", "@@ @@\n x \\n @@\n-y\n+Y\n"), EditError);
  assert.throws(() => applyPatch("a\nx\ny\n", "@@ @@\n-a\\nx\n+b\\nx\n y\n"), EditError);
});

// Item 8: in a file with mixed LF and CRLF lines, lines a hunk keeps keep their own ending.
const mixedCases: { name: string; content: string; patch: string; want: string }[] = [
  { name: "CRLF context line between LF lines", content: "x\ny\r\nz\n", patch: "@@ @@\n-x\n+X\n y\n z\n", want: "X\ny\r\nz\n" },
  { name: "LF context line between CRLF lines", content: "x\r\ny\nz\r\n", patch: "@@ @@\n x\r\n-y\n+Y\n z\r\n", want: "x\r\nY\nz\r\n" },
  { name: "added line after a CRLF context line", content: "a\nb\r\nc\n", patch: "@@ @@\n a\n b\n+new\n c\n", want: "a\nb\r\nnew\r\nc\n" },
  { name: "two hunks merged", content: "a\r\nb\nc\r\nd\ne\r\n", patch: "@@ @@\n a\n-b\n+B\n c\n@@ @@\n c\n-d\n+D\n e\n", want: "a\r\nB\nc\r\nD\ne\r\n" },
];
for (const c of mixedCases) {
  test(`item 8: ${c.name}`, () => {
    assert.equal(JSON.stringify(applyPatch(c.content, c.patch).content), JSON.stringify(c.want));
  });
}

// Item 6: a line hint never moves an exact, unique edit to a near-duplicate at another depth.
test("item 6: an exact unique edit stays where it is, whatever the line hint", () => {
  const content = "if (a) {\n  return;\n}\nreturn;\n";
  for (const startLine of [1, 2, 3, 4]) {
    const r = replace(content, "\nreturn;\n", "\nreturn 0;\n", { startLine });
    assert.equal(r.content, "if (a) {\n  return;\n}\nreturn 0;\n", `startLine ${startLine}`);
  }
  const two = "def f():\n    x = 1\n    return x\n\nx = 1\nreturn_value = x\n";
  assert.equal(replace(two, "x = 1\nreturn_value = x", "x = 2\nreturn_value = x", { startLine: 2 }).content, "def f():\n    x = 1\n    return x\n\nx = 2\nreturn_value = x\n");
});
test("item 6: an exact unique edit that starts inside a line stays there when the hinted lines hold the model's first line grown at the end", () => {
  // `}\nx` ends the line `$&}`; at the hint, `} {a` starts with it: no better a reading (found by the fuzz suite).
  const content = "} {a\nx\ny\n$&}\nx\nz\n";
  for (const startLine of [1, 2, 4]) assert.equal(replace(content, "}\nx", "", { startLine }).content, "} {a\nx\ny\n$&\nz\n", `startLine ${startLine}`);
});
test("item 6: a line that merely starts with the model's line is not it grown", () => {
  assert.equal(replace("yaa\ny\n", "y\n", "", { startLine: 1 }).content, "yaa\n");
});

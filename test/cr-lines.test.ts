/**
 * Files of CR-terminated lines (classic Mac OS line ends, every break a bare
 * CR): the document reads each CR as a line break, an edit touches only its
 * lines, inserted lines end with CR, and the CRs a model copied into its edit
 * are line breaks too (issue 15, the `\r`-only part of item 1).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { EditError } from "../src/errors.ts";
import { applyPatch, applySearchReplace, createPatch, replace } from "../src/index.ts";
import { applyEdits } from "../src/node.ts";
import { Document } from "../src/text/document.ts";
import { renderNumberedView } from "../src/tools/numbered-view.ts";
import { makeTree, read } from "./helpers/temp-tree.ts";

const BOM = "\uFEFF";
const FILE = "function f() {\r  let a = 1;\r  return a;\r}\r";

/** What the document makes of a file: its lines, the break it writes, offsets into the raw text. */
const documents: { name: string; raw: string; lines: string[]; eol: string; style: string; rawOf?: [number, number] }[] = [
  { name: "CR-terminated lines", raw: "a\rbb\r", lines: ["a", "bb"], eol: "\r", style: "cr", rawOf: [2, 2] },
  { name: "CR lines with a BOM, no final break", raw: `${BOM}a\rbb`, lines: ["a", "bb"], eol: "\r", style: "cr", rawOf: [3, 4] },
  { name: "a stray CR in an LF file stays text", raw: "a\rb\nc\n", lines: ["a\rb", "c"], eol: "\n", style: "lf" },
  { name: "a CR before CRLF breaks stays text", raw: "a\rb\r\nc\r\n", lines: ["a\rb", "c"], eol: "\r\n", style: "crlf" },
  { name: "no CR at all: one line", raw: "abc", lines: ["abc"], eol: "\n", style: "none" },
];

for (const c of documents) {
  test(`document: ${c.name}`, () => {
    const doc = Document.from(c.raw);
    assert.deepEqual(doc.lines(0, doc.lineCount), c.lines);
    assert.equal(doc.eolAt(0), c.eol);
    assert.equal(doc.lineEndingStyle, c.style);
    if (c.lines.length > 1) assert.equal(doc.breakAfter(0), c.eol);
    if (c.rawOf) assert.equal(doc.toRaw(c.rawOf[0]), c.rawOf[1]);
  });
}

/** An edit through one entry point, and the exact bytes it must write. */
const edits: { name: string; content: string; run: (content: string) => string; want: string }[] = [
  {
    name: "str_replace of one line, the model's find text with LF",
    content: FILE,
    run: (t) => replace(t, "  let a = 1;", "  let a = 2;").content,
    want: "function f() {\r  let a = 2;\r  return a;\r}\r",
  },
  {
    name: "str_replace adding a line: the new line ends with CR, the others keep their bytes",
    content: FILE,
    run: (t) => replace(t, "  let a = 1;\n", "  let a = 1;\n  let b = 2;\n").content,
    want: "function f() {\r  let a = 1;\r  let b = 2;\r  return a;\r}\r",
  },
  {
    name: "str_replace whose find text has the file's CRs (copied verbatim)",
    content: FILE,
    run: (t) => replace(t, "  let a = 1;\r  return a;", "  return 1;").content,
    want: "function f() {\r  return 1;\r}\r",
  },
  {
    name: "str_replace with re-indented lines: merged as lines, not across the whole file",
    content: FILE,
    run: (t) => replace(t, "let a = 1;\nreturn a;", "let a = 1;\nlog(a);\nreturn a;").content,
    want: "function f() {\r  let a = 1;\r  log(a);\r  return a;\r}\r",
  },
  {
    name: "str_replace deleting a whole line takes its CR with it",
    content: FILE,
    run: (t) => replace(t, "  let a = 1;\n", "").content,
    want: "function f() {\r  return a;\r}\r",
  },
  {
    name: "str_replace after the last line of a file without a final break, BOM kept",
    content: `${BOM}a\rb`,
    run: (t) => replace(t, "b", "b\nc").content,
    want: `${BOM}a\rb\rc`,
  },
  {
    name: "SEARCH/REPLACE block",
    content: FILE,
    run: (t) => applySearchReplace(t, "<<<<<<< SEARCH\n  return a;\n=======\n  a += 1;\n  return a;\n>>>>>>> REPLACE\n").content,
    want: "function f() {\r  let a = 1;\r  a += 1;\r  return a;\r}\r",
  },
  {
    name: "unified diff with line numbers",
    content: FILE,
    run: (t) => applyPatch(t, "@@ -2,2 +2,2 @@\n   let a = 1;\n-  return a;\n+  return a * 2;\n").content,
    want: "function f() {\r  let a = 1;\r  return a * 2;\r}\r",
  },
  {
    name: "fuzzy diff removing the final line break (\\ No newline at end of file)",
    content: FILE,
    run: (t) => applyPatch(t, "@@ @@\n   return a;\n-}\n+}\n\\ No newline at end of file\n").content,
    want: "function f() {\r  let a = 1;\r  return a;\r}",
  },
  {
    name: "fuzzy diff adding the final line break",
    content: "a\rb",
    run: (t) => applyPatch(t, "@@ @@\n a\n-b\n\\ No newline at end of file\n+b\n").content,
    want: "a\rb\r",
  },
  {
    name: "a diff made by a tool that read the file as one line (CRs inside the hunk line)",
    content: "a\rb\rc",
    run: (t) => applyPatch(t, "@@ -1 +1 @@\n-a\rb\rc\n\\ No newline at end of file\n+a\rB\rc\n\\ No newline at end of file\n").content,
    want: "a\rB\rc",
  },
  {
    name: "createPatch of two CR files writes lines, and applies",
    content: FILE,
    run: (t) => applyPatch(t, createPatch(t, t.replace("1;", "3;").replace("}\r", "}\r// end\r"))).content,
    want: "function f() {\r  let a = 3;\r  return a;\r}\r// end\r",
  },
];

for (const c of edits) {
  test(`edit of a CR file: ${c.name}`, () => {
    assert.equal(c.run(c.content), c.want);
  });
}

test("createPatch of a CR file is a diff of its lines, not of one long line", () => {
  const patch = createPatch(FILE, FILE.replace("1;", "3;"), { fuzzy: true });
  assert.equal(patch, "@@ @@\n function f() {\n-  let a = 1;\n+  let a = 3;\n   return a;\n }\n");
});

test("a find text that occurs on two lines of a CR file is still ambiguous", () => {
  assert.throws(
    () => replace("x\ry\rx\r", "x", "z"),
    (e: unknown) => e instanceof EditError && e.code === "AMBIGUOUS",
  );
});

test("file layer: a CR file edited through applyEdits, the text editor's insert, and the numbered view", async () => {
  const { root } = await makeTree({ "mac.txt": "one\rtwo\rthree\r" });
  const r = await applyEdits(root, JSON.stringify({ path: "mac.txt", old_string: "two", new_string: "2\n2b" }));
  assert.equal(r.ok, true, JSON.stringify(r.errors));
  assert.equal(await read(root, "mac.txt"), "one\r2\r2b\rthree\r");
  // The file is one line to git and patch(1): its diff is that line, as git diff writes it (git-apply.test.ts applies such diffs).
  assert.equal(r.diff, "--- a/mac.txt\n+++ b/mac.txt\n@@ -1 +1 @@\n-one\rtwo\rthree\r\n\\ No newline at end of file\n+one\r2\r2b\rthree\r\n\\ No newline at end of file\n");
  const ins = await applyEdits(root, JSON.stringify({ command: "insert", path: "mac.txt", insert_line: 1, new_str: "after one\n" }));
  assert.equal(ins.ok, true, JSON.stringify(ins.errors));
  assert.equal(await read(root, "mac.txt"), "one\rafter one\r2\r2b\rthree\r");
  const view = await renderNumberedView(root, "mac.txt");
  assert.match(view, /\n1→one\n2→after one\n3→2\n4→2b\n5→three\n/);
});

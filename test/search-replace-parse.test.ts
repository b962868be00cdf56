import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { EditError } from "../src/errors.ts";
import {
  looksLikeSearchReplace,
  parseSearchReplaceFiles,
  readPathLine,
} from "../src/formats/search-replace-files.ts";
import type { SearchReplaceBlock } from "../src/formats/search-replace-parse.ts";
import {
  parseSearchReplace,
  unescapeMarkers,
  validateMarkerSequence,
} from "../src/formats/search-replace-parse.ts";

const L = (...lines: string[]): string => lines.join("\n");

type Expected = Partial<SearchReplaceBlock>;

const parseCases: { name: string; input: string; blocks: Expected[] }[] = [
  {
    name: "basic block",
    input: L("<<<<<<< SEARCH", "old", "=======", "new", ">>>>>>> REPLACE"),
    blocks: [{ search: "old", replace: "new", index: 0, line: 1 }],
  },
  {
    name: "start_line hint and ------- rule",
    input: L("<<<<<<< SEARCH", ":start_line:42", "-------", "a", "b", "=======", "c", ">>>>>>> REPLACE"),
    blocks: [{ search: "a\nb", replace: "c", startLine: 42 }],
  },
  {
    name: "start_line and end_line without rule, space after colon",
    input: L("<<<<<<< SEARCH", ":start_line: 3", ":end_line:4", "x", "y", "=======", "z", ">>>>>>> REPLACE"),
    blocks: [{ search: "x\ny", replace: "z", startLine: 3, endLine: 4 }],
  },
  {
    name: "hint after the rule",
    input: L("<<<<<<< SEARCH", "-------", ":start_line:7", "x", "=======", "z", ">>>>>>> REPLACE"),
    blocks: [{ search: "x", replace: "z", startLine: 7 }],
  },
  {
    name: ":start_line:0 means no hint",
    input: L("<<<<<<< SEARCH", ":start_line:0", "-------", "x", "=======", "z", ">>>>>>> REPLACE"),
    blocks: [{ search: "x", replace: "z", startLine: undefined }],
  },
  {
    name: "SEARCH> with a stray angle bracket",
    input: L("<<<<<<< SEARCH>", "a", "=======", "b", ">>>>>>> REPLACE"),
    blocks: [{ search: "a", replace: "b" }],
  },
  {
    name: "five marker characters",
    input: L("<<<<< SEARCH", "a", "=====", "b", ">>>>> REPLACE"),
    blocks: [{ search: "a", replace: "b" }],
  },
  {
    name: "nine marker characters",
    input: L("<<<<<<<<< SEARCH", "a", "=========", "b", ">>>>>>>>> REPLACE"),
    blocks: [{ search: "a", replace: "b" }],
  },
  {
    name: "trailing spaces and tabs after markers",
    input: L("<<<<<<< SEARCH  ", "-------\t", "a", "======= ", "b", ">>>>>>> REPLACE \t"),
    blocks: [{ search: "a", replace: "b" }],
  },
  {
    name: "lower-case keywords",
    input: L("<<<<<<< search", "a", "=======", "b", ">>>>>>> replace"),
    blocks: [{ search: "a", replace: "b" }],
  },
  {
    name: "------- SEARCH / ======= / +++++++ REPLACE markers",
    input: L("------- SEARCH", "a", "=======", "b", "+++++++ REPLACE"),
    blocks: [{ search: "a", replace: "b" }],
  },
  {
    name: "prose and code fences around two blocks",
    input: L(
      "I will change two things.",
      "",
      "```python",
      "<<<<<<< SEARCH",
      "x = 1",
      "=======",
      "x = 2",
      ">>>>>>> REPLACE",
      "```",
      "And then:",
      "```",
      "<<<<<<< SEARCH",
      ":start_line:10",
      "-------",
      "y = 1",
      "=======",
      "y = 3",
      ">>>>>>> REPLACE",
      "```",
      "Done.",
    ),
    blocks: [
      { search: "x = 1", replace: "x = 2", index: 0, line: 4 },
      { search: "y = 1", replace: "y = 3", index: 1, line: 12, startLine: 10 },
    ],
  },
  {
    name: "CRLF in the diff text is normalised",
    input: "<<<<<<< SEARCH\r\na\r\nb\r\n=======\r\nc\r\n>>>>>>> REPLACE\r\n",
    blocks: [{ search: "a\nb", replace: "c" }],
  },
  {
    name: "escaped markers are unescaped in content",
    input: L(
      "<<<<<<< SEARCH",
      "\\<<<<<<< HEAD",
      "mine",
      "\\=======",
      "theirs",
      "\\>>>>>>> branch",
      "=======",
      "\\-------",
      "\\:start_line:5",
      "\\:end_line:6",
      ">>>>>>> REPLACE",
    ),
    blocks: [
      {
        search: "<<<<<<< HEAD\nmine\n=======\ntheirs\n>>>>>>> branch",
        replace: "-------\n:start_line:5\n:end_line:6",
      },
    ],
  },
  {
    name: "escaped first SEARCH line is content, not the rule or a hint",
    input: L("<<<<<<< SEARCH", "\\-------", "\\:start_line:3", "=======", "b", ">>>>>>> REPLACE"),
    blocks: [{ search: "-------\n:start_line:3", replace: "b", startLine: undefined }],
  },
  {
    name: "a second ------- in the header is content",
    input: L("<<<<<<< SEARCH", "-------", "-------", "=======", "b", ">>>>>>> REPLACE"),
    blocks: [{ search: "-------", replace: "b" }],
  },
  {
    name: "leading and trailing blank lines are kept exactly",
    input: L("<<<<<<< SEARCH", "", "a", "", "=======", "", "", "b", "", ">>>>>>> REPLACE"),
    blocks: [{ search: "\na\n", replace: "\n\nb\n" }],
  },
  {
    name: "empty REPLACE deletes",
    input: L("<<<<<<< SEARCH", "a", "=======", ">>>>>>> REPLACE"),
    blocks: [{ search: "a", replace: "" }],
  },
  {
    name: "indented markers inside content are content",
    input: L("<<<<<<< SEARCH", "  =======", "  <<<<<<< SEARCH", "=======", "\t>>>>>>> REPLACE", ">>>>>>> REPLACE"),
    blocks: [{ search: "  =======\n  <<<<<<< SEARCH", replace: "\t>>>>>>> REPLACE" }],
  },
  {
    name: "marker-like lines that are not markers are content",
    input: L("<<<<<<< SEARCH", "<<<<<<<<<< banner", "==== four", "=======", "a ======= b", ">>>>>>> REPLACE"),
    blocks: [{ search: "<<<<<<<<<< banner\n==== four", replace: "a ======= b" }],
  },
  {
    name: "trailing whitespace of content lines is kept",
    input: L("<<<<<<< SEARCH", "a  ", "=======", "b\t", ">>>>>>> REPLACE"),
    blocks: [{ search: "a  ", replace: "b\t" }],
  },
  {
    name: "empty SEARCH and identical blocks are returned, not thrown",
    input: L("<<<<<<< SEARCH", "=======", "x", ">>>>>>> REPLACE", "<<<<<<< SEARCH", "s", "=======", "s", ">>>>>>> REPLACE"),
    blocks: [
      { search: "", replace: "x", index: 0, line: 1 },
      { search: "s", replace: "s", index: 1, line: 5 },
    ],
  },
];

for (const c of parseCases) {
  test(`parse: ${c.name}`, () => {
    const blocks = parseSearchReplace(c.input);
    assert.equal(blocks.length, c.blocks.length);
    c.blocks.forEach((want, i) => {
      const got = blocks[i] as SearchReplaceBlock;
      for (const [key, value] of Object.entries(want)) {
        assert.deepEqual(got[key as keyof SearchReplaceBlock], value, `block ${i} field ${key}`);
      }
    });
    assert.deepEqual(validateMarkerSequence(c.input), { blocks: c.blocks.length });
  });
}

const errorCases: { name: string; input: string; line: number; words: string[]; index?: number }[] = [
  {
    name: "separator before SEARCH",
    input: L("intro", "=======", "b", ">>>>>>> REPLACE"),
    line: 2,
    words: ["Line 2", "separator", "before any <<<<<<< SEARCH", "\\======="],
  },
  {
    name: "REPLACE before SEARCH",
    input: L("a", "b", ">>>>>>> REPLACE"),
    line: 3,
    words: ["Line 3", ">>>>>>> REPLACE", "before any <<<<<<< SEARCH"],
  },
  {
    name: "SEARCH inside SEARCH",
    input: L("<<<<<<< SEARCH", "a", "<<<<<<< SEARCH", "b", "=======", "c", ">>>>>>> REPLACE"),
    line: 3,
    index: 0,
    words: ["Line 3", "inside the SEARCH section", "starts at line 1", "expected the separator ======="],
  },
  {
    name: "missing separator",
    input: L("<<<<<<< SEARCH", "a", "b", ">>>>>>> REPLACE"),
    line: 4,
    index: 0,
    words: ["Line 4", "no separator", "starts at line 1", "======="],
  },
  {
    name: "unexpected end in SEARCH",
    input: L("<<<<<<< SEARCH", "a", "b"),
    line: 3,
    index: 0,
    words: ["Unexpected end", "line 3", "starts at line 1", "expected the separator ======="],
  },
  {
    name: "unexpected end right after the SEARCH marker",
    input: "<<<<<<< SEARCH\n",
    line: 1,
    words: ["Unexpected end", "starts at line 1"],
  },
  {
    name: "unexpected end in REPLACE",
    // The final line break ends line 4; there is no line 5.
    input: L("<<<<<<< SEARCH", "a", "=======", "b", ""),
    line: 4,
    index: 0,
    words: ["Unexpected end", "expected >>>>>>> REPLACE", "starts at line 1"],
  },
  {
    name: "unexpected end in the second block has its index",
    input: L("<<<<<<< SEARCH", "a", "=======", "b", ">>>>>>> REPLACE", "<<<<<<< SEARCH", "c"),
    line: 7,
    index: 1,
    words: ["starts at line 6"],
  },
  {
    name: ":start_line: inside REPLACE",
    input: L("<<<<<<< SEARCH", "a", "=======", ":start_line:5", "b", ">>>>>>> REPLACE"),
    line: 4,
    index: 0,
    words: ["Line 4", "REPLACE section", "directly after <<<<<<< SEARCH", "\\:start_line:"],
  },
  {
    name: ":end_line: inside SEARCH content",
    input: L("<<<<<<< SEARCH", "a", ":end_line:5", "=======", "b", ">>>>>>> REPLACE"),
    line: 3,
    words: ["Line 3", "SEARCH content", "\\:end_line:"],
  },
  {
    name: "unescaped merge-conflict marker in SEARCH",
    input: L("<<<<<<< SEARCH", "<<<<<<< HEAD", "mine", "=======", "theirs", ">>>>>>> REPLACE"),
    line: 2,
    index: 0,
    words: ["Line 2", "merge-conflict marker", "escape", "backslash", "\\<<<<<<<"],
  },
  {
    name: "unescaped merge-conflict marker in REPLACE",
    input: L("<<<<<<< SEARCH", "a", "=======", "b", ">>>>>>> feature", ">>>>>>> REPLACE"),
    line: 5,
    words: ["Line 5", "merge-conflict marker", "REPLACE section", "\\>>>>>>>"],
  },
  {
    name: "second separator in REPLACE",
    input: L("<<<<<<< SEARCH", "a", "=======", "b", "=======", "c", ">>>>>>> REPLACE"),
    line: 5,
    words: ["Line 5", "second separator", "expected >>>>>>> REPLACE", "\\======="],
  },
  {
    name: "SEARCH in REPLACE (block not closed)",
    input: L("<<<<<<< SEARCH", "a", "=======", "b", "<<<<<<< SEARCH", "c", "=======", "d", ">>>>>>> REPLACE"),
    line: 5,
    words: ["Line 5", "not closed", "expected >>>>>>> REPLACE"],
  },
  {
    name: "no block at all",
    input: "just prose\n```\ncode\n```\n",
    line: 1,
    words: ["No SEARCH/REPLACE block", "<<<<<<< SEARCH", ">>>>>>> REPLACE"],
  },
  {
    name: "empty text",
    input: "",
    line: 1,
    words: ["No SEARCH/REPLACE block"],
  },
  {
    name: "start_line that is not a number",
    input: L("<<<<<<< SEARCH", ":start_line:abc", "a", "=======", "b", ">>>>>>> REPLACE"),
    line: 2,
    words: ["Line 2", "needs a line number", "abc"],
  },
  {
    name: "duplicate start_line",
    input: L("<<<<<<< SEARCH", ":start_line:1", ":start_line:2", "a", "=======", "b", ">>>>>>> REPLACE"),
    line: 3,
    words: ["duplicate", ":start_line:"],
  },
  {
    name: "end_line before start_line",
    input: L("<<<<<<< SEARCH", ":start_line:9", ":end_line:4", "a", "=======", "b", ">>>>>>> REPLACE"),
    line: 3,
    words: ["before", ":start_line:9"],
  },
  {
    name: "indented SEARCH marker",
    input: L("  <<<<<<< SEARCH", "a", "=======", "b", ">>>>>>> REPLACE"),
    line: 1,
    words: ["Line 1", "indented", "beginning of the line"],
  },
  {
    name: "CRLF text reports the right line",
    input: "<<<<<<< SEARCH\r\na\r\n>>>>>>> REPLACE\r\n",
    line: 3,
    words: ["Line 3", "no separator"],
  },
];

function assertParseError(fn: () => unknown, c: { line: number; words: string[]; index?: number }): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof EditError, "an EditError");
    assert.equal(e.code, "PARSE");
    assert.equal(e.detail.line, c.line);
    if (c.index !== undefined) assert.equal(e.detail.index, c.index);
    for (const w of c.words) assert.ok(e.message.includes(w), `message should mention ${JSON.stringify(w)}: ${e.message}`);
    return true;
  });
}

for (const c of errorCases) {
  test(`parse error: ${c.name}`, () => {
    assertParseError(() => parseSearchReplace(c.input), c);
    // The state machine alone reports the same mistake (except "no block at all").
    if (!c.words.includes("No SEARCH/REPLACE block")) assertParseError(() => validateMarkerSequence(c.input), c);
  });
}

test("validateMarkerSequence accepts a text without blocks", () => {
  assert.deepEqual(validateMarkerSequence("prose only\n"), { blocks: 0 });
});

const unescapeCases: { name: string; input: string; output: string }[] = [
  { name: "separator", input: "\\=======", output: "=======" },
  { name: "conflict open", input: "\\<<<<<<< HEAD", output: "<<<<<<< HEAD" },
  { name: "conflict close", input: "\\>>>>>>> main", output: ">>>>>>> main" },
  { name: "rule", input: "\\-------", output: "-------" },
  { name: "start_line", input: "\\:start_line:4", output: ":start_line:4" },
  { name: "end_line", input: "\\:end_line:4", output: ":end_line:4" },
  { name: "plus marker", input: "\\+++++++ REPLACE", output: "+++++++ REPLACE" },
  { name: "only one backslash is removed", input: "\\\\=======", output: "\\=======" },
  { name: "a backslash before ordinary text stays", input: "\\n and \\t", output: "\\n and \\t" },
  { name: "backslash not at line start stays", input: "x \\=======", output: "x \\=======" },
  { name: "each line separately", input: "a\n\\=======\nb\n\\-------", output: "a\n=======\nb\n-------" },
];

for (const c of unescapeCases) {
  test(`unescapeMarkers: ${c.name}`, () => {
    assert.equal(unescapeMarkers(c.input), c.output);
  });
}

// ---------------------------------------------------------------------------
// Multi-file forms

const BLOCK = L("<<<<<<< SEARCH", "old", "=======", "new", ">>>>>>> REPLACE");

const filesCases: {
  name: string;
  input: Parameters<typeof parseSearchReplaceFiles>[0];
  want: { path: string; diffs: { content: string; startLine?: number }[] }[];
}[] = [
  {
    name: "structured list with string and array diffs, same path merged",
    input: [
      { path: "a.ts", diff: BLOCK },
      { path: " b.ts ", diff: [{ content: BLOCK, startLine: 3 }, { content: "x" }] },
      { path: "a.ts", diff: [{ content: "y", startLine: 0 }] },
    ],
    want: [
      { path: "a.ts", diffs: [{ content: BLOCK }, { content: "y" }] },
      { path: "b.ts", diffs: [{ content: BLOCK, startLine: 3 }, { content: "x" }] },
    ],
  },
  {
    name: "path line directly before the block",
    input: L("src/a.ts", BLOCK),
    want: [{ path: "src/a.ts", diffs: [{ content: BLOCK }] }],
  },
  {
    name: "path line before the opening fence, prose around, block inherits path",
    input: L(
      "Here are the edits.",
      "",
      "src/a.ts",
      "```typescript",
      BLOCK,
      "```",
      "",
      "```",
      L("<<<<<<< SEARCH", "two", "=======", "2", ">>>>>>> REPLACE"),
      "```",
      "**lib/b.py**",
      "```python",
      L("<<<<<<< SEARCH", "p", "=======", "q", ">>>>>>> REPLACE"),
      "```",
    ),
    want: [
      {
        path: "src/a.ts",
        diffs: [{ content: BLOCK }, { content: L("<<<<<<< SEARCH", "two", "=======", "2", ">>>>>>> REPLACE") }],
      },
      { path: "lib/b.py", diffs: [{ content: L("<<<<<<< SEARCH", "p", "=======", "q", ">>>>>>> REPLACE") }] },
    ],
  },
  {
    name: "markdown-dressed path lines and CRLF",
    input: ["### `src/x.ts`", BLOCK, "Update `src/y.ts`:", "", "```", BLOCK, "```"].join("\r\n"),
    want: [
      { path: "src/x.ts", diffs: [{ content: BLOCK }] },
      { path: "src/y.ts", diffs: [{ content: BLOCK }] },
    ],
  },
  {
    name: "apply_diff with args, files, CDATA content and start_line",
    input: L(
      "<apply_diff>",
      "<args>",
      "<file>",
      "  <path>src/main.py</path>",
      "  <diff>",
      `    <content><![CDATA[\n${BLOCK}\n]]></content>`,
      "    <start_line>42</start_line>",
      "  </diff>",
      "  <diff>",
      "    <start_line>7</start_line>",
      `    <content><![CDATA[${BLOCK}]]></content>`,
      "  </diff>",
      "</file>",
      "<file>",
      "  <path>src/helper.py</path>",
      `  <diff><content>\n${BLOCK}\n</content></diff>`,
      "</file>",
      "</args>",
      "</apply_diff>",
    ),
    want: [
      {
        path: "src/main.py",
        diffs: [
          { content: `\n${BLOCK}\n`, startLine: 42 },
          { content: BLOCK, startLine: 7 },
        ],
      },
      { path: "src/helper.py", diffs: [{ content: `\n${BLOCK}\n` }] },
    ],
  },
  {
    name: "simple apply_diff form with raw diff",
    input: L("Let me fix it.", "<apply_diff>", "<path>a.ts</path>", `<diff>\n${BLOCK}\n</diff>`, "</apply_diff>"),
    want: [{ path: "a.ts", diffs: [{ content: `\n${BLOCK}\n` }] }],
  },
  {
    name: "closing tag inside a block is content (editing an XML file)",
    input: L(
      "<apply_diff><path>data.xml</path><diff>",
      "<<<<<<< SEARCH",
      "<diff>a</diff>",
      "=======",
      "<diff>b</diff>",
      ">>>>>>> REPLACE</diff>",
      "</apply_diff>",
    ),
    want: [
      {
        path: "data.xml",
        diffs: [{ content: L("", "<<<<<<< SEARCH", "<diff>a</diff>", "=======", "<diff>b</diff>", ">>>>>>> REPLACE") }],
      },
    ],
  },
  {
    name: "entity-escaped markers are decoded",
    input: "<apply_diff><path>a.ts</path><diff>&lt;&lt;&lt;&lt;&lt;&lt;&lt; SEARCH\nif (a &amp;&amp; b)\n=======\nc\n&gt;&gt;&gt;&gt;&gt;&gt;&gt; REPLACE</diff></apply_diff>",
    want: [{ path: "a.ts", diffs: [{ content: "<<<<<<< SEARCH\nif (a && b)\n=======\nc\n>>>>>>> REPLACE" }] }],
  },
  {
    name: "raw content with code entities is kept verbatim",
    input: `<apply_diff><path>a.html</path><diff>\n<<<<<<< SEARCH\n&amp;\n=======\n&lt;\n>>>>>>> REPLACE\n</diff></apply_diff>`,
    want: [{ path: "a.html", diffs: [{ content: "\n<<<<<<< SEARCH\n&amp;\n=======\n&lt;\n>>>>>>> REPLACE\n" }] }],
  },
  {
    name: "missing closing file/args/apply_diff tags and two calls",
    input: L(
      "<apply_diff><path>a.ts</path><diff>x</diff></apply_diff>",
      "<apply_diff><args><file><path>b.ts</path><diff><content>y</content></diff>",
    ),
    want: [
      { path: "a.ts", diffs: [{ content: "x" }] },
      { path: "b.ts", diffs: [{ content: "y" }] },
    ],
  },
];

for (const c of filesCases) {
  test(`files: ${c.name}`, () => {
    const files = parseSearchReplaceFiles(c.input);
    // Each diff of the path-line form says where it starts: its first line is that line of the input.
    const inputLines = typeof c.input === "string" ? c.input.split(/\r?\n/) : [];
    for (const d of files.flatMap((f) => f.diffs)) {
      if (d.line !== undefined) assert.equal(inputLines[d.line - 1], d.content.split("\n")[0]);
      delete d.line;
    }
    assert.deepEqual(files, c.want);
  });
}

const filesErrorCases: {
  name: string;
  input: Parameters<typeof parseSearchReplaceFiles>[0];
  code: "PARSE" | "INVALID_INPUT";
  line?: number;
  index?: number;
  words: string[];
}[] = [
  {
    name: "first block without a path",
    input: L("Change this:", "", BLOCK),
    code: "PARSE",
    line: 3,
    words: ["Line 3", "no file path", "alone on the line"],
  },
  {
    name: "marker mistakes surface from the path-line form",
    input: L("a.ts", "<<<<<<< SEARCH", "x", ">>>>>>> REPLACE"),
    code: "PARSE",
    line: 4,
    words: ["no separator"],
  },
  {
    name: "no blocks in the path-line form",
    input: "nothing here",
    code: "PARSE",
    line: 1,
    words: ["No SEARCH/REPLACE block", "path alone on a line"],
  },
  {
    name: "file without a path",
    input: L("<apply_diff><args>", "<file>", "<diff><content>x</content></diff>", "</file></args></apply_diff>"),
    code: "PARSE",
    line: 2,
    words: ["no <path>"],
  },
  {
    name: "bad start_line",
    input: "<apply_diff><path>a</path><diff>\n<content>x</content>\n<start_line>ten</start_line></diff></apply_diff>",
    code: "PARSE",
    line: 3,
    words: ["<start_line>", "ten"],
  },
  {
    name: "unterminated CDATA",
    input: "<apply_diff><path>a</path><diff><content>\n<![CDATA[x\n</content></diff></apply_diff>",
    code: "PARSE",
    line: 2,
    words: ["CDATA", "]]>"],
  },
  {
    name: "unclosed diff",
    input: "<apply_diff><path>a</path>\n<diff>x",
    code: "PARSE",
    line: 2,
    words: ["</diff>"],
  },
  {
    name: "empty path",
    input: "<apply_diff><path> </path><diff>x</diff></apply_diff>",
    code: "PARSE",
    line: 1,
    words: ["<path> is empty"],
  },
  {
    name: "structured item without a path",
    input: [{ path: "a", diff: "x" }, { path: "", diff: "y" }],
    code: "INVALID_INPUT",
    index: 1,
    words: ["Item 2", "path"],
  },
  {
    name: "structured item with a bad startLine",
    input: [{ path: "a", diff: [{ content: "x", startLine: -2 }] }],
    code: "INVALID_INPUT",
    index: 0,
    words: ["startLine", "-2"],
  },
];

for (const c of filesErrorCases) {
  test(`files error: ${c.name}`, () => {
    assert.throws(
      () => parseSearchReplaceFiles(c.input),
      (e: unknown) => {
        assert.ok(e instanceof EditError);
        assert.equal(e.code, c.code);
        if (c.line !== undefined) assert.equal(e.detail.line, c.line);
        if (c.index !== undefined) assert.equal(e.detail.index, c.index);
        for (const w of c.words) assert.ok(e.message.includes(w), `${w} in ${e.message}`);
        return true;
      },
    );
  });
}

const pathLineCases: { line: string; path: string | undefined }[] = [
  { line: "src/a.ts", path: "src/a.ts" },
  { line: "  src/a.ts:  ", path: "src/a.ts" },
  { line: "`src/a.ts`", path: "src/a.ts" },
  { line: "**src/a.ts**", path: "src/a.ts" },
  { line: "## src/a.ts", path: "src/a.ts" },
  { line: "File: src/a.ts", path: "src/a.ts" },
  { line: "In `lib/x.py`:", path: "lib/x.py" },
  { line: ".gitignore", path: ".gitignore" },
  { line: "Makefile", path: "Makefile" },
  { line: "Changes", path: undefined },
  { line: "Before:", path: undefined },
  { line: "Done.", path: undefined },
  { line: "Update the function in src/a.ts:", path: undefined },
  { line: "Compare `a.ts` and `b.ts`:", path: undefined },
  { line: "https://example.com/a.ts", path: undefined },
  { line: "3.14", path: undefined },
  { line: "```ts", path: undefined },
];

for (const c of pathLineCases) {
  test(`readPathLine: ${JSON.stringify(c.line)}`, () => {
    assert.equal(readPathLine(c.line), c.path);
  });
}

const detectCases: { name: string; text: string; want: boolean }[] = [
  { name: "a block", text: BLOCK, want: true },
  { name: "Cline markers", text: "------- SEARCH\na\n=======\nb\n+++++++ REPLACE", want: true },
  { name: "tool call content on the tag line", text: `<diff><content><![CDATA[${BLOCK}]]></content></diff>`, want: true },
  { name: "entity-escaped tool call", text: "&lt;&lt;&lt;&lt;&lt;&lt;&lt; SEARCH\na\n=======\n", want: true },
  { name: "a unified diff", text: "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n", want: false },
  { name: "a merge conflict", text: "<<<<<<< HEAD\na\n=======\nb\n>>>>>>> main\n", want: false },
  { name: "prose mentioning SEARCH", text: "Use <<<<<<< SEARCH markers.", want: false },
  { name: "SEARCH marker alone", text: "<<<<<<< SEARCH\nabc\n", want: false },
];

for (const c of detectCases) {
  test(`looksLikeSearchReplace: ${c.name}`, () => {
    assert.equal(looksLikeSearchReplace(c.text), c.want);
  });
}

// ---------------------------------------------------------------------------
// Properties

const MARKER_PREFIX = /^\\*(?:<{5}|>{5}|={5}|-{5}|\+{5}|:start_line:|:end_line:)/;

/** Escapes content the way a model is told to: one more backslash on marker-like lines. */
function escapeForBlock(text: string): string {
  return text
    .split("\n")
    .map((l) => (MARKER_PREFIX.test(l) ? `\\${l}` : l))
    .join("\n");
}

const fragments = [
  "<<<<<<< SEARCH",
  "<<<<<<< HEAD",
  "=======",
  ">>>>>>> REPLACE",
  ">>>>>>> main",
  "-------",
  "------- SEARCH",
  "+++++++ REPLACE",
  ":start_line:",
  ":end_line:",
  "\\",
  "\\\\",
  "<<<<<",
  "=====",
  "<apply_diff>",
  "<path>",
  "</path>",
  "<diff>",
  "</diff>",
  "<content>",
  "</content>",
  "<![CDATA[",
  "]]>",
  "<start_line>",
  "&lt;&lt;&lt;&lt;&lt;",
  "```",
  "src/a.ts",
  "12",
  "x",
  " ",
  "\t",
  "\n",
  "\r\n",
  "\r",
];

const markerishText = fc
  .array(fc.oneof(fc.constantFrom(...fragments), fc.string({ maxLength: 4 })), { maxLength: 40 })
  .map((parts) => parts.join(""));

test("property: arbitrary text throws nothing but EditError", () => {
  fc.assert(
    fc.property(fc.oneof(markerishText, fc.string({ maxLength: 200 })), (text) => {
      for (const fn of [
        () => parseSearchReplace(text),
        () => validateMarkerSequence(text),
        () => parseSearchReplaceFiles(text),
      ]) {
        try {
          fn();
        } catch (e) {
          if (!(e instanceof EditError)) throw e;
        }
      }
      assert.equal(typeof looksLikeSearchReplace(text), "boolean");
    }),
    { numRuns: 2000 },
  );
});

const contentLine = fc.oneof(
  fc.constantFrom(
    "",
    " ",
    "=======",
    "  =======",
    "<<<<<<< SEARCH",
    "<<<<<<< HEAD",
    ">>>>>>> REPLACE",
    ">>>>>>> main",
    "-------",
    "------- SEARCH",
    "+++++++ REPLACE",
    ":start_line:3",
    ":end_line:x",
    "\\=======",
    "\\\\-------",
    "\\n",
    "=====x",
    "<<<<<<<<<<",
    "```",
    "  indented()",
  ),
  fc.string({ maxLength: 12 }).filter((s) => !s.includes("\n") && !s.includes("\r")),
);
const content = fc.array(contentLine, { maxLength: 6 }).map((lines) => lines.join("\n"));

test("property: generated blocks round-trip through parse exactly", () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.record({
          search: content,
          replace: content,
          startLine: fc.option(fc.integer({ min: 1, max: 5000 }), { nil: undefined }),
          rule: fc.boolean(),
          prose: fc.constantFrom("", "Some prose.", "```", "```ts\n"),
        }),
        { minLength: 1, maxLength: 4 },
      ),
      fc.boolean(),
      (specs, crlf) => {
        const parts: string[] = [];
        const lineOf: number[] = [];
        let lineCount = 0;
        for (const s of specs) {
          const text = [
            ...(s.prose === "" ? [] : [s.prose.replace(/\n$/, "")]),
            "<<<<<<< SEARCH",
            ...(s.startLine === undefined ? [] : [`:start_line:${s.startLine}`]),
            ...(s.rule ? ["-------"] : []),
            escapeForBlock(s.search),
            "=======",
            escapeForBlock(s.replace),
            ">>>>>>> REPLACE",
          ].join("\n");
          lineOf.push(lineCount + (s.prose === "" ? 1 : 2));
          lineCount += text.split("\n").length;
          parts.push(text);
        }
        let diff = `${parts.join("\n")}\n`;
        if (crlf) diff = diff.replace(/\n/g, "\r\n");
        const blocks = parseSearchReplace(diff);
        assert.equal(blocks.length, specs.length);
        specs.forEach((s, i) => {
          const b = blocks[i] as SearchReplaceBlock;
          assert.equal(b.search, s.search);
          assert.equal(b.replace, s.replace);
          assert.equal(b.startLine, s.startLine);
          assert.equal(b.index, i);
          assert.equal(b.line, lineOf[i]);
        });
      },
    ),
    { numRuns: 1000 },
  );
});

test("property: tool-call form carries any block content through unchanged", () => {
  fc.assert(
    fc.property(content, content, fc.boolean(), (search, replace, cdata) => {
      const block = L("<<<<<<< SEARCH", escapeForBlock(search), "=======", escapeForBlock(replace), ">>>>>>> REPLACE");
      const inner = cdata ? `<![CDATA[${block}]]>` : block;
      // Raw content must not hold the closing tag outside a block; CDATA must not hold "]]>".
      fc.pre(cdata ? !block.includes("]]>") : true);
      const text = `<apply_diff><args><file><path>f.txt</path><diff><content>${inner}</content></diff></file></args></apply_diff>`;
      const files = parseSearchReplaceFiles(text);
      assert.equal(files.length, 1);
      const diff = files[0]?.diffs[0];
      assert.equal(diff?.content, block);
      const [b] = parseSearchReplace(diff?.content ?? "");
      assert.equal(b?.search, search);
      assert.equal(b?.replace, replace);
    }),
    { numRuns: 500 },
  );
});

test("speed: a large diff and hostile input parse in linear time", () => {
  const big = Array.from({ length: 2000 }, (_, i) => L("<<<<<<< SEARCH", `a${i}`, "=======", `b${i}`, ">>>>>>> REPLACE")).join(
    "\n",
  );
  const hostile = `<apply_diff>${"<a".repeat(50_000)}${"<".repeat(50_000)}${"=".repeat(50_000)}`;
  const t0 = performance.now();
  assert.equal(parseSearchReplace(big).length, 2000);
  try {
    parseSearchReplaceFiles(hostile);
  } catch (e) {
    assert.ok(e instanceof EditError);
  }
  assert.equal(looksLikeSearchReplace(`${"<<<<<<< SEARCH ".repeat(20_000)}`), false);
  assert.ok(performance.now() - t0 < 2000, "should take well under 2 s");
});

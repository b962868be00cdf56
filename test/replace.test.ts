import assert from "node:assert/strict";
import { test } from "node:test";
import { EditError, type EditErrorCode, type EditErrorDetail } from "../src/errors.ts";
import { type ReplaceOptions, replace } from "../src/formats/str-replace.ts";
import { PRESETS } from "../src/match/cascade.ts";

/** The strategies each preset tries before giving up (multi-occurrence only serves replaceAll). */
const DEFAULT_TRIED = PRESETS.default.strategies.map((s) => s.name).filter((n) => n !== "multi-occurrence");
const OPENCODE_TRIED = PRESETS.opencode.strategies.map((s) => s.name).filter((n) => n !== "multi-occurrence");
const DEFAULT_TRIED_ALL = PRESETS.default.strategies.filter((s) => s.exact).map((s) => s.name);

function fails(fn: () => unknown, code: EditErrorCode): EditError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof EditError, `expected an EditError, got ${String(e)}`);
    assert.equal(e.code, code, e.message);
    return e;
  }
  assert.fail(`expected ${code}, but the edit applied`);
}

// ---------------------------------------------------------------------------
// Edits that apply

interface Applies {
  name: string;
  content: string;
  old: string;
  new: string;
  options?: ReplaceOptions;
  expect: string;
  strategy?: string;
  /** 1-based inclusive lines of the original content. */
  lines?: [number, number];
  count?: number;
}

const tryBlock = "x\ntry {\n  foo();\n  bar();\n}\n";
const misremembered = "function f() {\n  const value = compute(1);\n  log(value);\n  return value;\n}\n";

const applies: Applies[] = [
  // Mixed line endings: every line the edit keeps keeps its own ending.
  {
    name: "mixed endings: a kept line keeps its CRLF inside a line match",
    content: "a\r\n  b\n  c\r\n  d\ne\n",
    old: "b\nc\nd",
    new: "b\nc\nD",
    expect: "a\r\n  b\n  c\r\n  D\ne\n",
    strategy: "line-trimmed",
  },
  {
    name: "mixed endings: a rewritten line takes the ending of the line it replaces",
    content: "one\r\ntwo\nthree\r\nfour\n",
    old: "two\nthree\n",
    new: "2\n3\n",
    expect: "one\r\n2\n3\r\nfour\n",
    strategy: "exact",
  },
  {
    // Code after the match: widened to whole lines, it would move before the added line
    // (statements reordered, issue 15 item 1), so the splice is literal.
    name: "an exact match ending inside a line that goes on with code, a line added after it: the splice is literal",
    content: "a();\nb(); c();\n",
    old: "a();\nb();",
    new: "a();\nb();\nnext();",
    expect: "a();\nb();\nnext(); c();\n",
    strategy: "exact",
  },
  {
    // A comment the line grew since the model read it belongs to that line (accuracy kind file-changed).
    name: "an exact match ending before a trailing comment, a line added after it: literal, the comment ends the new line (issue 32)",
    content: "a();\nb(); // added later\nc();\n",
    old: "a();\nb();",
    new: "a();\nb();\nnext();",
    expect: "a();\nb();\nnext(); // added later\nc();\n",
    strategy: "exact",
  },
  {
    // The model misremembered the last word short (`## Doc` for `## Docs`, accuracy kind misremembered-token).
    name: "an exact match ending inside a word, lines added after it: literal (issue 32)",
    content: "- friendly.\n\n## Docs\n\nText.\n",
    old: "- friendly.\n\n## Doc",
    new: "- friendly.\n\n## Doc\nA new line.",
    expect: "- friendly.\n\n## Doc\nA new line.s\n\nText.\n",
    strategy: "exact",
  },
  {
    name: "an exact match ending inside a line whose end the edit changes stays literal",
    content: "x = 1;\ny = 2;\n",
    old: "x = 1;\ny = 2",
    new: "x = 1;\ny = 3",
    expect: "x = 1;\ny = 3;\n",
    strategy: "exact",
  },
  {
    name: "blank lines: deleting a blank line the model quoted deletes the file's",
    content: "a();\nb();\n\nc();\n",
    old: "a();\n\nb();\n\nc();",
    new: "a();\n\nb();\nc();",
    expect: "a();\nb();\nc();\n",
    strategy: "blank-lines",
  },
  {
    name: "similarity fallback: a typo on every line, no line exact",
    content: "const alpha = computeTheValue(1);\nconst beta = computeOther(2);\nconst gamma = 3;\n",
    old: "const alpha = computeTheValu(1);\nconst betta = computeOthers(2);",
    new: "const alpha = computeTheValu(1);\nconst betta = computeOthers(2);\nconst delta = 4;",
    expect: "const alpha = computeTheValue(1);\nconst beta = computeOther(2);\nconst delta = 4;\nconst gamma = 3;\n",
    strategy: "fuzzy-block",
  },
  // replace() semantics
  { name: "an empty oldString creates a new file", content: "", old: "", new: "hello\nworld\n", expect: "hello\nworld\n", strategy: "create", lines: [1, 2] },
  { name: "a new file without a final newline", content: "", old: "", new: "one line", expect: "one line", strategy: "create", lines: [1, 1] },
  { name: "exact: a span inside a line", content: "let a = 1;\nlet b = 2;\n", old: "b = 2", new: "b = 3", expect: "let a = 1;\nlet b = 3;\n", strategy: "exact", lines: [2, 2] },
  {
    name: "opencode: an ambiguous exact match passes to line-trimmed",
    content: "foo\nfoobar\n",
    old: "foo",
    new: "baz",
    options: { preset: "opencode" },
    expect: "baz\nfoobar\n",
    strategy: "line-trimmed",
    lines: [1, 1],
  },
  {
    name: "strategies run in order: line-trimmed before the looser ones",
    content: "    if (x) {\n        return;\n    }",
    old: "if (x) {\n    return;\n}",
    new: "if (x) {\n    return 1;\n}",
    expect: "    if (x) {\n        return 1;\n    }",
    strategy: "line-trimmed",
    lines: [1, 3],
  },
  {
    name: "opencode order: block-anchor runs before whitespace-normalized",
    content: "if (a) {\n  x  =  1;\n}\n",
    old: "if (a) {\n  x = 1;\n}",
    new: "if (a) {\n  x = 2;\n}",
    options: { preset: "opencode" },
    // The spacing the model copied from its find text takes the file's; only the new token is its own.
    expect: "if (a) {\n  x  =  2;\n}\n",
    strategy: "block-anchor",
    lines: [1, 3],
  },
  {
    name: "default order: whitespace-normalized runs before block-anchor",
    content: "if (a) {\n  x  =  1;\n}\n",
    old: "if (a) {\n  x = 1;\n}",
    new: "if (a) {\n  x = 2;\n}",
    expect: "if (a) {\n  x  =  2;\n}\n",
    strategy: "whitespace-normalized",
    lines: [1, 3],
  },
  {
    name: "opencode: block-anchor accepts a lone candidate at any similarity",
    content: tryBlock,
    old: "try {\n  completely();\n  different();\n}",
    new: "try {\n  nothing();\n}",
    options: { preset: "opencode" },
    expect: "x\ntry {\n  nothing();\n}\n",
    strategy: "block-anchor",
    lines: [2, 5],
  },
  {
    name: "opencode: block-anchor takes the best of several candidates",
    content: "try {\n  foo(1);\n}\ntry {\n  bar(2);\n}\n",
    old: "try {\n  bar(3);\n}",
    new: "try {\n  bar(3);\n  baz();\n}",
    options: { preset: "opencode" },
    expect: "try {\n  foo(1);\n}\ntry {\n  bar(2);\n  baz();\n}\n",
    strategy: "block-anchor",
    lines: [4, 6],
  },
  {
    name: "opencode: block-anchor takes the first of tied candidates",
    content: "try {\n  foo(1);\n}\ntry {\n  foo(2);\n}",
    old: "try {\n  foo(3);\n}",
    new: "try {\n  done();\n}",
    options: { preset: "opencode" },
    expect: "try {\n  done();\n}\ntry {\n  foo(2);\n}",
    strategy: "block-anchor",
    lines: [1, 3],
  },
  {
    name: "default: block-anchor takes a clearly better candidate",
    content: "try {\n  foo(1);\n}\ntry {\n  bar(2);\n}\n",
    old: "try {\n  bar(3);\n}",
    new: "try {\n  bar(3);\n  baz();\n}",
    expect: "try {\n  foo(1);\n}\ntry {\n  bar(2);\n  baz();\n}\n",
    strategy: "block-anchor",
    lines: [4, 6],
  },
  {
    name: "replaceAll: every exact occurrence",
    content: "a\nfoo\nb\nfoo\n",
    old: "foo",
    new: "bar",
    options: { replaceAll: true },
    expect: "a\nbar\nb\nbar\n",
    strategy: "exact",
    lines: [2, 4],
    count: 2,
  },
  {
    name: "replaceAll: a single occurrence is fine",
    content: "a\nfoo\n",
    old: "foo",
    new: "bar",
    options: { replaceAll: true },
    expect: "a\nbar\n",
    count: 1,
  },
  {
    name: "replaceAll: every place found by line-trimmed, each re-indented",
    content: "  x = 1;\n  y = 2;\nz\n    x = 1;\n    y = 2;\n",
    old: "x = 1;\ny = 2;",
    new: "x = 10;\ny = 2;",
    options: { replaceAll: true },
    expect: "  x = 10;\n  y = 2;\nz\n    x = 10;\n    y = 2;\n",
    strategy: "line-trimmed",
    count: 2,
  },
  {
    name: "replaceAll (opencode): every exact occurrence",
    content: "a.b.c",
    old: ".",
    new: "::",
    options: { replaceAll: true, preset: "opencode" },
    expect: "a::b::c",
    count: 2,
  },
  {
    name: "a startLine hint picks the clearly nearest of equal candidates",
    content: `foo\n${"x\n".repeat(200)}foo\n`,
    old: "foo",
    new: "bar",
    options: { startLine: 202 },
    expect: `foo\n${"x\n".repeat(200)}bar\n`,
    lines: [202, 202],
  },

  // newString is literal
  { name: "literal newString: $& $$ $1 $'", content: "a b c", old: "b", new: "$& $$ $1 $' $`", expect: "a $& $$ $1 $' $` c" },
  {
    name: "literal newString under replaceAll",
    content: "a.b.c",
    old: ".",
    new: "$&$&",
    options: { replaceAll: true },
    expect: "a$&$&b$&$&c",
    count: 2,
  },
  {
    name: "literal newString on a fuzzy match",
    content: "  x = 1;\n  y = 2;\n",
    old: "x = 1;\ny = 2;",
    new: "x = '$&';\ny = '$1$$';",
    expect: "  x = '$&';\n  y = '$1$$';\n",
  },
  { name: "literal oldString: $ and regex characters", content: "price = $1.00 (*)\n", old: "$1.00 (*)", new: "$2.00", expect: "price = $2.00\n" },

  // Line endings and BOM
  { name: "CRLF file: LF strings, CRLF written", content: "one\r\ntwo\r\nthree\r\n", old: "two\nthree", new: "TWO\nTHREE\nFOUR", expect: "one\r\nTWO\r\nTHREE\r\nFOUR\r\n" },
  { name: "CRLF file: CRLF strings", content: "a\r\nb\r\nc\r\n", old: "a\r\nb\r\n", new: "A\r\nB\r\n", expect: "A\r\nB\r\nc\r\n" },
  { name: "LF file: a CRLF newString is written with LF", content: "a\nb\nc\n", old: "b", new: "B1\r\nB2", expect: "a\nB1\nB2\nc\n" },
  {
    name: "CRLF file: a fuzzy match writes CRLF",
    content: "a\r\n    b();\r\n    c();\r\nd\r\n",
    old: "b();\nc();",
    new: "b();\nc();\nx();",
    expect: "a\r\n    b();\r\n    c();\r\n    x();\r\nd\r\n",
    strategy: "line-trimmed",
  },
  { name: "mixed endings: an edit in an LF region writes LF", content: "a\r\nb\r\nc\nd\n", old: "d", new: "D\nE", expect: "a\r\nb\r\nc\nD\nE\n" },
  { name: "mixed endings: an edit in a CRLF region writes CRLF", content: "a\nb\nc\r\nd\r\n", old: "c", new: "C\nC2", expect: "a\nb\nC\r\nC2\r\nd\r\n" },
  {
    name: "mixed endings: each line keeps its own ending on a line-for-line fuzzy edit",
    content: "a\r\n  b\n  c\r\nd\n",
    old: "b\nc",
    new: "B\nC",
    expect: "a\r\n  B\n  C\r\nd\n",
  },
  { name: "BOM kept (exact, CRLF)", content: "\uFEFFa\r\nb\r\n", old: "b", new: "B\nC", expect: "\uFEFFa\r\nB\r\nC\r\n" },
  { name: "BOM kept (fuzzy)", content: "\uFEFF  a\n  b\n", old: "a\nb", new: "a\nB", expect: "\uFEFF  a\n  B\n" },
  { name: "BOM kept when editing the first line", content: "\uFEFFfirst\nsecond\n", old: "first", new: "FIRST", expect: "\uFEFFFIRST\nsecond\n" },

  // Re-indentation
  {
    name: "re-indent: tabs in the file, spaces in the strings",
    content: "function f() {\n\tif (a) {\n\t\tb();\n\t}\n}\n",
    old: "if (a) {\n  b();\n}",
    new: "if (a) {\n  b();\n  c();\n}",
    expect: "function f() {\n\tif (a) {\n\t\tb();\n\t\tc();\n\t}\n}\n",
    strategy: "line-trimmed",
  },
  {
    name: "re-indent: relative indentation kept, in tabs",
    content: "\tfunction f() {\n\t\treturn 1;\n\t}\n",
    old: "function f() {\n    return 1;\n}",
    new: "function f() {\n    if (a) {\n        return 2;\n    }\n    return 1;\n}",
    expect: "\tfunction f() {\n\t\tif (a) {\n\t\t\treturn 2;\n\t\t}\n\t\treturn 1;\n\t}\n",
  },
  {
    name: "re-indent: two-space strings into a four-space file",
    content: "class A {\n    m() {\n        x();\n    }\n}\n",
    old: "m() {\n  x();\n}",
    new: "m() {\n  x();\n  if (y) {\n    z();\n  }\n}",
    expect: "class A {\n    m() {\n        x();\n        if (y) {\n            z();\n        }\n    }\n}\n",
  },
  {
    name: "re-indent: the whole block shifted",
    content: "        function foo() {\n            return;\n        }",
    old: "function foo() {\n    return;\n}",
    new: "function foo() {\n    return 42;\n}",
    expect: "        function foo() {\n            return 42;\n        }",
  },

  // Un-escaping
  {
    name: "un-escape: newString is un-escaped like oldString",
    content: 'const msg = "a";\nlog(msg);\n',
    old: 'const msg = \\"a\\";\\nlog(msg);',
    new: 'const msg = \\"b\\";\\nlog(msg);\\nlog(\\"done\\");',
    expect: 'const msg = "b";\nlog(msg);\nlog("done");\n',
    strategy: "escape-normalized",
  },
  {
    name: "un-escape (opencode)",
    content: "line1\n\tfoo\nend\n",
    old: "line1\\n\\tfoo",
    new: "line1\\n\\tbar",
    options: { preset: "opencode" },
    expect: "line1\n\tbar\nend\n",
    strategy: "escape-normalized",
  },
  {
    name: "an exact match leaves escapes in newString alone",
    content: "s = 'a\\nb';\n",
    old: "'a\\nb'",
    new: "'a\\tb'",
    expect: "s = 'a\\tb';\n",
    strategy: "exact",
  },

  // One of the two strings over-escaped (accuracy kinds escaped-find, escaped-replace)
  {
    name: "un-escape: a one-line find escaped, the replacement plain: its own `\\n` in a string stays",
    content: "def load(path):\n    with open(path) as f:\n        return f.read()\n",
    old: "    with open(path) as f:\\n        return f.read()",
    new: '    with open(path) as f:\n        return f.read().split("\\n")',
    expect: 'def load(path):\n    with open(path) as f:\n        return f.read().split("\\n")\n',
    strategy: "escape-normalized",
  },
  {
    name: "exact is literal: the replacement alone over-escaped after a one-line find is written as sent (issue 32)",
    content: "import os\n\ndef load(path):\n    return open(path).read()\n",
    old: "def load(path):",
    new: 'def load(path):\\n    \\"\\"\\"Load the file.\\"\\"\\"',
    expect: 'import os\n\ndef load(path):\\n    \\"\\"\\"Load the file.\\"\\"\\"\n    return open(path).read()\n',
    strategy: "exact",
  },
  {
    name: "exact is literal: the replacement alone over-escaped, top-level lines after a kept one (issue 32)",
    content: "import os\nprint(os.name)\n",
    old: "import os",
    new: "import os\\nimport sys",
    expect: "import os\\nimport sys\nprint(os.name)\n",
  },
  {
    name: "un-escape: a one-line replacement's `\\n` inside a string is the code's own",
    content: 'x = "a"\n',
    old: 'x = "a"',
    new: 'x = "a\\n  b"',
    expect: 'x = "a\\n  b"\n',
  },
  {
    name: "un-escape: a one-line replacement's `\\n` inside a regular expression is the code's own",
    content: "const parts = s.split(/,/);\n",
    old: "const parts = s.split(/,/);",
    new: "const parts = s.split(/\\n  +/);",
    expect: "const parts = s.split(/\\n  +/);\n",
  },

  // Line numbers on the replacement only (accuracy kind numbers-replace)
  {
    name: "exact is literal: a replacement copied from a numbered view, the find text exact, is written as sent (issue 32)",
    content: "a\nb\nc\nd\n",
    old: "b\nc",
    new: "2\tb\n3\tc2\n4\tc3",
    expect: "a\n2\tb\n3\tc2\n4\tc3\nd\n",
    strategy: "exact",
  },
  {
    name: "line numbers: a numbered line of spaces keeps its spaces (the find text off by a trailing space)",
    content: "a\n    b\n    \n    c\n",
    old: "    b \n    \n    c",
    new: "2\t    b2\n3\t    \n4\t    c",
    expect: "a\n    b2\n    \n    c\n",
  },
  {
    name: "line numbers: the arrow style on the replacement only (the find text off by a space)",
    content: "x\nfoo()\n",
    old: "foo() ",
    new: "     2\u2192foo(1)\n     3\u2192bar()",
    expect: "x\nfoo(1)\nbar()\n",
  },
  {
    name: "line numbers: numbers that do not count from the match are content",
    content: "header\nrows\n",
    old: "rows",
    new: "100\talice\n101\tbob",
    expect: "header\n100\talice\n101\tbob\n",
  },
  {
    name: "line numbers: one `N\\t` line at the find text's indentation after the tab is a numbered copy (the find text off by a space)",
    content: "x\n\tfoo();\n",
    old: "\tfoo(); ",
    new: "2\t\tfoo(1);",
    expect: "x\n\tfoo(1);\n",
  },
  {
    name: "line numbers: one `1\\t` line at column 0, nothing quoted in it: content (a data row's first column)",
    content: "a\n",
    old: "a",
    new: "1\t}",
    expect: "1\t}\n",
  },
  {
    name: "line numbers: one `N\t` line at column 0 numbering the match's line and rewriting it is a numbered copy",
    content: "'use strict'\nconst { a: b } = require('m')\n\nvar c\n",
    old: "const { a: b } = require('m') ",
    new: "2\tconst { a: b } = requireList('m')",
    expect: "'use strict'\nconst { a: b } = requireList('m')\n\nvar c\n",
  },
  {
    name: "line numbers: numbers that are all the edit adds (ids on rows) are content",
    content: "alice\nbob\n",
    old: "alice\nbob",
    new: "1\talice\n2\tbob",
    expect: "1\talice\n2\tbob\n",
  },
  {
    name: "line numbers: numbers that skip are content",
    content: "header\nrows\n",
    old: "rows",
    new: "2\talice\n4\tbob",
    expect: "header\n2\talice\n4\tbob\n",
  },
  {
    name: "line numbers: the find text numbered as the file is (data rows): the replacement's numbers are content",
    content: "1\talice\n2\tbob\n",
    old: "1\talice\n2\tbob",
    new: "1\talice\n2\tbob\n3\tcarol",
    expect: "1\talice\n2\tbob\n3\tcarol\n",
  },

  // One string ends with a line break, the other not (accuracy kind final-break)
  { name: "final break: the find text's, not the replacement's: exact is literal, the lines join (issue 32)", content: "a\nx = 1\nb\n", old: "x = 1\n", new: "x = 2", expect: "a\nx = 2b\n" },
  { name: "final break: the find text's, not the replacement's, found loosely: the line stays a line", content: "a\nx = 1\nb\n", old: "x = 1 \n", new: "x = 2", expect: "a\nx = 2\nb\n" },
  { name: "final break: the replacement's, not the find text's: a blank line added, as written", content: "a\nx = 1\nb\n", old: "x = 1", new: "x = 2\n", expect: "a\nx = 2\n\nb\n" },
  { name: "final break: the find text's before a blank line: that line removed, as written", content: "a\nx = 1\n\nb\n", old: "x = 1\n", new: "x = 2", expect: "a\nx = 2\nb\n" },
  { name: "final break: the find text's on the last line: exact is literal, the final newline goes (issue 32)", content: "a\nx = 1\n", old: "x = 1\n", new: "x = 2", expect: "a\nx = 2" },
  { name: "final break: a find text of a line break alone joins the lines", content: "a\nb", old: "\n", new: " ", expect: "a b" },
  { name: "final break: a break inside a line splits it", content: "x = 1; y = 2\n", old: "x = 1;", new: "x = 1;\n", expect: "x = 1;\n y = 2\n" },

  // The replacement repeats a file line next to the find text (accuracy kind replace-overlap)
  { name: "exact is literal, a neighbour written twice (issue 32): the next line repeated at the end of the replacement is written once", content: "a();\nx = 1;\nreturn x;\n", old: "x = 1;", new: "x = 2;\ny = 3;\nreturn x;", expect: "a();\nx = 2;\ny = 3;\nreturn x;\nreturn x;\n" },
  { name: "exact is literal, a neighbour written twice (issue 32): the previous line repeated at the start of the replacement is written once", content: "a();\nx = 1;\nreturn x;\n", old: "x = 1;", new: "a();\nx = 2;", expect: "a();\na();\nx = 2;\nreturn x;\n" },
  { name: "exact is literal, a neighbour written twice (issue 32): two next lines repeated", content: "x = 1;\nb();\nc();\nd();\n", old: "x = 1;", new: "x = 2;\nb();\nc();", expect: "x = 2;\nb();\nc();\nb();\nc();\nd();\n" },
  { name: "exact is literal, a neighbour written twice (issue 32): the quoted last `}` kept, then the file's next `}` repeated: written once", content: "  if (a) {\n    b();\n  }\n}\n", old: "  if (a) {\n    b();\n  }", new: "  if (a) {\n    c();\n  }\n}", expect: "  if (a) {\n    c();\n  }\n}\n}\n" },
  { name: "exact is literal, a neighbour written twice (issue 32): a `}` that may be the quoted one kept (re-indented) is not taken for the next", content: "class A {\n    m() {\n        x();\n    }\n}\n", old: "m() {\n  x();\n}", new: "m() {\n  y();\n}", expect: "class A {\n    m() {\n        y();\n    }\n}\n" },
  { name: "exact is literal, a neighbour written twice (issue 32): a line right past the quoted last line is the next one, even if quoted elsewhere", content: "```\ncode\n```\ntext\n```\n", old: "```\ncode\n```\ntext", new: "```\ncode2\n```\ntext\n```", expect: "```\ncode2\n```\ntext\n```\n```\n" },
  { name: "exact is literal, a neighbour written twice (issue 32): a `}` at the next line's depth, off every quoted `}`, after a find text at the file's depth: written once", content: "function f() {\n  if (a) {\n    b();\n  }\n\n  return c;\n}\nnext();\n", old: "  }\n\n  return c;", new: "  }\n\n  return d;\n}", expect: "function f() {\n  if (a) {\n    b();\n  }\n\n  return d;\n}\n}\nnext();\n" },
  { name: "exact is literal, a neighbour written twice (issue 32): a `}` at the previous line's depth, off every quoted `}`, before the find text: written once", content: "  if (a) {\n    if (b) {\n      c();\n    }\n  }\n  for (;;) {\n    d();\n  }\n", old: "  }\n  for (;;) {\n    d();\n  }", new: "    }\n  } // end\n  for (;;) {\n    e();\n  }", expect: "  if (a) {\n    if (b) {\n      c();\n    }\n    }\n  } // end\n  for (;;) {\n    e();\n  }\n" },
  { name: "exact is literal, a neighbour written twice (issue 32): a closing line quoted once and written twice, first as the line above: that one is the repeat", content: "  /**\n   * first\n   */\n  A = 1,\n  /**\n   * second\n   */\n  B = 2\n", old: "  A = 1,\n  /**\n   * second\n   */", new: "   */\n   * second\n   */", expect: "  /**\n   * first\n   */\n   */\n   * second\n   */\n  B = 2\n" },
  { name: "exact is literal, a neighbour written twice (issue 32): a blank line is never taken for a repeated one", content: "x = 1;\n\nb();\n", old: "x = 1;", new: "x = 2;\n", expect: "x = 2;\n\n\nb();\n" },
  { name: "exact is literal, a neighbour written twice (issue 32): a match inside a line has no next line to repeat", content: "x = 1; y = 2;\nb();\n", old: "x = 1;", new: "x = 2;\nb();", expect: "x = 2;\nb(); y = 2;\nb();\n" },

  // Deleting whole lines
  { name: "delete a line with its break", content: "a\nb\nc\n", old: "b\n", new: "", expect: "a\nc\n" },
  { name: "delete a whole line given without its break: no blank line left", content: "a\nb\nc\n", old: "b", new: "", expect: "a\nc\n" },
  { name: "delete the first line", content: "a\nb\n", old: "a\n", new: "", expect: "b\n" },
  { name: "delete the last line (no final newline)", content: "a\nb\nc", old: "c", new: "", expect: "a\nb" },
  { name: "delete the only line", content: "a\n", old: "a", new: "", expect: "" },
  { name: "delete everything", content: "a", old: "a", new: "", expect: "" },
  { name: "delete part of a line keeps the line", content: "abc\n", old: "b", new: "", expect: "ac\n" },
  { name: "delete lines found by line-trimmed", content: "a\n  b\n  c\nd\n", old: "b\nc", new: "", expect: "a\nd\n", strategy: "line-trimmed" },
  { name: "delete the first lines found by line-trimmed", content: "  a\n  b\nc\n", old: "a\nb", new: "", expect: "c\n" },
  { name: "delete the last lines found by line-trimmed", content: "a\n  b\n  c", old: "b\nc", new: "", expect: "a" },
  { name: "delete lines in a CRLF file", content: "a\r\n  b\r\n  c\r\nd\r\n", old: "b\nc", new: "", expect: "a\r\nd\r\n" },
  { name: "delete a line in a CRLF file (exact)", content: "a\r\nb\r\nc\r\n", old: "b", new: "", expect: "a\r\nc\r\n" },

  // Unicode punctuation
  {
    name: "smart quotes in both strings become the file's ASCII",
    content: 'say("hello world");\nx - y;\n',
    old: "say(\u201Chello world\u201D);",
    new: "say(\u201Cbye world\u201D);",
    expect: 'say("bye world");\nx - y;\n',
    strategy: "punctuation-normalized",
  },
  {
    name: "an em dash for a double hyphen (typesetting's `--`)",
    content: '"fix": "lint --fix src",\n"test": "mocha"\n',
    old: "\u201Cfix\u201D: \u201Clint \u2014fix src\u201D,\n\u201Ctest\u201D: \u201Cmocha\u201D",
    new: '"fix": "lint --fix src",\n"test": "mocha --bail"',
    expect: '"fix": "lint --fix src",\n"test": "mocha --bail"\n',
    strategy: "punctuation-normalized",
  },
  {
    name: "an en dash for a minus",
    content: "const a = b - c;\nconsole.log(a);\n",
    old: "const a = b \u2013 c;\nconsole.log(a);",
    new: "const a = b \u2013 d;\nconsole.log(a);",
    expect: "const a = b - d;\nconsole.log(a);\n",
    strategy: "punctuation-normalized",
  },
  {
    name: "a non-breaking space for a space",
    content: "if (a) {\n  go();\n}\n",
    old: "if\u00A0(a) {\n  go();\n}",
    new: "if (a) {\n  stop();\n}",
    expect: "if (a) {\n  stop();\n}\n",
  },

  // Line-number prefixes
  {
    name: "line numbers `N | code` stripped from both strings",
    content: "alpha\nbeta\ngamma\n",
    old: "2 | beta\n3 | gamma",
    new: "2 | BETA\n3 | gamma",
    expect: "alpha\nBETA\ngamma\n",
    strategy: "line-numbers",
    lines: [2, 3],
  },
  {
    name: "line numbers `N | code` keep the code's indentation",
    content: "function f() {\n  return 1;\n}\n",
    old: "1 | function f() {\n2 |   return 1;\n3 | }",
    new: "1 | function f() {\n2 |   return 2;\n3 | }",
    expect: "function f() {\n  return 2;\n}\n",
  },
  {
    name: "line numbers `  N→code`",
    content: "alpha\n  beta\ngamma\n",
    old: "     2→  beta\n     3→gamma",
    new: "     2→  BETA\n     3→gamma\n     4→delta",
    expect: "alpha\n  BETA\ngamma\ndelta\n",
    strategy: "line-numbers",
  },
  {
    name: "line numbers `N:\\tcode`",
    content: "one\ntwo\nthree\n",
    old: "2:\ttwo\n3:\tthree",
    new: "2:\tTWO\n3:\tthree",
    expect: "one\nTWO\nthree\n",
    strategy: "line-numbers",
  },
  {
    name: "line numbers only in oldString",
    content: "alpha\nbeta\ngamma\n",
    old: "2 | beta\n3 | gamma",
    new: "BETA\ngamma",
    expect: "alpha\nBETA\ngamma\n",
  },

  // Blank lines
  {
    name: "a blank line missing from oldString",
    content: "a();\n\nb();\nc();\n",
    old: "a();\nb();\nc();",
    new: "a();\nb();\nC();",
    expect: "a();\n\nb();\nC();\n",
    strategy: "blank-lines",
    lines: [1, 4],
  },
  {
    name: "an extra blank line in oldString",
    content: "a();\nb();\nc();\n",
    old: "a();\n\nb();\nc();",
    new: "a();\n\nB();\nc();",
    expect: "a();\nB();\nc();\n",
    strategy: "blank-lines",
  },

  // Elided middles
  {
    name: "elision `// ... existing code ...` keeps the elided lines",
    content: "function f() {\n  one();\n  two();\n  three();\n  return 1;\n}\n",
    old: "function f() {\n  // ... existing code ...\n  return 1;\n}",
    new: "function f() {\n  // ... existing code ...\n  return 2;\n}",
    expect: "function f() {\n  one();\n  two();\n  three();\n  return 2;\n}\n",
    strategy: "elided",
    lines: [1, 6],
  },
  {
    name: "elision `...`",
    content: "function f() {\n  one();\n  two();\n  return 1;\n}\n",
    old: "function f() {\n...\n  return 1;\n}",
    new: "function g() {\n...\n  return 1;\n}",
    expect: "function g() {\n  one();\n  two();\n  return 1;\n}\n",
    strategy: "elided",
  },
  {
    name: "elision `…`",
    content: "start();\nmid();\nend();\n",
    old: "start();\n…\nend();",
    new: "start();\n…\nfinish();",
    expect: "start();\nmid();\nfinish();\n",
    strategy: "elided",
  },
  {
    name: "two elisions",
    content: "a1();\nb();\na2();\nc();\na3();\n",
    old: "a1();\n// ...\na2();\n// ...\na3();",
    new: "a1();\n// ...\nA2();\n// ...\na3();",
    expect: "a1();\nb();\nA2();\nc();\na3();\n",
  },
  {
    name: "an elision left out of newString still keeps the hidden lines",
    content: "f() {\n  one();\n  two();\n  return 1;\n}\n",
    old: "f() {\n  // ...\n  return 1;\n}",
    new: "f() {\n  return 2;\n}",
    expect: "f() {\n  one();\n  two();\n  return 2;\n}\n",
  },

  // A fuzzy match keeps the file's own bytes where the edit does not change them
  {
    name: "a misremembered token on an unchanged line stays as the file has it",
    content: misremembered,
    old: "function f() {\n  const value = compute(2);\n  log(value);\n  return value;\n}",
    new: "function f() {\n  const value = compute(2);\n  log(value);\n  return value * 2;\n}",
    expect: "function f() {\n  const value = compute(1);\n  log(value);\n  return value * 2;\n}\n",
    strategy: "block-anchor",
  },
  {
    name: "a line changed in the file since the model read it keeps that change",
    content: "a();\nb();\nconst total = sum(items, 0);\nc();\nd();\ne();\n",
    old: "a();\nb();\nconst total = sum(items);\nc();\nd();\ne();",
    new: "a();\nb();\nconst total = sum(items);\nc();\nD();\ne();",
    expect: "a();\nb();\nconst total = sum(items, 0);\nc();\nD();\ne();\n",
  },
  {
    name: "fuzzy-block: a misremembered first line",
    content: "a\nfunction compute(x) {\n  const y = x * 2;\n  log(y);\n  return y;\n}\nb\n",
    old: "function computer(x) {\n  const y = x * 2;\n  log(y);\n  return y;\n}",
    new: "function computer(x) {\n  const y = x * 3;\n  log(y);\n  return y;\n}",
    expect: "a\nfunction compute(x) {\n  const y = x * 3;\n  log(y);\n  return y;\n}\nb\n",
    strategy: "fuzzy-block",
  },

  // Edge cases
  { name: "edit the first line", content: "first\nsecond\nthird", old: "first", new: "FIRST", expect: "FIRST\nsecond\nthird", lines: [1, 1] },
  { name: "edit the last line without final newline", content: "first\nsecond\nthird", old: "third", new: "THIRD\nFOURTH", expect: "first\nsecond\nTHIRD\nFOURTH", lines: [3, 3] },
  { name: "insert after a line", content: "a\nb\n", old: "a\n", new: "a\nnew\n", expect: "a\nnew\nb\n" },
  { name: "tabs matched exactly", content: "\ta\n\t\tb\n", old: "\t\tb", new: "\t\tc", expect: "\ta\n\t\tc\n", strategy: "exact" },
  {
    name: "Unicode identifiers and strings",
    content: "const π = 3.14; // ≈\nconst 名前 = '値';\n",
    old: "const 名前 = '値';",
    new: "const 名前 = '新しい値';",
    expect: "const π = 3.14; // ≈\nconst 名前 = '新しい値';\n",
  },
  { name: "astral characters", content: "a 😀 b\n", old: "😀", new: "🎉", expect: "a 🎉 b\n" },
  {
    name: "a very long line",
    content: `a\n${"k".repeat(50_000)}X${"k".repeat(50_000)}\nb`,
    old: "X",
    new: "Y",
    expect: `a\n${"k".repeat(50_000)}Y${"k".repeat(50_000)}\nb`,
    lines: [2, 2],
  },
  {
    name: "a very long line found by line-trimmed",
    content: `a\n    ${"k".repeat(20_000)}\nb`,
    old: `\t${"k".repeat(20_000)}\nb`,
    new: `\t${"k".repeat(20_000)}\nc`,
    expect: `a\n    ${"k".repeat(20_000)}\nc`,
    strategy: "line-trimmed",
  },
];

for (const c of applies) {
  test(`applies: ${c.name}`, () => {
    const r = replace(c.content, c.old, c.new, c.options);
    assert.equal(r.content, c.expect);
    if (c.strategy) assert.equal(r.match.strategy, c.strategy);
    if (c.lines) assert.deepEqual([r.match.startLine, r.match.endLine], c.lines);
    assert.equal(r.match.count, c.count ?? 1);
    assert.ok(r.match.score > 0 || r.match.strategy === "block-anchor", "score");
    assert.ok(r.match.score <= 1);
    assert.equal(r.match.fuzzy, !["exact", "multi-occurrence", "create"].includes(r.match.strategy));
  });
}

test("the result reports { content, match: { strategy, startLine, endLine, score } }", () => {
  const r = replace("a\n  b\n  c\nd\n", "b\nc", "B\nc");
  assert.deepEqual(r, {
    content: "a\n  B\n  c\nd\n",
    match: { strategy: "line-trimmed", startLine: 2, endLine: 3, score: 1, fuzzy: true, count: 1 },
  });
  const s = replace(misremembered, "function f() {\n  const value = compute(2);\n  log(value);\n  return value;\n}", "x");
  assert.equal(s.match.strategy, "block-anchor");
  assert.ok(s.match.score > 0.9 && s.match.score < 1, `similarity score ${s.match.score}`);
  assert.deepEqual([s.match.startLine, s.match.endLine], [1, 5]);
});

// ---------------------------------------------------------------------------
// Edits that are refused

interface Refuses {
  name: string;
  content: string;
  old: string;
  new: string;
  options?: ReplaceOptions;
  code: EditErrorCode;
  /** Substrings the message must contain. */
  says?: string[];
  detail?: (d: EditErrorDetail) => void;
}

const refuses: Refuses[] = [
  {
    name: "elided text whose parts are nowhere unique is ambiguous, with both places",
    content: "f() {\n  x;\n}\nf() {\n  x;\n}\n",
    old: "f() {\n...\n}",
    new: "g() {\n...\n}",
    code: "AMBIGUOUS",
    says: ["lines 1-3", "lines 4-6"],
  },
  { name: "identical strings", content: "x", old: "x", new: "x", code: "NO_CHANGE", says: ["identical"] },
  { name: "identical empty strings on an empty file", content: "", old: "", new: "", code: "NO_CHANGE" },
  {
    name: "an empty oldString on a non-empty file",
    content: "x\n",
    old: "",
    new: "hello\n",
    code: "INVALID_INPUT",
    says: ["oldString is empty", "new file"],
  },
  { name: "an empty oldString on a whitespace-only file", content: "\n", old: "", new: "x", code: "INVALID_INPUT" },
  {
    name: "nothing to find in an empty file",
    content: "",
    old: "x",
    new: "y",
    code: "NOT_FOUND",
    detail: (d) => assert.deepEqual(d.strategies, DEFAULT_TRIED),
  },
  {
    name: "default: anchors `try {` … `}` around different code are refused",
    content: "function run() {\n  try {\n    loadConfig();\n    startServer(port);\n  } catch (e) {\n    log(e);\n  }\n}\n",
    old: "try {\n  connectDatabase();\n  migrate(schema);\n}",
    new: "try {\n  connect();\n}",
    code: "NOT_FOUND",
  },
  {
    name: "default: the anchors of one try block around other code are refused",
    content: tryBlock,
    old: "try {\n  completely();\n  different();\n}",
    new: "try {\n  nothing();\n}",
    code: "NOT_FOUND",
  },
  {
    name: "default: an exact ambiguity stops the cascade",
    content: "foo\nfoobar\n",
    old: "foo",
    new: "baz",
    code: "AMBIGUOUS",
    detail: (d) => assert.deepEqual(d.strategies, ["exact"]),
  },
  {
    name: "default: a line-trimmed ambiguity is not settled by a looser strategy",
    content: "  x();\n  y();\nz\n    x();\n    y();\n",
    old: "x();\ny();",
    new: "X();\ny();",
    code: "AMBIGUOUS",
    says: ["2 places", "line-trimmed", "lines 1-2", "lines 4-5"],
    detail: (d) => assert.deepEqual(d.strategies, ["line-trimmed"]),
  },
  {
    name: "default: two equally similar blocks are ambiguous",
    content: "try {\n  foo(1);\n}\ntry {\n  foo(2);\n}",
    old: "try {\n  foo(3);\n}",
    new: "try {\n  done();\n}",
    code: "AMBIGUOUS",
    says: ["block-anchor", "lines 1-3", "lines 4-6"],
  },
  {
    name: "opencode: only ambiguous candidates",
    content: "x\nfoo\ny\nfoo\n",
    old: "foo",
    new: "baz",
    options: { preset: "opencode" },
    code: "AMBIGUOUS",
    detail: (d) =>
      assert.deepEqual(
        d.candidates?.map((c) => [c.startLine, c.endLine]),
        [
          [2, 2],
          [4, 4],
        ],
      ),
  },
  {
    name: "opencode: several block-anchor candidates all below 0.3",
    content: "begin\naaaa\nend\nbegin\nbbbb\nend\n",
    old: "begin\nzzzz\nend",
    new: "begin\nyyyy\nend",
    options: { preset: "opencode" },
    code: "NOT_FOUND",
    detail: (d) => assert.deepEqual(d.strategies, OPENCODE_TRIED),
  },
  {
    name: "replaceAll never uses a similarity strategy",
    content: misremembered,
    old: "function f() {\n  const value = compute(2);\n  log(value);\n  return value;\n}",
    new: "x",
    options: { replaceAll: true },
    code: "NOT_FOUND",
    detail: (d) => assert.deepEqual(d.strategies, DEFAULT_TRIED_ALL),
  },
  {
    name: "a startLine hint that does not clearly pick one",
    content: "foo\nx\nfoo\n",
    old: "foo",
    new: "bar",
    options: { startLine: 2 },
    code: "AMBIGUOUS",
  },
  { name: "an unknown preset", content: "a", old: "a", new: "b", options: { preset: "nope" as "default" }, code: "INVALID_INPUT", says: ["nope"] },
];

test("already applied: a fuzzy match where the file already reads as newString returns the content unchanged, with a note", () => {
  const r = replace(misremembered, "function f() {\n  const value = compute(2);\n  log(value);\n  return value;\n}", misremembered.trimEnd());
  assert.equal(r.content, misremembered);
  assert.equal(r.alreadyApplied?.code, "ALREADY_APPLIED");
  assert.match(r.alreadyApplied?.message ?? "", /lines 1-5/);
  assert.equal(r.match.count, 0);
});

test("already applied: an insertion sent again (its old text stands only inside its new text) is not written twice", () => {
  const content = "def load(path):\n    data = read(path)\n    validate_schema(data, strict=True)\n    return data\n";
  const r = replace(content, "    data = read(path)\n", "    data = read(path)\n    validate_schema(data, strict=True)\n");
  assert.equal(r.content, content);
  assert.equal(r.alreadyApplied?.code, "ALREADY_APPLIED");
  assert.deepEqual([r.match.startLine, r.match.endLine], [2, 3]);
  // The same insertion where it is not there yet applies.
  const fresh = "def load(path):\n    data = read(path)\n    return data\n";
  assert.equal(replace(fresh, "    data = read(path)\n", "    data = read(path)\n    validate_schema(data, strict=True)\n").content, content);
});

for (const c of refuses) {
  test(`refuses: ${c.name}`, () => {
    const e = fails(() => replace(c.content, c.old, c.new, c.options), c.code);
    for (const s of c.says ?? []) assert.ok(e.message.includes(s), `message lacks ${JSON.stringify(s)}:\n${e.message}`);
    c.detail?.(e.detail);
  });
}

const badArgs: [string, unknown[]][] = [
  ["content null", [null, "a", "b"]],
  ["oldString undefined", ["a", undefined, "b"]],
  ["newString a number", ["a", "a", 1]],
  ["oldString an object", ["a", { toString: () => "a" }, "b"]],
];

for (const [name, args] of badArgs) {
  test(`refuses: non-string argument (${name})`, () => {
    const call = replace as unknown as (...a: unknown[]) => unknown;
    fails(() => call(...args), "INVALID_INPUT");
  });
}

// ---------------------------------------------------------------------------
// Error messages

test("NOT_FOUND with a close region: line numbers, similarity, the lines that differ", () => {
  const content = "// header\nfunction add(a, b) {\n  return a + b;\n}\n// footer\n";
  const e = fails(() => replace(content, "function add(a, b) {\n  return a - b + c * 2;", "x"), "NOT_FOUND");
  assert.deepEqual(e.detail.strategies, DEFAULT_TRIED);
  assert.ok(e.message.includes(`Tried ${DEFAULT_TRIED.length} strategies: ${DEFAULT_TRIED.join(", ")}.`), e.message);
  const closest = e.detail.closest;
  assert.ok(closest);
  assert.equal(closest.startLine, 2);
  assert.equal(closest.endLine, 3);
  assert.ok(closest.similarity > 0.5 && closest.similarity < 0.9, String(closest.similarity));
  assert.equal(closest.text, "function add(a, b) {\n  return a + b;");
  assert.ok(e.message.includes(`lines 2-3 (${Math.floor(closest.similarity * 100)}% similar)`), e.message);
  assert.ok(e.message.includes("file line 3: return a + b;"), e.message);
  assert.ok(e.message.includes("your text:   return a - b + c * 2;"), e.message);
  // The region is shown with file line numbers.
  assert.ok(e.message.includes("3 |   return a + b;"), e.message);
  assert.ok(!e.message.includes("file line 2:"), "an equal line is not listed as differing");
});

test("NOT_FOUND (opencode) names the opencode strategies", () => {
  const content = "// header\nfunction add(a, b) {\n  return a + b;\n}\n";
  const e = fails(() => replace(content, "function add(a, b) {\n  return a - b + c * 2;", "x", { preset: "opencode" }), "NOT_FOUND");
  assert.deepEqual(e.detail.strategies, OPENCODE_TRIED);
  assert.ok(e.message.includes(OPENCODE_TRIED.join(", ")));
  assert.equal(e.detail.closest?.startLine, 2);
});

test("NOT_FOUND names the closest region even when it is not worth showing", () => {
  const content = "function f() {\n  a();\n  b();\n}\n\nfunction g() {}\n";
  const err = fails(() => replace(content, "function f() {\n  a();\n  c(); // gone\n  d(); // also gone", "x"), "NOT_FOUND");
  assert.match(err.message, /lines 1-\d+, is only \d+% similar/);
  assert.doesNotMatch(err.message, /No line of it occurs/);
});

test("NOT_FOUND with nothing close says so", () => {
  const e = fails(() => replace("one two three\nfour five six\n", "alpha beta gamma\ndelta", "x"), "NOT_FOUND");
  assert.equal(e.detail.closest, undefined);
  assert.ok(e.message.includes("No line of it occurs in the file"), e.message);
  assert.ok(e.message.includes("Read the file again"), e.message);
});

test("NOT_FOUND with only a distant region gives its similarity but does not show it", () => {
  const content = "function run() {\n  try {\n    loadConfig();\n    startServer(port);\n  } catch (e) {\n    log(e);\n  }\n}\n";
  const e = fails(() => replace(content, "try {\n  connectDatabase();\n  migrate(schema);\n}", "x"), "NOT_FOUND");
  assert.equal(e.detail.closest, undefined);
  assert.match(e.message, /lines \d+-\d+, is only \d+% similar/);
});

test("AMBIGUOUS lists every candidate and what to add", () => {
  const e = fails(() => replace("a\nfoo\nb\nfoo\n", "foo", "bar"), "AMBIGUOUS");
  assert.ok(e.message.includes("2 places"), e.message);
  assert.ok(e.message.includes("lines 2-2 (the line above is `a`)"), e.message);
  assert.ok(e.message.includes("lines 4-4 (the line above is `b`)"), e.message);
  assert.ok(e.message.includes("Include more surrounding lines"), e.message);
  assert.ok(e.message.includes("replaceAll"), e.message);
  assert.deepEqual(e.detail.candidates, [
    { startLine: 2, endLine: 2, strategy: "exact", score: 1 },
    { startLine: 4, endLine: 4, strategy: "exact", score: 1 },
  ]);
});

test("AMBIGUOUS at the start of the file says so", () => {
  const e = fails(() => replace("foo\nx\nfoo\n", "foo", "bar"), "AMBIGUOUS");
  assert.ok(e.message.includes("lines 1-1 (at the start of the file)"), e.message);
});

test("AMBIGUOUS with many candidates: the message is capped, the detail is complete", () => {
  const e = fails(() => replace("x\n".repeat(22), "x", "y"), "AMBIGUOUS");
  assert.ok(e.message.includes("22 places"), e.message);
  assert.ok(e.message.includes("lines 20-20") && !e.message.includes("lines 21-21"), e.message);
  assert.ok(e.message.includes("and 2 more"), e.message);
  assert.equal(e.detail.candidates?.length, 22);
  assert.deepEqual(
    e.detail.candidates?.map((c) => c.startLine),
    Array.from({ length: 22 }, (_, i) => i + 1),
  );
});

test("the content is never changed by a refused edit", () => {
  const content = "a\nfoo\nb\nfoo\n";
  const before = content.slice();
  fails(() => replace(content, "foo", "bar"), "AMBIGUOUS");
  assert.equal(content, before);
});

test("compound slips (issue 32): line numbers, typeset quotes and a misremembered token at once are undone together", () => {
  const content = 'const a = 1;\nlog("start", a);\nrun(a);\nlog("end", a);\nconst b = 2;\n';
  const find = '2 | log(“start”, a);\n3 | run(a);\n4 | log(“end”, alpha);';
  const repl = '2 | log(“start”, a);\n3 | run(a, b);\n4 | log(“end”, alpha);';
  assert.equal(replace(content, find, repl).content, 'const a = 1;\nlog("start", a);\nrun(a, b);\nlog("end", a);\nconst b = 2;\n');
});

test("compound slips (issue 32): spacing and an extra blank line at once keep the file's layout", () => {
  const content = "def f():\n    x = g(a, b)\n    y = h(x)\n    return y\n";
  const r = replace(content, "    x = g(a,b)\n\n    y = h( x )\n    return y", "    x = g(a,b)\n\n    y = h( x )\n    return y + 1");
  assert.equal(r.content, "def f():\n    x = g(a, b)\n    y = h(x)\n    return y + 1\n");
});

test("not already applied: a deletion of a line that exists nowhere, the kept lines around it standing once, is NOT_FOUND (accuracy foreign-minus)", () => {
  const content = " * The API might be changed.\n */\nconst viewTransition = defaultContext.viewTransition;\n/**\n * more\n";
  const find = "glusknoux.dropixban(trultdondrox);\nconst viewTransition = defaultContext.viewTransition;\n/**";
  assert.throws(
    () => replace(content, find, "const viewTransition = defaultContext.viewTransition;\n/**"),
    (e: unknown) => e instanceof EditError && e.code === "NOT_FOUND",
  );
});

test("already applied still: a trailing-whitespace-only edit takes no text away", () => {
  const content = "x = 10\ny = 2\n";
  const r = replace(content, "x = 10 \ny = 2", "x = 10\ny = 2");
  assert.equal(r.content, content);
  assert.equal(r.alreadyApplied?.code, "ALREADY_APPLIED");
});

import assert from "node:assert/strict";
import { test } from "node:test";
import { createContext } from "../src/match/anchors.ts";
import { blankLines } from "../src/match/blank-lines.ts";
import { blockAnchor } from "../src/match/block-anchor.ts";
import { compound } from "../src/match/compound.ts";
import { PRESETS, type PresetName } from "../src/match/cascade.ts";
import { contextAware } from "../src/match/context-aware.ts";
import { elided, isElisionLine } from "../src/match/elided.ts";
import { escapeNormalized } from "../src/match/escape-normalized.ts";
import { exact } from "../src/match/exact.ts";
import { fuzzyBlock } from "../src/match/fuzzy-block.ts";
import { indentationFlexible } from "../src/match/indentation-flexible.ts";
import { lineNumbers } from "../src/match/line-numbers.ts";
import { lineTrimmed } from "../src/match/line-trimmed.ts";
import { multiOccurrence } from "../src/match/multi-occurrence.ts";
import { punctuationNormalized } from "../src/match/punctuation-normalized.ts";
import { createQuery } from "../src/match/query.ts";
import { trimmedBoundary } from "../src/match/trimmed-boundary.ts";
import type { Candidate, Rewrite, Strategy } from "../src/match/types.ts";
import { whitespaceInsensitive } from "../src/match/whitespace-insensitive.ts";
import { whitespaceNormalized } from "../src/match/whitespace-normalized.ts";
import { Document } from "../src/text/document.ts";

interface Expected {
  /** 0-based [startLine, endLine), as Candidate has them. */
  lines: [number, number];
  /** `Document.text` over [start, end). */
  text: string;
  rewrite?: Rewrite;
  /** Exact score, or [min, max]. */
  score?: number | [number, number];
  lineBased?: boolean;
  alignment?: number[];
}

interface Case {
  name: string;
  strategy: Strategy;
  preset?: PresetName;
  text: string;
  find: string;
  expect: Expected[];
}

function run(c: Pick<Case, "strategy" | "preset" | "text" | "find">): { doc: Document; cands: Candidate[] } {
  const doc = Document.from(c.text);
  const ctx = createContext(doc, PRESETS[c.preset ?? "default"].options);
  return { doc, cands: c.strategy.find(ctx, createQuery(c.find)) };
}

/** Invariants every candidate of every strategy keeps. */
function checkCandidate(doc: Document, cand: Candidate, name: string): void {
  assert.equal(cand.strategy, name);
  assert.ok(cand.start >= 0 && cand.start <= cand.end && cand.end <= doc.text.length, "offsets inside the text");
  assert.ok(cand.score >= 0 && cand.score <= 1, `score ${cand.score} in [0, 1]`);
  assert.equal(cand.startLine, doc.lineAt(cand.start));
  assert.ok(cand.endLine > cand.startLine && cand.endLine <= doc.lineCount);
  if (cand.lineBased) {
    assert.equal(cand.start, doc.lineStart(cand.startLine), "a line candidate starts at a line start");
    assert.equal(cand.end, doc.lineEnd(cand.endLine - 1), "a line candidate ends before a line break");
  }
  if (cand.alignment) {
    assert.equal(cand.alignment.length, cand.query.lines.length);
    for (const l of cand.alignment) assert.ok(l === -1 || (l >= cand.startLine && l < cand.endLine));
  }
}

const spec1 = "    if (x) {\n        return;\n    }";
const tryBlock = "x\ntry {\n  foo();\n  bar();\n}\n";
const twoTries = "try {\n  foo(1);\n}\ntry {\n  foo(2);\n}";

const cases: Case[] = [
  // 1. Exact
  { name: "exact: a span inside a line", strategy: exact, text: "let a = 1;\nlet b = 2;\n", find: "b = 2", expect: [{ lines: [1, 2], text: "b = 2" }] },
  { name: "exact: across lines", strategy: exact, text: "a\nb\nc", find: "b\nc", expect: [{ lines: [1, 3], text: "b\nc" }] },
  { name: "exact: first line", strategy: exact, text: "first\nsecond\n", find: "first", expect: [{ lines: [0, 1], text: "first" }] },
  { name: "exact: last line without final newline", strategy: exact, text: "first\nlast", find: "last", expect: [{ lines: [1, 2], text: "last" }] },
  { name: "exact: with its line break", strategy: exact, text: "a\nb\nc\n", find: "b\n", expect: [{ lines: [1, 2], text: "b\n" }] },
  {
    name: "exact: overlapping occurrences are two candidates",
    strategy: exact,
    text: "aaa",
    find: "aa",
    expect: [
      { lines: [0, 1], text: "aa" },
      { lines: [0, 1], text: "aa" },
    ],
  },
  { name: "exact: empty file", strategy: exact, text: "", find: "x", expect: [] },
  { name: "exact: one character differs", strategy: exact, text: "abc", find: "abd", expect: [] },
  { name: "exact: indentation differs", strategy: exact, text: spec1, find: "if (x) {\n    return;\n}", expect: [] },
  { name: "exact: a CRLF query finds LF-normalised text", strategy: exact, text: "a\r\nb\r\nc\r\n", find: "a\r\nb", expect: [{ lines: [0, 2], text: "a\nb" }] },
  { name: "exact: Unicode", strategy: exact, text: "naïve café 😀\n", find: "café 😀", expect: [{ lines: [0, 1], text: "café 😀" }] },
  { name: "exact: $ patterns are plain text", strategy: exact, text: "a $& $1 $$ b", find: "$& $1", expect: [{ lines: [0, 1], text: "$& $1" }] },
  {
    name: "exact: in a very long line",
    strategy: exact,
    text: `${"x".repeat(100_000)}needle${"y".repeat(100_000)}\nz`,
    find: "xneedley",
    expect: [{ lines: [0, 1], text: "xneedley" }],
  },

  // 9. MultiOccurrence
  {
    name: "multi-occurrence: non-overlapping occurrences",
    strategy: multiOccurrence,
    text: "aaaa",
    find: "aa",
    expect: [
      { lines: [0, 1], text: "aa" },
      { lines: [0, 1], text: "aa" },
    ],
  },
  { name: "multi-occurrence: overlap skipped", strategy: multiOccurrence, text: "aaa", find: "aa", expect: [{ lines: [0, 1], text: "aa" }] },
  {
    name: "multi-occurrence: on several lines",
    strategy: multiOccurrence,
    text: "foo()\nbar\nfoo()\n",
    find: "foo()",
    expect: [
      { lines: [0, 1], text: "foo()" },
      { lines: [2, 3], text: "foo()" },
    ],
  },
  { name: "multi-occurrence: none", strategy: multiOccurrence, text: "abc", find: "x", expect: [] },

  // 2. LineTrimmed
  {
    name: "line-trimmed: the specification's example",
    strategy: lineTrimmed,
    text: spec1,
    find: "if (x) {\n    return;\n}",
    expect: [{ lines: [0, 3], text: spec1, lineBased: true }],
  },
  { name: "line-trimmed: a find text ending in a newline", strategy: lineTrimmed, text: "a\n  b\nc\n", find: "b\n", expect: [{ lines: [1, 2], text: "  b" }] },
  { name: "line-trimmed: one line differs", strategy: lineTrimmed, text: spec1, find: "if (x) {\n    return 1;\n}", expect: [] },
  {
    name: "line-trimmed: tabs in the file, spaces in the find text",
    strategy: lineTrimmed,
    text: "\tif (a) {\n\t\tb();\n\t}\n",
    find: "  if (a) {\n    b();\n  }",
    expect: [{ lines: [0, 3], text: "\tif (a) {\n\t\tb();\n\t}" }],
  },
  {
    name: "line-trimmed: every window",
    strategy: lineTrimmed,
    text: "  x();\n  y();\nz\n    x();\n    y();\n",
    find: "x();\ny();",
    expect: [
      { lines: [0, 2], text: "  x();\n  y();" },
      { lines: [3, 5], text: "    x();\n    y();" },
    ],
  },
  {
    name: "line-trimmed: a blank line matches a blank line",
    strategy: lineTrimmed,
    text: "a\n   \nb\n",
    find: "a\n\nb",
    expect: [{ lines: [0, 3], text: "a\n   \nb" }],
  },
  { name: "line-trimmed: a missing blank line is no match", strategy: lineTrimmed, text: "a\n\nb\n", find: "a\nb", expect: [] },
  { name: "line-trimmed: only blank lines", strategy: lineTrimmed, text: "a\n\n\nb\n", find: "\n  \n", expect: [] },
  { name: "line-trimmed: empty file", strategy: lineTrimmed, text: "", find: "a", expect: [] },
  {
    name: "line-trimmed: CRLF file",
    strategy: lineTrimmed,
    text: "a\r\n    b\r\n    c\r\n",
    find: "b\nc",
    expect: [{ lines: [1, 3], text: "    b\n    c" }],
  },
  { name: "line-trimmed: the block runs past the end", strategy: lineTrimmed, text: "a\nb", find: "b\nc", expect: [] },

  // 3. BlockAnchor
  {
    name: "block-anchor (opencode): a lone candidate is accepted at any similarity (0.0)",
    strategy: blockAnchor,
    preset: "opencode",
    text: "begin\naaaa\nend\n",
    find: "begin\nzzzz\nend",
    expect: [{ lines: [0, 3], text: "begin\naaaa\nend", score: 0 }],
  },
  {
    name: "block-anchor (opencode): different code between try { and } is accepted",
    strategy: blockAnchor,
    preset: "opencode",
    text: tryBlock,
    find: "try {\n  other();\n  things();\n}",
    expect: [{ lines: [1, 5], text: "try {\n  foo();\n  bar();\n}", score: [0.3, 0.4] }],
  },
  {
    name: "block-anchor (opencode): several candidates all below 0.3",
    strategy: blockAnchor,
    preset: "opencode",
    text: "begin\naaaa\nend\nbegin\nbbbb\nend\n",
    find: "begin\nzzzz\nend",
    expect: [],
  },
  {
    name: "block-anchor (opencode): the best of several wins",
    strategy: blockAnchor,
    preset: "opencode",
    text: "try {\n  foo(1);\n}\ntry {\n  bar(2);\n}\n",
    find: "try {\n  bar(3);\n}",
    expect: [{ lines: [3, 6], text: "try {\n  bar(2);\n}" }],
  },
  {
    name: "block-anchor (opencode): a tie goes to the first",
    strategy: blockAnchor,
    preset: "opencode",
    text: twoTries,
    find: "try {\n  foo(3);\n}",
    expect: [{ lines: [0, 3], text: "try {\n  foo(1);\n}" }],
  },
  {
    name: "block-anchor (opencode): any block size",
    strategy: blockAnchor,
    preset: "opencode",
    text: `begin\n${"x\n".repeat(10)}end\n`,
    find: "begin\nx\nend",
    expect: [{ lines: [0, 12], text: `begin\n${"x\n".repeat(10)}end` }],
  },
  { name: "block-anchor (opencode): fewer than three lines", strategy: blockAnchor, preset: "opencode", text: "a\nb\n", find: "a\nb", expect: [] },
  {
    name: "block-anchor (opencode): a blank first line is no anchor",
    strategy: blockAnchor,
    preset: "opencode",
    text: "\nx\nend\n",
    find: "\ny\nend",
    expect: [],
  },
  {
    name: "block-anchor (default): different code between try { and } is refused",
    strategy: blockAnchor,
    text: tryBlock,
    find: "try {\n  other();\n  things();\n}",
    expect: [],
  },
  {
    name: "block-anchor (default): a misremembered token in the middle",
    strategy: blockAnchor,
    text: "function f() {\n  const value = compute(1);\n  log(value);\n  return value;\n}\n",
    find: "function f() {\n  const value = compute(2);\n  log(value);\n  return value;\n}",
    expect: [{ lines: [0, 5], text: "function f() {\n  const value = compute(1);\n  log(value);\n  return value;\n}", score: [0.9, 1] }],
  },
  {
    name: "block-anchor (default): a block far larger than the find text",
    strategy: blockAnchor,
    text: `begin\n${"x\n".repeat(10)}end\n`,
    find: "begin\nx\nend",
    expect: [],
  },
  {
    name: "block-anchor (default): two equally good blocks are both returned",
    strategy: blockAnchor,
    text: twoTries,
    find: "try {\n  foo(3);\n}",
    expect: [
      { lines: [0, 3], text: "try {\n  foo(1);\n}" },
      { lines: [3, 6], text: "try {\n  foo(2);\n}" },
    ],
  },

  // 4. WhitespaceNormalized
  {
    name: "whitespace-normalized: the specification's example keeps space inside tokens distinct",
    strategy: whitespaceNormalized,
    text: "function  foo(   a,b  ) {}",
    find: "function foo(a, b) {}",
    expect: [],
  },
  {
    name: "whitespace-normalized: runs of spaces and tabs",
    strategy: whitespaceNormalized,
    text: "const  x =\t1;\n",
    find: "const x = 1;",
    expect: [{ lines: [0, 1], text: "const  x =\t1;", lineBased: true }],
  },
  {
    name: "whitespace-normalized: a span inside a line",
    strategy: whitespaceNormalized,
    text: "const  x =  1;",
    find: "x = 1",
    expect: [{ lines: [0, 1], text: "x =  1", lineBased: false }],
  },
  {
    name: "whitespace-normalized: several lines",
    strategy: whitespaceNormalized,
    text: "if (a)  {\n\treturn   b;\n}",
    find: "if (a) {\n  return b;\n}",
    expect: [{ lines: [0, 3], text: "if (a)  {\n\treturn   b;\n}" }],
  },
  { name: "whitespace-normalized: space is not inserted into a word", strategy: whitespaceNormalized, text: "foobar\n", find: "foo bar", expect: [] },
  { name: "whitespace-normalized: a different word", strategy: whitespaceNormalized, text: "a  =  b;\n", find: "a = c;", expect: [] },

  // WhitespaceInsensitive
  {
    name: "whitespace-insensitive: the specification's example",
    strategy: whitespaceInsensitive,
    text: "function  foo(   a,b  ) {}",
    find: "function foo(a, b) {}",
    expect: [{ lines: [0, 1], text: "function  foo(   a,b  ) {}" }],
  },
  {
    name: "whitespace-insensitive: spaces around operators on several lines",
    strategy: whitespaceInsensitive,
    text: "x=1;\ny=2;\n",
    find: "x = 1;\ny = 2;",
    expect: [{ lines: [0, 2], text: "x=1;\ny=2;" }],
  },
  { name: "whitespace-insensitive: whole lines only", strategy: whitespaceInsensitive, text: "let x=1;\n", find: "x = 1;", expect: [] },

  // 5. IndentationFlexible
  {
    name: "indentation-flexible: the specification's example",
    strategy: indentationFlexible,
    text: "        function foo() {\n            return;\n        }",
    find: "function foo() {\n    return;\n}",
    expect: [{ lines: [0, 3], text: "        function foo() {\n            return;\n        }" }],
  },
  {
    name: "indentation-flexible: relative indentation must agree",
    strategy: indentationFlexible,
    text: "a {\n    b\n}",
    find: "a {\n  b\n}",
    expect: [],
  },
  {
    name: "indentation-flexible: blank lines do not count for the common indentation",
    strategy: indentationFlexible,
    text: "  if (a) {\n\n      b();\n  }\n",
    find: "if (a) {\n\n    b();\n}",
    expect: [{ lines: [0, 4], text: "  if (a) {\n\n      b();\n  }" }],
  },

  // 6. EscapeNormalized
  {
    name: "escape-normalized: a literal \\n",
    strategy: escapeNormalized,
    text: "a\nb\n",
    find: "a\\nb",
    expect: [{ lines: [0, 2], text: "a\nb", rewrite: "unescape-joined" }],
  },
  {
    name: "escape-normalized: escaped quotes",
    strategy: escapeNormalized,
    text: 'say("hi");\n',
    find: 'say(\\"hi\\");',
    expect: [{ lines: [0, 1], text: 'say("hi");', rewrite: "unescape-joined" }],
  },
  {
    name: "escape-normalized: escaped tab and dollar",
    strategy: escapeNormalized,
    text: "\tprice = `$x`;\n",
    find: "\\tprice = \\`\\$x\\`;",
    expect: [{ lines: [0, 1], text: "\tprice = `$x`;", rewrite: "unescape-joined" }],
  },
  {
    name: "escape-normalized: un-escaped, then trimmed line by line",
    strategy: escapeNormalized,
    text: "  line1\n    foo\n",
    find: "line1\\nfoo",
    expect: [{ lines: [0, 2], text: "  line1\n    foo", rewrite: "unescape-joined", lineBased: true }],
  },
  {
    name: "escape-normalized: a find text with real line breaks and escaped quotes: its replacement is un-escaped whatever it holds",
    strategy: escapeNormalized,
    text: 'say("hi");\nend();\n',
    find: 'say(\\"hi\\");\nend();',
    expect: [{ lines: [0, 2], text: 'say("hi");\nend();', rewrite: "unescape", lineBased: true }],
  },
  { name: "escape-normalized: no backslash, nothing to do", strategy: escapeNormalized, text: "a\nb\n", find: "a\nb", expect: [] },
  { name: "escape-normalized: un-escaped text absent", strategy: escapeNormalized, text: "a\nb\n", find: "a\\nc", expect: [] },

  // 7. TrimmedBoundary
  {
    name: "trimmed-boundary: stray blank space around the find text",
    strategy: trimmedBoundary,
    text: "a\nfoo();\nb",
    find: "\n  foo();  \n",
    expect: [{ lines: [1, 2], text: "foo();", rewrite: "trim-boundary" }],
  },
  { name: "trimmed-boundary: already trimmed", strategy: trimmedBoundary, text: "a\nfoo();\nb", find: "foo();", expect: [] },
  { name: "trimmed-boundary: only whitespace", strategy: trimmedBoundary, text: "a\n  \nb", find: "  \n ", expect: [] },

  // PunctuationNormalized
  {
    name: "punctuation-normalized: smart quotes in the find text",
    strategy: punctuationNormalized,
    text: 'say("hi");\n',
    find: "say(\u201Chi\u201D);",
    expect: [{ lines: [0, 1], text: 'say("hi");', rewrite: "punctuation" }],
  },
  {
    name: "punctuation-normalized: typeset file, ASCII find text",
    strategy: punctuationNormalized,
    text: "const s = \u2014;\nx\u00A0=\u00A01;\n",
    find: "const s = -;\nx = 1;",
    expect: [{ lines: [0, 2], text: "const s = \u2014;\nx\u00A0=\u00A01;" }],
  },
  {
    name: "punctuation-normalized: an en dash for a minus",
    strategy: punctuationNormalized,
    text: "const a = b - c;\n",
    find: "const a = b \u2013 c;",
    expect: [{ lines: [0, 1], text: "const a = b - c;", rewrite: "punctuation" }],
  },
  { name: "punctuation-normalized: different words", strategy: punctuationNormalized, text: 'say("hi");\n', find: "say(\u201Cho\u201D);", expect: [] },

  // LineNumbers
  {
    name: "line-numbers: `N | code`",
    strategy: lineNumbers,
    text: "alpha\nbeta\ngamma\n",
    find: "2 | beta\n3 | gamma",
    expect: [{ lines: [1, 3], text: "beta\ngamma", rewrite: "strip-line-numbers" }],
  },
  {
    name: "line-numbers: `  N→code` keeps the indentation after the arrow",
    strategy: lineNumbers,
    text: "alpha\n  beta\ngamma\n",
    find: "     2→  beta\n     3→gamma",
    expect: [{ lines: [1, 3], text: "  beta\ngamma", rewrite: "strip-line-numbers" }],
  },
  {
    name: "line-numbers: `N:\\tcode`",
    strategy: lineNumbers,
    text: "alpha\nbeta\ngamma\n",
    find: "12:\tbeta\n13:\tgamma",
    expect: [{ lines: [1, 3], text: "beta\ngamma", rewrite: "strip-line-numbers" }],
  },
  {
    name: "line-numbers: `N: code` only in the aggressive pass",
    strategy: lineNumbers,
    text: "alpha\nbeta\ngamma\n",
    find: "2: beta\n3: gamma",
    expect: [{ lines: [1, 3], text: "beta\ngamma", rewrite: "strip-line-numbers-aggressive" }],
  },
  { name: "line-numbers: not every line numbered", strategy: lineNumbers, text: "alpha\nbeta\ngamma\n", find: "2 | beta\ngamma", expect: [] },

  // BlankLines
  {
    name: "blank-lines: a blank line missing from the find text",
    strategy: blankLines,
    text: "a();\n\nb();\nc();\n",
    find: "a();\nb();\nc();",
    expect: [{ lines: [0, 4], text: "a();\n\nb();\nc();", alignment: [0, 2, 3] }],
  },
  {
    name: "blank-lines: an extra blank line in the find text",
    strategy: blankLines,
    text: "a();\nb();\nc();\n",
    find: "a();\n\nb();\nc();",
    expect: [{ lines: [0, 3], text: "a();\nb();\nc();", alignment: [0, -1, 1, 2] }],
  },
  { name: "blank-lines: the same shape is left to line-trimmed", strategy: blankLines, text: "a();\nb();\nc();\n", find: "a();\nb();\nc();", expect: [] },
  { name: "blank-lines: a code line in between", strategy: blankLines, text: "a();\nb();\nX();\nc();\n", find: "a();\n\nb();\nc();", expect: [] },

  // Elided
  {
    name: "elided: `// ...` between two unique parts",
    strategy: elided,
    text: "f() {\n  one();\n  two();\n  return 1;\n}\n",
    find: "f() {\n  // ...\n  return 1;\n}",
    expect: [{ lines: [0, 5], text: "f() {\n  one();\n  two();\n  return 1;\n}", alignment: [0, -1, 3, 4] }],
  },
  {
    name: "elided: `// ... existing code ...`",
    strategy: elided,
    text: "start();\nkeep1();\nkeep2();\nend();\n",
    find: "start();\n// ... existing code ...\nend();",
    expect: [{ lines: [0, 4], text: "start();\nkeep1();\nkeep2();\nend();", alignment: [0, -1, 3] }],
  },
  {
    name: "elided: a unique last part places the parts before it",
    strategy: elided,
    text: "x();\ny();\nx();\nend();\n",
    find: "x();\n...\nend();",
    expect: [{ lines: [2, 4], text: "x();\nend();" }],
  },
  {
    // Both placements are returned so the cascade reports AMBIGUOUS, not NOT_FOUND.
    name: "elided: neither end part unique",
    strategy: elided,
    text: "f() {\n  x;\n}\nf() {\n  x;\n}\n",
    find: "f() {\n...\n}",
    expect: [
      { lines: [0, 3], text: "f() {\n  x;\n}" },
      { lines: [3, 6], text: "f() {\n  x;\n}" },
    ],
  },
  { name: "elided: a part missing", strategy: elided, text: "start();\nmid();\nend();\n", find: "start();\n...\nfinish();", expect: [] },
  { name: "elided: no elision line", strategy: elided, text: "f(...args);\n", find: "f(...args);", expect: [] },
  {
    name: "elided: parts too far apart",
    strategy: elided,
    text: `start();\n${"f;\n".repeat(2100)}end();\n`,
    find: "start();\n// ...\nend();",
    expect: [],
  },

  // 8. ContextAware
  {
    name: "context-aware (opencode): half the middle lines equal",
    strategy: contextAware,
    preset: "opencode",
    text: "a {\n  x = 1;\n  y = 2;\n}\n",
    find: "a {\n  x = 1;\n  y = 3;\n}",
    expect: [{ lines: [0, 4], text: "a {\n  x = 1;\n  y = 2;\n}", score: 0.5 }],
  },
  {
    name: "context-aware (opencode): fewer than half",
    strategy: contextAware,
    preset: "opencode",
    text: "a {\n  x = 1;\n  y = 2;\n  z = 3;\n}\n",
    find: "a {\n  x = 1;\n  q = 2;\n  r = 3;\n}",
    expect: [],
  },
  {
    name: "context-aware (opencode): no non-empty middle line passes",
    strategy: contextAware,
    preset: "opencode",
    text: "a {\n\n}\n",
    find: "a {\n   \n}",
    expect: [{ lines: [0, 3], text: "a {\n\n}", score: 1 }],
  },
  {
    name: "context-aware (opencode): the line count must agree",
    strategy: contextAware,
    preset: "opencode",
    text: "a {\n  x = 1;\n  extra;\n  y = 2;\n}\n",
    find: "a {\n  x = 1;\n  y = 2;\n}",
    expect: [],
  },
  {
    name: "context-aware (opencode): half equal but the rest unrelated",
    strategy: contextAware,
    preset: "opencode",
    text: "a {\n  x = 1;\n  completelyDifferentLongLine(withArgs);\n}\n",
    find: "a {\n  x = 1;\n  y();\n}",
    expect: [{ lines: [0, 4], text: "a {\n  x = 1;\n  completelyDifferentLongLine(withArgs);\n}" }],
  },
  {
    name: "context-aware (default): half equal but the rest unrelated is refused",
    strategy: contextAware,
    text: "a {\n  x = 1;\n  completelyDifferentLongLine(withArgs);\n}\n",
    find: "a {\n  x = 1;\n  y();\n}",
    expect: [],
  },
  {
    name: "context-aware (default): a similar block",
    strategy: contextAware,
    text: "a {\n  x = 1;\n  y = 2;\n}\n",
    find: "a {\n  x = 1;\n  y = 3;\n}",
    expect: [{ lines: [0, 4], text: "a {\n  x = 1;\n  y = 2;\n}", score: [0.85, 1] }],
  },

  // FuzzyBlock
  {
    name: "fuzzy-block: a misremembered token on the first line",
    strategy: fuzzyBlock,
    text: "a\nfunction compute(x) {\n  return x * 2;\n}\nb\n",
    find: "function computer(x) {\n  return x * 2;\n}",
    expect: [{ lines: [1, 4], text: "function compute(x) {\n  return x * 2;\n}", score: [0.9, 1] }],
  },
  {
    name: "fuzzy-block: renamed variable across the block",
    strategy: fuzzyBlock,
    text: "a\nfunction compute(x) {\n  const y = x * 2;\n  log(y);\n  return y;\n}\nb\n",
    find: "function compute(x) {\n  const z = x * 2;\n  log(z);\n  return z;\n}",
    expect: [{ lines: [1, 6], text: "function compute(x) {\n  const y = x * 2;\n  log(y);\n  return y;\n}", score: [0.9, 1] }],
  },
  { name: "fuzzy-block: one line is too little evidence", strategy: fuzzyBlock, text: "function compute(x) {\n", find: "function computer(x) {", expect: [] },
  {
    // The file gained a check since the model read it; the window that stops inside it is not the block (sympy-22005).
    name: "fuzzy-block: a window whose last line is not the query's, the query's standing a few lines on, is no candidate",
    strategy: fuzzyBlock,
    text: "def solve(seq, *gens):\n    try:\n        polys, opt = build(seq, *gens)\n    except Failed as exc:\n        raise Error('solve', len(seq), exc)\n\n    if len(polys) != len(gens):\n        raise NotImplementedError(dedent('''\n            only zero-dimensional systems supported\n            '''))\n\n    if len(polys) == len(gens) == 2:\n        return pair(polys)\n",
    find: "    try:\n        polys, opt = build(seq, *gens)\n    except Failed as exc:\n        raise Error('solve', len(seq), exc)\n\n    if len(polys) == len(gens) == 2:",
    expect: [],
  },
  {
    name: "fuzzy-block: an unrelated block",
    strategy: fuzzyBlock,
    text: "a\nfunction compute(x) {\n  return x * 2;\n}\nb\n",
    find: "function other(y) {\n  return y;\n}",
    expect: [],
  },
  // Compound slips (issue 32): numbers, typesetting and blank lines undone, then the tolerant strategies.
  {
    name: "compound: line numbers and spacing at once",
    strategy: compound,
    text: "a\nfoo(x, y);\nbar(z);\nb\n",
    find: "2 | foo(x,y);\n3 | bar( z );",
    expect: [{ lines: [1, 3], text: "foo(x, y);\nbar(z);", rewrite: "strip-line-numbers", alignment: [1, 2] }],
  },
  {
    name: "compound: an extra blank line and spacing at once: the blank line aligns with nothing",
    strategy: compound,
    text: "a\nfoo(x, y);\nbar(z);\nb\n",
    find: "foo(x,y);\n\nbar( z );",
    expect: [{ lines: [1, 3], text: "foo(x, y);\nbar(z);", alignment: [1, -1, 2] }],
  },
  { name: "compound: nothing to undo, no candidate", strategy: compound, text: "a\nfoo(x, y);\nb\n", find: "foo(x,y);", expect: [] },
];

for (const c of cases) {
  test(c.name, () => {
    const { doc, cands } = run(c);
    for (const cand of cands) checkCandidate(doc, cand, c.strategy.name);
    const got = [...cands].sort((a, b) => a.start - b.start);
    assert.deepEqual(
      got.map((g) => ({ lines: [g.startLine, g.endLine], text: doc.text.slice(g.start, g.end) })),
      c.expect.map((e) => ({ lines: e.lines, text: e.text })),
    );
    c.expect.forEach((e, k) => {
      const g = got[k] as Candidate;
      assert.equal(g.rewrite, e.rewrite, "rewrite");
      if (typeof e.score === "number") assert.ok(Math.abs(g.score - e.score) < 1e-9, `score ${g.score}`);
      else if (e.score) assert.ok(g.score >= e.score[0] && g.score <= e.score[1], `score ${g.score} in ${e.score}`);
      if (e.lineBased !== undefined) assert.equal(g.lineBased, e.lineBased, "lineBased");
      if (e.alignment) assert.deepEqual(g.alignment, e.alignment);
    });
  });
}

const elisions: [string, boolean][] = [
  ["...", true],
  ["…", true],
  ["  // ...", true],
  ["// ... existing code ...", true],
  ["# ... rest unchanged", true],
  ["/* ... */", true],
  ["<!-- ... -->", true],
  ["{/* ... */}", true],
  ["-- ...", true],
  ["...args", false],
  ["f(...args);", false],
  ["return [...a, ...b];", false],
  ["", false],
  ["// real comment", false],
];

for (const [line, want] of elisions) {
  test(`isElisionLine(${JSON.stringify(line)}) is ${want}`, () => {
    assert.equal(isElisionLine(line), want);
  });
}

test("the presets list the specified strategies in order", () => {
  assert.deepEqual(
    PRESETS.opencode.strategies.map((s) => s.name),
    [
      "exact",
      "line-trimmed",
      "block-anchor",
      "whitespace-normalized",
      "indentation-flexible",
      "escape-normalized",
      "trimmed-boundary",
      "context-aware",
      "multi-occurrence",
    ],
  );
  assert.equal(PRESETS.opencode.options.blockAnchorSingleThreshold, 0);
  assert.equal(PRESETS.opencode.options.blockAnchorMultipleThreshold, 0.3);
  assert.equal(PRESETS.opencode.options.contextAwareRatio, 0.5);
  assert.equal(PRESETS.opencode.stopOnAmbiguity, false);
  assert.equal(PRESETS.default.stopOnAmbiguity, true);
  // Every strategy of the specification is in the default preset too, exact first.
  const names = PRESETS.default.strategies.map((s) => s.name);
  for (const s of PRESETS.opencode.strategies) assert.ok(names.includes(s.name), s.name);
  assert.equal(names[0], "exact");
});

test("a strategy's find is pure: the same query twice gives the same candidates", () => {
  const doc = Document.from("a {\n  x = 1;\n  y = 2;\n}\na {\n  x = 1;\n  y = 5;\n}\n");
  const ctx = createContext(doc, PRESETS.default.options);
  const q = createQuery("a {\n  x = 1;\n  y = 3;\n}");
  for (const s of PRESETS.default.strategies) {
    const strip = (cs: Candidate[]) => cs.map(({ start, end, score, strategy }) => ({ start, end, score, strategy }));
    assert.deepEqual(strip(s.find(ctx, q)), strip(s.find(ctx, q)), s.name);
  }
});

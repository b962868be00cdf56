import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import test from "node:test";
import fc from "fast-check";
import { EditError } from "../src/errors.ts";
import { applyChanges } from "../src/text/change-list.ts";
import { lastWholeLines } from "../src/formats/search-replace-append.ts";
import { Document } from "../src/text/document.ts";
import { applySearchReplace, applySearchReplaceWithChanges, type SearchReplaceInput, type SearchReplaceOptions, type SearchReplaceResult } from "../src/formats/search-replace.ts";

/** One SEARCH/REPLACE block as a model writes it. */
function block(search: string, replace: string, hint?: number): string {
  const header = hint === undefined ? "" : `:start_line:${hint}\n-------\n`;
  return `<<<<<<< SEARCH\n${header}${search}\n=======\n${replace}\n>>>>>>> REPLACE\n`;
}

/** Numbered lines "l1".."ln" with a final newline, with some lines overridden (1-based). */
function numberedFile(n: number, overrides: Record<number, string> = {}): string {
  const lines: string[] = [];
  for (let i = 1; i <= n; i++) lines.push(overrides[i] ?? `l${i}`);
  return `${lines.join("\n")}\n`;
}

interface Case {
  name: string;
  content: string;
  diff: SearchReplaceInput;
  options?: SearchReplaceOptions;
  /** Expected content; defaults to `content` (nothing applied). */
  expected?: string;
  /** Codes of `failed`, in order. */
  failed?: string[];
  /** Fragments every failure message (or the matching one by position) must contain. */
  messages?: (string | RegExp)[][];
  /** Fragments of each `alreadyApplied` note, in order (none when absent). */
  alreadyApplied?: string[][];
  check?: (r: SearchReplaceResult) => void;
}

function run(c: Case): void {
  const r = applySearchReplace(c.content, c.diff, c.options);
  assert.equal(r.content, c.expected ?? c.content);
  assert.deepEqual(
    r.failed.map((e) => e.code),
    c.failed ?? [],
    r.failed.map((e) => e.message).join("\n---\n"),
  );
  for (const e of r.failed) assert.ok(e instanceof EditError);
  c.messages?.forEach((fragments, k) => {
    const message = r.failed[k]?.message ?? "";
    for (const f of fragments) {
      if (typeof f === "string") assert.ok(message.includes(f), `message ${k} lacks ${JSON.stringify(f)}:\n${message}`);
      else assert.match(message, f);
    }
  });
  assert.equal(r.alreadyApplied.length, c.alreadyApplied?.length ?? 0, r.alreadyApplied.map((e) => e.message).join("\n"));
  c.alreadyApplied?.forEach((fragments, k) => {
    const note = r.alreadyApplied[k];
    assert.equal(note?.code, "ALREADY_APPLIED");
    for (const f of fragments) assert.ok(note?.message.includes(f), `note ${k} lacks ${JSON.stringify(f)}:\n${note?.message}`);
  });
  c.check?.(r);
}

// ---------------------------------------------------------------- locating

const ts = ["function compute(total, items) {", "  let sum = 0;", "  for (const item of items) {", "    sum += item.price * item.quantity;", "  }", "  return sum + total;", "}", ""].join("\n");

const locating: Case[] = [
  {
    name: "an exact block replaces its lines",
    content: ts,
    diff: block("  return sum + total;", "  return sum - total;"),
    expected: ts.replace("sum + total", "sum - total"),
    check: (r) => assert.deepEqual(r.applied.map((a) => [a.strategy, a.startLine, a.endLine, a.score, a.fuzzy, a.index, a.line]), [["exact", 6, 6, 1, false, 0, 1]]),
  },
  {
    name: "the cascade's tolerance: a block with different indentation is found (line-trimmed)",
    content: ts,
    diff: block("let sum = 0;\nfor (const item of items) {", "let sum = 1;\nfor (const item of items) {"),
    expected: ts.replace("let sum = 0;", "let sum = 1;"),
    check: (r) => assert.equal(r.applied[0]?.fuzzy, true),
  },
  {
    name: "similarity fallback: a misremembered token on a kept middle line still applies, with a score below 1",
    content: ts,
    diff: block(
      "  let sum = 0;\n  for (const item of itemz) {\n    sum += item.price * item.quantity;\n  }",
      "  let sum = 0;\n  for (const item of itemz) {\n    sum += item.price * item.count;\n  }",
    ),
    expected: ts.replace("item.quantity", "item.count"),
    check: (r) => {
      const a = r.applied[0];
      assert.ok(a && a.score < 1 && a.score >= 0.9, `score ${a?.score}`);
      assert.equal(a?.fuzzy, true);
    },
  },
  {
    name: "below the threshold: NOT_FOUND with the similarity, the closest lines, the differing lines and the threshold",
    content: ts,
    diff: block("  let total = 10;\n  for (const thing of things) {\n    sum += thing.cost * thing.n;\n  }", "x"),
    failed: ["NOT_FOUND"],
    messages: [["Block 1 (line 1 of the diff): ", /\(\d+% similar\)/, "closest text is lines 2-5", "file line 2:", "your text:", "2 |   let sum = 0;", "needs at least 90%"]],
    check: (r) => {
      const closest = r.failed[0]?.detail.closest;
      assert.equal(closest?.startLine, 2);
      assert.ok(closest && closest.similarity < 0.9);
      assert.equal(r.failed[0]?.detail.index, 0);
    },
  },
  {
    name: "fuzzyThreshold lowered: the same far block now applies",
    content: ts,
    diff: block("  let total = 0;\n  for (const thing of items) {\n    sum += item.price * item.quant;\n  }", "  // removed"),
    options: { fuzzyThreshold: 0.7 },
    expected: "function compute(total, items) {\n  // removed\n  return sum + total;\n}\n",
    check: (r) => assert.equal(r.applied[0]?.strategy, "fuzzy-block"),
  },
  {
    name: "first and last lines misremembered: only the similarity fallback (fuzzy-block) finds it",
    content: ts,
    diff: block("  let sum = 00;\n  for (const item of items) {\n    sum += item.price * item.quantity;\n  }\n  return sum + totals;", "  return 0;"),
    expected: "function compute(total, items) {\n  return 0;\n}\n",
    check: (r) => assert.equal(r.applied[0]?.strategy, "fuzzy-block"),
  },
  {
    name: "fuzzyThreshold 1 turns the similarity fallback off: the same block is NOT_FOUND, its 97% reported",
    content: ts,
    diff: block("  let sum = 00;\n  for (const item of items) {\n    sum += item.price * item.quantity;\n  }\n  return sum + totals;", "  return 0;"),
    options: { fuzzyThreshold: 1 },
    failed: ["NOT_FOUND"],
    messages: [["(97% similar)", "needs at least 100%", "6 |   return sum + total;"]],
  },
  {
    name: "a block whose SEARCH is absent and whose REPLACE stands once is already applied",
    content: ts,
    diff: block("    sum += item.price * item.quantity * 1.2;", "    sum += item.price * item.quantity;"),
    alreadyApplied: [["already applied", "lines 4-4"]],
  },
  {
    name: "the opencode preset is accepted and applies exact blocks",
    content: ts,
    diff: block("  let sum = 0;", "  let sum = 5;"),
    options: { preset: "opencode" },
    expected: ts.replace("let sum = 0;", "let sum = 5;"),
  },
];

// ---------------------------------------------------------------- hints

const twoFar = numberedFile(200, { 20: "dup();", 150: "dup();" });
const twoNear = numberedFile(200, { 100: "dup();", 130: "dup();" });
const three = numberedFile(200, { 60: "dup();", 100: "dup();", 140: "dup();" });

const hints: Case[] = [
  {
    name: "without a hint, equal candidates are AMBIGUOUS with every candidate's lines",
    content: twoFar,
    diff: block("dup();", "once();"),
    failed: ["AMBIGUOUS"],
    messages: [["matches 2 places", "lines 20-20", "lines 150-150", ":start_line:N"]],
    check: (r) =>
      assert.deepEqual(
        r.failed[0]?.detail.candidates?.map((c) => [c.startLine, c.endLine]),
        [
          [20, 20],
          [150, 150],
        ],
      ),
  },
  {
    name: "a hint picks the candidate that is clearly nearest",
    content: twoFar,
    diff: block("dup();", "once();", 152),
    expected: twoFar.replace("l149\ndup();", "l149\nonce();"),
    check: (r) => assert.equal(r.applied[0]?.startLine, 150),
  },
  {
    name: "a hint between two candidates that are both near decides nothing: AMBIGUOUS, and the message says why",
    content: twoNear,
    diff: block("dup();", "once();", 110),
    failed: ["AMBIGUOUS"],
    messages: [["lines 100-100", "lines 130-130", "hint :start_line:110 does not decide"]],
  },
  {
    name: "never the middle one: a hint near (not on) the middle of three evenly spaced candidates is AMBIGUOUS",
    content: three,
    diff: block("dup();", "once();", 103),
    failed: ["AMBIGUOUS"],
    check: (r) => assert.equal(r.failed[0]?.detail.candidates?.length, 3),
  },
  {
    name: "a hint on the line where one of two near candidates starts decides (the other is only 30 lines away)",
    content: twoNear,
    diff: block("dup();", "once();", 130),
    expected: twoNear.replace("l129\ndup();", "l129\nonce();"),
    check: (r) => assert.equal(r.applied[0]?.startLine, 130),
  },
  {
    name: "hintWindow narrows what counts as near: 30 lines apart decides with a window of 10",
    content: twoNear,
    diff: block("dup();", "once();", 128),
    options: { hintWindow: 10 },
    expected: twoNear.replace("l129\ndup();", "l129\nonce();"),
  },
  {
    name: "the same hint with the default window of 40 does not decide",
    content: twoNear,
    diff: block("dup();", "once();", 128),
    failed: ["AMBIGUOUS"],
  },
  {
    name: "a hint far from every candidate decides nothing",
    content: twoFar,
    diff: block("dup();", "once();", 85),
    failed: ["AMBIGUOUS"],
  },
  {
    name: "a unique match is applied wherever the hint points",
    content: ts,
    diff: block("  return sum + total;", "  return 0;", 1),
    expected: ts.replace("  return sum + total;", "  return 0;"),
  },
  {
    name: "options.startLine is the hint of a diff given as text",
    content: twoFar,
    diff: block("dup();", "once();"),
    options: { startLine: 20 },
    expected: twoFar.replace("dup();", "once();"),
  },
];

// ---------------------------------------------------------------- pasted line numbers

const values = numberedFile(30);
const dupValues = numberedFile(200, { 30: "x = 1;", 31: "y = 2;", 170: "x = 1;", 171: "y = 2;" });

const lineNumbers: Case[] = [
  {
    name: "`N | ` prefixes on SEARCH and REPLACE are stripped",
    content: values,
    diff: block("12 | l12\n13 | l13", "12 | L12\n13 | L13"),
    expected: values.replace("l12\nl13", "L12\nL13"),
  },
  {
    name: "numbered SEARCH with an empty REPLACE deletes the lines",
    content: values,
    diff: block("27 | l27", ""),
    expected: values.replace("l27\n", ""),
  },
  {
    name: "the first number is the hint: it picks between far-apart duplicates",
    content: dupValues,
    diff: block("170 | x = 1;\n171 | y = 2;", "170 | x = 10;\n171 | y = 2;"),
    expected: dupValues.replace("l169\nx = 1;", "l169\nx = 10;"),
  },
  {
    name: "an explicit :start_line: wins over the pasted numbers",
    content: dupValues,
    diff: block("170 | x = 1;\n171 | y = 2;", "170 | x = 10;\n171 | y = 2;", 30),
    expected: dupValues.replace("l29\nx = 1;", "l29\nx = 10;"),
  },
  {
    name: "numbered and re-indented with a changed token: the stripped reading goes through the whole cascade",
    content: ts,
    diff: block(
      "2 | let sum = 0;\n3 | for (const item of itemz) {\n4 |   sum += item.price * item.quantity;\n5 | }",
      "2 | let sum = 0;\n3 | for (const item of itemz) {\n4 |   sum += item.price * item.count;\n5 | }",
    ),
    expected: ts.replace("item.quantity", "item.count"),
  },
  {
    name: "the aggressive pass: `N: ` prefixes",
    content: values,
    diff: block("5: l5\n6: l6", "5: L5\n6: L6"),
    expected: values.replace("l5\nl6", "L5\nL6"),
  },
  {
    name: "the aggressive pass: `N ` prefixes",
    content: values,
    diff: block("5 l5\n6 l6", "5 l5\n6 L6"),
    expected: values.replace("l5\nl6", "l5\nL6"),
  },
  {
    name: "content that only looks numbered (a truth table) is matched as written first",
    content: "a | b\n1 | 0\n0 | 1\n",
    diff: block("1 | 0\n0 | 1", "1 | 1\n0 | 0"),
    expected: "a | b\n1 | 1\n0 | 0\n",
    check: (r) => assert.equal(r.applied[0]?.strategy, "exact"),
  },
  {
    name: "numbers stripped and still not found: the message compares the stripped text",
    content: values,
    diff: block("12 | nothing like this\n13 | or this either", "12 | x"),
    failed: ["NOT_FOUND"],
    messages: [["Block 1 (line 1 of the diff)"]],
    check: (r) => assert.doesNotMatch(r.failed[0]?.message ?? "", /your text: {3}12 \|/),
  },
];

// ---------------------------------------------------------------- applying

const py = ["import os", "", "def load(p):", "    return open(p).read()", "", "def main():", '    print(load("x"))', ""].join("\n");

const applying: Case[] = [
  {
    name: "blocks written bottom-up apply in file order, reported in that order",
    content: py,
    diff: block('    print(load("x"))', '    print(load("y"))') + block("import os", "import os\nimport sys"),
    expected: py.replace("import os", "import os\nimport sys").replace('load("x")', 'load("y")'),
    check: (r) => {
      assert.deepEqual(
        r.applied.map((a) => [a.index, a.startLine, a.lineDelta]),
        [
          [1, 1, 1],
          [0, 7, 0],
        ],
      );
    },
  },
  {
    name: "a block that edits an earlier block's result is located in the edited text",
    content: "let a = 1;\nlet b = 2;\n",
    diff: block("let a = 10;\nlet b = 2;", "let a = 10;\nlet b = 2;\nlet c = 3;") + block("let a = 1;", "let a = 10;"),
    expected: "let a = 10;\nlet b = 2;\nlet c = 3;\n",
  },
  {
    name: "an ambiguous bare block takes the one copy an earlier block left",
    content: "f() {\n  reset();\n}\ng() {\n  reset();\n}\n",
    diff: block("f() {\n  reset();", "f() {\n  clear();") + block("  reset();", "  reset(true);"),
    expected: "f() {\n  clear();\n}\ng() {\n  reset(true);\n}\n",
  },
  {
    name: "second try: the hint is shifted by the lines added above it",
    // Copies at 130, 170, 400; the first block takes 130 (and adds 100 lines), the bare block's
    // hint 172 is ambiguous in the original (130 is near) and decides only once shifted to 272.
    content: numberedFile(450, { 129: "ctx();", 130: "dup();", 170: "dup();", 400: "dup();" }),
    diff: block("ctx();\ndup();", `ctx();\ndup2();\n${Array.from({ length: 100 }, (_, k) => `n${k}`).join("\n")}`) + block("dup();", "once();", 172),
    expected: numberedFile(450, { 129: "ctx();", 130: `dup2();\n${Array.from({ length: 100 }, (_, k) => `n${k}`).join("\n")}`, 170: "once();", 400: "dup();" }),
    check: (r) => assert.deepEqual(r.applied.map((a) => [a.index, a.startLine]), [[0, 129], [1, 270]]),
  },
  {
    name: "overlapping blocks: the later one is a CONFLICT naming both ranges, the other applies",
    content: "one\ntwo\nthree\nfour\nfive\n",
    diff: block("two\nthree", "TWO\nTHREE") + block("three\nfour", "3\n4"),
    expected: "one\nTWO\nTHREE\nfour\nfive\n",
    failed: ["CONFLICT"],
    messages: [["Block 2 (line 8 of the diff): ", "lines 3-4", "block 1 (line 1 of the diff)", "lines 2-3", "Merge the two into one"]],
    check: (r) => {
      assert.equal(r.failed[0]?.detail.index, 1);
      assert.deepEqual(
        r.failed[0]?.detail.candidates?.map((c) => [c.startLine, c.endLine]),
        [
          [2, 3],
          [3, 4],
        ],
      );
    },
  },
  {
    name: "every failure is reported, each prefixed with its block and diff line, in written order",
    content: py,
    diff: `${block("nothing", "x")}\nprose between blocks\n${block("", "x")}${block("def main():", "def main():")}${block("import os", "import re")}${block("missing too", "y")}`,
    // The empty SEARCH appends; SEARCH equal to REPLACE changes nothing.
    expected: `${py.replace("import os", "import re")}x\n`,
    failed: ["NOT_FOUND", "NOT_FOUND"],
    messages: [["Block 1 (line 1 of the diff): "], ["Block 5 (line 23 of the diff): "]],
    alreadyApplied: [["Block 3 (line 13 of the diff): ", "same text"]],
    check: (r) => {
      assert.deepEqual(
        r.failed.map((e) => e.detail.index),
        [0, 4],
      );
      assert.deepEqual(
        r.failed.map((e) => e.detail.line),
        [1, 23],
      );
      assert.deepEqual(
        r.applied.map((a) => a.strategy),
        ["exact", "append"],
      );
      for (const e of r.failed) assert.doesNotMatch(e.message, /: Block \d/);
    },
  },
  {
    name: "a located block whose REPLACE is what the file reads there is already applied",
    content: "a\nb\nx\n",
    diff: block("3 | x", "x"),
    alreadyApplied: [["lines 3-3 already read as REPLACE"]],
  },
  {
    name: "an AMBIGUOUS block fails alone; the others apply",
    content: twoFar,
    diff: block("dup();", "once();") + block("l1\nl2", "first\nsecond"),
    expected: twoFar.replace("l1\nl2\n", "first\nsecond\n"),
    failed: ["AMBIGUOUS"],
  },
  {
    name: "CRLF line endings and the BOM are kept",
    content: "\uFEFFa\r\nb\r\nc\r\n",
    diff: block("b", "B1\nB2"),
    expected: "\uFEFFa\r\nB1\r\nB2\r\nc\r\n",
  },
  {
    name: "a CRLF diff text applies to an LF file",
    content: "a\nb\nc\n",
    diff: "<<<<<<< SEARCH\r\nb\r\n=======\r\nB\r\n>>>>>>> REPLACE\r\n",
    expected: "a\nB\nc\n",
  },
  {
    name: "an empty REPLACE deletes the matched lines and their line break",
    content: "a\nb\nc\n",
    diff: block("b", ""),
    expected: "a\nc\n",
  },
];

// ---------------------------------------------------------------- re-indenting

const tabFile = "class A {\n\tfoo() {\n\t\treturn 1;\n\t}\n}\n";
const fourFile = "def f():\n    if a:\n        b()\n    return c\n";

const reindent: Case[] = [
  {
    name: "a block written with spaces goes into a tab file in tabs, never mixed",
    content: tabFile,
    diff: block("    foo() {\n        return 1;\n    }", "    foo() {\n        if (x) {\n            return 2;\n        }\n        return 1;\n    }"),
    expected: "class A {\n\tfoo() {\n\t\tif (x) {\n\t\t\treturn 2;\n\t\t}\n\t\treturn 1;\n\t}\n}\n",
    check: (r) => {
      for (const line of r.content.split("\n")) assert.doesNotMatch(line, /^\t* +\S/, `mixed indentation: ${JSON.stringify(line)}`);
    },
  },
  {
    name: "a block written with 2 spaces goes into a 4-space file scaled to 4",
    content: fourFile,
    diff: block("  if a:\n    b()", "  if a:\n    b()\n    d()\n  else:\n    e()"),
    expected: "def f():\n    if a:\n        b()\n        d()\n    else:\n        e()\n    return c\n",
  },
  {
    name: "a block written flush left goes in at the matched block's depth",
    content: fourFile,
    diff: block("if a:\n    b()", "if a:\n    b()\nelse:\n    z()"),
    expected: "def f():\n    if a:\n        b()\n    else:\n        z()\n    return c\n",
  },
  {
    name: "trailing whitespace written in REPLACE is kept (exact match)",
    content: fourFile,
    diff: block("        b()", "        b()   \n        z()\t"),
    expected: "def f():\n    if a:\n        b()   \n        z()\t\n    return c\n",
  },
  {
    name: "trailing whitespace written in REPLACE is kept (re-indented match)",
    content: fourFile,
    diff: block("  if a:\n    b()", "  if a:\n    b()  \n    q() "),
    expected: "def f():\n    if a:\n        b()  \n        q() \n    return c\n",
  },
];

// ---------------------------------------------------------------- several diffs for one file

const list: Case[] = [
  {
    name: "list items apply in sequence, each on the previous result",
    content: "a\nb\nc\n",
    diff: [{ content: block("a", "A") }, { content: block("A\nb", "A\nB") }],
    expected: "A\nB\nc\n",
    check: (r) =>
      assert.deepEqual(
        r.applied.map((a) => a.diffIndex),
        [0, 1],
      ),
  },
  {
    name: "an item's startLine overrides its block's hint",
    content: twoFar,
    diff: [{ content: block("dup();", "once();", 20), startLine: 150 }],
    expected: twoFar.replace("l149\ndup();", "l149\nonce();"),
  },
  {
    name: "later items' hints refer to the original file: shifted by the lines earlier items added",
    content: twoFar.replace("l1\n", "first();\n"),
    diff: [{ content: block("first();", `first();\n${Array.from({ length: 100 }, (_, k) => `n${k}`).join("\n")}`) }, { content: block("dup();", "once();"), startLine: 150 }],
    expected: twoFar.replace("l1\n", `first();\n${Array.from({ length: 100 }, (_, k) => `n${k}`).join("\n")}\n`).replace("l149\ndup();", "l149\nonce();"),
    check: (r) => assert.equal(r.applied[1]?.startLine, 250),
  },
  {
    name: "failures of all items are accumulated, labelled with diff and block, partial success kept",
    content: "a\nb\nc\n",
    diff: [{ content: block("zzz", "y") }, { content: block("b", "B") }, { content: `${block("c", "C")}${block("qqq", "r")}` }],
    expected: "a\nB\nC\n",
    failed: ["NOT_FOUND", "NOT_FOUND"],
    messages: [["Diff 1, block 1 (line 1 of that diff): "], ["Diff 3, block 2 (line 6 of that diff): "]],
    check: (r) => {
      assert.deepEqual(
        r.failed.map((e) => [e.detail.diffIndex, e.detail.index]),
        [
          [0, 0],
          [2, 1],
        ],
      );
    },
  },
  {
    name: "a parse error in one item fails that item only",
    content: "a\nb\n",
    diff: [{ content: "=======\n" }, { content: block("b", "B") }],
    expected: "a\nB\n",
    failed: ["PARSE"],
    messages: [["Diff 1: "]],
    check: (r) => assert.equal(r.failed[0]?.detail.diffIndex, 0),
  },
];

const groups: [string, Case[]][] = [
  ["locate", locating],
  ["hints", hints],
  ["line numbers", lineNumbers],
  ["apply", applying],
  ["re-indent", reindent],
  ["list", list],
];
for (const [group, cases] of groups) {
  for (const c of cases) test(`${group}: ${c.name}`, () => run(c));
}

// ---------------------------------------------------------------- thrown errors

const thrown: { name: string; call: () => unknown; code: string; fragment?: string }[] = [
  { name: "a marker mistake in a diff given as text is PARSE, nothing applied", call: () => applySearchReplace("a\n", "=======\n"), code: "PARSE" },
  { name: "a diff text without any block is PARSE", call: () => applySearchReplace("a\n", "just prose"), code: "PARSE", fragment: "No SEARCH/REPLACE block" },
  { name: "an unclosed block is PARSE", call: () => applySearchReplace("a\n", "<<<<<<< SEARCH\na\n=======\nb\n"), code: "PARSE" },
  { name: "unknown preset", call: () => applySearchReplace("a\n", block("a", "b"), { preset: "nope" as "default" }), code: "INVALID_INPUT", fragment: "preset" },
  { name: "fuzzyThreshold above 1", call: () => applySearchReplace("a\n", block("a", "b"), { fuzzyThreshold: 1.5 }), code: "INVALID_INPUT", fragment: "fuzzyThreshold" },
  { name: "fuzzyThreshold 0", call: () => applySearchReplace("a\n", block("a", "b"), { fuzzyThreshold: 0 }), code: "INVALID_INPUT" },
  { name: "negative hintWindow", call: () => applySearchReplace("a\n", block("a", "b"), { hintWindow: -1 }), code: "INVALID_INPUT", fragment: "hintWindow" },
  { name: "fractional startLine", call: () => applySearchReplace("a\n", block("a", "b"), { startLine: 1.5 }), code: "INVALID_INPUT", fragment: "startLine" },
  { name: "content not a string", call: () => applySearchReplace(null as unknown as string, block("a", "b")), code: "INVALID_INPUT" },
  { name: "diffText neither string nor list", call: () => applySearchReplace("a\n", 42 as unknown as string), code: "INVALID_INPUT" },
  { name: "an empty list", call: () => applySearchReplace("a\n", []), code: "INVALID_INPUT", fragment: "empty" },
  { name: "a list item without content", call: () => applySearchReplace("a\n", [{ startLine: 3 } as unknown as { content: string }]), code: "INVALID_INPUT", fragment: "Diff 1" },
];
for (const c of thrown) {
  test(`throws: ${c.name}`, () => {
    assert.throws(c.call, (e: unknown) => {
      assert.ok(e instanceof EditError, String(e));
      assert.equal(e.code, c.code);
      if (c.fragment) assert.ok(e.message.includes(c.fragment), e.message);
      return true;
    });
  });
}

// ---------------------------------------------------------------- fixtures

const FIXTURES = join(import.meta.dirname, "fixtures");
const fixtureNames = existsSync(FIXTURES) ? readdirSync(FIXTURES).filter((n) => /^1\d\d_/.test(n)) : [];
test("fixtures 100-199 exist", () => assert.ok(fixtureNames.length >= 10));
for (const name of fixtureNames.sort()) {
  test(`fixture ${name}`, () => {
    const dir = join(FIXTURES, name);
    const files = readdirSync(join(dir, "input"));
    assert.equal(files.length, 1, "one input file per fixture");
    const file = files[0] as string;
    const input = readFileSync(join(dir, "input", file), "utf8");
    const expected = readFileSync(join(dir, "expected", file), "utf8");
    const edit = readFileSync(join(dir, "edit.txt"), "utf8");
    const errorFile = join(dir, "error.txt");
    const codes = existsSync(errorFile) ? readFileSync(errorFile, "utf8").split("\n").filter(Boolean) : [];
    let result: { content: string; codes: string[] };
    try {
      const r = applySearchReplace(input, edit);
      result = { content: r.content, codes: r.failed.map((e) => e.code) };
    } catch (e) {
      assert.ok(e instanceof EditError, String(e));
      result = { content: input, codes: [e.code] };
    }
    assert.equal(result.content, expected);
    assert.deepEqual(result.codes, codes);
    // A rejection leaves the file as it was.
    if (expected === input) assert.ok(codes.length > 0, "expected/ equal to input/ must come with error.txt");
  });
}

// ---------------------------------------------------------------- properties

const word = fc.stringMatching(/^[a-z]{1,8}$/);
const fileLine = fc.tuple(fc.constantFrom("", "  ", "    ", "\t"), fc.array(word, { minLength: 1, maxLength: 5 })).map(([indent, ws]) => indent + ws.join(" "));

test("property: blocks made from exact, unique, non-overlapping edits, written in any order, apply back exactly", () => {
  fc.assert(
    fc.property(
      fc.array(fileLine, { minLength: 5, maxLength: 60 }),
      fc.array(fc.record({ at: fc.nat(), size: fc.integer({ min: 1, max: 4 }), repl: fc.array(fileLine, { maxLength: 4 }), hint: fc.boolean() }), { minLength: 1, maxLength: 5 }),
      fc.boolean(),
      fc.nat(),
      (lines, edits, finalNewline, seed) => {
        const content = lines.join("\n") + (finalNewline ? "\n" : "");
        // Non-overlapping regions whose text occurs exactly once in the file.
        const taken: { start: number; size: number; repl: string[]; hint: boolean }[] = [];
        for (const e of edits) {
          const start = e.at % lines.length;
          const size = Math.min(e.size, lines.length - start);
          if (taken.some((t) => start < t.start + t.size && t.start < start + size)) continue;
          const search = lines.slice(start, start + size).join("\n");
          if (search.trim() === "" || content.indexOf(search) !== content.lastIndexOf(search)) continue;
          if (e.repl.join("\n") === search) continue;
          // A replacement typed in the other whitespace than its search text and the file is written in theirs (whitespace-kind.ts).
          const kinds = (ls: readonly string[]) => new Set(ls.flatMap((l) => (l.startsWith("\t") ? ["tabs"] : l.startsWith(" ") ? ["spaces"] : [])));
          const searchKinds = kinds(lines.slice(start, start + size));
          const fileKinds = kinds(lines);
          if (searchKinds.size === 1 && fileKinds.size === 1 && [...kinds(e.repl)].some((k) => !searchKinds.has(k))) continue;
          taken.push({ start, size, repl: e.repl, hint: e.hint });
        }
        fc.pre(taken.length > 0);
        // Written in a shuffled order.
        const written = [...taken].sort((a, b) => ((a.start * 7919 + seed) % 101) - ((b.start * 7919 + seed) % 101));
        const diff = written.map((t) => block(lines.slice(t.start, t.start + t.size).join("\n"), t.repl.join("\n"), t.hint ? t.start + 1 : undefined)).join("\n");
        const out = [...lines];
        for (const t of [...taken].sort((a, b) => b.start - a.start)) out.splice(t.start, t.size, ...t.repl);
        const expected = out.join("\n") + (finalNewline && out.length > 0 ? "\n" : "");
        const r = applySearchReplace(content, diff);
        assert.deepEqual(
          r.failed.map((e) => e.message),
          [],
        );
        assert.equal(r.applied.length, taken.length);
        assert.equal(r.content, expected);
        // What the file layer diffs and writes from: the blocks' changes, as ranges of the text read.
        const { changes } = applySearchReplaceWithChanges(content, diff);
        if (changes) assert.equal(applyChanges(content, changes), expected);
      },
    ),
    { numRuns: 300 },
  );
});

test("property: an empty-SEARCH block's lines are found standing at the last place trying every line finds", () => {
  const line = fc.constantFrom("", " ", "a", "ab", "b a", "}", "\t}");
  fc.assert(
    fc.property(fc.array(line, { maxLength: 40 }), fc.array(line, { minLength: 1, maxLength: 4 }), fc.boolean(), (fileLines, lines, finalNewline) => {
      const doc = Document.from(fileLines.join("\n") + (finalNewline ? "\n" : ""));
      let expected = -1;
      for (let i = doc.lineCount - lines.length; i >= 0 && expected === -1; i--) {
        if (lines.every((l, k) => doc.line(i + k) === l)) expected = i;
      }
      assert.equal(lastWholeLines(doc, lines), expected, JSON.stringify({ fileLines, lines, finalNewline }));
    }),
    { numRuns: 3000 },
  );
});

test("property: arbitrary content and diff text give a result or an EditError, nothing else", () => {
  const piece = fc.constantFrom("<<<<<<< SEARCH", "=======", ">>>>>>> REPLACE", ":start_line:3", "-------", "a", "  b", "1 | a", "", "\\=======", "c d");
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 12 }), fc.array(fc.constantFrom("a", "  b", "c d", "1 | a", "", "\t"), { maxLength: 10 }), (diffLines, fileLines) => {
      try {
        const { result: r, changes } = applySearchReplaceWithChanges(fileLines.join("\n"), diffLines.join("\n"));
        for (const e of r.failed) assert.ok(e instanceof EditError);
        assert.equal(typeof r.content, "string");
        if (changes) assert.equal(applyChanges(fileLines.join("\n"), changes), r.content);
      } catch (e) {
        assert.ok(e instanceof EditError, String(e));
      }
    }),
    { numRuns: 400 },
  );
});

test("a SEARCH line quoted without its line's trailing space replaces the whole line, the space with it (accuracy trailing-whitespace)", () => {
  const content = "# title\n\nSome prose here. \n\nMore.\n";
  const block = "<<<<<<< SEARCH\nSome prose here.\n=======\nSome prose here. And more words.\n>>>>>>> REPLACE\n";
  assert.equal(applySearchReplace(content, block).content, "# title\n\nSome prose here. And more words.\n\nMore.\n");
  const two = "<<<<<<< SEARCH\n# title\n\nSome prose here.\n=======\n# Title\n\nSome prose here.\n>>>>>>> REPLACE\n";
  assert.equal(applySearchReplace(content, two).content, "# Title\n\nSome prose here.\n\nMore.\n");
});

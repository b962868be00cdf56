/**
 * Regressions found by the accuracy benchmark (npm run bench:accuracy, seed 1):
 * each was a wrong edit of the default preset, reduced to a small file.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { applyPatch, EditError, replace } from "../src/index.ts";

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof EditError, `expected an EditError, got ${String(e)}`);
    return e.code;
  }
  return "applied";
}

interface Case {
  name: string;
  run: () => string;
  expect: string;
}

const depths = [
  "interface A {",
  "    readonly alpha: 1;",
  "    readonly betaValue: 2;",
  "    readonly gamma: 3;",
  "    readonly delta: 4;",
  "}",
  "const b = {",
  "        readonly alpha: 1;",
  "        readonly beta: 2;",
  "        readonly gamma: 3;",
  "        readonly delta: 4;",
  "};",
  "",
].join("\n");
const depthsOld = "    readonly alpha: 1;\n    readonly beta: 2;\n    readonly gamma: 3;\n    readonly delta: 4;";

const cases: Case[] = [
  {
    // Case 282: the model's lines, as indented, fit a block edited since; trimmed they fit another.
    name: "a trimmed match loses to a near-verbatim block elsewhere: ambiguous (str_replace)",
    run: () => code(() => replace(depths, depthsOld, depthsOld.replace("gamma: 3", "gamma: 30"))),
    expect: "AMBIGUOUS",
  },
  {
    name: "a trimmed match loses to a near-verbatim block elsewhere: ambiguous (hunk)",
    run: () =>
      code(() =>
        applyPatch(
          depths,
          "@@ @@\n     readonly alpha: 1;\n     readonly beta: 2;\n-    readonly gamma: 3;\n+    readonly gamma: 30;\n     readonly delta: 4;\n",
        ),
      ),
    expect: "AMBIGUOUS",
  },
  {
    // Case 30: more than three lines of leading context is no evidence of the file's start.
    name: "a hunk with full context is not pinned to the start of the file",
    run: () =>
      code(() =>
        applyPatch(
          "a\nb\nc\nd\ne\nf\ng\nh\n\nx\na\nb\nc\nd\ne\nf\ng\nh\n",
          "@@ @@\n a\n b\n c\n d\n-e\n+E\n f\n g\n h\n",
        ),
      ),
    expect: "AMBIGUOUS",
  },
  {
    // Case 997: each hunk line over-escaped; the hunk starts with a blank context line.
    name: "an over-escaped hunk starting with a blank line is un-escaped line by line",
    run: () =>
      applyPatch(
        "x\n\nlet f = () =>\n\tinput => {\n\t\tlet s = \"\" + input\n\t}\n",
        '@@ @@\n \n let f = () =>\n \\tinput => {\n-\\t\\tlet s = \\"\\" + input\n+\\t\\tlet s = \\"\\" + value\n \\t}\n',
      ).content,
    expect: "x\n\nlet f = () =>\n\tinput => {\n\t\tlet s = \"\" + value\n\t}\n",
  },
  {
    // Case 39: context lines keep the numbers of a numbered view, added lines do not.
    name: "line numbers on a hunk's context lines only are stripped from them",
    run: () =>
      applyPatch(
        "one\ntwo\nthree\nfour\n",
        "@@ @@\n 1 | one\n-2 | two\n+TWO\n 3 | three\n",
      ).content,
    expect: "one\nTWO\nthree\nfour\n",
  },
];

for (const c of cases) test(c.name, () => assert.equal(c.run(), c.expect));

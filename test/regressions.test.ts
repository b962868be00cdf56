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

const lookAlike = [
  "/**",
  "Foreground colors.",
  "*/ // since changed",
  "export type ForegroundColor = ForegroundColorName;",
  "",
  "/**",
  "Background colors.",
  "*/",
  "export type BackgroundColor = BackgroundColorName;",
  "",
  "/**",
  "All colors.",
  "*/",
  "export type Color = ColorName;",
  "",
].join("\n");
const lookAlikeFind = "*/\nexport type ForegroundColor = ForegroundColorName;\n\n/**";

const grown = [
  "",
  "/**",
  "@deprecated Use `ColorName` instead.",
  "",
  "Basic color names. The combination of foreground and background color names. // since changed",
  "*/",
  "export type Color = ColorName;",
  "",
  "/**",
  "@deprecated Use `colorNames` instead.",
  "",
  "Basic color names. The combination of foreground and background color names.",
  "*/",
  "export const colors: readonly Color[];",
  "",
].join("\n");
const grownHunk = " \n /**\n @deprecated Use `ColorName` instead.\n+const added = 1;\n \n Basic color names. The combination of foreground and background color names.\n";

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
    // Accuracy benchmark, seed 5 case 4: among three `}` lines the line diff kept the wrong copies,
    // and the merge moved the file's blank line above a `}`.
    name: "a one-line change among repeated lines, with a blank line the model added, moves no file line",
    run: () =>
      replace(
        "\t\t\tif (url) {\n\t\t\t\tv += x;\n\t\t\t}\n\t\t}\n\t}\n\n\treturn v;\n};\n",
        "\t\t\t}\n\t\t}\n\n\t}\n\n\treturn v;",
        "\t\t\t} // done\n\t\t}\n\n\t}\n\n\treturn v;",
      ).content,
    expect: "\t\t\tif (url) {\n\t\t\t\tv += x;\n\t\t\t} // done\n\t\t}\n\t}\n\n\treturn v;\n};\n",
  },
  {
    // Accuracy benchmark, seed 4 case 65: `},` at two depths; compared without indentation the diff
    // kept the deeper copy, and the file's `  },` was written at the model's tab.
    name: "among repeated lines at different depths, the copy the model kept is the one at its depth",
    run: () =>
      applyPatch(
        '{\n  "exports": {\n    ".": {\n      "default": "./a.js"\n    },\n    "./package.json": "./package.json"\n  },\n  "scripts": {}\n}\n',
        '@@ @@\n \t\t\t"default": "./a.js"\n-\t\t},\n-\t\t"./package.json": "./package.json"\n+    "added": "x",\n \t},\n \t"scripts": {}\n',
      ).content,
    expect: '{\n  "exports": {\n    ".": {\n      "default": "./a.js"\n    "added": "x",\n  },\n  "scripts": {}\n}\n',
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
  {
    // Seed 2, case 705: the model quoted a line with less indentation and added siblings.
    name: "a find text found inside a deeper line's indentation is a re-indented match, not an exact one: added lines are re-indented",
    run: () =>
      replace('{\n  "repo": {\n    "type": "git",\n    "url": "x"\n  }\n}\n', '  "type": "git",', '  "type": "git",\n  "dir": "lib",').content,
    expect: '{\n  "repo": {\n    "type": "git",\n    "dir": "lib",\n    "url": "x"\n  }\n}\n',
  },
  {
    // Seed 3, case 9: the nearest closing brace is not the block's end.
    name: "BlockAnchor weighs every last line within the size slack, not only the nearest",
    run: () =>
      replace(
        "f() {\n    for (;;) {\n        if (r) {\n            break;\n        }\n    }\n    if (result) {\n        break;\n    }\n}\nrest();\n",
        "    }\n    if (Result) {\n        break;\n    }\n}",
        "    }\n    if (Result) {\n        stop();\n    }\n    done();",
      ).content,
    expect: "f() {\n    for (;;) {\n        if (r) {\n            break;\n        }\n    }\n    if (result) {\n        stop();\n    }\n    done();\nrest();\n",
  },
  {
    // Seed 3, case 23: a numbered blank line lost its separator with its trailing whitespace.
    name: "a bare number line counts as a numbered blank line",
    run: () => replace("a\nb\n\nc\n", "1\ta\n2\tb\n3", "1\tA\n2\tb\n3").content,
    expect: "A\nb\n\nc\n",
  },
  {
    // Seed 4, case 743: `8\t\tdim` is `\tdim` on line 8, not `dim`.
    name: "a tab after a line number is the separator; the tabs after it are indentation",
    run: () => replace("x {\n\ta\n\tb\n}\n", "2\t\ta\n3\t\tb", "\ta\n\tB").content,
    expect: "x {\n\ta\n\tB\n}\n",
  },
  {
    // Seed 3 at 2,000 cases, case 1900: the block's first line gained a comment since the model read it;
    // BlockAnchor found only a look-alike block (same first and last lines) below.
    name: "a look-alike block found by its anchors alone is one of two places: the line hint picks the real one",
    run: () => replace(lookAlike, lookAlikeFind, "*/\n/**", { startLine: 3 }).content,
    expect: lookAlike.replace("export type ForegroundColor = ForegroundColorName;\n\n", ""),
  },
  {
    name: "... and without a hint it is AMBIGUOUS, never the look-alike",
    run: () => code(() => replace(lookAlike, lookAlikeFind, "*/\n/**")),
    expect: "AMBIGUOUS",
  },
  {
    // Seed 5 at 2,000 cases, case 1630: a context line grew a comment; a look-alike block (a token differs) scored higher.
    name: "a numbered hunk whose lines all stand at its line, one grown, goes there, not to a closer-scoring look-alike",
    run: () => applyPatch(grown, `@@ -1,5 +1,6 @@\n${grownHunk}`).content,
    expect: grown.replace("Use `ColorName` instead.\n", "Use `ColorName` instead.\nconst added = 1;\n"),
  },
  {
    name: "... and the same hunk without numbers is AMBIGUOUS",
    run: () => code(() => applyPatch(grown, `@@ @@\n${grownHunk}`)),
    expect: "AMBIGUOUS",
  },
];

for (const c of cases) test(c.name, () => assert.equal(c.run(), c.expect));

// Seed 4 case 1930 (2,000 cases, file-changed, diffs): the real place's `lte` line grew a comment since the
// model read the file; by similarity a look-alike block six lines up (`gt`/`>` for `lt`/`<`) scored higher.
// The window holding every line of the hunk (one as grown) overlaps it and replaces it.
const cmp = [
  "switch (op) {",
  "  case '!=':",
  "    return neq(a, b, loose)",
  "",
  "  case '>':",
  "    return gt(a, b, loose)",
  "",
  "  case '>=':",
  "    return gte(a, b, loose)",
  "",
  "  case '<':",
  "    return lt(a, b, loose)",
  "",
  "  case '<=':",
  "    return lte(a, b, loose) // since added",
  "",
  "  default:",
  "    throw new TypeError(op)",
  "}",
  "",
].join("\n");
const cmpHunk = "@@ @@\n     return gte(a, b, loose)\n \n   case '<':\n-    return lt(a, b, loose)\n+    return lt(a, b, strict)\n \n   case '<=':\n     return lte(a, b, loose)\n \n";

test("a hunk whose real place grew a comment is not applied to the look-alike block a few lines up (seed 4, case 1930)", () => {
  const r = applyPatch(cmp, `--- a/cmp.js\n+++ b/cmp.js\n${cmpHunk}`);
  assert.equal(r.content, cmp.replace("return lt(a, b, loose)", "return lt(a, b, strict)"));
});

// Seed 7 case 1891 (file-changed, numbered diff): the same block twice in a file, the second (which the
// model read, and the hunk's header names) grown a comment since. The exact text is the first copy.
const wrapped = [
  "function wrap(fn) {",
  "  if (a == null) {",
  "    return a;",
  "  }",
  "",
  "  if (a.length > 1) {",
  "    args = a;",
  "  }",
  "}",
  "",
  "function wrapRounded(fn) {",
  "  if (a == null) {",
  "    return a;",
  "  } // since added",
  "",
  "  if (a.length > 1) {",
  "    args = a;",
  "  }",
  "}",
  "",
].join("\n");
const wrappedHunk = (header: string) =>
  `--- a/f.js\n+++ b/f.js\n${header}\n     return a;\n   }\n \n-  if (a.length > 1) {\n+  if (a.length > 2) {\n     args = a;\n   }\n`;

test("an exact copy elsewhere does not take a numbered hunk from the hinted place that grew a comment (seed 7, case 1891)", () => {
  const r = applyPatch(wrapped, wrappedHunk("@@ -13,6 +13,6 @@"));
  const lines = r.content.split("\n");
  assert.equal(lines[5], "  if (a.length > 1) {", "the first copy untouched");
  assert.equal(lines[15], "  if (a.length > 2) {", "the hinted place edited");
});

test("the same with a line hint to replace(); without a hint the exact copy is the edit's place", () => {
  const find = "    return a;\n  }\n\n  if (a.length > 1) {";
  const repl = "    return a;\n  }\n\n  if (a.length > 2) {";
  const hinted = replace(wrapped, find, repl, { startLine: 13 }).content.split("\n");
  assert.equal(hinted[5], "  if (a.length > 1) {");
  assert.equal(hinted[15], "  if (a.length > 2) {");
  const unhinted = applyPatch(wrapped, wrappedHunk("@@ @@")).content.split("\n");
  assert.equal(unhinted[5], "  if (a.length > 2) {");
});

/**
 * Segments whose lines stand in several places of the file ("many-places"):
 * one that reads as one change at one place only is merged there
 * (src/lazy/one-change-fit.ts), also when it is the snippet's only part and
 * stands unchanged in one other place; one that stands unchanged beside
 * another part, or in two places, or reads as a change at two places, is
 * still refused. And bench:lazy's proof
 * that a deletion shown by its context alone is undecided when the same
 * context stands around other lines elsewhere (bench/lazy/undecided.ts).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { undecided } from "../bench/lazy/undecided.ts";
import { renderSnippet } from "../bench/lazy/render.ts";
import { applyLazyEdit } from "../src/lazy/apply-lazy-edit.ts";
import { expectRefusal } from "./helpers/lazy-refusal.ts";

// `y = x + 1` and `z = y * 2` stand in a and in b, in that order (one after the other) only in a.
const A = "def a(x):\n    y = x + 1\n    z = y * 2\n    return z\n";
const B = "def b(x):\n    z = y * 2\n    y = x + 1\n    return y\n";
const TWO = `${A}\n\n${B}`;
// c has INSERT's lines as written; `q = 5` stands in d too.
// (c first and b last: after a's and b's `y = x + 1` no `q = 5` or `z = y * 2` stands that a far reading could end on.)
const UNCHANGED_IN_C = `def c(x):\n    y = x + 1\n    q = 5\n    z = y * 2\n\n\ndef d():\n    q = 5\n\n\n${A}\n\n${B}`;
const INSERT = "    # ... rest of code ...\n    y = x + 1\n    q = 5\n    z = y * 2\n    # ... rest of code ...\n";

const merges: { name: string; file: string; snippet: string; want: string }[] = [
  {
    name: "a new line between two lines the file has twice each, next to each other in one place only",
    file: TWO,
    snippet: INSERT,
    want: TWO.replace("    y = x + 1\n    z = y * 2\n", "    y = x + 1\n    q = 5\n    z = y * 2\n"),
  },
  {
    name: "two new lines between two such lines in place of the file's one line between them",
    file: TWO.replace("    y = x + 1\n    z = y * 2\n", "    y = x + 1\n    w = 0\n    z = y * 2\n"),
    snippet: "    # ... rest of code ...\n    y = x + 1\n    w = 1 + 0\n    v = w\n    z = y * 2\n    # ... rest of code ...\n",
    want: TWO.replace("    y = x + 1\n    z = y * 2\n", "    y = x + 1\n    w = 1 + 0\n    v = w\n    z = y * 2\n"),
  },
  {
    name: "a deletion shown by the two lines around it, which stand that way in one place only",
    file: TWO.replace("    y = x + 1\n    z = y * 2\n", "    y = x + 1\n    print(y)\n    z = y * 2\n"),
    snippet: "    # ... rest of code ...\n    y = x + 1\n    z = y * 2\n    # ... rest of code ...\n",
    want: TWO,
  },
  {
    // `q = 5` stands twice, so nothing anchors it; where c has the lines as written, the snippet would change nothing.
    name: "the snippet's only part, standing unchanged in one place, at the one other place where it reads as a change",
    file: UNCHANGED_IN_C,
    snippet: INSERT,
    want: UNCHANGED_IN_C.replace("    y = x + 1\n    z = y * 2\n", "    y = x + 1\n    q = 5\n    z = y * 2\n"),
  },
];

for (const m of merges) {
  test(`applyLazyEdit merges ${m.name}`, () => {
    assert.equal(applyLazyEdit(m.file, m.snippet, { path: "a.py" }).content, m.want);
  });
}

const refusals: { name: string; file: string; snippet: string; line?: number }[] = [
  {
    // The second part of the snippet is a change: the first may be its context, as written in c.
    name: "a segment that stands unchanged in one place and reads as a change in another, beside another part of the snippet",
    file: `${UNCHANGED_IN_C}\n\ndef e():\n    return 1\n`,
    snippet: `${INSERT}def e():\n    return 2\n`,
  },
  {
    name: "a segment that stands unchanged in two places",
    file: `${UNCHANGED_IN_C}\n\ndef e(x):\n    y = x + 1\n    q = 5\n    z = y * 2\n`,
    snippet: INSERT,
  },
  {
    name: "a segment that reads as one change in two places (a line put in, or a line replaced)",
    file: `${TWO}\n\ndef c(x):\n    y = x + 1\n    w = 0\n    z = y * 2\n`,
    snippet: INSERT,
  },
  {
    // Read as `z = y * 2` with the blank line after it deleted, the snippet's blank line before it is not the file's.
    name: "a segment whose blank first line the file does not have before the place",
    file: "def a(x):\n    y = x + 1\n\n    z = y * 2\n    return z\n\n\ndef b(x):\n    z = y * 2\n    y = x + 1\n    return y\n",
    snippet: "    # ... rest of code ...\n\n    y = x + 1\n    z = y * 2\n    # ... rest of code ...\n",
    line: 3,
  },
];

for (const r of refusals) {
  test(`applyLazyEdit still refuses ${r.name}, naming the snippet line and the candidates`, () => {
    const e = expectRefusal(() => applyLazyEdit(r.file, r.snippet, { path: "a.py" }), "AMBIGUOUS", [new RegExp(`snippet line ${r.line ?? 2} `), /stand in \d+ places/]);
    assert.ok((e.detail.candidates?.length ?? 0) > 1, "names its candidates");
  });
}

test("bench:lazy undecided: a deletion shown by its context alone is undecided when that context stands around other lines elsewhere", () => {
  const body = (line: string) => `    y = 0\n    if y:\n${line}\n        return 1\n    return 2\n`;
  const before = `def a():\n    return 0\n\n\ndef b():\n${body("        log('b')")}\n\ndef c():\n${body("        log('c')")}\n\ndef d():\n    pass\n`;
  const after = before.replace("        log('b')\n", "");
  const short = renderSnippet(before, after, "python", "rest-of-code") as string;
  // One line of context: `if y:` and `return 1` stand around log('c') too; deleting it renders the same.
  assert.equal(undecided(before, after, "python", "rest-of-code", short), true);
  assert.throws(() => applyLazyEdit(before, short, { path: "a.py" }));
  // Three lines of context reach the function's name: decided.
  const long = renderSnippet(before, after, "python", "existing-code") as string;
  assert.equal(undecided(before, after, "python", "existing-code", long), false);
  assert.equal(applyLazyEdit(before, long, { path: "a.py" }).content, after);
  // A removal note quotes the line it removes: decided.
  const noted = renderSnippet(before, after, "python", "remove-note") as string;
  assert.equal(undecided(before, after, "python", "remove-note", noted), false);
});

test("bench:lazy undecided: another deletion at the same place, only wider (a blank line more), proves nothing", () => {
  const before = "def a():\n    return 0\n\n\nclass S(Base):\n    def __init__(self, it=None):\n        self.it = it\n";
  const after = before.replace("class S(Base):\n", "");
  const snippet = renderSnippet(before, after, "python", "rest-of-code") as string;
  assert.equal(undecided(before, after, "python", "rest-of-code", snippet), false);
});

/**
 * Lazy merges bench:lazy scored wrong in its third round: a blank line
 * taken from before a new top-level def, a lone changed line placed among
 * two alike, a snippet merged into the twin of the block it changes, and a
 * rendering that did not show its deletion. Each rule's case, and a case
 * next to it the rule must leave alone.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { renderSnippet } from "../bench/lazy/render.ts";
import { applyLazyEdit } from "../src/lazy/apply-lazy-edit.ts";
import { expectRefusal } from "./helpers/lazy-refusal.ts";

const MODULE = "import os\n\n\ndef load(path):\n    return open(path).read()\n\n\ndef main():\n    print(load('x'))\n";
const SAVE = "def save(path, text):\n    with open(path, 'w') as f:\n        f.write(text)\n";

test("new code between a marker's blank line and the next def goes after the file's whole blank run", () => {
  const snippet = `# ... existing code ...\n\n${SAVE}\n\ndef main():\n# ... existing code ...`;
  const want = `import os\n\n\ndef load(path):\n    return open(path).read()\n\n\n${SAVE}\n\ndef main():\n    print(load('x'))\n`;
  assert.equal(applyLazyEdit(MODULE, snippet, { path: "a.py" }).content, want);
});

test("blank lines before new code that follow a line of the file, or outnumber the file's run, are shown as they are", () => {
  const shown = [
    // The line before them is the file's: they are the lines after it, not the marker's edge.
    [`# ... existing code ...\n    return open(path).read()\n\n${SAVE}\n\ndef main():\n# ... existing code ...`, 1],
    // Three after the marker where the file's run has two: new ones among them.
    [`# ... existing code ...\n\n\n\n${SAVE}\n\ndef main():\n# ... existing code ...`, 3],
  ] as const;
  for (const [snippet, blanks] of shown) {
    const want = `import os\n\n\ndef load(path):\n    return open(path).read()\n${"\n".repeat(blanks)}${SAVE}\n\ndef main():\n    print(load('x'))\n`;
    assert.equal(applyLazyEdit(MODULE, snippet, { path: "a.py" }).content, want);
  }
});

// Two functions whose returns differ by a wrap and by one name; whitespace-only lines before both.
const WRAPS = "def f(x):\n    y = 1\n    \n    return wrap(bottom(x, to_a))\n\n\ndef g(x):\n    y = 2\n    \n    return bottom(x, to_b)\n\n\nh = g\n";

test("applyLazyEdit refuses (was wrong) a lone changed line with blank lines only around it that reads as a change of two lines", () => {
  const snippet = "    # ... existing code ...\n    \n    return wrap(bottom(x, to_b))\n\n    # ... existing code ...";
  expectRefusal(() => applyLazyEdit(WRAPS, snippet, { path: "a.py" }), "AMBIGUOUS", [/Snippet line 3/, /lines 4, 10/]);
});

test("a lone changed line with blank lines only around it, like one line of its range alone, is that line changed", () => {
  const file = WRAPS.replace("return wrap(bottom(x, to_a))", "return x");
  const snippet = "    # ... existing code ...\n    \n    return wrap(bottom(x, to_b))\n\n    # ... existing code ...";
  assert.equal(applyLazyEdit(file, snippet, { path: "a.py" }).content, file.replace("return bottom(x, to_b)", "return wrap(bottom(x, to_b))"));
});

// Two classes whose `__new__` share their first and last lines; Intersection's far below Union's (past copied-lines.ts's reach).
const filler = (name: string, n: number) => Array.from({ length: n }, (_, k) => `    def ${name}_${k}(self):\n        return self._${name}_${k}\n`).join("\n");
const cls = (name: string, body: string, n: number) =>
  `class ${name}(Base):\n${filler(name.toLowerCase(), n)}\n    def __new__(cls, *args, **kwargs):\n        evaluate = kwargs.get('evaluate', True)\n${body}\n        obj = Base.__new__(cls, *args)\n        obj._argset = frozenset(args)\n        return obj\n`;
const UNION = "        args = list(ordered(set(to_sets(args))))\n        if evaluate:\n            return simplify_union(args)\n        args = list(ordered(args))\n\n        # drop duplicates\n        args = list(ordered(set(args)))\n        if len(args) == 1:\n            return args[0]\n";
const INTER = "        args = to_sets(args)\n        if evaluate:\n            return simplify_intersection(args)\n        args = list(ordered(args))\n";
const TWINS = `${cls("Union", UNION, 3)}\n\n${cls("Intersection", INTER, 12)}`;

test("applyLazyEdit refuses (was wrong) a block's change whose lines out of order stand in the block's twin: either block may be the one changed", () => {
  // Intersection's __new__ rewritten like Union's: the lines Union has alone placed it in Union.
  const snippet =
    "    # ... existing code ...\n    def __new__(cls, *args, **kwargs):\n        evaluate = kwargs.get('evaluate', True)\n        args = to_sets(args)\n\n        # drop duplicates\n        args = list(ordered(set(args)))\n        if evaluate:\n            return simplify_intersection(args)\n        if len(args) == 1:\n            return args[0]\n        obj = Base.__new__(cls, *args)\n        obj._argset = frozenset(args)\n        return obj\n    # ... existing code ...";
  const error = expectRefusal(() => applyLazyEdit(TWINS, snippet, { path: "a.py" }), "AMBIGUOUS", [/Snippet line 4/, /file line 67/, /lines 11-25 or 65-74/]);
  assert.equal(error.detail.candidates?.length, 2);
});

test("a line out of order copied from a block that is no twin of the snippet's is still a copy", () => {
  const file = `${cls("Union", UNION, 3)}\n\n${filler("helpers", 12)}\n    def fold(self, args):\n        args = to_sets(args)\n        return args\n`;
  const snippet = "    # ... existing code ...\n    def __new__(cls, *args, **kwargs):\n        evaluate = kwargs.get('evaluate', True)\n        args = to_sets(args)\n        if evaluate:\n            return simplify_union(args)\n    # ... existing code ...";
  const out = applyLazyEdit(file, snippet, { path: "a.py" }).content;
  assert.ok(out.includes("        evaluate = kwargs.get('evaluate', True)\n        args = to_sets(args)\n        if evaluate:\n"), out);
});

// bench:lazy's renderer: a deletion whose shown context on its marker side is blank lines only, which the deletion ends with too.
const ROWS = "def f(rows):\n    out = None\n    for r in rows:\n        if out is None:\n            out = r\n            continue\n\n        # spacer\n        for _ in range(2):\n            out = out + ' '\n\n        out = out + r\n\n    out = out.strip()\n    return out\n";
const NO_SPACER = "def f(rows):\n    out = None\n    for r in rows:\n        if out is None:\n            out = r\n            continue\n\n        out = out + r\n\n    out = out.rstrip()\n    return out\n";

test("bench:lazy renders no snippet whose deletion a marker could have kept: its only context on the marker side is a blank line the deletion ends with", () => {
  // rest-of-code shows one line of context: the blank line the deleted run ends with, after a marker.
  assert.equal(renderSnippet(ROWS, NO_SPACER, "python", "rest-of-code"), undefined);
  // Three lines of context show the line before the deletion, which the deleted run does not end with.
  assert.match(renderSnippet(ROWS, NO_SPACER, "python", "existing-code") as string, /continue\n\n {8}out = out \+ r/);
});

test("bench:lazy still renders a deletion whose context on the marker side is code the deletion ends with: the lines after it tell the reading", () => {
  const before = "def f(rv):\n    rv = rv.doit()\n    if rv.a:\n        return rv\n    if rv.b:\n        return rv\n    return g(rv)\n";
  const after = "def f(rv):\n    rv = rv.doit()\n    if rv.a:\n        return rv\n    if not rv.c:\n        if rv.b:\n            return rv\n    return g(rv)\n";
  assert.equal(renderSnippet(before, after, "python", "rest-of-code"), "        # ... rest of code ...\n        return rv\n    if not rv.c:\n        if rv.b:\n            return rv\n    return g(rv)");
});

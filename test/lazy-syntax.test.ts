/**
 * Lazy merges checked by the file's grammar (the `syntax` option, a checker
 * loaded before the merge): a merge whose result has a syntax error where
 * the file had none is refused with CONFLICT naming the error's line and the
 * snippet line near it; the same merge without the checker goes through
 * (bracket balance alone does not see it). A file already broken elsewhere
 * is merged: only the errors the merge brings count.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { EditError } from "../src/errors.ts";
import { applyLazyEdit } from "../src/lazy/apply-lazy-edit.ts";
import { readHeader } from "../src/lazy/definitions.ts";
import { loadSyntaxChecker, MERGE_CHECK_MAX_CHARS } from "../src/syntax/merge-checker.ts";

interface Refused {
  name: string;
  path: string;
  before: string;
  snippet: string;
  /** The line of the merged file the refusal names, and the snippet line. */
  line: number;
  snippetLine: number;
}

const TS = `export function total(items: number[]): number {
  let sum = 0;
  for (const item of items) {
    sum += item;
  }
  return sum;
}

export function mean(items: number[]): number {
  return total(items) / items.length;
}
`;

const PY = `def load(path):
    with open(path) as f:
        text = f.read()
    return parse(text)


def parse(text):
    return text.split()
`;

const GO = `package main

func sum(xs []int) int {
\tt := 0
\tfor _, x := range xs {
\t\tt += x
\t}
\treturn t
}
`;

const refused: Refused[] = [
  {
    name: "TypeScript: an expression cut short, brackets balanced",
    path: "src/total.ts",
    before: TS,
    snippet: "export function total(items: number[]): number {\n  let sum = 0 +;\n  // ... existing code ...\n}",
    line: 2,
    snippetLine: 2,
  },
  {
    name: "Python: a line indented past its block (CPython's unexpected indent)",
    path: "app/load.py",
    before: PY,
    snippet: "def load(path):\n    with open(path) as f:\n        text = f.read()\n            text = text.strip()\n    # ... existing code ...",
    line: 4,
    snippetLine: 4,
  },
  {
    name: "Python: an else after a with block",
    path: "app/load.py",
    before: PY,
    snippet: "def load(path):\n    with open(path) as f:\n        text = f.read()\n    else:\n        text = ''\n    # ... existing code ...",
    line: 4,
    snippetLine: 4,
  },
  {
    name: "Go: a statement keyword where an expression stands",
    path: "main.go",
    before: GO,
    snippet: "func sum(xs []int) int {\n\tt := return 0\n\t// ... existing code ...\n}",
    line: 4,
    snippetLine: 2,
  },
];

for (const c of refused) {
  test(`lazy syntax check refuses: ${c.name}`, async () => {
    const syntax = await loadSyntaxChecker(c.path);
    assert.ok(syntax, "the grammar loads");
    // Without the checker the merge goes through: balance alone does not see the error.
    const unchecked = applyLazyEdit(c.before, c.snippet, { path: c.path });
    assert.notEqual(unchecked.content, c.before);
    assert.throws(
      () => applyLazyEdit(c.before, c.snippet, { path: c.path, syntax }),
      (e: unknown) => {
        assert.ok(e instanceof EditError);
        assert.equal(e.code, "CONFLICT");
        assert.match(e.message, new RegExp(`syntax error the file did not have, at line ${c.line}:`));
        assert.match(e.message, new RegExp(`snippet line ${c.snippetLine} `));
        assert.equal(e.detail.segment, c.snippetLine);
        assert.ok((e.detail.candidates?.length ?? 0) > 0);
        return true;
      },
    );
  });
}

test("lazy syntax check: a right merge goes through, and a file broken elsewhere counts only the merge's errors", async () => {
  const syntax = await loadSyntaxChecker("src/total.ts");
  const snippet = "export function mean(items: number[]): number {\n  if (items.length === 0) return 0;\n  // ... existing code ...\n}";
  const right = applyLazyEdit(TS, snippet, { path: "src/total.ts", syntax });
  assert.match(right.content, /if \(items\.length === 0\) return 0;\n {2}return total/);
  // The file has an error of its own in total(); the merge in mean() brings none.
  const broken = TS.replace("let sum = 0;", "let sum = 0 +;");
  const merged = applyLazyEdit(broken, snippet, { path: "src/total.ts", syntax });
  assert.match(merged.content, /let sum = 0 \+;/);
  assert.match(merged.content, /if \(items\.length === 0\) return 0;/);
  // An error the merge brings in a file broken elsewhere is still refused.
  assert.throws(() => applyLazyEdit(broken, "export function mean(items: number[]): number {\n  return total(items) /;\n}", { path: "src/total.ts", syntax }), /at line 10:/);
});

test("loadSyntaxChecker: no checker for a file of no known language; a text over the limit is not checked", async () => {
  assert.equal(await loadSyntaxChecker("notes.txt"), undefined);
  assert.ok(await loadSyntaxChecker(undefined, "py"));
  const syntax = await loadSyntaxChecker("a.py");
  assert.ok(syntax);
  assert.deepEqual(syntax("x = 1\n", "x = 2\n"), []);
  assert.equal(syntax("x = 1\n", "x = (\n")?.length, 1);
  const big = "x = 1\n".repeat(Math.ceil(MERGE_CHECK_MAX_CHARS / 6) + 1);
  assert.equal(syntax(big, `${big}y = (\n`), undefined);
});

test("Python errors tree-sitter reads past are errors: an empty block, a return outside a function", async () => {
  const syntax = await loadSyntaxChecker("a.py");
  assert.ok(syntax);
  const before = "def parse(text):\n    return text.split()\n";
  const found = (after: string) => syntax(before, after)?.map((i) => [i.line, i.message]);
  assert.deepEqual(found("def parse(text):\n    if not text:\n    return text.split()\n"), [[2, "expected an indented block"]]);
  // A comment is no statement: the block is still empty.
  assert.deepEqual(found("def parse(text):\n    if not text:\n        # nothing\n    return text.split()\n"), [[2, "expected an indented block"]]);
  assert.deepEqual(found("def parse(text):\n    pass\nif text:\n    return text.split()\n"), [[4, "'return' outside function"]]);
  assert.deepEqual(found("def parse(text):\n    f = lambda: 1\n    if text:\n        return f()\n    return text.split()\n"), []);
  // A line at column 1 in a function's middle makes the function's rest its body: the return below it is stray.
  const fn = "def parse(text):\n    words = text.split()\n    words.sort()\n    count = len(words)\n    return words\n";
  assert.deepEqual(syntax(fn, fn.replace("    words.sort()\n", "if text:\n    words.sort()\n"))?.map((i) => [i.line, i.message]), [[6, "'return' outside function"]]);
  // A body deleted below its header: the empty block is the header's line, just above the change.
  const two = "def f(x):\n    if x:\n        return 1\n\n    if x > 2:\n        return 2\n";
  assert.deepEqual(syntax(two, two.replace("        return 1\n\n", "\n"))?.map((i) => [i.line, i.message]), [[2, "expected an indented block"]]);
  // The merge that leaves a header without its body is refused.
  const PY2 = "def parse(text):\n    return text.split()\n\n\ndef load(path):\n    return parse(path)\n";
  const snippet = "# ... existing code ...\ndef parse(text):\n    if not text:\n# ... existing code ...";
  assert.ok(applyLazyEdit(PY2, snippet, { path: "a.py" }).content.includes("    if not text:\n    return"));
  assert.throws(() => applyLazyEdit(PY2, snippet, { path: "a.py", syntax }), /at line 2: expected an indented block \("if not text:"\)/);
});

test("readHeader: a call spread over lines is no definition header, a definition is", () => {
  for (const line of ["raises(ValueError, lambda: f(", "    raises(TypeError, lambda: Matrix(1, 2),", "assert_equal(lambda x, y: x + y,", "assertEqual(compute(", "    check(foo(bar,"]) {
    assert.equal(readHeader(line), undefined, line);
  }
  for (const [line, name] of [
    ["def check(self, f=lambda: 1):", "check"],
    ["  public int size() {", "size"],
    ["  constructor(@Inject(TOKEN) private readonly store: Store,", "constructor"],
    ["  render(props: Props): Element {", "render"],
    ["  static Builder builder(String name,", "builder"],
    ["  fetchAll(", "fetchAll"],
  ] as const) {
    assert.deepEqual(readHeader(line), { kind: "function", name }, line);
  }
});

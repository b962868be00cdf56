/**
 * Lazy merges bench:lazy once scored wrong (the merge was sure where the
 * snippet fits two readings): each rule's refusal, naming the snippet line
 * and the candidates, and a merge next to it that the rule must leave alone.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { applyLazyEdit } from "../src/lazy/apply-lazy-edit.ts";
import { MAX_UNMARKED_DELETION } from "../src/lazy/merge.ts";
import { renderSnippet, STYLES } from "../bench/lazy/render.ts";
import { expectRefusal, type Refusal } from "./helpers/lazy-refusal.ts";


interface Merge {
  name: string;
  file: string;
  snippet: string;
  want: string;
}

// A function, a copy of its body under another name's alias, and a method the alias stands before.
const ALIAS = "class P:\n    def _print_Pow(self, e):\n        row = self.make('row')\n        row.add(e)\n        return row\n\n    def _print_Abs(self, expr):\n        row = self.make('row')\n        fence = self.make('fenced')\n        fence.set('open', '|')\n        row.add(fence)\n        return row\n\n    _print_Det = _print_Abs\n\n    def _print_im(self, expr):\n        return self.make('im')\n";
const DET_BODY = "        row = self.make('row')\n        fence = self.make('fenced')\n        fence.set('open', '|')\n        row.add(fence)\n        return row\n";

const refusals: Refusal[] = [
  {
    name: "a header written over another (the same body) when the file already binds its name there: a rename, or a new definition for the alias",
    file: ALIAS,
    snippet: `    # ... existing code ...\n        return row\n\n    def _print_Det(self, expr):\n${DET_BODY}\n    def _print_im(self, expr):\n    # ... existing code ...`,
    code: "AMBIGUOUS",
    says: [/snippet line 4/, /file line 7/, /line 14/],
  },
  {
    name: "context before a deletion that the file has twice within the marker's reach: the deletion may start after either copy",
    file: "class S:\n    def show(self, s):\n        items = sorted(s)\n        for item in items:\n            self.emit(item)\n        return items\n        items = sorted(s)\n        for item in items:\n            self.emit(item)\n        return items\n\n    alias = show\n",
    snippet: "        # ... existing code ...\n        for item in items:\n            self.emit(item)\n\n    alias = show\n    # ... existing code ...",
    code: "AMBIGUOUS",
    says: [/snippet line 2/, /file lines 8 and 4/],
  },
];

const merges: Merge[] = [
  {
    name: "context before a deletion whose other copy would make a deletion across a block's start",
    file: "def a(items):\n    for item in items:\n        emit(item)\n    done()\n\n\ndef b(items):\n    for item in items:\n        emit(item)\n    log(items)\n    return items\n",
    snippet: "# ... existing code ...\n    for item in items:\n        emit(item)\n    return items\n",
    want: "def a(items):\n    for item in items:\n        emit(item)\n    done()\n\n\ndef b(items):\n    for item in items:\n        emit(item)\n    return items\n",
  },
  {
    name: "a header renamed where the lines around it do not fit the place of the name's other binding",
    file: "class V:\n    def system(self):\n        return self._system\n\n    def __str__(self, printer=None):\n        return self._name\n\n    def free(self):\n        return {self}\n\n    __repr__ = __str__\n    _sympystr = __str__\n",
    snippet: "    # ... existing code ...\n        return self._system\n\n    def _sympystr(self, printer):\n        return self._name\n\n    def free(self):\n    # ... existing code ...",
    want: "class V:\n    def system(self):\n        return self._system\n\n    def _sympystr(self, printer):\n        return self._name\n\n    def free(self):\n        return {self}\n\n    __repr__ = __str__\n    _sympystr = __str__\n",
  },
];

for (const r of refusals) {
  test(`applyLazyEdit refuses (was wrong) ${r.name}, naming the snippet line and the candidates`, () => {
    expectRefusal(() => applyLazyEdit(r.file, r.snippet, { path: "a.py" }), r.code, r.says);
  });
}

for (const m of merges) {
  test(`applyLazyEdit still merges ${m.name}`, () => {
    assert.equal(applyLazyEdit(m.file, m.snippet, { path: "a.py" }).content, m.want);
  });
}

test("bench:lazy render: a deletion longer than a gap may tell (MAX_UNMARKED_DELETION lines of code) renders only with a removal note", () => {
  // A class of many methods deleted with a new method put in its place: the lines around the gap do not say so.
  const methods = (n: number) => Array.from({ length: n }, (_, k) => `    def m${k}(self):\n        return ${k}\n`).join("\n");
  const big = Math.ceil((MAX_UNMARKED_DELETION + 1) / 2) + 1;
  const before = `class A:\n    def keep(self):\n        return 0\n\nclass Gone:\n${methods(big)}\n    def sum(self):\n        return 1\n\n\nclass Z:\n    pass\n`;
  const after = before.replace(`class Gone:\n${methods(big)}\n`, "");
  for (const style of STYLES) {
    const snippet = renderSnippet(before, after, "python", style);
    if (style === "remove-note") assert.ok(snippet?.includes("# remove"), snippet);
    else assert.equal(snippet, undefined, `${style}: ${snippet}`);
  }
  // One method fewer than that still renders: the gap tells it.
  const small = before.replace(methods(big), methods(2));
  assert.notEqual(renderSnippet(small, small.replace(`class Gone:\n${methods(2)}\n`, ""), "python", "existing-code"), undefined);
});

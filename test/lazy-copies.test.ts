/**
 * Lazy merge (issue 34): snippet lines out of order read as copies of lines the merge keeps, and
 * the other reading (the lines in order taken for the copies) weighed against it (kept-copies.ts).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { applyLazyEdit } from "../src/lazy/apply-lazy-edit.ts";
import { expectRefusal } from "./helpers/lazy-refusal.ts";

const TESTS = "import os\n\n\ndef test_a(app):\n    app.build()\n    content = (app.outdir / 'man1' / 'a.1').read_text()\n    assert 'A' in content\n\n\ndef test_b(app):\n    app.build()\n    content = (app.outdir / 'b.1').read_text()\n    assert 'B' in content\n";
const SETOP = "class P:\n    def _print_Union(self, expr):\n        items = sorted(expr.args)\n        mrow = self.dom.createElement('mrow')\n        for item in items:\n            mrow.appendChild(self._print(item))\n        return mrow\n\n    def _print_SetOp(self, expr, symbol):\n        mrow = self.dom.createElement('mo')\n        return mrow\n\n    def _print_Other(self, expr):\n        return 1\n";
const FILLER = Array.from({ length: 45 }, (_, k) => `X${k} = ${k}`).join("\n");
const UNION = "def union(args):\n    # flatten\n    args = list(ordered(flatten(args)))\n\n    # remove duplicates\n    args = dedupe(args)\n\n    if evaluate:\n        return simplify_union(args)\n\n    if len(args) == 1:\n        return args[0]\n    return make(args)\n";
const TWINS = `${UNION}\n\n${FILLER}\n\n\ndef inter(args):\n    # flatten\n    args = flatten(args)\n\n    if evaluate:\n        return simplify_inter(args)\n\n    return make(args)\n`;
const PREFIX = "class Prefix:\n    def __repr__(self):\n        return 'Prefix(%r)' % (\n            str(self.name))\n\n    def __mul__(self, other):\n        from units import Quantity\n        if not isinstance(other, (Quantity, Prefix)):\n            return super().__mul__(other)\n\n        fact = self.scale_factor * other.scale_factor\n        if fact == 1:\n            return 1\n\n        return self.scale_factor * other\n\n    def __truediv__(self, other):\n        return 2\n";
const BUILDER = "class Builder:\n    def write(self, *ignored):\n        docwriter = Writer(self)\n        settings = Parser(docwriter).defaults()\n\n        for info in self.config.pages:\n            docname, name = info\n            destination = Output(name)\n            self.write_doc(docname, destination)\n\n            tree = self.env.get_doctree(docname)\n            largetree = inline_all(self, tree, [docname])\n            largetree.settings = settings\n            self.env.resolve_references(largetree, docname, self)\n\n            docwriter.write(largetree, destination)\n\n    def finish(self):\n        pass\n";

const merges = [
  {
    name: "a changed line that repeats a line of the test just above, which the marker keeps: written as new, the other kept",
    file: TESTS,
    snippet: "# ... existing code ...\ndef test_b(app):\n    app.build()\n    content = (app.outdir / 'man1' / 'a.1').read_text()\n    assert 'B' in content",
    want: TESTS.replace("(app.outdir / 'b.1')", "(app.outdir / 'man1' / 'a.1')"),
  },
  {
    name: "a body that copies three lines of the method above: the run in order is the copies, the other reading (the header and the next method anchored) holds",
    file: SETOP,
    snippet: "    # ... existing code ...\n    def _print_SetOp(self, expr, symbol):\n        items = sorted(expr.args)\n        mrow = self.dom.createElement(symbol)\n        for item in items:\n            mrow.appendChild(self._print(item))\n        return mrow\n\n    def _print_Other(self, expr):\n    # ... existing code ...",
    want: SETOP.replace("        mrow = self.dom.createElement('mo')\n        return mrow\n", "        items = sorted(expr.args)\n        mrow = self.dom.createElement(symbol)\n        for item in items:\n            mrow.appendChild(self._print(item))\n        return mrow\n"),
  },
  {
    name: "lines of two twin functions: the reading that adds the twin's lines, not the one that writes them over the other function's own (which takes more lines)",
    file: TWINS,
    snippet: "    # ...\n    # flatten\n    args = flatten(args)\n\n    # remove duplicates\n    args = dedupe(args)\n\n    if evaluate:\n        return simplify_inter(args)\n\n    if len(args) == 1:\n        return args[0]\n    return make(args)\n    # ...",
    want: TWINS.replace("    args = flatten(args)\n\n    if evaluate:\n        return simplify_inter(args)\n\n    return make(args)\n", "    args = flatten(args)\n\n    # remove duplicates\n    args = dedupe(args)\n\n    if evaluate:\n        return simplify_inter(args)\n\n    if len(args) == 1:\n        return args[0]\n    return make(args)\n"),
  },
  {
    // Was refused as "either could be the one moved" (lazy.test.ts): the marker keeps `c = 3` where it is.
    name: "a line written before the file's next line, its own place after them kept by the marker: a copy, not a move",
    file: "def f():\n    a = 1\n    b = 2\n    c = 3\n    return a\n",
    snippet: "def f():\n    c = 3\n    a = 1\n# ...",
    want: "def f():\n    c = 3\n    a = 1\n    b = 2\n    c = 3\n    return a\n",
  },
];

for (const c of merges) {
  test(`applyLazyEdit (copies): ${c.name}`, () => {
    assert.equal(applyLazyEdit(c.file, c.snippet, { path: "a.py" }).content, c.want);
  });
}

const refusals = [
  {
    name: "two lines from two places, where the one read as the file's would delete a `def` line beside a blank one",
    file: PREFIX,
    snippet: "        # ... rest of code ...\n\n            if isinstance(other, Prefix):\n                return self.scale_factor * other\n            return super().__mul__(other)\n\n        # ... rest of code ...",
    code: "CONFLICT",
    says: [/Snippet line \d+/, /out of the order/],
  },
  {
    name: "a new method whose body repeats a loop's lines of another method: not the loop's lines taken into it",
    file: BUILDER,
    snippet: "    # ... existing code ...\n    def write_doc(self, docname, destination):\n        tree = self.env.get_doctree(docname)\n        largetree = inline_all(self, tree, [docname])\n        largetree.settings = self.settings\n        self.env.resolve_references(largetree, docname, self)\n\n        docwriter = Writer(self)\n        docwriter.write(largetree, destination)",
    code: "AMBIGUOUS",
    says: [/snippet line 2/, /line 6 \("for info in self\.config\.pages:"\)/],
  },
];

for (const r of refusals) {
  test(`applyLazyEdit (copies) refuses ${r.name}`, () => {
    expectRefusal(() => applyLazyEdit(r.file, r.snippet, { path: "a.py" }), r.code, r.says);
  });
}

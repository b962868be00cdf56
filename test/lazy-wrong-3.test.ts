/**
 * Lazy merges bench:lazy scored wrong in its third round (group B): each
 * rule's merge, or its refusal naming the snippet line and the candidates,
 * and a merge next to it that the rule must leave alone.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { applyLazyEdit } from "../src/lazy/apply-lazy-edit.ts";
import { loadDefinitionsReader } from "../src/syntax/definitions-reader.ts";
import { expectRefusal, type Refusal } from "./helpers/lazy-refusal.ts";

interface Merge {
  name: string;
  file: string;
  snippet: string;
  want: string;
  path?: string;
}

// A method whose import line the model wrote twice in its after file (a blank line between).
const ENTRY = "class M:\n    def size(self):\n        return self.n\n\n    def entry(self, i, j):\n        # find the row\n        from m import lt, ge\n\n        offset = 0\n        for row in self.rows:\n            if lt(i, offset):\n                break\n        return row\n";
const ENTRY_BODY = "\n        from m import lt, ge\n\n        offset = 0\n        for row in self.rows:\n            if lt(i, offset) == True:\n                break\n";
// A method whose block the file has twice, the second copy after a stray `else:` (a syntax error the tree ends the method at).
const PERM =
  "class P:\n    def __new__(cls, *args, size=None):\n        if not args:\n            return cls.empty(size)\n        if cyclic(args):\n            aform = from_cycles(args)\n        else:\n            aform = list(args)\n        if size and size > len(aform):\n            aform.extend(range(len(aform), size))\n        size = len(aform)\n        else:\n            aform = list(args)\n        if size and size > len(aform):\n            aform.extend(range(len(aform), size))\n        return cls.build(aform)\n\n    def rank(self):\n        return self.r\n";

// Two methods: the first's loop has one line the second's has not, the second's the lines of its loop.
const JOIN =
  "class Printer:\n    def _join(self, e):\n        row = self.node('row')\n        tag = self.node('tag')\n        row.add(tag)\n        for arg in e.args:\n            row.add(self.show(arg))\n        return row\n\n    def _sep(self, expr, sep):\n        row = self.node('row')\n        row.add(self.show(expr.args[0]))\n        for arg in expr.args[1:]:\n            x = self.node('op')\n            x.add(self.text(sep))\n            y = self.show(arg)\n            row.add(x)\n            row.add(y)\n        return row\n";
const JOIN_LOOP = "        # ... rest of code ...\n        row = self.node('row')\n        for i, arg in enumerate(expr.args):\n            row.add(self.show(arg))\n            if i < len(expr.args) - 1:\n";

const merges: Merge[] = [
  {
    name: "a deletion of a class's header that leaves its methods after a return of the class above, at another depth",
    file: "class A:\n    def rank(self):\n        return self.r\n\n\nclass Old(Base):\n    def __init__(self, x=None):\n        if x:\n            self.x = x\n",
    snippet: "# ... existing code ...\n\n\n    def __init__(self, x=None):\n        if x:\n# ... existing code ...\n",
    want: "class A:\n    def rank(self):\n        return self.r\n\n\n    def __init__(self, x=None):\n        if x:\n            self.x = x\n",
  },
  {
    name: "a blank line after a marker that is the file's blank line before the line after it",
    file: ENTRY,
    snippet: "        # ... rest of code ...\n\n        offset = 0\n        for row in self.rows:\n            if lt(i, offset) == True:\n                break\n        # ... rest of code ...\n",
    want: ENTRY.replace("if lt(i, offset):", "if lt(i, offset) == True:"),
  },
  {
    name: "a new first line sharing a word or two with the file line before the snippet's first aligned line: added above the aligned line",
    file: "import os\nfrom m.core import evaluate\nfrom m import Expr, S\n\n\ndef f():\n    return 1\n",
    snippet: "from collections.abc import Iterable\nfrom m.core import evaluate\nfrom m import Expr, S\n# ... existing code ...\n",
    want: "import os\nfrom collections.abc import Iterable\nfrom m.core import evaluate\nfrom m import Expr, S\n\n\ndef f():\n    return 1\n",
  },
  {
    name: "a removal note after a marker and blank lines, quoting the line it removes: the blank lines are the file's before that line",
    file: "def a():\n    return 1\n\n\nclass Old(Base):\n    def __init__(self, x=None):\n        if x:\n            self.x = x\n",
    snippet: "# ... existing code ...\n\n\n# remove class Old(Base):\n    def __init__(self, x=None):\n        if x:\n# ... existing code ...\n",
    want: "def a():\n    return 1\n\n\n    def __init__(self, x=None):\n        if x:\n            self.x = x\n",
  },
  {
    name: "a Markdown removal note after a marker and blank lines, a blank line and context after it",
    path: "a.md",
    file: "# Title\n\nIntro line.\n\n\nA long paragraph that goes away entirely.\n\nFind others at our page.\n\n## End\n",
    snippet: "<!-- ... existing code ... -->\n\n\n<!-- remove A long paragraph that goes -->\n\nFind others at our page.\n<!-- ... existing code ... -->\n",
    want: "# Title\n\nIntro line.\n\n\n\nFind others at our page.\n\n## End\n",
  },
  {
    name: "a removal note right after a marker, quoting the first of the lines it removes",
    file: "def a():\n    return 1\n\ndef old_helper(x):\n    return x\ndef b():\n    return 2\n",
    snippet: "# ... existing code ...\n# remove def old_helper(x):\ndef b():\n    return 2\n",
    want: "def a():\n    return 1\n\ndef b():\n    return 2\n",
  },
  {
    name: "a rewritten loop whose one line the file has in another method's loop of a half-like opener, its other lines standing only in the second method: the second method's loop",
    file: JOIN,
    snippet: `${JOIN_LOOP}                x = self.node('op')\n                x.add(self.text(sep))\n                row.add(x)\n        return row\n        # ... rest of code ...\n`,
    want: JOIN.replace(
      "        row.add(self.show(expr.args[0]))\n        for arg in expr.args[1:]:\n            x = self.node('op')\n            x.add(self.text(sep))\n            y = self.show(arg)\n            row.add(x)\n            row.add(y)\n",
      "        for i, arg in enumerate(expr.args):\n            row.add(self.show(arg))\n            if i < len(expr.args) - 1:\n                x = self.node('op')\n                x.add(self.text(sep))\n                row.add(x)\n",
    ),
  },
  {
    name: "a rewritten loop whose one line the file has in a method's loop of a half-like opener, its other lines new: that method's loop (left alone)",
    file: JOIN,
    snippet: `${JOIN_LOOP}                z = self.node('comma')\n                row.add(z)\n        return row\n        # ... rest of code ...\n`,
    want: JOIN.replace(
      "        tag = self.node('tag')\n        row.add(tag)\n        for arg in e.args:\n            row.add(self.show(arg))\n",
      "        for i, arg in enumerate(expr.args):\n            row.add(self.show(arg))\n            if i < len(expr.args) - 1:\n                z = self.node('comma')\n                row.add(z)\n",
    ),
  },
];

const refusals: (Refusal & { tree?: boolean })[] = [
  {
    name: "a blank line after a marker that the file has not before the line after it (a kept signature's body)",
    file: ENTRY,
    snippet: `    # ... existing code ...\n    def entry(self, i, j):\n        # ... existing code ...\n${ENTRY_BODY}        # ... existing code ...\n`,
    code: "AMBIGUOUS",
    says: [/snippet line 4/, /file line 7/, /line 8/],
  },
  {
    name: "a deletion of a method's header (its blank line before matched with the one above it) that leaves its body after the return above",
    file: ENTRY,
    snippet: `        # ... rest of code ...\n${ENTRY_BODY}        # ... rest of code ...\n`,
    code: "AMBIGUOUS",
    says: [/snippet line 3/, /file lines 5-6/, /line 5/],
  },
  {
    name: "a segment placed once within a method the tree ends early (a syntax error), its lines standing again past that end",
    file: PERM,
    snippet: "    # ... existing code ...\n    def __new__(cls, *args, size=None):\n        # ... existing code ...\n        else:\n            aform = list(args[0])\n        if size and size > len(aform):\n        # ... existing code ...\n",
    code: "AMBIGUOUS",
    says: [/snippet line 4/, /lines 7, 12/],
    tree: true,
  },
  {
    name: "a new first line with every word of the file line before the snippet's first aligned line: that line rewritten, or one added above it",
    file: "import collections.abc\nfrom m.core import evaluate\nfrom m import Expr, S\n\n\ndef f():\n    return 1\n",
    snippet: "from collections.abc import Iterable\nfrom m.core import evaluate\nfrom m import Expr, S\n# ... existing code ...\n",
    code: "AMBIGUOUS",
    says: [/snippet line 1/, /file line 1/],
  },
];

for (const m of merges) {
  test(`applyLazyEdit merges (was wrong) ${m.name}`, () => {
    assert.equal(applyLazyEdit(m.file, m.snippet, { path: m.path ?? "a.py" }).content, m.want);
  });
}

for (const r of refusals) {
  test(`applyLazyEdit refuses (was wrong) ${r.name}, naming the snippet line and the candidates`, async () => {
    const definitions = r.tree ? await loadDefinitionsReader(r.path ?? "a.py") : undefined;
    expectRefusal(() => applyLazyEdit(r.file, r.snippet, { path: r.path ?? "a.py", ...(definitions && { definitions }) }), r.code, r.says);
  });
}

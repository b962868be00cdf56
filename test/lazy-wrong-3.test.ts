/**
 * Lazy merges bench:lazy scored wrong in its third round (group B): each
 * rule's merge, or its refusal naming the snippet line and the candidates,
 * and a merge next to it that the rule must leave alone.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { applyLazyEdit } from "../src/lazy/apply-lazy-edit.ts";
import { expectRefusal, type Refusal } from "./helpers/lazy-refusal.ts";

interface Merge {
  name: string;
  file: string;
  snippet: string;
  want: string;
  path?: string;
}

const merges: Merge[] = [
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
];

const refusals: Refusal[] = [];

for (const m of merges) {
  test(`applyLazyEdit merges (was wrong) ${m.name}`, () => {
    assert.equal(applyLazyEdit(m.file, m.snippet, { path: m.path ?? "a.py" }).content, m.want);
  });
}

for (const r of refusals) {
  test(`applyLazyEdit refuses (was wrong) ${r.name}, naming the snippet line and the candidates`, () => {
    expectRefusal(() => applyLazyEdit(r.file, r.snippet, { path: r.path ?? "a.py" }), r.code, r.says);
  });
}

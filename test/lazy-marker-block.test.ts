/**
 * A marker under a block's opener keeps lines of that block only
 * (src/lazy/marker-block.ts): code after it, indented into the block, that
 * fits only past the block's end is refused, naming the lines; merges
 * within the block are left alone.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { applyLazyEdit } from "../src/lazy/apply-lazy-edit.ts";
import { expectRefusal } from "./helpers/lazy-refusal.ts";

const PY = "def a(v):\n    if v:\n        return 1\n    return 0\n\n\ndef b(v):\n    if v:\n        w = 1\n    else:\n        w = 2\n    return w\n";
const TS = "function a(v: number) {\n  if (v) {\n    return 1;\n  }\n  return 0;\n}\n\nfunction b(v: number) {\n  let w = 0;\n  if (v) {\n    w = 1;\n  } else {\n    w = 2;\n  }\n  return w;\n}\n";

const refusals = [
  {
    name: "python: the lines after a marker under `def a` fit only in `def b`",
    file: PY,
    path: "m.py",
    snippet: "def a(v):\n    # ... existing code ...\n    else:\n        w = 3\n    return w\n",
    says: [/snippet line 2/, /snippet line 3/, /file line 10/, /file line 7/],
  },
  {
    name: "typescript: the lines after a marker under `function a` fit only in `function b`",
    file: TS,
    path: "m.ts",
    snippet: "function a(v: number) {\n  // ... existing code ...\n  } else {\n    w = 3;\n  }\n  return w;\n}\n",
    says: [/snippet line 2/, /file line 12/, /file line 6/],
  },
];

for (const r of refusals) {
  test(`refused: ${r.name}`, () => {
    expectRefusal(() => applyLazyEdit(r.file, r.snippet, { path: r.path }), "AMBIGUOUS", r.says);
  });
}

const merges = [
  {
    name: "the marker's lines stay in the block it is under",
    file: PY,
    path: "m.py",
    snippet: "def b(v):\n    if v:\n        # ... existing code ...\n    else:\n        w = 3\n    return w\n",
    want: PY.replace("w = 2", "w = 3"),
  },
  {
    name: "a comment at column 0 in the block does not end it",
    file: "def a(v):\n    x = 1\n# y = 2\n    if v:\n        return x\n    return 0\n",
    path: "m.py",
    snippet: "def a(v):\n    # ... existing code ...\n    if v:\n        return x + 1\n    return 0\n",
    want: "def a(v):\n    x = 1\n# y = 2\n    if v:\n        return x + 1\n    return 0\n",
  },
  {
    name: "code after the marker as shallow as the opener (the next function) is not read as inside the block",
    file: PY,
    path: "m.py",
    snippet: "def a(v):\n    # ... existing code ...\ndef b(v):\n    if v:\n        w = 7\n    # ... existing code ...\n",
    want: PY.replace("w = 1", "w = 7"),
  },
];

for (const m of merges) {
  test(`merged: ${m.name}`, () => {
    assert.equal(applyLazyEdit(m.file, m.snippet, { path: m.path }).content, m.want);
  });
}

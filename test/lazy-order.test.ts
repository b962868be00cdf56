/**
 * Lazy merge (issue 34): snippet lines out of the order of the lines around them, read as copies
 * where the snippet's own lines tell the place (enclosed-copy.ts, kept-copies.ts, align.ts).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { applyLazyEdit } from "../src/lazy/apply-lazy-edit.ts";

// Enough methods between the copied helper and its new place that the copy is far from it.
const METHODS = Array.from({ length: 45 }, (_, k) => `    def m${k}(self):\n        return ${k}\n`).join("\n");
const MATRIX = `class M:\n    def _eval_col_insert(self, pos, other):\n        cols = self.cols\n\n        def entry(i, j):\n            if j < pos:\n                return self[i, j]\n            elif pos <= j < pos + other.cols:\n                return other[i, j - pos]\n            return cols\n\n        return self._new(entry)\n\n${METHODS}\n    def col_insert(self, pos, other):\n        if self.rows != other.rows:\n            raise ShapeError(\n                "self and other must have the same number of rows.")\n\n        return self._eval_col_insert(pos, other)\n\n    def col_join(self, other):\n        """Concatenates two matrices."""\n        return 1\n`;
const ENTRY = "        def entry(i, j):\n            if j < pos:\n                return self[i, j]\n            elif pos <= j < pos + other.cols:\n                return other[i, j - pos]\n            return self[i, j - other.cols]\n\n        return self._new(self.rows, entry)\n";

const merges = [
  {
    name: "a local helper copied from another method (its `def` line among them) between two lines the snippet places together: new code there, the other method kept",
    file: MATRIX,
    snippet: `        # ... existing code ...\n            raise ShapeError(\n                "self and other must have the same number of rows.")\n\n${ENTRY}\n    def col_join(self, other):\n        """Concatenates two matrices."""\n        # ... existing code ...`,
    want: MATRIX.replace("        return self._eval_col_insert(pos, other)\n", ENTRY),
  },
];

for (const c of merges) {
  test(`applyLazyEdit (order): ${c.name}`, () => {
    assert.equal(applyLazyEdit(c.file, c.snippet, { path: "a.py" }).content, c.want);
  });
}

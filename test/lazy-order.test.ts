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
const FUNCTIONS = Array.from({ length: 45 }, (_, k) => `def f${k}():\n    return ${k}\n`).join("\n");
/** A function with a `try:`, many functions, then the one the snippet wraps in a `try:`; `doc`: the first one's docstring line. */
const evalFile = (doc: string) =>
  `def first(text):\n    """\n    ${doc}\n    """\n    try:\n        return int(text)\n    except ValueError:\n        return None\n\n\n${FUNCTIONS}\n\ndef eval_expr(code, local_dict):\n    """\n    Evaluate the code.\n    """\n    expr = eval(\n        code, local_dict)  # take local objects in preference\n\n    return expr\n`;
const EVAL_SNIPPET = `    # ... existing code ...\n    Evaluate the code.\n    """\n    try:\n        expr = eval(\n            code, local_dict)  # take local objects in preference\n    except Exception as e:\n        raise ValueError(f"Error evaluating code: {code}") from e\n\n    return expr\n    # ... existing code ...`;
const wrapInTry = (file: string) =>
  file.replace(
    "    expr = eval(\n        code, local_dict)  # take local objects in preference\n",
    '    try:\n        expr = eval(\n            code, local_dict)  # take local objects in preference\n    except Exception as e:\n        raise ValueError(f"Error evaluating code: {code}") from e\n',
  );
const BLOCKS =
  "class Blocks:\n    def shape(self):\n        return self.blocks.shape\n\n    def _entry(self, i, j, **kwargs):\n        # Only evaluate the entry if the indices are numeric\n        if not (i.is_number and j.is_number):\n            return MatrixElement(self, i, j)\n\n        # Find row entry\n        for row_block, numrows in enumerate(self.rowblocksizes):\n            if (i < numrows) != False:\n                break\n            else:\n                i -= numrows\n        return self.blocks[row_block][i, j]\n\n    @property\n    def is_Identity(self):\n        return False\n";
const ENTRY_BODY =
  "    def _entry(self, i, j, **kwargs):\n        # Check if indices are numeric\n        if i.is_number and j.is_number:\n            # Find row entry\n            for row_block, numrows in enumerate(self.rowblocksizes):\n                if (i < numrows) != False:\n                    break\n                else:\n                    i -= numrows\n            return self.blocks[row_block][i, j]\n        else:\n            return MatrixElement(self, i, j)\n";
const ENTRY = "        def entry(i, j):\n            if j < pos:\n                return self[i, j]\n            elif pos <= j < pos + other.cols:\n                return other[i, j - pos]\n            return self[i, j - other.cols]\n\n        return self._new(self.rows, entry)\n";

const merges = [
  {
    name: "a local helper copied from another method (its `def` line among them) between two lines the snippet places together: new code there, the other method kept",
    file: MATRIX,
    snippet: `        # ... existing code ...\n            raise ShapeError(\n                "self and other must have the same number of rows.")\n\n${ENTRY}\n    def col_join(self, other):\n        """Concatenates two matrices."""\n        # ... existing code ...`,
    want: MATRIX.replace("        return self._eval_col_insert(pos, other)\n", ENTRY),
  },
  {
    name: "a `try:` copied from a function far above, where the reading that bans the lines against it puts every line where the first does: the readings agree",
    file: evalFile("Read it."),
    snippet: EVAL_SNIPPET,
    want: wrapInTry(evalFile("Read it.")),
  },
  {
    name: "a function shown whole from its header (the file's only such line) to the next one, a `return` moved from before its loop to an `else:` after it: a move within the body it rewrites",
    file: BLOCKS,
    snippet: `    # ... existing code ...\n\n${ENTRY_BODY}\n    @property\n    def is_Identity(self):\n    # ... existing code ...`,
    want: BLOCKS.replace(/ {4}def _entry[\s\S]*?\n\n(?= {4}@property)/, `${ENTRY_BODY}\n`),
  },
];

for (const c of merges) {
  test(`applyLazyEdit (order): ${c.name}`, () => {
    assert.equal(applyLazyEdit(c.file, c.snippet, { path: "a.py" }).content, c.want);
  });
}

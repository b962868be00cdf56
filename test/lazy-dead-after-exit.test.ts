/**
 * A new `return` the merge would put before a kept line at its depth (dead
 * code after it; src/lazy/dead-after-exit.ts): refused, naming the snippet
 * line and the file line; and a new `return` in a branch, left alone.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { EditError } from "../src/errors.ts";
import { applyLazyEdit } from "../src/lazy/apply-lazy-edit.ts";

// A method whose block ends with two lines after its `if`/`else`, then another method.
const FILE = "class P:\n    def _print_I(self, i):\n        mrow = self.make('mrow')\n        brac = self.make('fenced')\n        if i.open:\n            brac.set('open', '(')\n        else:\n            brac.set('open', '[')\n\n        mrow.add(brac)\n        return mrow\n\n    def _print_Abs(self, e):\n        x = self.make('mrow')\n        x.add(e)\n        return x\n";

test("applyLazyEdit refuses (was wrong) a rewritten block's new `return` whose trailing marker would keep the block's old last lines after it", () => {
  // Once merged with `mrow.add(brac)` and `return mrow` kept after the new `return brac`: dead code.
  const snippet = "    # ... rest of code ...\n    def _print_I(self, i):\n        x = self.make('fenced')\n        if i.open:\n            x.set('open', '(')\n        else:\n            x.set('open', '[')\n        return brac\n\n        # ... rest of code ...\n";
  assert.throws(
    () => applyLazyEdit(FILE, snippet, { path: "a.py" }),
    (e: unknown) => {
      assert.ok(e instanceof EditError, String(e));
      assert.equal(e.code, "AMBIGUOUS");
      assert.match(e.message, /snippet line 8/);
      assert.match(e.message, /file line 10/);
      assert.deepEqual(e.detail.candidates, [{ startLine: 10, endLine: 10 }]);
      return true;
    },
  );
});

test("applyLazyEdit still merges a new `return` in a branch, the kept line after it less deep (`else:`)", () => {
  const snippet = "    def _print_I(self, i):\n        mrow = self.make('mrow')\n        brac = self.make('fenced')\n        if i.open:\n            brac.set('open', '(')\n            return brac\n        else:\n        # ... rest of code ...\n";
  const want = FILE.replace("            brac.set('open', '(')\n", "            brac.set('open', '(')\n            return brac\n");
  assert.equal(applyLazyEdit(FILE, snippet, { path: "a.py" }).content, want);
});

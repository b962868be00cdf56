/**
 * A run of snippet lines that matches the file only by deleting lines at
 * several places, while its first line stands again right before the file's
 * line for its last one, reads two ways (src/lazy/split-deletions.ts):
 * refused, naming the line and both places; without that second place the
 * deletions are merged.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { EditError } from "../src/errors.ts";
import { applyLazyEdit } from "../src/lazy/apply-lazy-edit.ts";

// Three guards, each with a log line the snippet leaves out; the last guard's `return rv` stands right before `if rv == 2:`.
const FILE = "def f(rv):\n    if not rv:\n        return rv\n\n    log(rv)\n    if rv < 0:\n        log(1)\n        return rv\n    if rv > 9:\n        log(2)\n        return rv\n    if rv == 2:\n        return 4\n    return 0\n";
const SNIPPET = "    # ... existing code ...\n        return rv\n    if rv < 0:\n        return rv\n    if rv > 9:\n        return rv\n    if rv == 2:\n    # ... existing code ...\n";
// The same file with a line between the last guard and `if rv == 2:`: the guards can only be the file's, their log lines deleted.
const APART = FILE.replace("        return rv\n    if rv == 2:", "        return rv\n    x = 1\n    if rv == 2:");

test("refused: deletions at three places, or the guards new after the last `return rv`", () => {
  assert.throws(
    () => applyLazyEdit(FILE, SNIPPET, { path: "m.py" }),
    (e: unknown) => {
      assert.ok(e instanceof EditError, String(e));
      assert.equal(e.code, "AMBIGUOUS");
      assert.match(e.message, /snippet line 2 \("return rv"\)/);
      assert.match(e.message, /file line 3 /);
      assert.match(e.message, /file line 11,/);
      assert.match(e.message, /3 places/);
      return true;
    },
  );
});

test("merged: the same deletions where the first line has no place right before the last one's", () => {
  const want = "def f(rv):\n    if not rv:\n        return rv\n    if rv < 0:\n        return rv\n    if rv > 9:\n        return rv\n    if rv == 2:\n        return 4\n    return 0\n";
  assert.equal(applyLazyEdit(APART, SNIPPET, { path: "m.py" }).content, want);
});

test("merged: one deletion in the run is no split reading", () => {
  const snippet = "    # ... existing code ...\n    if rv > 9:\n        return rv\n    if rv == 2:\n    # ... existing code ...\n";
  assert.equal(applyLazyEdit(FILE, snippet, { path: "m.py" }).content, FILE.replace("        log(2)\n", ""));
});

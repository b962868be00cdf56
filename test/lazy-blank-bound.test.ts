/**
 * Lazy merge (issue 34): new lines after a marker's blank line, placed by the segment's one line of
 * the file at its end, that would replace file lines deeper than themselves (blank-bound-deletion.ts).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { applyLazyEdit } from "../src/lazy/apply-lazy-edit.ts";
import { expectRefusal } from "./helpers/lazy-refusal.ts";

const FILE = [
  "class S:",
  "    def contains(self, other):",
  "        if len(self.args) == 1:",
  "            return self.args[0]",
  "",
  "        return Boolean(*[s.contains(other) for s in self.args])",
  "",
  "    @staticmethod",
  "    def handle(args):",
  "        res = []",
  "        for x in args:",
  "            res.append(x)",
  "        if res:",
  "            while args:",
  "                args.pop()",
  "",
  "            other = make(res)",
  "            if not other:",
  "                return None",
  "            res += other",
  "        return res",
  "",
  "    def last(self):",
  "        return 1",
  "",
].join("\n");

// The model rewrote contains()'s last line as new lines ending `return res`: the file's only
// `return res` is handle()'s, after a nested block that a blank line opens.
const SNIPPET = "        # ... rest of code ...\n\n        bools = []\n        for s in self.args:\n            bools.append(s.contains(other))\n        res = Boolean(*bools)\n        return res\n\n        # ... rest of code ...\n";

test("refused: new lines that would replace a nested block's tail after a blank line, placed by a lone last line", () => {
  expectRefusal(() => applyLazyEdit(FILE, SNIPPET, { path: "s.py" }), "AMBIGUOUS", [/snippet line 3 \("bools = \[\]"\)/, /snippet line 2 after a marker/, /snippet line 7 \("return res"\), file line 21/, /file lines 17-20/]);
});

test("refused: the refusal names the lines that would go and the line after them as candidates", () => {
  const e = expectRefusal(() => applyLazyEdit(FILE, SNIPPET, { path: "s.py" }), "AMBIGUOUS", []);
  assert.deepEqual(e.detail.candidates, [
    { startLine: 17, endLine: 20 },
    { startLine: 21, endLine: 21 },
  ]);
  assert.equal(e.detail.segment, 3);
});

test("merged: the same shape where the replaced lines are as deep as the new ones (a line changed in place)", () => {
  const file = "def f(x):\n    y = x\n\n    z = y + 1\n    return z\n\n\ndef g():\n    return 2\n";
  const snippet = "# ... existing code ...\n\n    z = y + 2\n    return z\n# ... existing code ...\n";
  assert.equal(applyLazyEdit(file, snippet, { path: "f.py" }).content, file.replace("y + 1", "y + 2"));
});

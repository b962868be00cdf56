/**
 * A part after a marker, with no def line, whose lines fit two sibling
 * functions all but one (sibling-definitions.ts): refused, naming the part's
 * first line and both functions; the merges next to it that the rule must
 * leave alone (a part with its def line, a part that only adds lines).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { applyLazyEdit } from "../src/lazy/apply-lazy-edit.ts";
import { expectRefusal } from "./helpers/lazy-refusal.ts";

// Two operators of one shape; only `mul` has the second import line.
const OPS =
  "class Prefix:\n    def name(self):\n        return self._name\n\n    def mul(self, other):\n        from units import Quantity\n        from units import Unit\n        from units import Quantity, Unit\n        if isinstance(other, Unit):\n            return Quantity(self.name, scale=self.scale * other.scale)\n        return self.scale * other\n\n    def div(self, other):\n        from units import Unit\n        if isinstance(other, Unit):\n            return other / self.scale\n        return super().div(other)\n\n    def rdiv(self, other):\n        return other / self.scale\n";

// The model rewrote `div` after `mul`'s shape, copying its import line.
const DIV_AS_MUL = "        # ... rest of code ...\n        from units import Unit\n        from units import Quantity, Unit\n        if isinstance(other, Unit):\n            return Quantity(self.name, scale=other.scale / self.scale)\n        return self.scale / other\n\n        # ... rest of code ...\n";

test("a part without its def line whose lines stand in two sibling functions, all but one: refused naming both", () => {
  const error = expectRefusal(() => applyLazyEdit(OPS, DIV_AS_MUL, { path: "prefixes.py" }), "AMBIGUOUS", [/snippet line 2 \("from units import Unit"\)/, /file line 5 \("def mul\(self, other\):"\)/, /file line 13 \("def div\(self, other\):"\)/]);
  assert.equal(error.detail.segment, 2);
  assert.deepEqual(error.detail.candidates, [
    { startLine: 5, endLine: 11 },
    { startLine: 13, endLine: 17 },
  ]);
});

test("the same part with its def line is merged into that function", () => {
  const snippet = `    # ... rest of code ...\n    def div(self, other):\n${DIV_AS_MUL.split("\n").slice(1, -2).join("\n")}\n    # ... rest of code ...\n`;
  const out = applyLazyEdit(OPS, snippet, { path: "prefixes.py" }).content;
  assert.match(out, /def div\(self, other\):\n {8}from units import Unit\n {8}from units import Quantity, Unit\n/);
  assert.match(out, /return self\.scale \* other\n/);
});

test("a part that only adds a line, its context standing in both siblings, is merged where its lines stand", () => {
  const snippet = "        # ... rest of code ...\n        from units import Unit\n        from units import Quantity, Unit\n        if isinstance(other, Unit):\n            print(other)\n        # ... rest of code ...\n";
  const out = applyLazyEdit(OPS, snippet, { path: "prefixes.py" }).content;
  assert.match(out, /if isinstance\(other, Unit\):\n {12}print\(other\)\n {12}return Quantity\(self\.name, scale=self\.scale \* other\.scale\)/);
});

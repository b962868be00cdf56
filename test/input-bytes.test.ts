/**
 * Issue 22, the bytes part: inputs that were written wrongly or crashed the
 * core. Each case is the reduced reproduction from the adversarial campaign.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { applyPatch, createPatch } from "../src/index.ts";

// Item 7: a `+` line's leading Unicode whitespace is text, not indentation to re-map.
for (const ws of ["\u3000", "\u00A0", "\u2003", "\u2028", "\uFEFF", "\f", "\v", "\u0085"]) {
  const name = `U+${(ws.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
  test(`item 7: an added line keeps its leading ${name}`, () => {
    assert.equal(applyPatch("a\n", `@@ -1 +1,2 @@\n a\n+${ws}b\n`).content, `a\n${ws}b\n`);
    assert.equal(applyPatch("  a\n", `@@ @@\n   a\n+  ${ws}b\n`).content, `  a\n  ${ws}b\n`);
    const before = `x\n  ${ws}y\nz\n`;
    const after = `x\n  ${ws}Y\n${ws}w\nz\n`;
    assert.equal(applyPatch(before, createPatch(before, after)).content, after);
  });
}


import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { countBreaks } from "../src/text/count-breaks.ts";

const byIndexOf = (text: string, from: number, to: number): number => text.slice(from, to).split("\n").length - 1;

test("countBreaks counts the line breaks of a range, long ranges (the WebAssembly count) as short ones", () => {
  // Characters whose low byte is 10 (U+010A, U+200A), a surrogate pair, a CR: none is a break.
  const piece = fc.constantFrom("a", "\n", "\u010a", "\u200a", "\r", "😀", "é", "\n\n", "x".repeat(70));
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 400 }), fc.nat(), fc.nat(), fc.integer({ min: 1, max: 3000 }), (pieces, a, b, repeat) => {
      const text = pieces.join("").repeat(repeat % 40 === 0 ? repeat : 1);
      const from = text.length === 0 ? 0 : a % text.length;
      const to = from + (text.length === 0 ? 0 : b % (text.length - from + 1));
      const want = byIndexOf(text, from, to);
      assert.equal(countBreaks(text, from, to), want);
      assert.equal(countBreaks(text, from, to, false), want);
    }),
    { numRuns: 300 },
  );
});

test("countBreaks over more than one chunk of the WebAssembly memory", () => {
  const text = `${"line of text\n".repeat(30_000)}é\u200a\n${"😀\n".repeat(70_000)}tail`;
  assert.equal(countBreaks(text, 0, text.length), 100_001);
  assert.equal(countBreaks(text, 5, text.length - 7), byIndexOf(text, 5, text.length - 7));
  assert.equal(countBreaks(text, 65_530, 131_080), byIndexOf(text, 65_530, 131_080));
});

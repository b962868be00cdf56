import assert from "node:assert/strict";
import { test } from "node:test";
import { consecutiveNumbersFrom, everyLineHasLineNumbers, stripLineNumbers } from "../src/text/line-numbers.ts";

const cases: [string, string, number | undefined][] = [
  ["tab prefixes counting up", "12\ta\n13\tb", 12],
  ["arrow prefixes, a numbered blank line", "     7\u2192a\n     8\u2192\n     9\u2192  c", 7],
  ["`N | ` prefixes, an unnumbered blank line between", "3 | a\n\n5 | c", 3],
  ["numbers that skip", "3\ta\n5\tb", undefined],
  ["numbers that count down", "5\ta\n4\tb", undefined],
  ["a line without a prefix", "3\ta\nb", undefined],
  ["numbers alone are text", "2\n3", undefined],
  ["one numbered line", "40\tx = 1", 40],
  ["anchored view lines (N#tag:)", "7#abc:  a\n8#qrs:\n9#xyz:b", 7],
];
for (const [name, text, first] of cases) {
  test(`consecutiveNumbersFrom: ${name}`, () => assert.equal(consecutiveNumbersFrom(text), first));
}

test("stripLineNumbers: anchored view prefixes and their dialects leave the line exactly", () => {
  const text = "7#abc:  a\n8#QXRW| b\n9#xyz:";
  assert.ok(everyLineHasLineNumbers(text));
  assert.equal(stripLineNumbers(text), "  a\n b\n");
});

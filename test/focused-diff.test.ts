import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { createPatch, createPatchOfChange, writePatch } from "../src/formats/create-patch.ts";
import { changedLineNumbers, changedPart, changedPartOfChange, commonPrefixLength, commonSuffixLength } from "../src/text/common-ends.ts";
import { countBreaks } from "../src/text/count-breaks.ts";

/** Lines from a small alphabet, so texts repeat and edits land next to equal lines; some carry a CR. */
const line = fc.constantFrom("", "a", "b", "ab", "  a", "--x", "++x", "a\r", "\r", "\uFEFFa", "é");
const breakOf = fc.constantFrom("\n", "\n", "\n", "\r\n", "\r");
const text = fc
  .tuple(fc.array(fc.tuple(line, breakOf), { maxLength: 40 }), fc.boolean(), fc.boolean())
  .map(([ls, finalBreak, bom]) => {
    const body = ls.map(([l, br], i) => (i === ls.length - 1 && !finalBreak ? l : l + br)).join("");
    return bom ? `\uFEFF${body}` : body;
  });

/** A text edited the way the engine edits: a few line ranges replaced, the rest kept byte for byte. */
const edited = text.chain((a) => {
  const lines = a.split(/(?<=\n)/);
  const edit = fc.tuple(fc.nat(lines.length), fc.nat(3), fc.array(fc.tuple(line, breakOf), { maxLength: 4 }));
  return fc.tuple(fc.constant(a), fc.array(edit, { minLength: 1, maxLength: 3 })).map(([a0, edits]) => {
    const out = [...lines];
    for (const [at, removed, added] of edits) out.splice(Math.min(at, out.length), removed, ...added.map(([l, br]) => l + br));
    return [a0, out.join("")] as const;
  });
});

test("the numbered diff of the changed part is byte-identical to the whole-text diff", () => {
  fc.assert(
    fc.property(fc.oneof(edited, fc.tuple(text, text)), fc.nat(4), ([a, b], context) => {
      const options = { fuzzy: false, context, oldPath: "a/x", newPath: "b/x" };
      assert.equal(createPatch(a, b, options), writePatch(a, b, options, false));
    }),
    { numRuns: 3000 },
  );
});

test("a change given as a range (the file layer's), read from a window of the old text, cuts and diffs as the two whole texts do", () => {
  const change = text.chain((a) =>
    fc.tuple(fc.constant(a), fc.nat(a.length), fc.nat(a.length), fc.array(fc.tuple(line, breakOf), { maxLength: 4 }), fc.boolean()).map(([a0, x, y, added, partial]) => {
      const inserted = added.map(([l, br]) => l + br).join("");
      return { a: a0, start: Math.min(x, y), end: Math.max(x, y), text: partial ? inserted.slice(1) : inserted };
    }),
  );
  fc.assert(
    fc.property(change, fc.nat(4), fc.nat(40), (c, context, margin) => {
      const b = c.a.slice(0, c.start) + c.text + c.a.slice(c.end);
      // A margin of a few characters makes the window grow, as a long run of equal lines does at full size.
      assert.deepEqual(changedPartOfChange(c.a, c, context, margin), changedPart(c.a, b, context));
      const options = { context, oldPath: "a/f", newPath: "b/f" };
      assert.equal(createPatchOfChange(c.a, c, options), createPatch(c.a, b, options));
    }),
    { numRuns: 3000 },
  );
});

test("common ends: prefix and suffix lengths are the longest, the suffix within its bound", () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 3000 }), fc.string({ maxLength: 3000 }), fc.string({ maxLength: 3000 }), fc.nat(7000), (shared, x, y, max) => {
      const a = shared + x + shared;
      const b = shared + y + shared;
      const p = commonPrefixLength(a, b);
      assert.equal(a.slice(0, p), b.slice(0, p));
      assert.ok(p === Math.min(a.length, b.length) || a[p] !== b[p]);
      const s = commonSuffixLength(a, b, max);
      assert.ok(s <= max);
      assert.equal(a.slice(a.length - s), b.slice(b.length - s));
      assert.ok(s === Math.min(a.length, b.length, max) || a[a.length - s - 1] !== b[b.length - s - 1]);
    }),
    { numRuns: 300 },
  );
});

test("changed part: whole lines around the change, with context, numbered from the cut", () => {
  const a = Array.from({ length: 50_000 }, (_, i) => `line ${i}\n`).join("");
  const b = a.replace("line 30000\n", "line 30000 changed\n");
  const part = changedPart(a, b, 2);
  assert.deepEqual(part, { a: "line 29998\nline 29999\nline 30000\nline 30001\nline 30002\n", b: "line 29998\nline 29999\nline 30000 changed\nline 30001\nline 30002\n", offset: 29998 });
  assert.equal(countBreaks(a, 0, a.length), 50_000);
  assert.match(createPatch(a, b, { fuzzy: false }), /^@@ -29998,7 \+29998,7 @@\n line 29997\n/);
  // A CR where the texts differ: the whole texts are diffed instead.
  assert.equal(changedPart("x\r\ny\n", "x\ny\n", 3), undefined);
  assert.equal(changedPart("x\ry", "x\rz", 3), undefined);
});

test("changed line numbers: the first 100 lines that differ index by index, as a split of both texts finds them", () => {
  const bySplit = (a: string, b: string) => {
    const x = a.split("\n");
    const y = b.split("\n");
    const out: number[] = [];
    for (let i = 0; i < Math.max(x.length, y.length) && out.length < 100; i++) if (x[i] !== y[i]) out.push(i + 1);
    return out;
  };
  fc.assert(
    fc.property(fc.oneof(edited, fc.tuple(text, text)), ([a, b]) => {
      assert.deepEqual(changedLineNumbers(a, b), bySplit(a, b));
    }),
    { numRuns: 2000 },
  );
  const many = Array.from({ length: 300 }, (_, i) => `${i}\n`).join("");
  assert.deepEqual(changedLineNumbers(many, `x\n${many}`).length, 100);
});

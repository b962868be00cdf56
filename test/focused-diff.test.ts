import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { createPatch, createPatchOfChange, createPatchOfChanges, writePatch } from "../src/formats/create-patch.ts";
import { applyPatch } from "../src/index.ts";
import { partsDiffIsWhole } from "../src/fs/report-changes.ts";
import { addChange, applyChanges, MAX_CHANGES, withChange } from "../src/text/change-list.ts";
import { makeEdits } from "./helpers/edit-sequence.ts";
import { changedLineNumbers, changedPart, changedPartOfChange, commonPrefixLength, commonSuffixLength, type TextChange } from "../src/text/common-ends.ts";
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

/** Edits made one after the other (offsets into the text the ones before gave), as a file's edits of one call are. */
const editsOf = (unit: fc.Arbitrary<string>) => fc.array(fc.tuple(fc.nat(60), fc.nat(60), fc.string({ unit, maxLength: 8 })), { maxLength: 8 });

test("change list: edits made one after the other are kept as ranges of the first text, sorted, apart, none without effect", () => {
  fc.assert(
    fc.property(fc.string({ unit: fc.constantFrom("a", "b", "\n"), maxLength: 40 }), editsOf(fc.constantFrom("a", "c", "\n")), (a, edits) => {
      const { b, changes } = makeEdits(a, edits);
      assert.equal(applyChanges(a, changes), b);
      for (const [i, c] of changes.entries()) {
        assert.ok(c.start <= c.end && c.end <= a.length);
        assert.notEqual(c.text, a.slice(c.start, c.end));
        if (i > 0) assert.ok((changes[i - 1] as TextChange).end < c.start, "apart");
      }
    }),
    { numRuns: 5000 },
  );
  // Past MAX_CHANGES the list gives up (the caller diffs the whole texts).
  let changes: TextChange[] | undefined = [];
  const a = "x\n".repeat(200);
  for (let i = 0; i <= MAX_CHANGES && changes; i++) changes = withChange(a, changes, { start: 4 * i, end: 4 * i + 1, text: "y" });
  assert.equal(changes, undefined);
});

test("change list: a change added in place gives the list withChange gives, past MAX_CHANGES too", () => {
  // Runs of edits in the text's order (the file layer's common case, placed from the list's kept shift) and anywhere.
  const edits = fc.array(fc.tuple(fc.nat(400), fc.nat(6), fc.string({ unit: fc.constantFrom("a", "c", "\n"), maxLength: 5 }), fc.boolean()), { maxLength: 120 });
  fc.assert(
    fc.property(fc.string({ unit: fc.constantFrom("a", "b", "\n"), minLength: 200, maxLength: 400 }), edits, (a, steps) => {
      let b = a;
      let copied: TextChange[] = [];
      const inPlace: TextChange[] = [];
      let end = 0;
      for (const [x, width, text, inOrder] of steps) {
        const start = Math.min(inOrder ? end + 1 + (x % 5) : x, b.length);
        const change = { start, end: Math.min(start + width, b.length), text };
        copied = withChange(a, copied, change, 1_000) ?? assert.fail("under 1,000");
        assert.equal(addChange(a, inPlace, change, 1_000), true);
        assert.deepEqual(inPlace, copied);
        b = b.slice(0, change.start) + text + b.slice(change.end);
        end = change.start + text.length;
      }
      assert.equal(applyChanges(a, inPlace), b);
    }),
    { numRuns: 1500 },
  );
  // Past `max` ranges: false.
  const kept: TextChange[] = [];
  const a = "x\n".repeat(10);
  for (let i = 0; i < 3; i++) assert.equal(addChange(a, kept, { start: 4 * i, end: 4 * i + 1, text: "y" }, 3), true);
  assert.equal(addChange(a, kept, { start: 12, end: 13, text: "y" }, 3), false);
  assert.equal(kept.length, 4);
});

test("a file's changes, diffed part by part: the patch applies, and it is the whole-text diff when every line is unique", () => {
  const line = fc.constantFrom("", "a", "b", "ab", "  a", "--x", "é");
  const texts = fc.array(line, { maxLength: 40 }).map((ls) => ls.join("\n") + (ls.length > 0 ? "\n" : ""));
  fc.assert(
    fc.property(texts, editsOf(fc.constantFrom("a", "b", "\n", "x")), fc.nat(4), (a, edits, context) => {
      const { b, changes } = makeEdits(a, edits);
      const options = { context, oldPath: "a/f", newPath: "b/f" };
      const patch = createPatchOfChanges(a, changes, options);
      assert.equal(patch === "", a === b);
      if (patch !== "") assert.equal(applyPatch(a, patch).content, b);
    }),
    { numRuns: 2000 },
  );
  // Numbered lines: as small a diff as the whole-text one (as many lines removed and added), and
  // the same bytes where the edits keep the lines in order. Edits that cut across lines can put a
  // line before another it followed (seed -1483924057: `line 33` moved before `line 24`); then
  // either may be the kept one, and the parts and the whole text may keep different ones.
  const numbered = fc.nat(120).map((n) => Array.from({ length: n }, (_, i) => `line ${i}\n`).join(""));
  const counts = (patch: string) => {
    const body = patch.split("\n").filter((l) => !l.startsWith("---") && !l.startsWith("+++"));
    return [body.filter((l) => l.startsWith("-")).length, body.filter((l) => l.startsWith("+")).length];
  };
  const inOrder = (text: string) => {
    const numbers = [...text.matchAll(/^line (\d+)$/gm)].map((m) => Number(m[1]));
    return numbers.every((n, i) => i === 0 || n > (numbers[i - 1] as number));
  };
  fc.assert(
    fc.property(numbered, editsOf(fc.constantFrom("q", "\n")), fc.nat(4), (a, edits, context) => {
      const { b, changes } = makeEdits(a, edits.map(([x, y, t]) => [x * 9, y * 9, t] as [number, number, string]));
      const options = { context, oldPath: "a/f", newPath: "b/f" };
      const parts = createPatchOfChanges(a, changes, options);
      const whole = createPatch(a, b, options);
      assert.deepEqual(counts(parts), counts(whole));
      if (parts !== "") assert.equal(applyPatch(a, parts).content, b);
      if (inOrder(b)) assert.equal(parts, whole);
    }),
    { numRuns: 2000 },
  );
  // Edits of whole lines (a line's start to its end, its break kept) in the lines' order, as the file layer's carried
  // blocks are, on long lines (a part's first window, 256 characters each side, holds less than its context and
  // grows): where partsDiffIsWhole says so (every line unique, none repeated by an edit), the whole texts' bytes.
  const long = fc.tuple(fc.nat(60), fc.nat(300)).map(([n, w]) => Array.from({ length: n }, (_, i) => `line ${i} ${"x".repeat((i * w) % 301)}\n`).join(""));
  let whole = 0;
  fc.assert(
    fc.property(long, fc.array(fc.tuple(fc.nat(60), fc.constantFrom("q", "", "r\ns", "dup")), { maxLength: 12 }), fc.nat(4), (a, picks, context) => {
      const starts = [0, ...[...a.matchAll(/\n/g)].map((m) => (m.index as number) + 1)].slice(0, -1);
      // Each new text its own, but "dup": the line after it (the edit repeats a line), "": an empty line.
      const lineAt = (k: number) => a.slice(starts[k] ?? a.length, Math.max(0, a.indexOf("\n", starts[k])));
      const texts = new Map(picks.map(([i, t]) => [i % Math.max(1, starts.length), t === "dup" ? lineAt((i % Math.max(1, starts.length)) + 1) : t && `${t}${i}`]));
      const changes = [...texts.keys()]
        .sort((x, y) => x - y)
        .filter((i) => starts[i] !== undefined)
        .map((i) => ({ start: starts[i] as number, end: a.indexOf("\n", starts[i]), text: texts.get(i) as string }))
        .filter((c) => c.text !== a.slice(c.start, c.end));
      const options = { context, oldPath: "a/f", newPath: "b/f" };
      const parts = createPatchOfChanges(a, changes, options);
      if (parts !== "") assert.equal(applyPatch(a, parts).content, applyChanges(a, changes));
      if (!partsDiffIsWhole(a, changes)) return;
      whole++;
      assert.equal(parts, createPatch(a, applyChanges(a, changes), options));
    }),
    { numRuns: 1000 },
  );
  assert.ok(whole > 100, `${whole} cases the check let through`);
});

test("createPatchOfChanges: changes close enough to merge past MAX_MERGES give the whole texts' diff", () => {
  // Every other line of 400 unique lines changed: each change's context meets the part before it.
  const a = `${Array.from({ length: 400 }, (_, i) => `line ${i}`).join("\n")}\n`;
  const starts = [0, ...[...a.matchAll(/\n/g)].map((m) => (m.index as number) + 1)];
  const changes = Array.from({ length: 200 }, (_, k) => {
    const start = starts[2 * k] as number;
    return { start, end: a.indexOf("\n", start), text: `changed ${2 * k}` };
  });
  const options = { oldPath: "a/f", newPath: "b/f" };
  assert.equal(createPatchOfChanges(a, changes, options), createPatch(a, applyChanges(a, changes), options));
  // And a few such changes, parted and merged: the same patch.
  assert.equal(createPatchOfChanges(a, changes.slice(0, 10), options), createPatch(a, applyChanges(a, changes.slice(0, 10)), options));
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

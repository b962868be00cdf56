/**
 * Where a replacement already stands, loosely (src/engine/already-applied.ts):
 * in a kept document whose text and replacement are all ASCII, the places
 * line-trimmed finds are taken without punctuation-normalized's search (issue
 * 39: ~1.2 ms for each of a response's `}` near misses). The places must be
 * those the search gives: compared here with the shortcut off, on ASCII texts
 * and on texts with typeset punctuation, exotic spaces and U+3000.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { replacementPlaces, typesetShortcut } from "../src/engine/already-applied.ts";
import { lineOp } from "./helpers/line-op.ts";
import { createContext, linesTrimmedEqual } from "../src/match/anchors.ts";
import { PRESETS } from "../src/match/cascade.ts";
import { SCANS_BEFORE_INDEX } from "../src/match/line-index.ts";
import { shareDocument } from "../src/text/document-pool.ts";
import { Document } from "../src/text/document.ts";

const options = PRESETS.default.options;
const ASCII = ["a", "b()", "x(1)", "}", " ", "  ", "\t", "-", '"', "'", "...", "// 5", "\v", "\f"];
const WIDE = ["\u2013", "\u201C", "\u00a0", "\u3000", "é", "\u2004", "\uFEFF", "\u2026"];
const line = (units: string[]) => fc.array(fc.constantFrom(...units), { minLength: 1, maxLength: 5 }).map((u) => u.join(""));
/** A file of few distinct lines (replacements of several lines then stand, often more than once), all ASCII or not. */
const file = fc.boolean().chain((ascii) => fc.array(line(ascii ? ASCII : [...ASCII, ...WIDE]), { minLength: 3, maxLength: 24 }));
/** How a replacement line is made from a file line: as it is, re-indented, with ASCII quotes typeset, or typeset ones made ASCII. */
const retouch = fc.constantFrom(
  (l: string) => l,
  (l: string) => `  ${l.trim()}`,
  (l: string) => l.replaceAll('"', "\u201C"),
  (l: string) => l.replaceAll("\u201C", '"').replaceAll("\u2013", "-"),
);
const opArb = fc.tuple(fc.nat(), fc.integer({ min: 1, max: 4 }), fc.array(retouch, { minLength: 4, maxLength: 4 }));

function keptContext(text: string) {
  const doc = Document.from(text);
  shareDocument(doc);
  const ctx = createContext(doc, options, () => {}, 2000);
  // The index built, as a call of many edits builds it.
  for (let i = 0; i <= SCANS_BEFORE_INDEX; i++) linesTrimmedEqual(ctx, `probe ${i}`);
  return ctx;
}

test("a kept ASCII text: the replacement's loose places without punctuation-normalized's search are the places with it", () => {
  const takenBefore = typesetShortcut.taken;
  let standing = 0;
  fc.assert(
    fc.property(file, fc.array(opArb, { minLength: 1, maxLength: 5 }), (lines, ops) => {
      const text = `${lines.join("\n")}\n`;
      const fast = keptContext(text);
      const slow = keptContext(text);
      for (const [at, size, how] of ops) {
        const from = at % lines.length;
        const replace = lines.slice(from, from + size).map((l, k) => (how[k] as (l: string) => string)(l));
        const find = ["never in the file"];
        const op = lineOp(find, replace);
        const a = replacementPlaces(fast, op);
        typesetShortcut.on = false;
        let b: ReturnType<typeof replacementPlaces>;
        try {
          b = replacementPlaces(slow, op);
        } finally {
          typesetShortcut.on = true;
        }
        assert.deepEqual(a, b, JSON.stringify({ text, replace }));
        if (a && a.all.length > 0) standing++;
      }
    }),
    { numRuns: 400 },
  );
  assert.ok(standing > 200, `replacements standing: ${standing}`);
  // The shortcut was taken (an ASCII text and replacement), not only the search.
  assert.ok(typesetShortcut.taken - takenBefore > 100, `shortcuts taken: ${typesetShortcut.taken - takenBefore}`);
});

import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { createContext, linesTrimmedEqual, noLineWiseWindow } from "../src/match/anchors.ts";
import { PRESETS } from "../src/match/cascade.ts";
import { indentationFlexible } from "../src/match/indentation-flexible.ts";
import { SCANS_BEFORE_INDEX } from "../src/match/line-index.ts";
import { lineTrimmed } from "../src/match/line-trimmed.ts";
import { punctuationNormalized } from "../src/match/punctuation-normalized.ts";
import { createQuery } from "../src/match/query.ts";
import type { MatchContext } from "../src/match/types.ts";
import { whitespaceInsensitive } from "../src/match/whitespace-insensitive.ts";
import { whitespaceNormalized } from "../src/match/whitespace-normalized.ts";
import { coarseKey, collapseWhitespace, normalizePunctuation, punctuationKey, removeWhitespace } from "../src/text/normalize.ts";
import { Document } from "../src/text/document.ts";

const options = PRESETS.default.options;
const FIVE = [lineTrimmed, whitespaceNormalized, indentationFlexible, whitespaceInsensitive, punctuationNormalized];

// Whitespace of every kind, hyphens and typeset punctuation, and a few words.
const unit = fc.constantFrom("a", "b", "x(1)", " ", "  ", "\t", "-", "--", "\u2013", "\u2014", "\u201C", '"', "'", "\u2019", "\u00a0", "\u3000", "\u200B", "\uFEFF", "\u2026", "...", "\v", "é");
const lineArb = fc.array(unit, { maxLength: 8 }).map((u) => u.join(""));

test("coarseKey is removeWhitespace(normalizePunctuation(line)) with hyphen runs as one", () => {
  fc.assert(
    fc.property(lineArb, (line) => {
      assert.equal(coarseKey(line), removeWhitespace(normalizePunctuation(line)).replace(/-+/g, "-"), JSON.stringify(line));
    }),
    { numRuns: 3000 },
  );
});

test("punctuationKey is collapseWhitespace(normalizePunctuation(line)) with hyphen runs as one", () => {
  fc.assert(
    fc.property(lineArb, (line) => {
      assert.equal(punctuationKey(line), collapseWhitespace(normalizePunctuation(line)).replace(/-+/g, "-"), JSON.stringify(line));
    }),
    { numRuns: 3000 },
  );
  // An ASCII line that needs no change is the same string.
  const line = "  return a - b;";
  assert.equal(punctuationKey(line.trim()), line.trim());
});

/** A context whose own line index is built (as in a call with many edits). */
function indexedContext(doc: Document): MatchContext {
  const ctx = createContext(doc, options);
  for (let k = 0; k <= SCANS_BEFORE_INDEX; k++) linesTrimmedEqual(ctx, `never ${k}`);
  return ctx;
}

test("when noLineWiseWindow says so, none of the five line-for-line strategies finds anything", () => {
  let skipped = 0;
  let found = 0;
  fc.assert(
    fc.property(fc.array(lineArb, { minLength: 1, maxLength: 12 }), fc.nat(), fc.array(fc.tuple(fc.nat(), lineArb), { maxLength: 3 }), (lines, at, changes) => {
      const text = `${lines.join("\n")}\n`;
      // A query: some lines of the file, a few of them rewritten (often only in spacing or punctuation).
      const from = at % lines.length;
      const qLines = lines.slice(from, from + 3);
      for (const [k, l] of changes) qLines[k % qLines.length] = k % 2 === 0 ? l : `${l} ${qLines[k % qLines.length]}`;
      if (qLines.length < 2) qLines.push(lines[0] ?? "a");
      const q = createQuery(qLines.join("\n"));
      const skip = noLineWiseWindow(indexedContext(Document.from(text)), q);
      // The strategies themselves, in a context that never skips (no line index of its own).
      const plain = createContext(Document.from(text), options);
      const results = FIVE.map((s) => s.find(plain, q).length);
      if (skip) {
        skipped++;
        assert.deepEqual(results, [0, 0, 0, 0, 0], JSON.stringify({ text, q: q.text }));
      } else if (results.some((r) => r > 0)) found++;
    }),
    { numRuns: 3000 },
  );
  // The property saw both sides: queries it ruled out, and queries the strategies found.
  assert.ok(skipped > 100 && found > 100, `skipped ${skipped}, found ${found}`);
});

test("noLineWiseWindow leaves a search that could reach the verification cap to the strategies (its cap note stays)", () => {
  // 60k lines x 3 query lines: past MAX_VERIFIED_LINES, so the strategies run and say where they stopped.
  const text = "  value = compute(x);\n".repeat(60_000);
  const ctx = indexedContext(Document.from(text));
  assert.equal(noLineWiseWindow(ctx, createQuery("  value = compute(x);\n  value = compute(y);\n  value = compute(x);")), false);
  const small = indexedContext(Document.from("  value = compute(x);\n".repeat(1000)));
  assert.equal(noLineWiseWindow(small, createQuery("  value = compute(x);\n  value = compute(y);\n  value = compute(x);")), true);
  // Without its own line index (a call of a few edits) it never answers.
  assert.equal(noLineWiseWindow(createContext(Document.from("a\nb\n"), options), createQuery("a\nzzz")), false);
});

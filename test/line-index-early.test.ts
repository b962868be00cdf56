import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { createContext, linesTrimmedEqual, noLineWiseWindow } from "../src/match/anchors.ts";
import { PRESETS } from "../src/match/cascade.ts";
import { SCANS_BEFORE_INDEX } from "../src/match/line-index.ts";
import { createQuery } from "../src/match/query.ts";
import { Document } from "../src/text/document.ts";
import { applyPatch, type HunkReport } from "../src/formats/unified-apply.ts";

const options = PRESETS.default.options;
// Whitespace of every kind, typeset punctuation and a few words: lines that collide under the strategies' forms.
const unit = fc.constantFrom("a", "b", "x(1)", "}", " ", "  ", "\t", "-", "\u2013", "\u201C", '"', "'", "\u00a0", "\u3000", "...", "é");
const lineArb = fc.array(unit, { maxLength: 6 }).map((u) => u.join(""));
const queryArb = fc.tuple(fc.nat(), fc.integer({ min: 1, max: 4 }), fc.array(fc.tuple(fc.nat(), lineArb), { maxLength: 2 }));

test("a context told of many edits (line index on its first lookup) answers every strategy as a plain one", () => {
  let found = 0;
  fc.assert(
    fc.property(fc.array(lineArb, { minLength: 1, maxLength: 30 }), fc.array(queryArb, { minLength: 1, maxLength: 6 }), (lines, queries) => {
      const text = `${lines.join("\n")}\n`;
      // One context per side, kept over the queries as a call keeps it over its edits.
      const many = createContext(Document.from(text), options, () => {}, 2000);
      const few = createContext(Document.from(text), options);
      for (const [at, size, changes] of queries) {
        const from = at % lines.length;
        const qLines = lines.slice(from, from + size);
        for (const [k, l] of changes) qLines[k % qLines.length] = l;
        const q = createQuery(qLines.join("\n"));
        for (const s of PRESETS.default.strategies) {
          const a = s.find(many, q);
          const b = s.find(few, q);
          assert.deepEqual(a, b, `${s.name}: ${JSON.stringify({ text, q: q.text })}`);
          if (a.length > 0) found++;
        }
      }
    }),
    { numRuns: 400 },
  );
  assert.ok(found > 500, `strategies found ${found} candidates`);
});

test("a context told of many edits rules out line-wise windows from its first query, a plain one after its scans", () => {
  const text = Array.from({ length: 200 }, (_, i) => `  const v${i} = compute(${i});`).join("\n");
  const absent = createQuery("const v1 = compute(1);\n  const v2 = compute(2)");
  const many = createContext(Document.from(text), options, () => {}, SCANS_BEFORE_INDEX);
  linesTrimmedEqual(many, "const v1 = compute(1);");
  assert.equal(noLineWiseWindow(many, absent), true);
  const few = createContext(Document.from(text), options, () => {}, SCANS_BEFORE_INDEX - 1);
  linesTrimmedEqual(few, "const v1 = compute(1);");
  assert.equal(noLineWiseWindow(few, absent), false);
});

test("a patch of many fuzzy hunks gives the bytes and reports of its hunks applied one call each", () => {
  const lines = Array.from({ length: 400 }, (_, i) => `  const v${i} = compute(${i}, "v");`);
  const content = `${lines.join("\n")}\n`;
  const hunks = Array.from({ length: 20 }, (_, k) => {
    const at = k * 12 + 1;
    return `@@ @@\n ${(lines[at - 1] as string).trim()}\n-${(lines[at] as string).replace(";", "")}\n+changed ${k}\n ${lines[at + 1]}\n`;
  });
  const whole = applyPatch(content, hunks.join(""));
  let text = content;
  const reports: HunkReport[] = [];
  for (const h of hunks) {
    const one = applyPatch(text, h);
    text = one.content;
    reports.push(...one.hunks);
  }
  assert.equal(whole.content, text);
  // Where each hunk was found and how (its place in the patch aside).
  const found = (r: HunkReport) => ({ ...r, index: 0, line: 0 });
  assert.deepEqual(whole.hunks.map(found), reports.map(found));
  assert.equal(whole.content.split("\n").filter((l) => l.startsWith("  changed ")).length, 20);
});

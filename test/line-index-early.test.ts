import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { createContext, linesTrimmedEqual, noLineWiseWindow } from "../src/match/anchors.ts";
import { PRESETS } from "../src/match/cascade.ts";
import { SCANS_BEFORE_INDEX } from "../src/match/line-index.ts";
import { createQuery } from "../src/match/query.ts";
import { Document } from "../src/text/document.ts";
import { applyPatch, type HunkReport } from "../src/formats/unified-apply.ts";
import { replacementPlaces } from "../src/engine/already-applied.ts";
import { lineOp } from "./helpers/line-op.ts";

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

test("where a replacement already stands is the same with the line index (a line of it no file line is: nowhere) as without", () => {
  let stands = 0;
  fc.assert(
    // Few distinct lines, most not blank: replacements of three lines and more stand, often more than once.
    fc.property(fc.array(fc.constantFrom("a", "b()", "  c", "\td", "x(1)", "e\u3000", "\u3000f", " "), { minLength: 1, maxLength: 30 }), fc.array(queryArb, { minLength: 1, maxLength: 6 }), (lines, ops) => {
      const text = `${lines.join("\n")}\n`;
      const many = createContext(Document.from(text), options, () => {}, 2000);
      // The index built, as a call of many edits builds it once its scans have paid for it.
      for (let i = 0; i <= SCANS_BEFORE_INDEX; i++) linesTrimmedEqual(many, `probe ${i}`);
      const few = createContext(Document.from(text), options);
      for (const [at, size, changes] of ops) {
        const from = at % lines.length;
        const find = lines.slice(from, from + size);
        // The replacement: the file's lines with some changed (standing where none is), or as they are elsewhere.
        const replace: string[] = [...lines.slice((from + 3) % lines.length, ((from + 3) % lines.length) + size + 1)];
        for (const [k, l] of changes) replace[k % replace.length] = l;
        const op = lineOp(find, replace);
        for (const loose of [false, true]) {
          const a = replacementPlaces(many, op, loose);
          assert.deepEqual(a, replacementPlaces(few, op, loose), JSON.stringify({ text, find, replace, loose }));
          if (a && a.exact.length > 0) stands++;
        }
      }
    }),
    { numRuns: 400 },
  );
  assert.ok(stands > 100, `replacements standing: ${stands}`);
  // With the index: standing verbatim, found; a line between the first and last that no file line is, nowhere;
  // a first line with blank space the index keeps (U+3000 before it), still found.
  const indexed = (lines: string[]) => {
    const ctx = createContext(Document.from(`${lines.join("\n")}\n`), options, () => {}, 2000);
    for (let i = 0; i <= SCANS_BEFORE_INDEX; i++) linesTrimmedEqual(ctx, `probe ${i}`);
    return ctx;
  };
  const file = indexed(["a", "b()", "x(1)", "  c", "zz", "\u3000b()", "x(1)", "  c"]);
  assert.deepEqual(replacementPlaces(file, lineOp(["a", "q", "x(1)"], ["b()", "x(1)", "  c"]), false)?.exact, [
    { startLine: 1, endLine: 4 },
    { startLine: 5, endLine: 8 },
  ]);
  assert.equal(replacementPlaces(file, lineOp(["a", "q", "x(1)"], ["b()", "x(2)", "  c"]), false), undefined);
  const spaced = indexed(["a", "\u3000b()", "x(1)", "  c\u3000"]);
  assert.deepEqual(replacementPlaces(spaced, lineOp(["a", "q", "x(1)"], ["b()", "x(1)", "  c"]), false)?.exact, [{ startLine: 1, endLine: 4 }]);
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

test("a needle's repeated line is looked up in the line index once (a hunk of `}` lines listed every `}` line per line: 16 s in the server)", async () => {
  const { createOccurrenceFinder } = await import("../src/match/occurrences.ts");
  const text = `${"}\n".repeat(50)}a\n${"}\n".repeat(50)}`;
  const starts: number[] = [];
  for (let i = 0, p = 0; p < text.length; i++, p = text.indexOf("\n", p) + 1) starts[i] = p;
  const asked: string[] = [];
  const lines = text.split("\n");
  const index = {
    get: (t: string) => lines.flatMap((l, i) => (l.trim() === t ? [i] : [])),
    maybe: (t: string) => {
      asked.push(t);
      return lines.flatMap((l, i) => (l.trim() === t ? [i] : []));
    },
  };
  const find = createOccurrenceFinder(text, { index: () => index, start: (i) => starts[i] as number }, 2000);
  const needle = `x\n${"}\n".repeat(20)}a\n}\n`;
  const scan: number[] = [];
  for (let p = text.indexOf(needle); p !== -1; p = text.indexOf(needle, p + 1)) scan.push(p);
  assert.deepEqual(find(needle), scan);
  assert.deepEqual(asked, ["}", "a"]);
  const shifted = `}\n${"}\n".repeat(20)}a\n}\n`;
  const want: number[] = [];
  for (let p = text.indexOf(shifted); p !== -1; p = text.indexOf(shifted, p + 1)) want.push(p);
  assert.deepEqual(find(shifted), want);
  assert.ok(want.length > 0);
});

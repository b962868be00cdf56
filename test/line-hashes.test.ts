import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { createEditor, replace } from "../src/formats/editor.ts";
import { createContext, linesEqualTo, linesTrimmedEqual } from "../src/match/anchors.ts";
import { PRESETS } from "../src/match/cascade.ts";
import { hashTrimmed, trimBlank } from "../src/text/blank.ts";
import { Document } from "../src/text/document.ts";
import { shareDocument } from "../src/text/document-pool.ts";

// Blank characters of every kind `trimBlank` strips, and text around them.
const piece = fc.constantFrom("a", "bc", "a b", "\n", "\n\n", " ", "\t", "\u00a0", "\uFEFF", "\v", "é", "x".repeat(30), "y".repeat(30));
const textArb = fc.array(piece, { maxLength: 40 }).map((p) => p.join(""));

/** The lines of `doc` whose text without blank ends is `trimmed`: the answer of reading every line. */
function naive(doc: Document, trimmed: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < doc.lineCount; i++) if (trimBlank(doc.line(i)) === trimmed) out.push(i);
  return out;
}

/** The hashes of `text` built from scratch. */
const fresh = (text: string) => [...Document.withWindow(text, 65_536, 4096).trimmedHashes()];

test("hashTrimmed: equal trimmed texts hash equal, a blank range hashes 0 and no other does", () => {
  fc.assert(
    fc.property(textArb, textArb, textArb, (left, body, right) => {
      const blank = (s: string) => s.replace(/[^ \t\u00a0\uFEFF\v]/g, "");
      const text = `${blank(left)}${body.replace(/\n/g, "")}${blank(right)}`;
      const trimmed = trimBlank(text);
      const h = hashTrimmed(text, 0, text.length);
      assert.equal(h, hashTrimmed(trimmed, 0, trimmed.length));
      assert.equal(h === 0, trimmed === "");
    }),
    { numRuns: 1000 },
  );
});

test("linesTrimmedAs answers what reading every line answers", () => {
  fc.assert(
    fc.property(textArb, fc.array(textArb, { maxLength: 3 }), (text, others) => {
      const doc = Document.from(text);
      const asked = new Set<string>(others.map(trimBlank));
      for (let i = 0; i < doc.lineCount; i++) asked.add(trimBlank(doc.line(i)));
      for (const t of asked) {
        if (t === "" || t.includes("\n")) continue;
        assert.deepEqual(doc.linesTrimmedAs(t), naive(doc, t), JSON.stringify({ text, t }));
        // The hash hits hold every such line.
        const maybe = new Set(doc.linesHashedAs(t));
        for (const i of naive(doc, t)) assert.ok(maybe.has(i));
      }
    }),
    { numRuns: 1000 },
  );
});

test("linesTrimmedAs answers the same before any line is read, after lookups that move a windowed table, and in an edited document", () => {
  // Asked first, it read the line table as whole: a table not counted to the end (a document `edited` from another),
  // or a window that jumped, dropped lines that are there (a kept document's fuzzy block lost its anchors).
  // Enough lines for a window of a few dozen characters to jump.
  const lines = fc.array(fc.oneof(textArb, fc.nat(300).map((i) => `  v${i} = compute(${i});`)), { minLength: 20, maxLength: 120 }).map((l) => l.join("\n"));
  fc.assert(
    fc.property(lines, fc.array(fc.nat(), { maxLength: 4 }), fc.tuple(fc.nat(), textArb), (text, lookups, [at, insert]) => {
      const from = at % (text.length + 1);
      const edited = Document.from(text).edited(`${text.slice(0, from)}${insert}${text.slice(from)}`);
      for (const doc of [Document.withWindow(text, 64, 2), edited]) {
        const reference = Document.withWindow(doc.raw, 65_536, 4096);
        const asked = new Set<string>();
        for (let i = 0; i < reference.lineCount; i++) asked.add(trimBlank(reference.line(i)));
        const check = () => {
          for (const t of asked) if (t !== "") assert.deepEqual(doc.linesTrimmedAs(t), naive(reference, t), JSON.stringify({ text: doc.raw, t }));
        };
        check();
        for (const n of lookups) doc.lineAt(n % (doc.text.length + 1));
        check();
      }
    }),
    { numRuns: 300 },
  );
});

test("hashes carried over a chain of edits (Document.edited) equal those built from the edited text", () => {
  fc.assert(
    fc.property(textArb, fc.array(fc.tuple(fc.nat(), fc.nat(), textArb), { minLength: 1, maxLength: 6 }), (start, edits) => {
      let doc = Document.from(start);
      doc.trimmedHashes();
      for (const [a, b, insert] of edits) {
        const old = doc.raw;
        const from = a % (old.length + 1);
        const to = from + (b % (old.length - from + 1));
        const next = doc.edited(`${old.slice(0, from)}${insert}${old.slice(to)}`);
        // A plain text with lines keeps its hashes across the edit (nothing is rebuilt).
        if (!old.includes("\uFEFF") && old !== "" && next.raw !== "" && next !== doc && !next.raw.startsWith("\uFEFF")) assert.ok(next.hasTrimmedHashes, JSON.stringify({ old, next: next.raw }));
        assert.deepEqual([...next.trimmedHashes()], fresh(next.raw), JSON.stringify({ old, next: next.raw }));
        doc = next;
      }
    }),
    { numRuns: 1500 },
  );
});

test("a kept document's lookups through its hashes answer what a fresh document's scans answer", () => {
  const options = PRESETS.default.options;
  fc.assert(
    fc.property(textArb, fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 6 }), (text, spans) => {
      const kept = Document.withWindow(text, 65_536, 4096);
      shareDocument(kept);
      const plain = Document.withWindow(text, 65_536, 4096);
      const a = createContext(kept, options);
      const b = createContext(plain, options);
      for (let i = 0; i < plain.lineCount; i++) {
        const t = trimBlank(plain.line(i));
        assert.deepEqual(linesTrimmedEqual(a, t), linesTrimmedEqual(b, t));
      }
      // Whole lines as written (the rival search's anchors), the kept one's through its hashes.
      for (let i = 0; i < plain.lineCount; i++) {
        for (const line of [plain.line(i), ` ${plain.line(i)}`, `${plain.line(i)}\t`]) assert.deepEqual(linesEqualTo(a, line), linesEqualTo(b, line), JSON.stringify({ text, line }));
      }
      // Needles across line breaks (found through their whole lines once the hashes exist).
      for (const [x, y] of spans) {
        const from = x % (text.length + 1);
        const needle = text.slice(from, from + (y % 40));
        assert.deepEqual(a.occurrences(needle), b.occurrences(needle), JSON.stringify({ text, needle }));
      }
    }),
    { numRuns: 1000 },
  );
});

test("fuzzy edits through an editor (hashes kept and carried) give what the string calls give", () => {
  const lines = Array.from({ length: 400 }, (_, i) => (i % 7 === 0 ? "}" : `  const v${i % 50} = compute(${i}, "v");`));
  const text = `${lines.join("\n")}\n`;
  const edits: [string, string][] = [];
  for (let k = 0; k < 12; k++) {
    const at = 3 + k * 29;
    const block = lines.slice(at, at + 4);
    // A misremembered token in the middle line, the indentation lost: found by the fuzzy strategies.
    const find = block.map((l, j) => (j === 1 ? l.replace("compute", "compyte") : l.trim())).join("\n");
    edits.push([find, `${find}\n  // edit ${k}`]);
    edits.push([`nowhere ${k}\nat all\n}`, "x"]);
  }
  const run = (target: string | ReturnType<typeof createEditor>) => {
    const out: string[] = [];
    let current = target;
    for (const [find, repl] of edits) {
      try {
        const r = replace(current, find, repl);
        out.push(`${r.match.strategy} ${r.match.startLine}-${r.match.endLine}`);
        if (typeof current === "string") current = r.content;
      } catch (e) {
        out.push(String((e as Error).message));
      }
    }
    return { out, content: typeof current === "string" ? current : current.content };
  };
  // The string calls first, while no editor shares a document of these texts.
  const byString = run(text);
  const editor = createEditor(text);
  const byEditor = run(editor);
  assert.deepEqual(byEditor, byString);
  assert.ok(byString.out.some((o) => o.startsWith("block-anchor") || o.startsWith("fuzzy")), byString.out.join("\n"));
  assert.ok(Document.from(editor.content).hasTrimmedHashes, "the editor's document keeps its hashes");
});

/**
 * Inputs that used to take seconds to minutes (issue 14): each must give the
 * right answer, and the helpers that replaced a slow path must agree with the
 * slow one. No timing is asserted here (bench/adversarial.ts prints the
 * figures); an input that regressed to quadratic shows as a test run that
 * never ends.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { diffArrays } from "diff";
import fc from "fast-check";
import { distance } from "fastest-levenshtein";
import { EditError } from "../src/errors.ts";
import { createPatch } from "../src/formats/create-patch.ts";
import { applySearchReplace } from "../src/formats/search-replace.ts";
import { replace } from "../src/formats/str-replace.ts";
import { applyPatch } from "../src/formats/unified-apply.ts";
import { parsePatch } from "../src/formats/unified-parse.ts";
import { detectEdits } from "../src/formats/response.ts";
import { resolveOptions } from "../src/engine/options.ts";
import { createContext, linesTrimmedEqual, selectiveWord } from "../src/match/anchors.ts";
import { SCANS_BEFORE_INDEX, trimBlank } from "../src/match/line-index.ts";
import { createOccurrenceFinder, WORD_SCANS_BEFORE_INDEX } from "../src/match/occurrences.ts";
import { buildWordIndex, isWord, wordOccurrences } from "../src/match/word-index.ts";
import { findWordSequence } from "../src/match/whitespace-normalized.ts";
import { Document } from "../src/text/document.ts";
import { closesFence, readFenceOpener } from "../src/text/fence.ts";
import { diffLinesBounded } from "../src/text/line-diff.ts";
import { boundedDistance } from "../src/text/similarity.ts";
import { stripTimestamp } from "../src/text/timestamp.ts";

const BIG = 100_000;

/** Whether `parts` turns `a` into `b`: the kept and removed lines are `a`, the kept and added lines are `b`. */
function rebuilds<T>(parts: { value: T[]; added: boolean; removed: boolean }[], a: T[], b: T[]): boolean {
  const left = parts.filter((p) => !p.added).flatMap((p) => p.value);
  const right = parts.filter((p) => !p.removed).flatMap((p) => p.value);
  return JSON.stringify(left) === JSON.stringify(a) && JSON.stringify(right) === JSON.stringify(b);
}

const changed = (parts: { count?: number; value: unknown[]; added: boolean; removed: boolean }[]) =>
  parts.filter((p) => p.added || p.removed).reduce((n, p) => n + p.value.length, 0);

test("diffLinesBounded: a correct diff, as short as jsdiff's on small inputs", () => {
  const lines = fc.array(fc.constantFrom("a", "b", "c", "}", ""), { maxLength: 40 });
  fc.assert(
    fc.property(lines, lines, (a, b) => {
      const parts = diffLinesBounded(a, b);
      assert.ok(rebuilds(parts, a, b));
      assert.equal(changed(parts), changed(diffArrays(a, b)));
    }),
    { numRuns: 300 },
  );
});

test("diffLinesBounded: lines on one side only (never kept) do not change how short the diff is, and each change removes before it adds", () => {
  // Each side has lines of its own (`p…` only in a, `q…` only in b): the exact diff searches without them.
  const side = (own: string) => fc.array(fc.constantFrom("a", "b", "}", "", `${own}1`, `${own}2`, `${own}3`), { maxLength: 60 });
  fc.assert(
    fc.property(side("p"), side("q"), (a, b) => {
      const parts = diffLinesBounded(a, b);
      assert.ok(rebuilds(parts, a, b));
      assert.equal(changed(parts), changed(diffArrays(a, b)));
      for (let k = 1; k < parts.length; k++) assert.ok(!((parts[k - 1] as { added: boolean }).added && (parts[k] as { removed: boolean }).removed), "an addition before a removal");
    }),
    { numRuns: 1000 },
  );
});

/** `changed`: the lines removed and added that the bounded diff must not exceed (a shortest diff's, where it finds one). */
const bigCases: { name: string; a: string[]; b: string[]; changed?: number }[] = [
  { name: "full rewrite", a: Array.from({ length: 20_000 }, (_, i) => `a${i}`), b: Array.from({ length: 20_000 }, (_, i) => `b${i}`) },
  {
    name: "scattered changes in distinct lines (the patience split keeps the unchanged unique lines)",
    a: Array.from({ length: 20_000 }, (_, i) => `a${i}`),
    b: Array.from({ length: 20_000 }, (_, i) => (i % 50 === 0 ? `b${i}` : `a${i}`)),
    changed: 2 * 400,
  },
  {
    name: "repeated lines, a few changed in place (paired line by line: no line is unique)",
    a: Array.from({ length: 20_000 }, () => "0"),
    b: Array.from({ length: 20_000 }, (_, i) => (i % 97 === 0 ? "1" : "0")),
    changed: 2 * 207,
  },
  {
    name: "repeated lines, a run changed in place and one line inserted (not paired: one change)",
    a: Array.from({ length: 20_000 }, () => "0"),
    b: ["1", ...Array.from({ length: 20_000 }, (_, i) => (i % 97 === 0 ? "1" : "0"))],
  },
];
for (const c of bigCases) {
  test(`diffLinesBounded past the edit-length cap: ${c.name}`, () => {
    const parts = diffLinesBounded(c.a, c.b);
    assert.ok(rebuilds(parts, c.a, c.b));
    if (c.changed !== undefined) assert.equal(changed(parts), c.changed);
  });
}

test("boundedDistance equals the edit distance below the bound", () => {
  const s = fc.string({ unit: fc.constantFrom("a", "b", "c", " "), maxLength: 30 });
  fc.assert(
    fc.property(s, s, (a, b) => assert.equal(boundedDistance(a, b), distance(a, b))),
    { numRuns: 500 },
  );
});

test("boundedDistance: a 400 kB line with one changed character is one edit; two unrelated long lines count as wholly different", () => {
  const long = "abcdefghij".repeat(40_000);
  assert.equal(boundedDistance(long, `${long.slice(0, 200_000)}#${long.slice(200_001)}`), 1);
  assert.equal(boundedDistance(`a${"xy".repeat(5_000)}a`, `b${"yz".repeat(5_000)}b`), 10_002);
});

// The patterns the scanners replaced, kept here as the reference.
const OLD_FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`]*)$/;
const OLD_TIMESTAMP = /\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)?(?: [+-]\d{4})?$/;

test("readFenceOpener and closesFence agree with the regular expressions they replace", () => {
  const line = fc.string({ unit: fc.constantFrom("`", "~", " ", "\t", "a", "diff", "`"), maxLength: 14 });
  fc.assert(
    fc.property(line, line, (open, close) => {
      const m = OLD_FENCE.exec(open);
      const got = readFenceOpener(open);
      assert.equal(got?.marker, m?.[1]);
      assert.equal(got?.info, m ? (m[2] ?? "").trim() : undefined);
      if (m?.[1]) {
        const marker = m[1];
        const closeRe = new RegExp(`^ {0,3}${marker[0] === "`" ? "`" : "~"}{${marker.length},}\\s*$`);
        assert.equal(closesFence(close, marker), closeRe.test(close));
      }
    }),
    { numRuns: 2000 },
  );
});

test("stripTimestamp agrees with the regular expression it replaces", () => {
  const stamp = fc.constantFrom("2024-01-31 12:00:00", "2024-01-31 12:00:00.123456789", "2024-01-31 12:00:00 +0100", "2024-01-31 12:00:00.5 -0700", "2024-1-31 12:00:00", "12:00:00");
  const path = fc.string({ unit: fc.constantFrom("a", "/", ".", " ", "\t", "1", "-", ":"), maxLength: 12 });
  fc.assert(
    fc.property(path, fc.constantFrom("", " ", "  ", "\t"), stamp, fc.boolean(), (p, gap, ts, withStamp) => {
      const s = withStamp ? `${p}${gap}${ts}` : p;
      assert.equal(stripTimestamp(s), s.replace(OLD_TIMESTAMP, ""));
    }),
    { numRuns: 2000 },
  );
});

const adversarialLines: { name: string; run: () => void }[] = [
  { name: "fence opener: three backticks, 100k spaces, a backtick", run: () => assert.equal(readFenceOpener(`\`\`\`${" ".repeat(BIG)}\``), undefined) },
  { name: "fence opener: 100k backticks then a backtick after a space", run: () => assert.equal(readFenceOpener(`${"`".repeat(BIG)} \``), undefined) },
  { name: "fence closer: 100k backticks and an x", run: () => assert.equal(closesFence(`${"`".repeat(BIG)}x`, "```"), false) },
  { name: "timestamp: a path, 100k spaces, y", run: () => assert.equal(stripTimestamp(`a/x${" ".repeat(BIG)}y`), `a/x${" ".repeat(BIG)}y`) },
  {
    name: "timestamp: 100k spaces before a timestamp",
    run: () => assert.equal(stripTimestamp(`a/x${" ".repeat(BIG)}2024-01-31 12:00:00`), "a/x"),
  },
];
for (const c of adversarialLines) test(`100k-character line: ${c.name}`, c.run);

test("response detection on model-written lines of 100k characters", async () => {
  const fence = detectEdits(`\`\`\`${" ".repeat(BIG)}\`\nsome text\n`, "auto");
  assert.equal(fence.edits.length, 0);
  // The header names two different paths (`x…y` and `x`): read as one diff, reported as a rename.
  const header = detectEdits(`--- a/x${" ".repeat(BIG)}y\n+++ b/x\n@@ @@\n-a\n+b\n`, "auto");
  assert.equal(header.edits.length + header.errors.length, 1);
});

test("Document: line lookups before the line table agree with the table", () => {
  const text = fc.string({ unit: fc.constantFrom("a", "\n", " "), maxLength: 40 });
  fc.assert(
    fc.property(text, fc.array(fc.nat(), { maxLength: 6 }), (t, raw) => {
      const offsets = raw.map((o) => o % (t.length + 1)).sort((x, y) => x - y);
      const lazy = Document.from(t);
      const eager = Document.from(t);
      eager.lineCount; // builds the table
      for (const o of offsets) {
        const line = lazy.lineAt(o);
        assert.equal(line, eager.lineAt(o));
        if (line < eager.lineCount) {
          assert.equal(lazy.lineStart(line), eager.lineStart(line));
          assert.equal(lazy.lineEnd(line), eager.lineEnd(line));
        }
      }
      assert.equal(lazy.lineEndingStyle, eager.lineEndingStyle);
    }),
    { numRuns: 1000 },
  );
});

test("occurrences found through known keys are the occurrences a scan finds, whatever order the needles come in", () => {
  const scan = (text: string, needle: string) => {
    const out: number[] = [];
    if (needle === "") return out;
    for (let p = text.indexOf(needle); p !== -1; p = text.indexOf(needle, p + 1)) out.push(p);
    return out;
  };
  // A small alphabet so needles overlap and repeat; needles cut from the text (from its start too) and grown, so later ones contain earlier ones.
  const text = fc.stringMatching(/^[ab \n]{0,300}$/);
  const cuts = fc.array(fc.tuple(fc.nat(300), fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 12 })), { maxLength: 30 });
  fc.assert(
    fc.property(text, cuts, (t, spans) => {
      const find = createOccurrenceFinder(t);
      for (const [at, len, grow] of spans) {
        const start = at % (t.length + 1);
        const key = t.slice(start, start + len);
        const grown = t.slice(Math.max(0, start - grow), start + len + grow);
        for (const n of [key, grown, `${grown}b`, key]) assert.deepEqual([...find(n)], scan(t, n), JSON.stringify(n));
      }
    }),
    { numRuns: 300 },
  );
});

test("occurrences found through the line index and the word index are the occurrences a scan finds", () => {
  const scan = (text: string, needle: string) => {
    const out: number[] = [];
    if (needle === "") return out;
    for (let p = text.indexOf(needle); p !== -1; p = text.indexOf(needle, p + 1)) out.push(p);
    return out;
  };
  // Words that hold one another (`ab` in `aab`, `ab_`), blank and indented lines, CRLF and CR breaks, a BOM.
  const piece = fc.constantFrom("a", "b", "ab", "ba", "aab", "$", "_", "1", " ", "  ", "\t", "\n", "\n", "\r\n", "\r", "(", "}", "\u00a0", "\u2003", "\ufeff");
  const text = fc.array(piece, { maxLength: 120 }).map((xs) => xs.join(""));
  // Needles cut from the text (whole lines, line ends, words inside tokens), and some that are not in it.
  const cuts = fc.array(fc.tuple(fc.nat(400), fc.integer({ min: 1, max: 40 })), { minLength: 1, maxLength: 20 });
  fc.assert(
    fc.property(text, cuts, (raw, spans) => {
      const doc = Document.from(raw);
      const t = doc.text;
      const ctx = createContext(doc, resolveOptions({}).strategy);
      // Enough scans of needles found nowhere that both indexes are built before the needles under test.
      for (let k = 0; k <= Math.max(SCANS_BEFORE_INDEX, WORD_SCANS_BEFORE_INDEX); k++) {
        assert.deepEqual([...ctx.occurrences(`zz${k}`)], []);
        assert.deepEqual([...ctx.occurrences(`\nzz${k}\nq\n`)], []);
      }
      const needles = spans.map(([at, len]) => t.slice(at % (t.length + 1), (at % (t.length + 1)) + len));
      // Needles that are no word but hold runs of three identifier characters or more: found through the rarest run.
      for (const n of [...needles, "a", "ab", "aab", "b1", "$_", "ab\nab\nab", "\n\n", "a\n\nb", "aab(", " aab b", "(ab$_ab", "b aab\nab", "aab}aab"]) {
        assert.deepEqual([...ctx.occurrences(n)], scan(t, n), JSON.stringify(n));
        assert.deepEqual([...createOccurrenceFinder(t)(n)], scan(t, n), `scanned ${JSON.stringify(n)}`);
      }
    }),
    { numRuns: 200 },
  );
});

test("the word index finds a word inside longer tokens and twice in one token, in text order", () => {
  const text = "abab x_abab ab\nab$ab 9ab\n";
  const index = buildWordIndex(text);
  const scanned = (w: string) => [...text.matchAll(new RegExp(`(?=${w.replace("$", "\\$")})`, "g"))].map((m) => m.index);
  for (const w of ["ab", "aba", "bab", "a", "b", "$ab", "9ab", "x_abab", "zz", "abab"]) assert.deepEqual(wordOccurrences(index, w), scanned(w), w);
  assert.equal(isWord("a-b"), false);
  assert.equal(isWord(""), false);
  assert.equal(isWord("a_$9Z"), true);
});

test("linesTrimmedEqual answers the same before and after the line index is built", () => {
  const naive = (doc: Document, trimmed: string) => {
    const out: number[] = [];
    for (let i = 0; i < doc.lineCount; i++) if (trimmed !== "" && trimBlank(doc.line(i)) === trimmed) out.push(i);
    return out;
  };
  // Lines with blank ends of every kind the matcher trims, Unicode spaces it keeps, CRLF and empty lines.
  const line = fc.tuple(fc.constantFrom("", " ", "\t", "  ", "\u00a0", "\u2003"), fc.constantFrom("a", "b", "a b", "", "}", "\u2003a"), fc.constantFrom("", " ", "\t", "\r", "\u2003"));
  fc.assert(
    fc.property(fc.array(line, { maxLength: 40 }), fc.boolean(), (parts, crlf) => {
      const doc = Document.from(parts.map((p) => p.join("")).join(crlf ? "\r\n" : "\n"));
      const ctx = createContext(doc, resolveOptions({}).strategy);
      // More needles than SCANS_BEFORE_INDEX, so the later ones come from the index.
      const needles = ["a", "b", "a b", "}", "\u2003a", "a\u2003", "", " a", "c", ...Array.from({ length: SCANS_BEFORE_INDEX }, (_, k) => `x${k}`), "a", "b", "a b", "}", "\u2003a"];
      for (const n of needles) assert.deepEqual([...linesTrimmedEqual(ctx, n)], naive(doc, n), JSON.stringify(n));
      const fresh = createContext(doc, resolveOptions({}).strategy);
      for (let k = 0; k <= SCANS_BEFORE_INDEX; k++) linesTrimmedEqual(fresh, `y${k}`);
      for (const n of ["a", "b", "a b", "}", "\u2003a"]) assert.deepEqual([...linesTrimmedEqual(fresh, n)], naive(doc, n), `indexed ${JSON.stringify(n)}`);
    }),
    { numRuns: 300 },
  );
});

test("selectiveWord: the longest word, unless it is everywhere; then the rarest of the few longest", () => {
  const lines = Array.from({ length: 3000 }, (_, i) => `  const v${i} = compute(${i});`);
  const ctx = createContext(Document.from(lines.join("\n")), resolveOptions({}).strategy);
  // `compute` and `const` are on all 3000 lines; `v7` is in v7, v70-v79, v700-v799 (111 places).
  assert.equal(selectiveWord(ctx, ["  const v7 = compute(7);"]), "v7");
  const rare = createContext(Document.from(lines.slice(0, 500).join("\n")), resolveOptions({}).strategy);
  assert.equal(selectiveWord(rare, ["  const v7 = compute(7);"]), "compute", "500 hits are selective enough");
  assert.equal(selectiveWord(ctx, ["  const zz9 = compute(1);"]), "zz9");
});

test("hundreds of different failing blocks whose words are on every line: each refused", () => {
  const lines = Array.from({ length: 20_000 }, (_, i) => `  const v${i} = compute(${i}, "v");`);
  const blocks = Array.from({ length: 60 }, (_, k) => {
    const search = Array.from({ length: 12 }, (_, i) => `  const w${k}x${i} = compute(${i}, "w");`).join("\n");
    return `<<<<<<< SEARCH\n${search}\n=======\nchanged\n>>>>>>> REPLACE\n`;
  });
  const r = applySearchReplace(lines.join("\n"), blocks.join(""));
  assert.equal(r.applied.length, 0);
  assert.deepEqual(new Set(r.failed.map((f) => f.code)), new Set(["NOT_FOUND"]));
  assert.equal(r.failed.length, 60);
});

test("a 40k-line hunk whose context lines lost their prefix parses as context", () => {
  const lines = Array.from({ length: 40_000 }, (_, i) => `line ${i}`);
  const [file] = parsePatch(`@@ @@\n${lines.join("\n")}\n-gone\n+new\n`);
  const hunk = file?.hunks[0];
  assert.equal(hunk?.lines.length, 40_002);
  assert.equal(hunk?.unprefixedLines?.length, 40_000);
});

const refusals: { name: string; content: string; find: string; codes: string[] }[] = [
  {
    name: "periodic file, failing 12-line edit",
    content: "  value = compute(x);\n".repeat(32_000),
    find: Array.from({ length: 12 }, (_, k) => (k === 6 ? "  value = compute(y);" : "  value = compute(x);")).join("\n"),
    codes: ["AMBIGUOUS"],
  },
  {
    name: "200k lines of `}`, a 20-line edit of `}` with one foreign line",
    content: "}\n".repeat(200_000),
    find: Array.from({ length: 20 }, (_, k) => (k === 10 ? "foreign();" : "}")).join("\n"),
    codes: ["NOT_FOUND"],
  },
];
for (const c of refusals) {
  test(`refused, not hung: ${c.name}`, () => {
    assert.throws(
      () => replace(c.content, c.find, "x"),
      (e: unknown) => e instanceof EditError && c.codes.includes(e.code),
    );
  });
}

test("a capped search says so in its NOT_FOUND message", () => {
  const content = "}\n".repeat(200_000);
  const find = Array.from({ length: 20 }, (_, k) => (k === 10 ? "foreign();" : "}")).join("\n");
  assert.throws(
    () => replace(content, find, "x"),
    (e: unknown) => e instanceof EditError && /stopped early/.test(e.message) && /occur rarely/.test(e.message),
  );
});

test("replaceAll of a space in a 1 MB line of spaces in a CRLF file (the line ending was looked up per place: 7 s)", () => {
  const r = replace(`${" ".repeat(1_000_000)}\r\nx\r\n`, " ", "_", { replaceAll: true });
  assert.equal(r.match.count, 1_000_000);
  assert.equal(r.content, `${"_".repeat(1_000_000)}\r\nx\r\n`);
});

test("replaceAll of a token that occurs 250,000 times", () => {
  const r = replace("tok x\n".repeat(250_000), "tok", "token", { replaceAll: true });
  assert.equal(r.match.count, 250_000);
  assert.equal(r.content, "token x\n".repeat(250_000));
});

/**
 * Applies a fuzzy patch the plain way: a `@@ @@` hunk's old side occurs once
 * (createPatch grows it until it does), a numbered hunk's old side is at its
 * number; each is replaced by its new side.
 * (applyPatch is not used here: its splice has its own worst cases, issue 14.)
 */
function applyHunksPlainly(text: string, patch: string): string {
  const lines = text.split("\n");
  const starts: number[] = [];
  for (let i = 0, at = 0; i < lines.length; i++) {
    starts.push(at);
    at += (lines[i] as string).length + 1;
  }
  const lineOf = (offset: number) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const out: string[] = [];
  let cursor = 0;
  for (const h of parsePatch(patch)[0]?.hunks ?? []) {
    const side = (kind: string) => h.lines.filter((l) => l.kind !== kind).map((l) => l.text);
    const old = side("add");
    let at: number;
    if (h.oldStart === undefined) {
      const needle = `\n${old.join("\n")}\n`;
      const first = `\n${text}`.indexOf(needle);
      assert.ok(first >= 0, `hunk ${h.index + 1} is in the text`);
      assert.equal(`\n${text}`.indexOf(needle, first + 1), -1, `hunk ${h.index + 1} is unique`);
      at = lineOf(first);
    } else {
      at = old.length === 0 ? h.oldStart : h.oldStart - 1;
    }
    assert.ok(at >= cursor, "hunks are in order and do not overlap");
    assert.deepEqual(lines.slice(at, at + old.length), old, `hunk ${h.index + 1} is at its place`);
    for (let i = cursor; i < at; i++) out.push(lines[i] as string);
    for (const l of side("delete")) out.push(l);
    cursor = at + old.length;
  }
  for (let i = cursor; i < lines.length; i++) out.push(lines[i] as string);
  return out.join("\n");
}

/** `hunks` and `numbered`: how many hunks the patch has, and how many of them carry numbers. */
const patchCases: { name: string; a: string[]; b: string[]; hunks: number; numbered: number }[] = [
  {
    name: "100k repeated lines, 10 changed (no hunk can be unique short of the whole file: numbered)",
    a: Array.from({ length: 100_000 }, () => "0,0,0,0"),
    b: Array.from({ length: 100_000 }, (_, i) => (i % 10_000 === 5_000 ? "1,1,1,1" : "0,0,0,0")),
    hunks: 10,
    numbered: 10,
  },
  {
    name: "125k repeated lines (1 MB), every 1000th changed",
    a: Array.from({ length: 125_000 }, () => "0,0,0,0"),
    b: Array.from({ length: 125_000 }, (_, i) => (i % 1000 === 500 ? "1,1,1,1" : "0,0,0,0")),
    hunks: 125,
    numbered: 125,
  },
  {
    name: "repeated lines between a first and a last line, a change near each (those grow to them and need no numbers)",
    a: ["first", ...Array.from({ length: 10_000 }, () => "0"), "last"],
    b: ["first", ...Array.from({ length: 10_000 }, (_, i) => (i === 20 || i === 5_000 || i === 9_990 ? "1" : "0")), "last"],
    hunks: 3,
    numbered: 1,
  },
  {
    name: "a 20k-line rewrite",
    a: Array.from({ length: 20_000 }, (_, i) => `const a${i} = ${i};`),
    b: Array.from({ length: 20_000 }, (_, i) => `const b${i} = ${i};`),
    hunks: 1,
    numbered: 0,
  },
  {
    name: "20k distinct lines, every 100th changed",
    a: Array.from({ length: 20_000 }, (_, i) => `const a${i} = ${i};`),
    b: Array.from({ length: 20_000 }, (_, i) => (i % 100 === 50 ? `const b${i} = ${i};` : `const a${i} = ${i};`)),
    hunks: 200,
    numbered: 0,
  },
];
for (const c of patchCases) {
  test(`createPatch of ${c.name}: each hunk unique or numbered, the patch rebuilds the new text`, () => {
    const a = `${c.a.join("\n")}\n`;
    const b = `${c.b.join("\n")}\n`;
    const patch = createPatch(a, b, { fuzzy: true });
    const hunks = parsePatch(patch)[0]?.hunks ?? [];
    assert.equal(hunks.length, c.hunks);
    assert.equal(hunks.filter((h) => h.oldStart !== undefined).length, c.numbered);
    assert.equal(applyHunksPlainly(a, patch), b);
  });
}

test("createPatch V4A of 125k repeated lines (1 MB), every 1000th changed: one chunk grown to the whole file, no stack overflow", () => {
  const a = "0,0,0,0\n".repeat(125_000);
  const b = Array.from({ length: 125_000 }, (_, i) => (i % 1000 === 500 ? "1,1,1,1\n" : "0,0,0,0\n")).join("");
  const lines = createPatch(a, b, { format: "v4a", path: "data.csv" }).split("\n");
  assert.equal(lines.filter((l) => l === "@@").length, 1);
  assert.equal(lines.filter((l) => l === " 0,0,0,0").length, 125_000 - 125);
  assert.equal(lines.filter((l) => l === "-0,0,0,0").length, 125);
  assert.equal(lines.at(-3), "*** End of File");
});

test("applyPatch(a, createPatch(a, b)) gives b on 20k repeated lines, every 1000th changed (numbered hunks apply at their numbers)", () => {
  const a = "0,0,0,0\n".repeat(20_000);
  const b = Array.from({ length: 20_000 }, (_, i) => (i % 1000 === 500 ? "1,1,1,1\n" : "0,0,0,0\n")).join("");
  const patch = createPatch(a, b, { fuzzy: true });
  assert.equal(parsePatch(patch)[0]?.hunks.length, 20);
  assert.equal(applyPatch(a, patch).content, b);
});

// Found by the budget property (test/helpers/budget-properties.ts): a hunk rewriting thousands of
// lines went through the merge's anchored diff unbounded (4,000 lines 4.6 s, 20,000 over a minute).
const rewriteHunks: { name: string; a: string[]; b: string[] }[] = [
  { name: "similar lines (each old line pairs with a new one)", a: patchCases[1]?.a ?? [], b: patchCases[1]?.b ?? [] },
  {
    name: "unrelated files",
    a: Array.from({ length: 20_000 }, (_, i) => `w${i % 37} delta baz ${i % 5}`),
    b: Array.from({ length: 20_000 }, (_, i) => `  "k${i % 11}": ${i % 3},`),
  },
];
for (const c of rewriteHunks) {
  test(`applyPatch of createPatch of a 20k-line rewrite, ${c.name}: applied exactly`, () => {
    const a = `${c.a.join("\n")}\n`;
    const b = `${c.b.join("\n")}\n`;
    assert.equal(applyPatch(a, createPatch(a, b, { fuzzy: true })).content, b);
    assert.equal(applyPatch(a, createPatch(a, b)).content, b);
  });
}

test("applyPatch of a hunk replacing a 200 kB line by 20,000 short lines: the merge measures the long line once", () => {
  // Found by the budget property: the merge made the removed line loose and measured its edit
  // distance against every new line (a 22 kB line and 6,000 lines: 3.4 s; this input: minutes).
  const a = `{\n${"gamma ) 1 ".repeat(20_000)}\n`;
  const b = Array.from({ length: 20_000 }, (_, i) => `    "name": "item${i % 7}",\n`).join("");
  assert.equal(applyPatch(a, createPatch(a, b, { fuzzy: false })).content, b);
});

test("files and edits up to 64 kB, periodic ones included: every format throws only EditError", () => {
  const unit = fc.constantFrom("}", "{", "  x = 1;", "\t", " ", "\n", "foo(", ")", "// ...", "a", "\r\n");
  // A short piece repeated up to 64 kB: periodic text, the worst case of anchor searches.
  const big = fc.tuple(fc.string({ unit, minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 64 * 1024 })).map(([s, n]) => s.repeat(Math.ceil(n / s.length)).slice(0, n));
  const find = fc.tuple(fc.string({ unit, minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 60 }), fc.string({ unit, maxLength: 6 })).map(([s, n, tail]) => s.repeat(n) + tail);
  fc.assert(
    fc.property(big, find, fc.boolean(), (content, old, all) => {
      const calls = [
        () => replace(content, old, `${old}!`, { replaceAll: all }),
        () => applySearchReplace(content, `<<<<<<< SEARCH\n${old}\n=======\n${old}!\n>>>>>>> REPLACE\n`),
        () => applyPatch(content, `@@ @@\n${old.split("\n").map((l, k) => (k === 0 ? `-${l}\n+${l}!` : ` ${l}`)).join("\n")}\n`),
      ];
      for (const call of calls) {
        try {
          call();
        } catch (e) {
          if (!(e instanceof EditError)) throw e;
        }
      }
    }),
    { numRuns: 200 },
  );
});

test("an exact match at the hinted line is taken without listing the other places, as the resolver takes it", () => {
  const line = fc.constantFrom("a", "b", "  a", "}", "");
  fc.assert(
    fc.property(fc.array(line, { minLength: 2, maxLength: 30 }), fc.nat(), fc.integer({ min: 1, max: 4 }), (lines, at, size) => {
      const s = at % lines.length;
      const n = Math.min(size, lines.length - s);
      const window = lines.slice(s, s + n);
      if (window.every((l) => l.trim() === "")) return;
      const content = `${lines.join("\n")}\n`;
      const expected = `${[...lines.slice(0, s), "NEW", ...lines.slice(s + n)].join("\n")}\n`;
      const hunk = `@@ -${s + 1},${n} +${s + 1},1 @@\n${window.map((l) => `-${l}`).join("\n")}\n+NEW\n`;
      const patched = applyPatch(content, hunk);
      assert.equal(patched.content, expected, "applyPatch");
      const replaced = replace(content, window.join("\n"), "NEW", { startLine: s + 1 });
      assert.equal(replaced.match.startLine, s + 1, "replace: the hinted place");
    }),
    { numRuns: 400 },
  );
});

test("findWordSequence (tokens and KMP) finds the spans the scan from every first word found", () => {
  // The scan it replaced: quadratic on a long line of one repeated phrase, kept here as the oracle.
  const scanned = (line: string, words: readonly string[]): [number, number][] => {
    const spans: [number, number][] = [];
    const first = words[0] ?? "";
    for (let from = line.indexOf(first); from !== -1; from = line.indexOf(first, from + 1)) {
      let p = from + first.length;
      let ok = true;
      for (let w = 1; w < words.length && ok; w++) {
        const ws = p;
        while (p < line.length && /\s/.test(line[p] ?? "")) p++;
        ok = p > ws && line.startsWith(words[w] ?? "", p);
        p += (words[w] ?? "").length;
      }
      if (ok) spans.push([from, p]);
    }
    return spans;
  };
  const word = fc.stringMatching(/^[ab]{1,3}$/);
  fc.assert(
    fc.property(fc.array(fc.oneof(word, fc.constantFrom(" ", "  ", "\t")), { maxLength: 40 }), fc.array(word, { minLength: 1, maxLength: 5 }), (parts, words) => {
      const line = parts.join("");
      assert.deepEqual(findWordSequence(line, words), scanned(line, words), JSON.stringify([line, words]));
    }),
    { numRuns: 1000 },
  );
});

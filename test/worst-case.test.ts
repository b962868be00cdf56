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

const bigCases: { name: string; a: string[]; b: string[] }[] = [
  { name: "full rewrite", a: Array.from({ length: 20_000 }, (_, i) => `a${i}`), b: Array.from({ length: 20_000 }, (_, i) => `b${i}`) },
  {
    name: "scattered changes in distinct lines",
    a: Array.from({ length: 20_000 }, (_, i) => `a${i}`),
    b: Array.from({ length: 20_000 }, (_, i) => (i % 50 === 0 ? `b${i}` : `a${i}`)),
  },
  {
    name: "repeated lines, a few changed",
    a: Array.from({ length: 20_000 }, () => "0"),
    b: Array.from({ length: 20_000 }, (_, i) => (i % 997 === 0 ? "1" : "0")),
  },
];
for (const c of bigCases) {
  test(`diffLinesBounded past the edit-length cap: ${c.name}`, () => {
    const parts = diffLinesBounded(c.a, c.b);
    assert.ok(rebuilds(parts, c.a, c.b));
    if (c.name.startsWith("scattered")) assert.equal(changed(parts), 2 * 400, "the patience split keeps the unchanged unique lines");
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

test("replaceAll of a token that occurs 250,000 times", () => {
  const r = replace("tok x\n".repeat(250_000), "tok", "token", { replaceAll: true });
  assert.equal(r.match.count, 250_000);
  assert.equal(r.content, "token x\n".repeat(250_000));
});

/**
 * Applies a fuzzy patch the plain way: each hunk's old side occurs once
 * (createPatch grows it until it does) and is replaced by its new side.
 * (applyPatch is not used: its splice has its own worst cases, issue 14.)
 */
function applyUniqueHunks(text: string, patch: string): string {
  let out = `${text}\n`;
  for (const h of parsePatch(patch)[0]?.hunks ?? []) {
    const side = (kind: string) => h.lines.filter((l) => l.kind !== kind).map((l) => `${l.text}\n`).join("");
    const old = side("add");
    assert.equal(out.indexOf(old), out.lastIndexOf(old), `hunk ${h.index + 1} is unique`);
    out = out.replace(old, () => side("delete"));
  }
  return out.slice(0, -1);
}

const patchCases: { name: string; a: string[]; b: string[]; hunks?: number }[] = [
  {
    name: "100k repeated lines, 10 changed",
    a: Array.from({ length: 100_000 }, () => "0,0,0,0"),
    b: Array.from({ length: 100_000 }, (_, i) => (i % 10_000 === 5_000 ? "1,1,1,1" : "0,0,0,0")),
    hunks: 1,
  },
  {
    name: "a 20k-line rewrite",
    a: Array.from({ length: 20_000 }, (_, i) => `const a${i} = ${i};`),
    b: Array.from({ length: 20_000 }, (_, i) => `const b${i} = ${i};`),
    hunks: 1,
  },
  {
    name: "20k distinct lines, every 100th changed",
    a: Array.from({ length: 20_000 }, (_, i) => `const a${i} = ${i};`),
    b: Array.from({ length: 20_000 }, (_, i) => (i % 100 === 50 ? `const b${i} = ${i};` : `const a${i} = ${i};`)),
    hunks: 200,
  },
];
for (const c of patchCases) {
  test(`createPatch of ${c.name}: every hunk unique, the patch rebuilds the new text`, () => {
    const a = `${c.a.join("\n")}\n`;
    const b = `${c.b.join("\n")}\n`;
    const patch = createPatch(a, b);
    if (c.hunks !== undefined) assert.equal(parsePatch(patch)[0]?.hunks.length, c.hunks);
    assert.equal(applyUniqueHunks(a, patch), b);
  });
}

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
    assert.equal(applyPatch(a, createPatch(a, b)).content, b);
    assert.equal(applyPatch(a, createPatch(a, b, { fuzzy: false })).content, b);
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

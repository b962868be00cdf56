/**
 * Regression tests for issue 15 (reliability): each case reproduces a report
 * of the adversarial campaign and failed before its fix.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { decodeText, encodeText } from "../src/fs/read-file.ts";
import { applyPatch, createPatch, replace } from "../src/index.ts";
import { Document } from "../src/text/document.ts";

const BOM = "\uFEFF";

// --- item 3: "\r\r\n" line ends ------------------------------------------------

const crcrlfCases: { name: string; content: string; old: string; new: string; want: string }[] = [
  { name: "one line changed", content: "a\r\r\nb\r\r\nc\r\r\n", old: "b", new: "B", want: "a\r\r\nB\r\r\nc\r\r\n" },
  { name: "two whole lines changed", content: "a\r\r\nb\r\r\nc\r\r\n", old: "a\nb", new: "A\nB", want: "A\r\r\nB\r\r\nc\r\r\n" },
  { name: "a line added takes the file's break", content: "a\r\r\nb\r\r\nc\r\r\n", old: "b\n", new: "B\nX\n", want: "a\r\r\nB\r\r\nX\r\r\nc\r\r\n" },
  { name: "a line deleted with its break", content: "a\r\r\nb\r\r\nc\r\r\n", old: "b\n", new: "", want: "a\r\r\nc\r\r\n" },
  { name: "last line without a break", content: "a\r\r\nb", old: "b", new: "b\nc", want: "a\r\r\nb\r\r\nc" },
];

for (const c of crcrlfCases) {
  test(`item 3: \\r\\r\\n file, ${c.name}: every other byte kept`, () => {
    assert.equal(replace(c.content, c.old, c.new).content, c.want);
  });
}

test("item 3: the document reads \\r\\r\\n as one break and maps offsets past both CRs", () => {
  const doc = Document.from("a\r\r\nbb\r\r\n");
  assert.equal(doc.text, "a\nbb\n");
  assert.deepEqual(doc.lines(0, 2), ["a", "bb"]);
  assert.equal(doc.eolAt(0), "\r\r\n");
  assert.equal(doc.breakAfter(0), "\r\r\n");
  assert.equal(doc.toRaw(2), 4);
  assert.equal(doc.raw.slice(doc.toRaw(doc.lineStart(1)), doc.toRaw(doc.lineEnd(1))), "bb");
});

test("item 3: the file layer leaves \\r\\r\\n to the core; a write changes only the edited line", () => {
  const bytes = Buffer.from("a\r\r\nb\r\r\nc\r\r\n");
  const { text, layout } = decodeText(bytes, "f", false);
  const edited = replace(text, "b", "B").content;
  assert.equal(encodeText(edited, layout).toString(), "a\r\r\nB\r\r\nc\r\r\n");
});

// --- item 4: BOM in createPatch / applyPatch -----------------------------------

const bomCases: { name: string; a: string; b: string }[] = [
  { name: "BOM kept, line added after a tab-indented line", a: `${BOM}a\n\tb\n`, b: `${BOM}a\n\tb\n\tc\n` },
  { name: "BOM kept, first line changed", a: `${BOM}a\nb\n`, b: `${BOM}x\nb\n` },
  { name: "BOM kept, first line deleted", a: `${BOM}a\nb\nc\n`, b: `${BOM}b\nc\n` },
  { name: "BOM kept, line inserted at the top", a: `${BOM}\ta\n\tb\n`, b: `${BOM}\tz\n\ta\n\tb\n` },
  { name: "BOM kept, CRLF", a: `${BOM}a\r\n\tb\r\n`, b: `${BOM}a\r\n\tb\r\n\tc\r\n` },
  { name: "BOM added", a: "a\nb\n", b: `${BOM}a\nb\n` },
  { name: "BOM added with a change", a: "a\nb\n", b: `${BOM}x\nb\n` },
];

for (const c of bomCases) {
  test(`item 4: applyPatch(a, createPatch(a, b)) is b: ${c.name}`, () => {
    for (const fuzzy of [true, false]) {
      const patch = createPatch(c.a, c.b, { fuzzy });
      const got = applyPatch(c.a, patch);
      assert.equal(got.content, c.b, patch);
      assert.ok(got.hunks.every((h) => h.strategy === "exact"), `placed fuzzily: ${JSON.stringify(got.hunks)}`);
    }
  });
}

// --- item 11: no argument spreading of big arrays ------------------------------

test("item 11: createPatch on 130k identical lines with one inserted does not overflow the stack", () => {
  const a = "x\n".repeat(130_000);
  const b = `${a}y\n`;
  for (const fuzzy of [true, false]) {
    const patch = createPatch(a, b, { fuzzy });
    assert.equal(applyPatch(a, patch).content, b);
  }
});

test("item 11: replaceAll over 200k occurrences reports its score without spreading them", () => {
  const content = "a".repeat(200_000);
  const r = replace(content, "a", "b", { replaceAll: true });
  assert.equal(r.content, "b".repeat(200_000));
  assert.equal(r.match.count, 200_000);
});

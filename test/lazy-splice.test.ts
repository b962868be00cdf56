/**
 * The lazy merge's shortcuts for large files (issue 34's speed figures): each
 * must answer what the whole-file computation it replaced answers, on any
 * text. bracketBalance's char-code scan against the string scan it replaced;
 * the balance of the changed lines against two whole scans; the spliced file
 * against the lines joined; the trimmed-line lookup against a set of every
 * trimmed line.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { lineKey } from "../src/lazy/align.ts";
import { applyLazyEdit } from "../src/lazy/apply-lazy-edit.ts";
import { balanceChange, bracketBalance } from "../src/lazy/balance.ts";
import { keyPlaces, trimmedInFile } from "../src/lazy/key-index.ts";
import { balanceMoved, sharedLines, spliceText } from "../src/lazy/splice-text.ts";

/** The scan bracketBalance had before its char-code rewrite, kept as the reference. */
function referenceBalance(text: string, hashComments: boolean): [number, number, number] {
  const net: [number, number, number] = [0, 0, 0];
  let k = 0;
  const n = text.length;
  while (k < n) {
    const ch = text[k] as string;
    if (ch === "/" && text[k + 1] === "/") {
      const e = text.indexOf("\n", k);
      k = e === -1 ? n : e;
    } else if (ch === "#" && hashComments) {
      const e = text.indexOf("\n", k);
      k = e === -1 ? n : e;
    } else if (ch === "/" && text[k + 1] === "*") {
      const e = text.indexOf("*/", k + 2);
      k = e === -1 ? n : e + 2;
    } else if (ch === '"' || ch === "`" || (ch === "'" && /^'(?:\\.|[^'\\\n]){0,200}'/.test(text.slice(k, k + 210)))) {
      k++;
      while (k < n && text[k] !== ch && (ch === "`" || text[k] !== "\n")) k += text[k] === "\\" ? 2 : 1;
      k++;
    } else {
      const i = "([{".indexOf(ch);
      if (i >= 0) net[i as 0 | 1 | 2]++;
      const j = ")]}".indexOf(ch);
      if (j >= 0) net[j as 0 | 1 | 2]--;
      k++;
    }
  }
  return net;
}

// Texts made of what the scan reacts to: comment and string openers, escapes, brackets, breaks.
const PIECES = ["/", "*", "#", '"', "'", "`", "\\", "\n", "(", ")", "[", "]", "{", "}", "a", " ", "x = 'ab'", "// c", "/* d */", "\r", "'".repeat(3), "b".repeat(120)];
const piece = fc.constantFrom(...PIECES);
const chunk = fc.array(piece, { maxLength: 40 }).map((p) => p.join(""));
/** A text that ends with a line break (or is empty): where a changed line starts. */
const lineStart = chunk.map((t) => (t === "" || t.endsWith("\n") ? t : `${t}\n`));

test("bracketBalance counts what the string scan it replaced counts", () => {
  fc.assert(
    fc.property(chunk, fc.boolean(), (text, hash) => {
      assert.deepEqual(bracketBalance(text, hash), referenceBalance(text, hash));
    }),
    { numRuns: 2000 },
  );
  // A quoted run longer than the 210 characters looked at is no string (its brackets count).
  const long = `'${"x".repeat(250)}(' (`;
  assert.deepEqual(bracketBalance(long, false), referenceBalance(long, false));
  assert.deepEqual(bracketBalance(long, false), [2, 0, 0]);
});

test("balanceChange of two texts differing in the middle is the difference of their whole scans", () => {
  fc.assert(
    fc.property(lineStart, chunk, chunk, chunk, fc.boolean(), (head, x, y, tail, hash) => {
      const a = head + x + tail;
      const b = head + y + tail;
      const { change } = balanceChange(a, b, head.length, head.length + x.length, head.length + y.length, hash);
      const [ba, bb] = [bracketBalance(a, hash), bracketBalance(b, hash)];
      assert.deepEqual(change, [bb[0] - ba[0], bb[1] - ba[1], bb[2] - ba[2]]);
    }),
    { numRuns: 3000 },
  );
});

/** What applyLazyEdit's joinText writes for LF lines. */
function joined(lines: readonly string[], bom: boolean, finalNewline: boolean): string {
  return (bom ? "\uFEFF" : "") + lines.join("\n") + (finalNewline && lines.length > 0 ? "\n" : "");
}

const line = fc.array(fc.constantFrom("a", "b", "{", "}", "(", " ", "'", '"', "//", "/*", "*/", "#", "`"), { maxLength: 6 }).map((p) => p.join(""));

test("the spliced file is the merged lines joined, and its balance check answers as two whole scans do", () => {
  fc.assert(
    fc.property(fc.array(line, { minLength: 1, maxLength: 12 }), fc.array(line, { maxLength: 12 }), fc.nat(12), fc.nat(12), fc.boolean(), fc.boolean(), fc.boolean(), (file, inserted, at, cut, bom, finalNewline, hash) => {
      const from = Math.min(at, file.length);
      const merged = [...file.slice(0, from), ...inserted, ...file.slice(Math.min(file.length, from + cut))];
      const content = joined(file, bom, finalNewline);
      const spliced = spliceText(content, file, bom, finalNewline, merged, sharedLines(file, merged));
      if (!spliced) return;
      const want = joined(merged, bom, finalNewline);
      assert.equal(spliced.content, want);
      const [ba, bb] = [bracketBalance(content, hash), bracketBalance(want, hash)];
      assert.equal(balanceMoved(content, spliced, hash), ba.some((v, k) => v !== bb[k]));
    }),
    { numRuns: 3000 },
  );
});

test("the balance check of a splice in a large file scans past its first window when a comment opened in the change runs on", () => {
  // The last line opens a bracket: swallowed by an unclosed comment, the balance changes.
  const file = [...Array.from({ length: 3000 }, (_, k) => `  call(${k}); // line ${k}`), "  tail("];
  const content = `${file.join("\n")}\n`;
  const moved = (merged: string[]) => {
    const spliced = spliceText(content, file, false, true, merged, sharedLines(file, merged));
    assert.ok(spliced);
    const [ba, bb] = [bracketBalance(content, false), bracketBalance(`${merged.join("\n")}\n`, false)];
    assert.equal(balanceMoved(content, spliced, false), ba.some((v, k) => v !== bb[k]));
    return balanceMoved(content, spliced, false);
  };
  // The new line opens a block comment that a `*/` 2,000 lines on closes: balanced calls between.
  assert.equal(moved([...file.slice(0, 10), "  /* start", ...file.slice(10, 2010), "  */ done();", ...file.slice(2010)]), false);
  assert.equal(moved([...file.slice(0, 10), "  /* start", ...file.slice(10)]), true);
});

test("spliceText leaves CRLF files and an emptied file to the join", () => {
  assert.equal(spliceText("a\r\nb\r\n", ["a", "b"], false, true, ["a", "c"], { head: 1, tail: 0 }), undefined);
  assert.equal(spliceText("a\nb\n", ["a", "b"], false, true, [], { head: 0, tail: 0 }), undefined);
});

test("trimmedInFile answers for the snippet's lines as a set of every trimmed file line does", () => {
  const text = fc.array(fc.constantFrom("a", "b", " ", "\t", "...", "\u00a0"), { maxLength: 5 }).map((p) => p.join(""));
  fc.assert(
    fc.property(fc.array(text, { maxLength: 15 }), fc.array(text, { maxLength: 8 }), (fileLines, snippetLines) => {
      const all = new Set(fileLines.map((l) => l.trim()));
      const keys = fileLines.map(lineKey);
      const found = trimmedInFile(snippetLines, fileLines, keyPlaces(keys, [...snippetLines.map(lineKey), "..."]));
      for (const t of [...snippetLines.map((l) => l.trim()), "..."]) assert.equal(found.has(t), all.has(t), JSON.stringify(t));
    }),
    { numRuns: 2000 },
  );
});

test("lineKey trims and collapses every whitespace run, tested before replaced", () => {
  const ws = fc.array(fc.constantFrom("a", "b", " ", "  ", "\t", "\u00a0", "\u3000", "\u2028", "\ufeff", "x"), { maxLength: 10 }).map((p) => p.join(""));
  fc.assert(
    fc.property(ws, (l) => {
      assert.equal(lineKey(l), l.trim().replace(/\s+/g, " "));
    }),
    { numRuns: 2000 },
  );
});

test("a merge into a CRLF file with a BOM keeps both, and one at the file's end keeps its final newline or its lack", () => {
  const file = "\uFEFFfunction a() {\r\n  return 1;\r\n}\r\n\r\nfunction b() {\r\n  return 2;\r\n}\r\n";
  const out = applyLazyEdit(file, "// ... existing code ...\nfunction b() {\n  return 3;\n}", { path: "x.js" }).content;
  assert.equal(out, file.replace("return 2;", "return 3;"));
  for (const end of ["", "\n"]) {
    const lf = `function a() {\n  return 1;\n}\n\nfunction b() {\n  return 2;\n}${end}`;
    const merged = applyLazyEdit(lf, "// ... existing code ...\nfunction b() {\n  return 2;\n}\n\nfunction c() {\n  return 3;\n}", { path: "x.js" }).content;
    assert.equal(merged, `${lf.slice(0, lf.length - end.length)}\n\nfunction c() {\n  return 3;\n}${end}`);
  }
});

test("a new exit beside the file's, blank lines between, is still found among a large file's lines (only the lines beside new ones are tested)", () => {
  const filler = Array.from({ length: 50 }, (_, k) => `function g${k}() {\n  return ${k};\n}\n`).join("\n");
  const file = `${filler}\nfunction f(x) {\n  const y = x * 2;\n\n  return y;\n}\n\n${filler.replace(/g(\d)/g, "h$1")}`;
  const cases = [
    { snippet: "function f(x) {\n  const y = x * 2;\n  throw new Error('no');\n  // ... existing code ...\n}", side: "before" },
    { snippet: "function f(x) {\n  const y = x * 2;\n  // ... existing code ...\n  throw new Error('no');\n}", side: "after" },
  ];
  for (const c of cases) {
    assert.throws(
      () => applyLazyEdit(file, c.snippet, { path: "a.js" }),
      (e: Error) => e.message.includes(`would stand ${c.side} file line 204 ("return y;")`) && e.message.includes("could never run"),
    );
  }
});

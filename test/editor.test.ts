import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { applyPatch, applySearchReplace, createEditor, createPatch, type Editor, EditError, replace } from "../src/index.ts";
import { lineScanStats } from "../src/text/document.ts";

type Outcome = { ok: true; result: unknown } | { ok: false; code: string; message: string };

function outcome(run: () => { content: string }): Outcome {
  try {
    return { ok: true, result: run() };
  } catch (error) {
    if (!(error instanceof EditError)) throw error;
    return { ok: false, code: error.code, message: error.message };
  }
}

/** One edit, made of the current text: applied to a text or an editor the same way. */
type Step = (target: string | Editor, current: string) => { content: string };

const lineArb = fc.constantFrom("function f() {", "  return x;", "}", "", "    if (a) b();", "\tconst y = 2;", "// note", "x", "  }", "end");
const textArb = fc.tuple(fc.array(lineArb, { minLength: 0, maxLength: 25 }), fc.constantFrom("\n", "\r\n"), fc.boolean()).map(([lines, eol, final]) => lines.join(eol) + (final && lines.length > 0 ? eol : ""));

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  // str_replace of some lines as they are, re-indented, or with a typo; sometimes replaceAll.
  fc.tuple(fc.nat(), fc.integer({ min: 1, max: 4 }), fc.constantFrom("same", "indent", "typo", "absent"), lineArb, fc.boolean()).map(
    ([at, count, how, added, all]): Step =>
      (target, current) => {
        const lines = current.replace(/\r\n/g, "\n").split("\n");
        const from = lines.length === 0 ? 0 : at % lines.length;
        let old = lines.slice(from, from + count);
        if (how === "indent") old = old.map((l) => `  ${l}`);
        if (how === "typo") old = old.map((l, k) => (k === 0 ? `${l}q` : l));
        if (how === "absent") old = ["nowhere to be found"];
        const oldString = old.join("\n");
        return replace(target, oldString, `${oldString}\n${added}`, all ? { replaceAll: true } : {});
      },
  ),
  // SEARCH/REPLACE blocks, one of them perhaps failing.
  fc.tuple(fc.nat(), fc.nat(), lineArb).map(
    ([a, b, added]): Step =>
      (target, current) => {
        const lines = current.replace(/\r\n/g, "\n").split("\n");
        const one = lines[a % Math.max(1, lines.length)] ?? "";
        const two = b % 3 === 0 ? "not in the text" : (lines[b % Math.max(1, lines.length)] ?? "");
        const block = (find: string) => `<<<<<<< SEARCH\n${find}\n=======\n${find}\n${added}\n>>>>>>> REPLACE\n`;
        return applySearchReplace(target, `${block(one)}\n${block(two)}`);
      },
  ),
  // A unified diff made of the text with a line inserted, with or without line numbers.
  fc.tuple(fc.nat(), lineArb, fc.boolean()).map(
    ([at, added, numbered]): Step =>
      (target, current) => {
        const lines = current.split("\n");
        const k = at % (lines.length + 1);
        const next = [...lines.slice(0, k), added, ...lines.slice(k)].join("\n");
        const patch = createPatch(current, next);
        return applyPatch(target, numbered ? patch : patch.replace(/^@@ .* @@/gm, "@@ @@"));
      },
  ),
);

test("an editor gives the results the string calls give, edit after edit", () => {
  fc.assert(
    fc.property(textArb, fc.array(stepArb, { minLength: 1, maxLength: 8 }), (start, steps) => {
      const editor = createEditor(start);
      let text = start;
      for (const step of steps) {
        const viaText = outcome(() => step(text, text));
        const viaEditor = outcome(() => step(editor, editor.content));
        assert.deepEqual(viaEditor, viaText);
        if (viaText.ok) text = (viaText.result as { content: string }).content;
        assert.equal(editor.content, text);
      }
    }),
    { numRuns: 400 },
  );
});

test("the second edit through an editor numbers only the lines its first edit changed", () => {
  const lines = Array.from({ length: 20_000 }, (_, i) => `  entry_${i}(value_${i});`);
  const text = `${lines.join("\n")}\n`;
  const editor = createEditor(text);
  replace(editor, "entry_19000(value_19000);", "entry_19000(changed);");
  const before = lineScanStats.lines;
  const second = replace(editor, "entry_15000(value_15000);", "entry_15000(changed);\n  added();");
  assert.equal(second.match.startLine, 15001);
  assert.ok(lineScanStats.lines - before <= 4, `numbered ${lineScanStats.lines - before} lines`);
  // The same edit on the string numbers its match afresh: by counting the line breaks before it
  // (the line table's window jumps there, document.ts), not by recording their starts.
  const fresh = lineScanStats.lines;
  const again = replace(second.content.replace("added();", "added( );"), "entry_15000(changed);", "entry_15000(again);");
  assert.equal(again.match.startLine, 15001);
  assert.ok(lineScanStats.lines - fresh < 100, `recorded ${lineScanStats.lines - fresh} line starts`);
  assert.equal(editor.content, second.content);
});

test("a failed edit leaves the editor's text as it was", () => {
  const editor = createEditor("a\nb\n");
  assert.throws(() => replace(editor, "zzz", "y"), { code: "NOT_FOUND" });
  assert.equal(editor.content, "a\nb\n");
  assert.throws(() => createEditor(42 as unknown as string), { code: "INVALID_INPUT" });
});

/**
 * The call's allowance for searches beyond exact text
 * (src/engine/search-allowance.ts, `limits.maxFuzzySteps`) and the exact
 * search of SEARCH sections through the line index
 * (src/engine/whole-line-exact.ts): a near miss past the allowance is
 * refused TOO_LARGE naming the limit, with nothing written; exact blocks are
 * never counted; and the line index's places give the scan's answers.
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { wholeLineSearch } from "../src/engine/whole-line-exact.ts";
import { applySearchReplace } from "../src/formats/search-replace.ts";
import { applyEdits } from "../src/fs/apply-edits.ts";
import { DEFAULT_LIMITS } from "../src/limits.ts";
import { makeTree } from "./helpers/temp-tree.ts";

const sr = (search: string, replace: string) => `<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE\n`;
const code = (i: number) => `  const v${i} = compute(${i}, "v");`;
const FILE = `${Array.from({ length: 60 }, (_, i) => code(i)).join("\n")}\n`;
/** Found only beyond exact text: the model doubled a space. */
const nearMiss = (i: number) => sr(code(i).replace(" = ", " =  "), `  const v${i} = 0;`);
const exactBlock = (i: number) => sr(code(i), `  const v${i} = 1;`);

const cases: { name: string; blocks: string[]; limit?: number; applied: number; refused: number[] }[] = [
  { name: "within the default allowance every near miss is searched and found", blocks: [nearMiss(3), nearMiss(9), nearMiss(20)], applied: 3, refused: [] },
  { name: "past a tiny allowance the second near miss is refused unsearched", blocks: [nearMiss(3), nearMiss(9)], limit: 1, applied: 1, refused: [1] },
  {
    name: "exact blocks are never counted, before or after the allowance is spent",
    blocks: [exactBlock(1), nearMiss(3), exactBlock(5), exactBlock(7), nearMiss(9), exactBlock(11)],
    limit: 1,
    applied: 5,
    refused: [4],
  },
  {
    name: "past the allowance a numbered block whose numbers stripped are the file's text is still found exactly",
    blocks: [nearMiss(3), sr(`10 | ${code(9)}\n11 | ${code(10)}`, `10 | ${code(9)}\n11 |   const v10 = 1;`)],
    limit: 1,
    applied: 2,
    refused: [],
  },
];

for (const c of cases) {
  test(`applySearchReplace: ${c.name}`, () => {
    const r = applySearchReplace(FILE, c.blocks.join(""), c.limit === undefined ? {} : { limits: { maxFuzzySteps: c.limit } });
    assert.equal(r.applied.length, c.applied);
    assert.deepEqual(
      r.failed.map((e) => e.detail.index),
      c.refused,
    );
    for (const e of r.failed) {
      assert.equal(e.code, "TOO_LARGE");
      assert.equal(e.detail.limit, "maxFuzzySteps");
      assert.match(e.message, /not in the file exactly as written .*'maxFuzzySteps' limit/s);
    }
  });
}

test("the default allowance is the documented one", () => {
  assert.equal(DEFAULT_LIMITS.maxFuzzySteps, 1_200_000);
});

test("a near miss anchored on `}` lines counts the `}` lines it examines: fewer fit in the allowance on a larger file", () => {
  // `}` + code + `}` where `}` is every other line: BlockAnchor walks every `}` as a first line and checks the
  // lines after each for the last one, work that grows with the file (issue 39: 115 such searches fitted
  // whatever the file's size, ~0.5 s of CPU on 12,000 pairs). Counted, a larger file lets fewer start.
  const searched = (pairs: number) => {
    const file = Array.from({ length: pairs }, (_, i) => `${code(i)}\n}\n`).join("");
    const blocks = Array.from({ length: 20 }, (_, k) => sr(`}\n${code(k).replace("v", "w")}\n}`, `}\n// ${k}\n}`)).join("");
    const r = applySearchReplace(file, blocks, { limits: { maxFuzzySteps: 100_000 } });
    for (const e of r.failed) if (e.code === "TOO_LARGE") assert.doesNotMatch(e.stack ?? "", /\n\s+at /, "a refusal carries no stack");
    return r.failed.filter((e) => e.code !== "TOO_LARGE").length;
  };
  const small = searched(1_000);
  const large = searched(4_000);
  assert.ok(large > 0 && large < small, `near misses searched: ${small} on 1,000 pairs, ${large} on 4,000`);
});

test("a near miss is charged the scans of the text it searches: fewer fit in the allowance on a longer text", () => {
  // One-line blocks with a typo count few steps of their own, but each scans the whole text several times:
  // charged a flat 500 steps, 2,000 of them on 1 MB fitted the default allowance and took 2-3 s of CPU.
  const searched = (lines: number) => {
    const file = `${Array.from({ length: lines }, (_, i) => code(i)).join("\n")}\n`;
    const blocks = Array.from({ length: 40 }, (_, k) => sr(code(k * 7).replace("compute", "compte"), `  const v${k * 7} = 0;`)).join("");
    const r = applySearchReplace(file, blocks, { limits: { maxFuzzySteps: 20_000 } });
    return 40 - r.failed.filter((e) => e.code === "TOO_LARGE").length;
  };
  const short = searched(1_000);
  const long = searched(20_000);
  assert.ok(long < short, `near misses searched: ${short} on 1,000 lines, ${long} on 20,000`);
  assert.ok(long > 0);
});

test("maxFuzzySteps is validated like the other limits", () => {
  assert.throws(() => applySearchReplace(FILE, nearMiss(3), { limits: { maxFuzzySteps: 0 } }), { code: "INVALID_INPUT", message: /limits\.maxFuzzySteps/ });
});

test("applyEdits: one allowance spans the response's blocks; the refused block fails the file and nothing is written", async () => {
  // Each block is an engine call of its own in the file layer, and most are carried (carried-text.ts).
  const blocks = [exactBlock(1), exactBlock(2), nearMiss(30), exactBlock(40), exactBlock(41), nearMiss(50), exactBlock(55)];
  const t = await makeTree({ "f.txt": FILE });
  const r = await applyEdits(t.root, `f.txt\n${blocks.join("")}`, { limits: { maxFuzzySteps: 1 } });
  assert.equal(r.ok, false);
  assert.equal(r.written, false);
  const edits = r.files[0]?.edits ?? [];
  assert.deepEqual(
    edits.map((e) => e.status),
    ["applied", "applied", "applied", "applied", "applied", "failed", "applied"],
  );
  assert.equal(edits[5]?.error?.code, "TOO_LARGE");
  assert.match(edits[5]?.error?.message ?? "", /maxFuzzySteps/);
  assert.equal(await readFile(path.join(t.root, "f.txt"), "utf8"), FILE);
  // The same response within the default allowance: every block applied and written.
  const all = await applyEdits(t.root, `f.txt\n${blocks.join("")}`);
  assert.equal(all.ok, true);
  assert.match(await readFile(path.join(t.root, "f.txt"), "utf8"), /const v50 = 0;/);
});

test("applyEdits: a block applied beyond its exact text is charged the text it makes, which the next block reads anew", async () => {
  // Two-line blocks with a typo in their first line, found fuzzily and applied: each made a new text of the file,
  // and the next block read it anew (~15 ms on 1 MB): 501 such blocks on 1 MB took 3.3 s of CPU, 234 applied within
  // the allowance. Charged REBUILD_STEPS per SCAN_CHARS of that text, fewer fit on a longer file, and fewer than
  // the near misses that apply nothing.
  const applied = async (lines: number, apply: boolean) => {
    const file = `${Array.from({ length: lines }, (_, i) => code(i)).join("\n")}\n`;
    const blocks = Array.from({ length: 40 }, (_, k) => {
      const i = 2 * k * 7;
      return apply ? sr(`${code(i).replace("compute", "compte")}\n${code(i + 1)}`, `  const v${i} = 0;\n${code(i + 1)}`) : sr(code(i).replace("compute", "compte"), "x");
    });
    const t = await makeTree({ "f.txt": file });
    const r = await applyEdits(t.root, `f.txt\n${blocks.join("")}`, { limits: { maxFuzzySteps: 100_000 }, partial: true, dryRun: true });
    const edits = r.files[0]?.edits ?? [];
    return 40 - edits.filter((e) => e.error?.code === "TOO_LARGE").length;
  };
  const short = await applied(1_000, true);
  const long = await applied(10_000, true);
  assert.ok(long < short && long > 0, `fuzzy blocks applied: ${short} on 1,000 lines, ${long} on 10,000`);
  assert.ok(long < (await applied(10_000, false)), "fewer than near misses that apply nothing");
});

/** Lines that share trimmed texts, indentation, blanks the line index trims or keeps, and lines inside longer ones. */
const PIECES = ["x = 1;", "x = 1; // more", "  x = 1;", "\tx = 1;", "x = 1;  ", "x = 1;\u3000", "y();", "  y();", "}", "", "   ", "x = 1; y();"];
const fileLines = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 80 });
const findText = fc.oneof(
  fc.constantFrom(...PIECES).filter((s) => s.trim() !== ""),
  fc.tuple(fc.constantFrom(...PIECES), fc.constantFrom(...PIECES)).map(([a, b]) => `${a}\n${b}`),
);

test("SEARCH sections placed through the line index get the answers the scan gives", () => {
  fc.assert(
    fc.property(fileLines, fc.array(findText, { minLength: 16, maxLength: 18 }), fc.boolean(), (lines, finds, withWide) => {
      // A text with U+3000 takes the scan for one-line find texts; without, the index.
      const text = `${(withWide ? lines : lines.map((l) => l.replace("\u3000", " "))).join("\n")}\n`;
      // 16 blocks or more: the call builds its line index on its first lookup.
      const diff = finds.map((f, k) => sr(f, `changed ${k}`)).join("");
      const answer = () => {
        try {
          return JSON.stringify(applySearchReplace(text, diff));
        } catch (error) {
          return `threw ${String(error)}`;
        }
      };
      const indexed = answer();
      wholeLineSearch.on = false;
      try {
        assert.equal(indexed, answer());
      } finally {
        wholeLineSearch.on = true;
      }
    }),
    { numRuns: 120 },
  );
});

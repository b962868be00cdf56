/**
 * Issue 14's budget property, bounded for `npm test`: files and edits shaped
 * for the slow paths, through every public entry point, never throw anything
 * but EditError and never run out of a generous budget; a tiny budget gives
 * TIMEOUT or a whole result, and never a partial write. No time is asserted
 * here: `npm run fuzz -- 10000 <seed> budget` runs the same properties at
 * length on files up to 64 kB, bounds each call's CPU time and prints the
 * slowest input. A failure prints its seed and a small spec of the input
 * (test/helpers/budget-inputs.ts builds the text from it).
 *
 * Files here are up to 16 kB (`BUDGET_MAX_CHARS`): at 64 kB the matcher
 * still has quadratic paths (BlankLines aligning the query around every
 * occurrence of its anchor line, the word-sequence search restarting at
 * every occurrence of its first word) that take 3–9 s of CPU, past the 10 s
 * budget on a loaded machine. Raise it to 65536 once those are bounded.
 */
import { test } from "node:test";
import fc from "fast-check";
import { budgetProperties } from "./helpers/budget-properties.ts";

const MAX_CHARS = Number(process.env.BUDGET_MAX_CHARS ?? 16 * 1024);
/** Inputs per property: the file layer's properties write to disk, so fewer. `BUDGET_RUNS` scales them. */
const SCALE = Number(process.env.BUDGET_RUNS ?? 1);
const runsOf = (entry: string) => Math.max(1, Math.round((entry === "applyEdits" ? 15 : 40) * SCALE));

for (const p of budgetProperties(MAX_CHARS)) {
  test(`budget property (${p.entry}), files up to ${MAX_CHARS} characters: ${p.name}`, async () => {
    await fc.assert(p.property as fc.IRawProperty<unknown[]>, { numRuns: runsOf(p.entry) });
  });
}

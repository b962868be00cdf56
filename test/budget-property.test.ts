/**
 * Issue 14's budget property, bounded for `npm test`: files and edits up to
 * 64 kB, shaped for the slow paths, through every public entry point, never
 * throw anything but EditError and never run out of a generous budget; a
 * tiny budget gives TIMEOUT or a whole result, and never a partial write.
 * No time is asserted here: `npm run fuzz -- 10000 <seed> budget` runs the
 * same properties at length, bounds each call's CPU time and prints the
 * slowest input. A failure prints its seed and a small spec of the input
 * (test/helpers/budget-inputs.ts builds the text from it).
 */
import { test } from "node:test";
import fc from "fast-check";
import { budgetProperties } from "./helpers/budget-properties.ts";

/** Inputs per property: the file layer's properties write to disk, so fewer. `BUDGET_RUNS` scales them. */
const SCALE = Number(process.env.BUDGET_RUNS ?? 1);
const runsOf = (entry: string) => Math.max(1, Math.round((entry === "applyEdits" ? 15 : 40) * SCALE));

for (const p of budgetProperties) {
  test(`budget property (${p.entry}): ${p.name}`, async () => {
    await fc.assert(p.property as fc.IRawProperty<unknown[]>, { numRuns: runsOf(p.entry) });
  });
}

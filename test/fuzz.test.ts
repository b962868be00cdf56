/**
 * The property suite of issue 15, bounded to a few seconds: every property
 * that holds on today's code, with a fixed number of runs. fast-check prints
 * the seed and the shrunk counterexample of a failure; replay it with
 * `npm run fuzz -- <runs> <seed>`. The long run (`npm run fuzz`) also runs the
 * properties marked `known` (failing by design).
 */
import { test } from "node:test";
import fc from "fast-check";
import { properties } from "./helpers/fuzz-properties.ts";

const RUNS = Number(process.env.FUZZ_RUNS ?? 1500);

for (const p of properties.filter((x) => x.known === undefined && x.ownTest === undefined)) {
  test(`property (${p.entry}): ${p.name}`, async () => {
    await fc.assert(p.property as fc.IRawProperty<unknown[]>, { numRuns: RUNS });
  });
}

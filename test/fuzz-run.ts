/**
 * The long property run of issue 15: `npm run fuzz -- [runs] [seed]` runs
 * every property of test/helpers/fuzz-properties.ts (10^5 inputs each by
 * default), those known to fail on today's code included, and prints per
 * property the inputs run, the time, and the first failure (shrunk) with its
 * seed. Exits 1 when a property not marked `known` fails.
 */
import fc from "fast-check";
import { setCpuBound } from "./helpers/budget-properties.ts";
import { properties } from "./helpers/fuzz-properties.ts";

const runs = Number(process.argv[2] ?? 100_000);
const seed = process.argv[3] === undefined ? Date.now() % 2 ** 31 : Number(process.argv[3]);
const only = process.argv[4];
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(seed)) {
  console.error("usage: npm run fuzz -- [runs (default 100000)] [seed] [name filter]");
  process.exit(2);
}

// The budget properties assert each call's CPU time under this bound here (never in npm test),
// and print each call over 200 ms (issue 14's "a bug at 64 kB") to stderr as it happens.
// FUZZ_REPORT_ONLY=1: slow calls and TIMEOUTs are printed, not failures (the run goes on to the end).
const cpuBound = Number(process.env.FUZZ_CPU_BOUND_MS ?? 1000);
const reportOnly = process.env.FUZZ_REPORT_ONLY === "1";
setCpuBound(cpuBound, Number(process.env.FUZZ_LOG_SLOW_MS ?? 200), reportOnly);
console.log(`fuzz: ${runs} inputs per property, seed ${seed}, CPU bound per call ${cpuBound} ms (budget properties)${reportOnly ? ", report only" : ""}`);
let unexpected = 0;
for (const p of properties.filter((x) => only === undefined || x.name.includes(only))) {
  const started = performance.now();
  const details = await fc.check(p.property as fc.IRawProperty<unknown[]>, { numRuns: runs, seed });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const label = `[${p.entry}] ${p.name}`;
  if (!details.failed) {
    console.log(`ok    ${details.numRuns} inputs  ${seconds} s  ${label}`);
    if (p.summary) console.log(`      ${p.summary()}`);
    continue;
  }
  if (p.known === undefined) unexpected++;
  console.log(`FAIL  after ${details.numRuns} inputs  ${seconds} s  ${label}${p.known ? `  (known: ${p.known})` : ""}`);
  console.log(`      seed ${details.seed}, path ${details.counterexamplePath}`);
  console.log(`      counterexample ${JSON.stringify(details.counterexample)?.slice(-700)}`);
  console.log(`      ${String((details.errorInstance as Error)?.message ?? details.errorInstance).split("\n").slice(0, 6).join("\n      ")}`);
  if (p.summary) console.log(`      ${p.summary()}`);
}
process.exit(unexpected > 0 ? 1 : 0);

/**
 * Speed of applySearchReplace() on TypeScript's own lib/typescript.js
 * (~200k lines): one 10-line block late in the file, exact and re-indented
 * (tabs for the file's spaces), each with and without a correct
 * `:start_line:` hint. Every run parses the diff, builds the document,
 * locates and splices: the whole call a tool would make. Prints the median
 * and max per case; the target is a median under 20 ms.
 *
 * Usage: npm run bench:search-replace [-- --runs N]
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { applySearchReplace } from "../src/formats/search-replace.ts";

const require = createRequire(import.meta.url);
const source = readFileSync(require.resolve("typescript/lib/typescript.js"), "utf8");
const lines = source.split("\n");
const runsArg = process.argv.indexOf("--runs");
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 25;
const SIZE = 10;

/** A unique region of indented, distinct, non-blank lines at ~80% of the file: far from the top. */
function pickRegion(): number {
  for (let i = Math.floor(lines.length * 0.8); i < lines.length - SIZE; i++) {
    const region = lines.slice(i, i + SIZE);
    if (region.every((l) => l.trim().length > 3 && l.startsWith("    ")) && new Set(region).size === SIZE) {
      const text = region.join("\n");
      if (source.indexOf(text) === source.lastIndexOf(text)) return i;
    }
  }
  throw new Error("no unique region found");
}

const start = pickRegion();
const region = lines.slice(start, start + SIZE);
const toTabs = (l: string) => l.replace(/^ +/, (m) => "\t".repeat(Math.ceil(m.length / 4)));
// The edit: a comment line added after the first line of the region.
const withEdit = (r: string[]) => [r[0] ?? "", `${(r[0] ?? "").match(/^\s*/)?.[0] ?? ""}// edited`, ...r.slice(1)];
const diff = (r: string[], hint?: number) =>
  `<<<<<<< SEARCH\n${hint === undefined ? "" : `:start_line:${hint}\n-------\n`}${r.join("\n")}\n=======\n${withEdit(r).join("\n")}\n>>>>>>> REPLACE\n`;

const cases: { name: string; diff: string }[] = [
  { name: "exact, no hint", diff: diff(region) },
  { name: "exact, correct hint", diff: diff(region, start + 1) },
  { name: "re-indented, no hint", diff: diff(region.map(toTabs)) },
  { name: "re-indented, correct hint", diff: diff(region.map(toTabs), start + 1) },
];

const expected = [...lines.slice(0, start), ...withEdit(region), ...lines.slice(start + SIZE)].join("\n");
let sink = 0;

console.log(`typescript.js: ${lines.length} lines, block of ${SIZE} lines at line ${start + 1}, ${RUNS} runs per case`);
for (const c of cases) {
  const times: number[] = [];
  let strategy = "";
  for (let k = 0; k < RUNS + 2; k++) {
    const t0 = performance.now();
    const r = applySearchReplace(source, c.diff);
    const ms = performance.now() - t0;
    if (r.failed.length > 0 || r.applied.length !== 1) throw new Error(`${c.name}: ${r.failed[0]?.message ?? "not applied"}`);
    strategy = r.applied[0]?.strategy ?? "";
    sink += r.content.length;
    // Re-indented replacement lines follow the file's spaces, so the output is the exact edit either way.
    if (k === 0 && r.content !== expected) throw new Error(`${c.name}: unexpected output`);
    if (k >= 2) times.push(ms); // two warm-up runs
  }
  times.sort((a, b) => a - b);
  const median = times[times.length >> 1] ?? 0;
  const max = times[times.length - 1] ?? 0;
  console.log(`${c.name.padEnd(28)} ${strategy.padEnd(14)} median ${median.toFixed(2).padStart(7)} ms   max ${max.toFixed(2).padStart(7)} ms${median > 20 ? "   (over the 20 ms target)" : ""}`);
}
if (sink === 0) console.log("");

/**
 * Speed of applyPatch() on TypeScript's own lib/typescript.js (~200k lines):
 * a 3-hunk fuzzy patch (createPatch, hunks at 20 %, 50 % and 80 % of the
 * file) applied exactly, the same patch with its context re-indented (every
 * hunk found by line-trimmed), and a standard patch with line numbers.
 * The patches are made once; only applyPatch is timed. Prints median and
 * max per case. Target: under 30 ms median for the exact fuzzy patch.
 *
 * Usage: npm run bench:unified [-- --runs N]
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createPatch } from "../src/formats/create-patch.ts";
import { applyPatch } from "../src/formats/unified-apply.ts";
import { median } from "./median.ts";

const require = createRequire(import.meta.url);
const source = readFileSync(require.resolve("typescript/lib/typescript.js"), "utf8");
const runsArg = process.argv.indexOf("--runs");
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 25;

/** An indented line with a statement near `fraction` of the file, to change. */
function pickLine(lines: string[], fraction: number): number {
  for (let i = Math.floor(lines.length * fraction); i < lines.length; i++) {
    const l = lines[i] ?? "";
    if (l.startsWith("    ") && l.trim().length > 20 && l.trim().endsWith(";")) return i;
  }
  throw new Error("no line to change");
}

const lines = source.split("\n");
const edited = [...lines];
for (const fraction of [0.2, 0.5, 0.8]) {
  const at = pickLine(lines, fraction);
  edited[at] = `${edited[at]} // edited`;
  edited.splice(at + 1, 0, `${(edited[at] ?? "").match(/^\s*/)?.[0] ?? ""}inserted();`);
}
const target = edited.join("\n");
const fuzzy = createPatch(source, target, { fuzzy: true });
// The model's usual slip: the hunk written with other indentation (tabs for 4 spaces).
const reindented = fuzzy
  .split("\n")
  .map((l) => (/^[ +-]/.test(l) && !l.startsWith("---") && !l.startsWith("+++") ? l[0] + l.slice(1).replace(/^ +/, (m) => "\t".repeat(Math.floor(m.length / 4)) + " ".repeat(m.length % 4)) : l))
  .join("\n");
const standard = createPatch(source, target, { fuzzy: false });

const cases: [string, string][] = [
  ["fuzzy, exact context", fuzzy],
  ["fuzzy, re-indented context", reindented],
  ["standard (numbered)", standard],
];
console.log(`applyPatch() on typescript.js (${lines.length} lines), 3 hunks, ${RUNS} runs each (ms)\n`);
console.log("| case | median | max | strategies |");
console.log("|---|---:|---:|---|");
for (const [name, patch] of cases) {
  const times: number[] = [];
  let strategies = "";
  for (let r = 0; r < RUNS + 2; r++) {
    const t0 = performance.now();
    const result = applyPatch(source, patch);
    const dt = performance.now() - t0;
    if (r >= 2) times.push(dt); // two warm-up runs
    if (result.content !== target) throw new Error(`${name}: wrong result`);
    strategies = result.hunks.map((h) => h.strategy).join(", ");
  }
  console.log(`| ${name} | ${median(times).toFixed(2)} | ${Math.max(...times).toFixed(2)} | ${strategies} |`);
}

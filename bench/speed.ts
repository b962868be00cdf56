/**
 * Speed of replace() on real large files: TypeScript's own lib/typescript.js
 * (~200k lines) and 1k/10k/100k-line slices of it. A 20-line edit that is
 * exact, re-indented, whitespace-collapsed, one token different, and absent
 * (every strategy runs). Prints median and max per case and size, and the
 * 100k/10k time ratio (≈10 means linear growth).
 *
 * Usage: npm run bench [-- --runs N]
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { EditError, replace } from "../src/index.ts";

const require = createRequire(import.meta.url);
const source = readFileSync(require.resolve("typescript/lib/typescript.js"), "utf8");
const allLines = source.split("\n");
const runsArg = process.argv.indexOf("--runs");
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 15;

/** A 20-line region late in the slice (the worst place for a scan from the top), indented, with distinct non-blank lines. */
function pickRegion(lines: string[], content: string): number {
  for (let i = Math.floor(lines.length * 0.8); i < lines.length - 20; i++) {
    const block = lines.slice(i, i + 20);
    if (block.every((l) => l.trim().length > 3 && l.startsWith("  ")) && new Set(block).size === 20) {
      const text = block.join("\n");
      if (content.indexOf(text) === content.lastIndexOf(text)) return i;
    }
  }
  throw new Error("no 20-line region found");
}

type Case = { name: string; old: (b: string[]) => string; expectError?: boolean };
const cases: Case[] = [
  { name: "exact", old: (b) => b.join("\n") },
  { name: "re-indented", old: (b) => b.map((l) => l.replace(/^ +/, (m) => "\t".repeat(Math.ceil(m.length / 4)))).join("\n") },
  { name: "whitespace-collapsed", old: (b) => b.map((l) => l.trim().replace(/\s+/g, " ")).join("\n") },
  {
    name: "one-token-different",
    old: (b) => b.map((l, k) => (k === 10 ? l.replace(/[A-Za-z_]\w{3,}/, "misremembered") : l)).join("\n"),
  },
  { name: "absent", old: (b) => b.map((l) => `${l} /* not in file */`).join("\n"), expectError: true },
];

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1] ?? 0;
}

const sizes = [1_000, 10_000, 100_000, allLines.length];
const results = new Map<string, number>();
console.log(`replace() on typescript.js slices, ${RUNS} runs each (ms)\n`);
console.log("| case | lines | median | max | strategy |");
console.log("|---|---:|---:|---:|---|");
for (const size of sizes) {
  const lines = allLines.slice(0, size);
  const content = lines.join("\n");
  const at = pickRegion(lines, content);
  const block = lines.slice(at, at + 20);
  for (const c of cases) {
    const oldString = c.old(block);
    const newString = `${oldString}\n// edited`;
    const times: number[] = [];
    let strategy = "";
    for (let r = 0; r < RUNS; r++) {
      const t0 = performance.now();
      try {
        strategy = replace(content, oldString, newString).match.strategy;
      } catch (e) {
        if (!(e instanceof EditError)) throw e;
        strategy = e.code;
      }
      times.push(performance.now() - t0);
    }
    const med = median(times);
    results.set(`${c.name}:${size}`, med);
    console.log(`| ${c.name} | ${size} | ${med.toFixed(2)} | ${Math.max(...times).toFixed(2)} | ${strategy} |`);
  }
}
console.log("\nGrowth, median at 100k lines / median at 10k lines (10 = linear):");
for (const c of cases) {
  const ratio = (results.get(`${c.name}:100000`) ?? 0) / (results.get(`${c.name}:10000`) ?? 1);
  console.log(`- ${c.name}: ${ratio.toFixed(1)}`);
}

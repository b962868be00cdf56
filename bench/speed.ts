/**
 * Speed on a real large file: TypeScript's own lib/typescript.js (~200k
 * lines). Per edit format (str_replace, SEARCH/REPLACE, unified diff with
 * numbers, fuzzy `@@ @@` diff) and per kind of edit (exact, re-indented, one
 * typo, absent, anchor trap — the last two must be refused), 20 edits spread
 * over the file, each run several times: median and max per call, next to
 * one `indexOf` scan of the same file measured in the same run (the physical
 * floor: an edit should cost about one scan). Then the str_replace growth
 * over 1k/10k/100k-line slices (≈10 per ×10 lines is linear). Each call is
 * timed by the wall clock and by the process's CPU time (user + system), the
 * steadier figure on a shared, loaded machine.
 *
 * Then the file layer and the MCP server on the same file and edits
 * (file-layer.ts): applyEdits dry run and written, a V4A patch, edit_file
 * round trips, peak memory.
 *
 * Usage: npm run bench [-- --runs N] [--only "format:kind"] [--file-layer] [--mcp] [--engine]
 * (--only, e.g. "udiff:typo", runs that one row and skips the other tables:
 * for profiling with `node --cpu-prof --import tsx bench/speed.ts --only …`;
 * --file-layer runs only the file layer's tables, after the str_replace
 * exact row: issue 23's target is that row next to the indexOf scan; --mcp
 * runs only the MCP edit_file table, next to the floor of a written edit;
 * --engine only the per-format table and its scan ratios).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { applyPatch, applySearchReplace, applyV4A, EditError, replace } from "../src/index.ts";
import { findAmbiguous } from "./ambiguous-windows.ts";
import { benchFileLayer, benchMcpAlone } from "./file-layer.ts";
import { median } from "./median.ts";
import { pickRegions, REGION_LINES } from "./pick-regions.ts";

const require = createRequire(import.meta.url);
const sourcePath = require.resolve("typescript/lib/typescript.js");
const source = readFileSync(sourcePath, "utf8");
const allLines = source.split("\n");
const runsArg = process.argv.indexOf("--runs");
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 5;
const FILE_LAYER_ONLY = process.argv.includes("--file-layer");
const MCP_ONLY = process.argv.includes("--mcp");
const ENGINE_ONLY = process.argv.includes("--engine");
const onlyArg = process.argv.indexOf("--only");
const ONLY = onlyArg > 0 ? process.argv[onlyArg + 1] : undefined;
const EDITS = 20;
const SIZE = REGION_LINES;

const toTabs = (l: string) => l.replace(/^ +/, (m) => "\t".repeat(Math.ceil(m.length / 4)));
/** Letters rotated by 13: same shape, indentation and punctuation, text that is nowhere in the file. */
const rot13 = (l: string) => l.replace(/[a-z]/gi, (c) => String.fromCharCode(((c.toLowerCase().charCodeAt(0) - 97 + 13) % 26) + (c <= "Z" ? 65 : 97)));

type Kind = { name: string; refuse: boolean; old: (block: string[]) => string[] };
const kinds: Kind[] = [
  { name: "exact", refuse: false, old: (b) => b },
  { name: "re-indented", refuse: false, old: (b) => b.map(toTabs) },
  { name: "typo", refuse: false, old: (b) => b.map((l, k) => (k === 6 ? l.replace(/[A-Za-z_]\w{3,}/, (w) => `${w.slice(0, -1)}Q`) : l)) },
  { name: "absent", refuse: true, old: (b) => b.map(rot13) },
  // The region's real first and last lines around a middle that is nowhere: anchors that lead to the wrong text.
  { name: "anchor trap", refuse: true, old: (b) => [b[0] ?? "", ...b.slice(1, -1).map(rot13), b[b.length - 1] ?? ""] },
  // Three real lines that stand in 2-10 places: refused as AMBIGUOUS (each edit a different window; the region is not used).
  { name: "ambiguous", refuse: true, old: () => ambiguousWindows[ambiguousNext++ % ambiguousWindows.length] ?? [] },
];

const ambiguousWindows = findAmbiguous(allLines, EDITS);
let ambiguousNext = 0;

const withEdit = (old: string[]) => [...old, `${old[old.length - 1]?.match(/^\s*/)?.[0] ?? ""}// edited`];

type Format = { name: string; run: (content: string, old: string[], at: number) => boolean };
const hunk = (old: string[], header: string) =>
  `${header}\n${old.map((l) => ` ${l}`).join("\n")}\n+${withEdit(old)[old.length]}\n`;
const formats: Format[] = [
  { name: "str_replace", run: (c, old) => replace(c, old.join("\n"), withEdit(old).join("\n")).content !== c },
  {
    name: "SEARCH/REPLACE",
    run: (c, old) => {
      const r = applySearchReplace(c, `<<<<<<< SEARCH\n${old.join("\n")}\n=======\n${withEdit(old).join("\n")}\n>>>>>>> REPLACE\n`);
      if (r.failed[0]) throw r.failed[0];
      return r.applied.length === 1;
    },
  },
  { name: "udiff", run: (c, old, at) => applyPatch(c, hunk(old, `@@ -${at + 1},${old.length} +${at + 1},${old.length + 1} @@`)).hunks.length === 1 },
  { name: "fuzzy diff", run: (c, old) => applyPatch(c, hunk(old, "@@ @@")).hunks.length === 1 },
  // A headerless Codex V4A section: the region as context, a line added after it.
  { name: "V4A", run: (c, old) => applyV4A(c, hunk(old, "@@")).chunks.length === 1 },
];

const content = source;
const regions = pickRegions(allLines, content, EDITS);
const scans: number[] = [];
const scanCpu: number[] = [];
// A needle that is absent but whose first characters are everywhere (indentation, a common word): a real scan.
const needle = `${allLines[regions[0] ?? 0]} /* nowhere */`;
let sink = 0;
const scan = () => {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  sink += content.indexOf(needle);
  scans.push(performance.now() - t0);
  const used = process.cpuUsage(c0);
  scanCpu.push((used.user + used.system) / 1000);
};

if (MCP_ONLY) {
  const edits = regions.map((at) => {
    const block = allLines.slice(at, at + SIZE);
    return { block, old: block, neu: withEdit(block) };
  });
  await benchMcpAlone(sourcePath, edits, Math.max(1, Math.ceil(RUNS / 2)));
  process.exit(0);
}

console.log(`typescript.js: ${allLines.length} lines, ${regions.length} edits of ${SIZE} lines per format and kind, ${RUNS} runs each (ms per call)\n`);
console.log("| format | kind | median | max | CPU median | CPU max | applied / refused | wrong |");
console.log("|---|---|---:|---:|---:|---:|---|---:|");
let exactMedian: number | undefined;
const exactByFormat = new Map<string, { wall: number; cpu: number }>();
for (const f of formats) {
  for (const kind of kinds) {
    if (ONLY && ONLY !== `${f.name}:${kind.name}`) continue;
    if (FILE_LAYER_ONLY && `${f.name}:${kind.name}` !== "str_replace:exact") continue;
    const times: number[] = [];
    const cpu: number[] = [];
    const outcomes = new Map<string, number>();
    let wrong = 0;
    regions.forEach((at) => {
      const block = allLines.slice(at, at + SIZE);
      const old = kind.old(block);
      for (let r = 0; r < RUNS; r++) {
        scan();
        let outcome: string;
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        try {
          outcome = f.run(content, old, at) ? "applied" : "unchanged";
        } catch (e) {
          if (!(e instanceof EditError)) throw e;
          outcome = e.code;
        }
        times.push(performance.now() - t0);
        const used = process.cpuUsage(c0);
        cpu.push((used.user + used.system) / 1000);
        if (r === 0) {
          outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
          if ((outcome === "applied") === kind.refuse) wrong++;
        }
      }
    });
    if (f.name === "str_replace" && kind.name === "exact") exactMedian = median(times);
    if (kind.name === "exact") exactByFormat.set(f.name, { wall: median(times), cpu: median(cpu) });
    const summary = [...outcomes].map(([o, n]) => `${n} ${o}`).join(", ");
    const cells = [median(times), Math.max(...times), median(cpu), Math.max(...cpu)].map((x) => x.toFixed(2));
    console.log(`| ${f.name} | ${kind.name} | ${cells.join(" | ")} | ${summary} | ${wrong} |`);
  }
}
console.log(`\nOne indexOf scan of the file (${(content.length / 1e6).toFixed(1)} MB), same run: median ${median(scans).toFixed(2)} ms, max ${Math.max(...scans).toFixed(2)} ms; CPU median ${median(scanCpu).toFixed(2)} ms`);
if (exactMedian !== undefined) console.log(`One exact str_replace edit / one indexOf scan (medians): ${(exactMedian / median(scans)).toFixed(2)}× (issue 23: ≤ 3×)`);
for (const [name, m] of exactByFormat) console.log(`exact ${name} / one indexOf scan (medians): wall ${(m.wall / median(scans)).toFixed(2)}×, CPU ${(m.cpu / median(scanCpu)).toFixed(2)}× (issue 37: ≤ 3×)`);
if (ENGINE_ONLY) process.exit(0);

if (!ONLY) {
  const edits = regions.map((at) => {
    const block = allLines.slice(at, at + SIZE);
    return { block, old: block, neu: withEdit(block) };
  });
  await benchFileLayer(sourcePath, edits, Math.max(1, Math.ceil(RUNS / 2)));
}

// Growth over slices: str_replace, 20-line edits late in each slice.
const sizes = ONLY ? [] : [1_000, 10_000, 100_000];
const growth = new Map<string, number>();
if (ONLY || FILE_LAYER_ONLY) process.exit(0);
console.log("\nstr_replace on slices (median ms): growth ×10 lines ≈ 10 is linear\n");
console.log("| kind | 1k | 10k | 100k | 100k/10k |");
console.log("|---|---:|---:|---:|---:|");
for (const kind of kinds) {
  const row: number[] = [];
  for (const size of sizes) {
    const lines = allLines.slice(0, size);
    const text = lines.join("\n");
    const [at = 0] = pickRegions(lines, text, 1).slice(-1);
    const late = pickRegions(lines.slice(Math.floor(size * 0.8)), text, 1)[0];
    const start = late === undefined ? at : Math.floor(size * 0.8) + late;
    const block = lines.slice(start, start + SIZE);
    const old = kind.old(block);
    const times: number[] = [];
    for (let r = 0; r < RUNS * 3; r++) {
      const t0 = performance.now();
      try {
        sink += replace(text, old.join("\n"), withEdit(old).join("\n")).content.length;
      } catch (e) {
        if (!(e instanceof EditError)) throw e;
      }
      times.push(performance.now() - t0);
    }
    row.push(median(times));
  }
  growth.set(kind.name, (row[2] ?? 0) / (row[1] || 1));
  console.log(`| ${kind.name} | ${row.map((x) => x.toFixed(2)).join(" | ")} | ${(growth.get(kind.name) ?? 0).toFixed(1)} |`);
}
if (sink === 42) console.log("");

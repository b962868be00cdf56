/**
 * `edit_file` on typescript.js in this process, as the MCP server runs it
 * (`runTool` with one file cache, version store and journal for every
 * call), without the JSON-RPC round trip: for profiling the server's part
 * (`node --cpu-prof --import tsx bench/edit-file-in-process.ts`, or
 * `--trace-gc`, whose lines would break the server's stdout). The same kinds
 * as `npm run bench -- --mcp`; each written edit is undone by the next call
 * (untimed). Prints, per kind, median / max wall and CPU (this process, all
 * threads) and the page faults of a call (from /proc).
 *
 * Usage: node --import tsx bench/edit-file-in-process.ts [--runs N] [--only KIND]
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { FileCache } from "../src/fs/file-cache.ts";
import { runTool } from "../src/tools/run-tool.ts";
import { VersionStore } from "../src/tools/version-store.ts";
import { findAmbiguous } from "./ambiguous-windows.ts";
import { median } from "./median.ts";
import { pickRegions, REGION_LINES } from "./pick-regions.ts";

const NAME = "typescript.js";
const EDITS = 20;
const SIZE = REGION_LINES;
const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const RUNS = Number(arg("--runs") ?? 1);
const ONLY = arg("--only");

const faults = (): number => Number(readFileSync("/proc/self/stat", "utf8").split(") ")[1]?.split(" ")[7] ?? 0);
const indent = (l: string) => l.replace(/^ +/, (m) => "\t".repeat(Math.ceil(m.length / 4)));
const typo = (b: string[]) => b.map((l, k) => (k === 6 ? l.replace(/[A-Za-z_]\w{3,}/, (w) => `${w.slice(0, -1)}Q`) : l));
const rot13 = (l: string) => l.replace(/[a-z]/gi, (c) => String.fromCharCode(((c.toLowerCase().charCodeAt(0) - 97 + 13) % 26) + (c <= "Z" ? 65 : 97)));

/** Each edit's calls: [kind, the find text, refused?], and the region's lines and the edited line. The file's text is not kept: the server's heap holds no copy of it. */
function plan(sourcePath: string): { block: string[]; edited: string; kinds: [string, string, boolean][] }[] {
  const content = readFileSync(sourcePath, "utf8");
  const lines = content.split("\n");
  const ambiguous = findAmbiguous(lines, EDITS);
  return pickRegions(lines, content, EDITS).map((at, k) => {
    const block = lines.slice(at, at + SIZE).map((l) => l.split("").join(""));
    const edited = `${block[SIZE - 1]?.match(/^\s*/)?.[0] ?? ""}// edited`;
    const kinds: [string, string, boolean][] = [
      ["exact", block.join("\n"), false],
      ["exact, new text", block.join("\n"), false],
      ["re-indented", block.map(indent).join("\n"), false],
      ["typo", typo(block).join("\n"), false],
      ["absent", block.map(rot13).join("\n"), true],
      ...(ambiguous[k] ? [["ambiguous", (ambiguous[k] as string[]).join("\n").split("").join(""), true] as [string, string, boolean]] : []),
    ];
    return { block, edited, kinds };
  });
}

const sourcePath = createRequire(import.meta.url).resolve("typescript/lib/typescript.js");
const dir = mkdtempSync(path.join(tmpdir(), "fuzzpatch-bench-"));
copyFileSync(sourcePath, path.join(dir, NAME));
const edits = plan(sourcePath);
const options = { root: dir, cache: new FileCache(), versions: new VersionStore(), journal: { dir: path.join(dir, "journal"), source: "mcp" } };
const call = async (oldString: string, newString: string) => runTool("edit_file", { path: NAME, edits: [{ oldString, newString }] }, options);

type Sample = { wall: number[]; cpu: number[]; faults: number[] };
const table = new Map<string, Sample>();
let fresh = 0;
try {
  // The server's first edit of the file (decoding, line table, the cache's entry), untimed.
  await call("\n", "\n");
  for (const { block, edited, kinds } of edits) {
    const neu = [...block, edited].join("\n");
    for (const [name, oldString, refuse] of kinds) {
      if (ONLY !== undefined && ONLY !== name) continue;
      for (let r = 0; r < RUNS; r++) {
        const newString = name === "exact" ? neu : name === "exact, new text" ? `${neu} ${fresh++}` : `${oldString}\n${edited}`;
        const f0 = faults();
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        const result = await call(oldString, newString);
        const wall = performance.now() - t0;
        const used = process.cpuUsage(c0);
        const f = faults() - f0;
        if (result.isError !== refuse) throw new Error(`${name}: ${result.text.slice(0, 300)}`);
        const s = table.get(name) ?? { wall: [], cpu: [], faults: [] };
        s.wall.push(wall);
        s.cpu.push((used.user + used.system) / 1000);
        s.faults.push(f);
        table.set(name, s);
        if (!refuse) {
          const undo = await call(name === "exact, new text" ? newString : neu, block.join("\n"));
          if (undo.isError) throw new Error(`undo of ${name}: ${undo.text.slice(0, 300)}`);
        }
      }
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log("| edit_file in process | wall median / max, ms | CPU median / max, ms | page faults median |\n|---|--:|--:|--:|");
for (const [name, s] of table) {
  console.log(`| ${name} | ${median(s.wall).toFixed(1)} / ${Math.max(...s.wall).toFixed(1)} | ${median(s.cpu).toFixed(1)} / ${Math.max(...s.cpu).toFixed(1)} | ${median(s.faults)} |`);
}

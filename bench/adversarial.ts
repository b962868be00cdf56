/**
 * Worst-case speed: inputs built as an attacker would (issue 14), each at
 * several sizes that double, printing the time of one call and the growth
 * ratio per doubling (2 = linear, 4 = quadratic). Every (input, size) runs
 * in its own child process killed after a hard cap, so an input that hangs
 * prints "> cap" instead of hanging the benchmark; the larger sizes of that
 * input are then skipped. Each call is timed by the wall clock and by the
 * process's CPU time (user + system): on a shared, loaded machine the CPU
 * time is the steadier figure, and the growth ratio is taken from it.
 *
 * Usage: npm run bench:adversarial [-- --cap SECONDS] [-- --only NAME]
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { EditError } from "../src/errors.ts";
import { createPatch } from "../src/formats/create-patch.ts";
import { applySearchReplace } from "../src/formats/search-replace.ts";
import { replace } from "../src/formats/str-replace.ts";
import { applyPatch } from "../src/formats/unified-apply.ts";
import { detectEdits } from "../src/formats/response.ts";
import { median } from "./median.ts";


/** A deterministic pseudo-random generator (xorshift), so every run builds the same inputs. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
}

const WORDS = ["alpha", "beta", "gamma", "delta", "value", "count", "index", "item", "name", "data", "node", "list"];

function words(n: number, seed: number): string[] {
  const r = rng(seed);
  return Array.from({ length: n }, () => WORDS[Math.floor(r() * WORDS.length)] as string);
}

/** Distinct code-like lines. */
function codeLines(n: number, tag = "v"): string[] {
  return Array.from({ length: n }, (_, i) => `  const ${tag}${i} = compute(${i}, "${tag}");`);
}

/** Pretty-printed JSON array of `n` objects; about 63 % of them hold `"active": true` followed by `"tags": []`. */
function jsonEntries(n: number): string {
  const items = Array.from({ length: n }, (_, k) => ({
    id: k,
    name: `item ${k}`,
    active: (k * 7919) % 1000 < 636,
    tags: [] as string[],
  }));
  return `${JSON.stringify(items, null, 2)}\n`;
}

interface Case {
  name: string;
  /** What `size` counts. */
  unit: string;
  sizes: number[];
  /** Builds the input and returns the call to time. */
  build(size: number): () => unknown;
}

const sr = (search: string, repl: string) => `<<<<<<< SEARCH\n${search}\n=======\n${repl}\n>>>>>>> REPLACE\n`;

const cases: Case[] = [
  {
    name: "periodic file, failing 12-line edit",
    unit: "lines",
    sizes: [1_000, 2_000, 4_000, 8_000, 16_000, 32_000],
    build(n) {
      const content = "  value = compute(x);\n".repeat(n);
      const edit = Array.from({ length: 12 }, (_, k) => (k === 6 ? "  value = compute(y);" : "  value = compute(x);")).join("\n");
      return () => replace(content, edit, "changed");
    },
  },
  {
    name: "diff whose body lines lost their prefix",
    unit: "lines",
    sizes: [5_000, 10_000, 20_000, 40_000],
    build(n) {
      const lines = codeLines(n);
      const content = `${lines.join("\n")}\n`;
      const patch = `@@ @@\n${lines.slice(0, -1).join("\n")}\n-${lines[n - 1]}\n+changed\n`;
      return () => applyPatch(content, patch);
    },
  },
  {
    name: "`}` lines, failing 20-line edit of `}` + one foreign line",
    unit: "lines",
    sizes: [25_000, 50_000, 100_000, 200_000],
    build(n) {
      const content = "}\n".repeat(n);
      const edit = Array.from({ length: 20 }, (_, k) => (k === 10 ? "foreign();" : "}")).join("\n");
      return () => replace(content, edit, "x");
    },
  },
  {
    name: "JSON, re-indented edit occurring in 63 % of entries",
    unit: "entries",
    sizes: [250, 500, 1_000, 2_000],
    build(n) {
      const content = jsonEntries(n);
      const edit = '  "active": true,\n  "tags": []';
      return () => replace(content, edit, '  "active": false,\n  "tags": []');
    },
  },
  {
    name: "JSON, exact edit occurring in 63 % of entries",
    unit: "entries",
    sizes: [250, 500, 1_000, 2_000],
    build(n) {
      const content = jsonEntries(n);
      const edit = '    "active": true,\n    "tags": []';
      return () => replace(content, edit, '    "active": false,\n    "tags": []');
    },
  },
  {
    name: "JSON, misremembered 120-line edit",
    unit: "objects",
    sizes: [250, 500, 1_000, 2_000],
    build(n) {
      const content = jsonEntries(n);
      const lines = content.split("\n");
      const at = Math.floor(lines.length / 2);
      const edit = lines
        .slice(at, at + 120)
        .map((l, k) => (k % 10 === 5 ? l.replace(/\d+/, "99999") : l))
        .join("\n");
      return () => replace(content, edit, "x");
    },
  },
  {
    name: "words on one line, near-miss edit of 200 words",
    unit: "bytes",
    sizes: [128_000, 256_000, 512_000, 1_024_000],
    build(n) {
      const ws = words(Math.ceil(n / 6), 7);
      const content = ws.join(" ").slice(0, n);
      const edit = [...ws.slice(1000, 1199), "misremembered"].join(" ");
      return () => replace(content, edit, "x");
    },
  },
  {
    name: "one word repeated on one line, near-miss edit of 200 words",
    unit: "bytes",
    sizes: [128_000, 256_000, 512_000, 1_024_000],
    build(n) {
      const content = "word ".repeat(n / 5);
      const edit = `${"word ".repeat(199)}other`;
      return () => replace(content, edit, "x");
    },
  },
  {
    name: "lines of words, near-miss 3-line edit",
    unit: "bytes",
    sizes: [128_000, 256_000, 512_000, 1_024_000],
    build(n) {
      const ws = words(Math.ceil(n / 6), 11);
      const lines: string[] = [];
      for (let i = 0; i < ws.length; i += 12) lines.push(ws.slice(i, i + 12).join(" "));
      const content = lines.join("\n").slice(0, n);
      const mid = Math.floor(lines.length / 2);
      const edit = [lines[mid], `${lines[mid + 1]} extra`, lines[mid + 2]].join("\n");
      return () => replace(content, edit, "x");
    },
  },
  {
    name: "ambiguous SEARCH/REPLACE blocks on 50k lines",
    unit: "blocks",
    sizes: [63, 125, 250, 500],
    build(n) {
      const pattern = ["  if (err) {", "    return err;", "  }", "  count++;", ""];
      const content = Array.from({ length: 50_000 }, (_, i) => pattern[i % pattern.length]).join("\n");
      const diff = Array.from({ length: n }, () => sr("  if (err) {\n    return err;\n  }", "  if (err) throw err;")).join("\n");
      return () => applySearchReplace(content, diff);
    },
  },
  {
    // Found by the budget property: BlankLines aligned the whole find text around every `}`.
    name: "`}` and blank lines, a find of `}` lines (a quarter of the file)",
    unit: "lines",
    sizes: [8_000, 16_000, 32_000, 64_000],
    build(n) {
      const content = "}\n\n".repeat(n / 2);
      const find = "}\n".repeat(n / 8);
      return () => replace(content, find, "x\n");
    },
  },
  {
    // Found by the budget property: BlockAnchor read each scored pair's whole block (300 pairs of 16k lines).
    name: "`{` lines, a find of half as many `{` lines with trailing spaces",
    unit: "lines",
    sizes: [16_000, 32_000, 64_000, 128_000],
    build(n) {
      const content = "{\n".repeat(n);
      const find = "{  \n".repeat(n / 2).slice(0, -1);
      return () => replace(content, find, "x");
    },
  },
  {
    // Found by the budget property: the word-sequence search restarted at every occurrence of the first word.
    name: "one line of a repeated phrase, the line with one character changed",
    unit: "bytes",
    sizes: [128_000, 256_000, 512_000, 1_024_000],
    build(n) {
      const line = "gamma ) 1 ".repeat(n / 10);
      const find = `${line.slice(0, n / 2)}X${line.slice(n / 2 + 1)}`.trim();
      return () => replace(`${line}\n`, find, "x");
    },
  },
  {
    // Every block is different and fails; its longest word (`compute`) is on every line of the file.
    name: "distinct failing SEARCH/REPLACE blocks, common words, on 50k lines",
    unit: "blocks",
    sizes: [250, 500, 1_000, 2_000],
    build(n) {
      const content = codeLines(50_000).join("\n");
      const diff = Array.from({ length: n }, (_, k) => sr(codeLines(12, `w${k}x`).join("\n"), "changed")).join("\n");
      return () => applySearchReplace(content, diff);
    },
  },
  {
    name: "deleting an exactly matched block (str_replace)",
    unit: "lines",
    sizes: [2_000, 4_000, 8_000, 16_000],
    build(n) {
      const lines = codeLines(40_000);
      const content = lines.join("\n");
      const edit = lines.slice(10_000, 10_000 + n).join("\n");
      return () => replace(content, edit, "");
    },
  },
  {
    name: "deleting an exactly matched block (SEARCH/REPLACE)",
    unit: "lines",
    sizes: [2_000, 4_000, 8_000, 16_000],
    build(n) {
      const lines = codeLines(40_000);
      const content = lines.join("\n");
      const diff = `<<<<<<< SEARCH\n${lines.slice(10_000, 10_000 + n).join("\n")}\n=======\n>>>>>>> REPLACE\n`;
      return () => applySearchReplace(content, diff);
    },
  },
  {
    name: "deleting an exactly matched block (unified diff)",
    unit: "lines",
    sizes: [2_000, 4_000, 8_000, 16_000],
    build(n) {
      const lines = codeLines(40_000);
      const content = lines.join("\n");
      const patch = `@@ @@\n${lines
        .slice(10_000, 10_000 + n)
        .map((l) => `-${l}`)
        .join("\n")}\n`;
      return () => applyPatch(content, patch);
    },
  },
  {
    name: "rewriting every line of an exactly matched block",
    unit: "lines",
    sizes: [1_250, 2_500, 5_000, 10_000],
    build(n) {
      const lines = codeLines(20_000);
      const content = lines.join("\n");
      const edit = lines.slice(5_000, 5_000 + n).join("\n");
      const repl = codeLines(n, "w").join("\n");
      return () => replace(content, edit, repl);
    },
  },
  {
    name: "replaceAll of a space in a file of spaces",
    unit: "bytes",
    sizes: [128_000, 256_000, 512_000, 1_024_000],
    build(n) {
      const content = " ".repeat(n);
      return () => replace(content, " ", "_", { replaceAll: true });
    },
  },
  {
    name: "replaceAll of a space in one CRLF-ended line of spaces",
    unit: "bytes",
    sizes: [128_000, 256_000, 512_000, 1_024_000],
    build(n) {
      const content = `${" ".repeat(n - 5)}\r\nx\r\n`;
      return () => replace(content, " ", "_", { replaceAll: true });
    },
  },
  {
    name: "replaceAll of a token",
    unit: "occurrences",
    sizes: [31_250, 62_500, 125_000, 250_000],
    build(n) {
      const content = "tok x\n".repeat(n);
      return () => replace(content, "tok", "token", { replaceAll: true });
    },
  },
  {
    name: "response: fence opener + spaces + backtick",
    unit: "chars",
    sizes: [12_500, 25_000, 50_000, 100_000],
    build(n) {
      const input = `\`\`\`${" ".repeat(n)}\`\nsome text\n`;
      return () => detectEdits(input, "auto");
    },
  },
  {
    name: "response: diff header `--- a/x` + spaces + `y`",
    unit: "chars",
    sizes: [12_500, 25_000, 50_000, 100_000],
    build(n) {
      const input = `--- a/x${" ".repeat(n)}y\n+++ b/x\n@@ @@\n-a\n+b\n`;
      return () => detectEdits(input, "auto");
    },
  },
  {
    name: "long line with one changed character",
    unit: "chars",
    sizes: [25_000, 50_000, 100_000, 200_000, 400_000],
    build(n) {
      const r = rng(3);
      const long = Array.from({ length: n }, () => String.fromCharCode(97 + Math.floor(r() * 26))).join("");
      const content = `function f() {\n${long}\n}\n`;
      const changed = `${long.slice(0, n >> 1)}#${long.slice((n >> 1) + 1)}`;
      return () => replace(content, `function f() {\n${changed}\n}`, "x");
    },
  },
  {
    name: "createPatch of a full rewrite",
    unit: "lines",
    sizes: [3_750, 7_500, 15_000, 30_000], // 30k lines: 1.1 MB
    build(n) {
      const a = codeLines(n).join("\n");
      const b = codeLines(n, "w").join("\n");
      return () => createPatch(a, b, { fuzzy: true });
    },
  },
  {
    name: "createPatch of repetitive lines, every 1000th changed",
    unit: "lines",
    sizes: [15_625, 31_250, 62_500, 125_000], // 125k lines: 1 MB
    build(n) {
      const a = Array.from({ length: n }, () => "0,0,0,0").join("\n");
      const b = Array.from({ length: n }, (_, i) => (i % 1000 === 500 ? "1,1,1,1" : "0,0,0,0")).join("\n");
      return () => createPatch(a, b, { fuzzy: true });
    },
  },
  {
    // createPatch writes numbered hunks here; each hunk's old side matches on every line but the hinted one decides.
    name: "applying that patch (numbered hunks on repetitive lines)",
    unit: "lines",
    sizes: [15_625, 31_250, 62_500, 125_000],
    build(n) {
      const a = Array.from({ length: n }, () => "0,0,0,0").join("\n");
      const b = Array.from({ length: n }, (_, i) => (i % 1000 === 500 ? "1,1,1,1" : "0,0,0,0")).join("\n");
      const patch = createPatch(a, b, { fuzzy: true });
      return () => applyPatch(a, patch);
    },
  },
  {
    name: "unified diff of overlapping hunks",
    unit: "hunks",
    sizes: [2_500, 5_000, 10_000, 20_000],
    build(n) {
      const lines = codeLines(2 * n + 2);
      const content = lines.join("\n");
      const hunks: string[] = [];
      for (let k = 0; k < n; k++) {
        const at = 2 * k + 1;
        hunks.push(`@@ @@\n ${lines[at - 1]}\n-${lines[at]}\n+changed ${k}\n ${lines[at + 1]}`);
      }
      const patch = `${hunks.join("\n")}\n`;
      return () => applyPatch(content, patch);
    },
  },
  // Issue 22, item 13: four inputs of 1 MB or less that took 1.4-8.9 s of CPU. Target: each <= 1 s at its largest size.
  {
    name: "response of `---`/`+++` header pairs only (issue 22)",
    unit: "pairs",
    sizes: [10_000, 20_000, 40_000],
    build(n) {
      const response = "--- a/x\n+++ b/x\n".repeat(n);
      return () => detectEdits(response);
    },
  },
  {
    name: "JSONL of str_replace edits (issue 22)",
    unit: "edits",
    sizes: [5_000, 10_000, 20_000],
    build(n) {
      const response = Array.from({ length: n }, (_, i) => JSON.stringify({ path: "a.txt", old_string: `v${i}`, new_string: `w${i}` })).join("\n");
      return () => detectEdits(response);
    },
  },
  {
    name: "SEARCH/REPLACE blocks on a 1 MB file (issue 22)",
    unit: "blocks",
    sizes: [500, 1_000, 2_000],
    build(n) {
      const lines = codeLines(28_000);
      const content = `${lines.join("\n")}\n`;
      const blocks = Array.from({ length: n }, (_, k) => sr(lines[k * 12] as string, (lines[k * 12] as string).replace("compute", "calc"))).join("");
      return () => applySearchReplace(content, blocks);
    },
  },
  {
    name: "fuzzy `@@` hunks on a 1 MB file (issue 22)",
    unit: "hunks",
    sizes: [500, 1_000, 2_000],
    build(n) {
      const lines = codeLines(28_000);
      const content = `${lines.join("\n")}\n`;
      // Each hunk's first context line lost its indentation and its removed line its semicolon: found fuzzily.
      const hunks = Array.from({ length: n }, (_, k) => {
        const at = k * 12 + 1;
        return `@@ @@\n ${(lines[at - 1] as string).trim()}\n-${(lines[at] as string).replace(";", "")}\n+changed ${k}\n ${lines[at + 1]}\n`;
      });
      const patch = hunks.join("");
      return () => applyPatch(content, patch);
    },
  },
  {
    // Issue 39 item 6: each hunk matched ~198,000 places (~0.8 s of CPU per hunk, ~8 s for ten).
    name: "ambiguous `@@ @@` hunks of 1,700 `}` lines on 200k `}` lines (issue 39)",
    unit: "hunks",
    sizes: [5, 10, 20, 50],
    build(n) {
      const content = "}\n".repeat(200_000);
      const hunk = `@@ @@\n${" }\n".repeat(850)}-}\n+};\n${" }\n".repeat(849)}`;
      const patch = hunk.repeat(n);
      return () => applyPatch(content, patch);
    },
  },
  {
    name: "ambiguous SEARCH/REPLACE blocks of 1,700 `}` lines on 200k `}` lines (issue 39)",
    unit: "blocks",
    sizes: [5, 10, 20, 50],
    build(n) {
      const content = "}\n".repeat(200_000);
      const blocks = sr("}\n".repeat(1_699).concat("}"), "}\n".repeat(1_699).concat("};")).repeat(n);
      return () => applySearchReplace(content, blocks);
    },
  },
  {
    name: "SEARCH/REPLACE blocks of 3 `}` lines on a 1 MB file of `}` and code (issue 39)",
    unit: "blocks",
    sizes: [500, 1_000, 2_000],
    build(n) {
      const lines = codeLines(14_000);
      const content = `${lines.map((l, i) => (i % 2 === 0 ? l : "}")).join("\n")}\n`;
      const blocks = Array.from({ length: n }, (_, k) => sr(`}\n${lines[(k * 14) % 14_000 & ~1]}\n}`, `}\n// ${k}\n}`)).join("");
      return () => applySearchReplace(content, blocks);
    },
  },
];

function outcome(run: () => unknown): string {
  try {
    run();
    return "ok";
  } catch (e) {
    if (e instanceof EditError) return e.code;
    return `THROWS ${(e as Error).name}: ${String((e as Error).message).slice(0, 60)}`;
  }
}

function child(name: string, size: number): void {
  const c = cases.find((x) => x.name === name);
  if (!c) throw new Error(`no case ${name}`);
  const run = c.build(size);
  const times: number[] = [];
  const cpu: number[] = [];
  let result = "";
  // One call, repeated while cheap so the figure is a median of several.
  const started = performance.now();
  do {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    result = outcome(run);
    times.push(performance.now() - t0);
    const used = process.cpuUsage(c0);
    cpu.push((used.user + used.system) / 1000);
  } while (times.length < 5 && performance.now() - started < 500);
  process.stdout.write(JSON.stringify({ ms: median(times), cpu: median(cpu), result }));
}

function parent(): void {
  const capArg = process.argv.indexOf("--cap");
  const cap = capArg > 0 ? Number(process.argv[capArg + 1]) : 10;
  const onlyArg = process.argv.indexOf("--only");
  const only = onlyArg > 0 ? (process.argv[onlyArg + 1] ?? "") : "";
  const self = fileURLToPath(import.meta.url);
  console.log(`Adversarial inputs: ms per call, wall and CPU (median of up to 5 within 0.5 s), cap ${cap} s per call; ×N = CPU-time growth per doubling\n`);
  console.log("| input | size | wall ms | CPU ms | ×/doubling | result |");
  console.log("|---|---:|---:|---:|---:|---|");
  for (const c of cases) {
    if (only && !c.name.includes(only)) continue;
    let previous: number | undefined;
    for (const size of c.sizes) {
      const r = spawnSync(process.execPath, ["--import", "tsx", self, "--child", c.name, String(size)], {
        encoding: "utf8",
        timeout: cap * 1000 + 3000, // tsx start-up and input building on top of the cap
        maxBuffer: 1 << 20,
      });
      const label = `${size.toLocaleString("en")} ${c.unit}`;
      if (r.error || r.status !== 0) {
        const why = r.error ? `> cap (${cap} s)` : `crashed: ${(r.stderr ?? "").split("\n").find((l) => l.includes("Error")) ?? r.status}`;
        console.log(`| ${c.name} | ${label} | ${r.error ? `> ${cap * 1000}` : "—"} | | | ${why} |`);
        break;
      }
      const { ms, cpu, result } = JSON.parse(r.stdout) as { ms: number; cpu: number; result: string };
      const fmt = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(0));
      if (ms > cap * 1000) {
        console.log(`| ${c.name} | ${label} | ${fmt(ms)} | ${fmt(cpu)} | | ${result} (over the cap) |`);
        break;
      }
      // Below a millisecond the ratio says more about the clock than about the input.
      const ratio = previous === undefined || previous < 1 ? "" : `×${(cpu / previous).toFixed(1)}`;
      console.log(`| ${c.name} | ${label} | ${fmt(ms)} | ${fmt(cpu)} | ${ratio} | ${result} |`);
      previous = cpu;
    }
  }
}

const childAt = process.argv.indexOf("--child");
if (childAt > 0) child(process.argv[childAt + 1] ?? "", Number(process.argv[childAt + 2]));
else parent();

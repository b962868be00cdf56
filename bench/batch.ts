/**
 * Batch throughput: the real model edits (`../shared/real-edits`, read at
 * run time) as batch cases with their files' texts (`content`), applied
 *
 * - one at a time in this process through `applyEdits` (each file written
 *   to a temporary root first, dry run): what a loop in a user's code does
 *   today;
 * - one at a time in this process through the batch's own case applier
 *   (`applyMany` with `jobs: 0`): the same work without the file system;
 * - by `applyMany` on 1 and 2 worker threads (or `--jobs N`).
 *
 * The applyMany figures are of a second pass through the same pool (see `collect`).
 *
 * Each pool's results must equal the in-process ones (the bench fails
 * otherwise). Then memory: `--cases N` (default 100,000) cases cycled from
 * the real ones through a 2-worker pool, RSS (the process and its workers)
 * printed every tenth of the way, and the peak: flat means the window, not
 * the input, bounds it (`--only-memory` for a peak of this part alone).
 *
 * Usage: npm run bench:batch -- [CASES.jsonl] [--jobs N] [--cases N] [--skip-memory] [--only-memory]
 * The machine may be shared: the load average is printed with the figures.
 */
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { BatchCase, BatchResult } from "../src/batch/apply-case.ts";
import { applyMany } from "../src/batch/apply-many.ts";
import { applyEdits } from "../src/node.ts";

const args = process.argv.slice(2);
const value = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const positional = args.filter((a, i) => !a.startsWith("--") && !["--jobs", "--cases"].includes(args[i - 1] ?? ""));
const casesFile = resolve(positional[0] ?? join(import.meta.dirname, "../../shared/real-edits/cases.jsonl"));
const jobsList = value("--jobs") !== undefined ? [Number(value("--jobs"))] : [1, 2];
const memoryCases = Number(value("--cases") ?? 100_000);
if (!existsSync(casesFile)) {
  console.error(`bench:batch: no cases file at ${casesFile}`);
  process.exit(2);
}

interface RealCase {
  id: string;
  path: string;
  path_applied?: string;
  edit: string;
  before_sha1: string;
}
const blobs = new Map<string, string>();
const blob = (sha1: string) => {
  let text = blobs.get(sha1);
  if (text === undefined) {
    text = sha1 === "" ? "" : readFileSync(join(dirname(casesFile), "blobs", `${sha1}.txt`), "utf8");
    blobs.set(sha1, text);
  }
  return text;
};
const real = readFileSync(casesFile, "utf8")
  .split("\n")
  .filter((l) => l.trim() !== "")
  .map((l) => JSON.parse(l) as RealCase);
const cases: BatchCase[] = real.map((c) => ({ id: c.id, path: c.path_applied ?? c.path, content: blob(c.before_sha1), edit: c.edit }));
const load = () => loadavg()[0]?.toFixed(1);
const rate = (n: number, ms: number) => `${Math.round((n * 1000) / ms).toLocaleString("en-US")} edits/s`;

/**
 * The cases twice through one pool: the first pass starts the workers and
 * warms their code (~0.3 s of compiling and JIT per worker under tsx), the
 * second is timed: a pipeline applies cases by the million.
 */
async function collect(input: BatchCase[], jobs: number): Promise<{ results: BatchResult[]; ms: number; firstMs: number }> {
  const started = performance.now();
  let second = started;
  const results: BatchResult[] = [];
  for await (const r of applyMany([...input, ...input], { jobs })) {
    results.push(r);
    if (results.length === input.length) second = performance.now();
  }
  return { results: results.slice(input.length), ms: performance.now() - second, firstMs: second - started };
}

/** applyEdits one case at a time, each file in a temporary root (dry run: the file layer reads, plans and diffs). */
async function viaApplyEdits(): Promise<number> {
  const root = await mkdtemp(join(tmpdir(), "fuzzpatch-bench-batch-"));
  try {
    let ms = 0;
    for (const c of cases) {
      const rel = c.path.replace(/^\/+/, "") || "file";
      await rm(join(root, "f"), { recursive: true, force: true });
      const file = join(root, "f", rel);
      await import("node:fs/promises").then((fs) => fs.mkdir(dirname(file), { recursive: true }));
      await writeFile(file, c.content ?? "");
      const started = performance.now();
      await applyEdits(join(root, "f"), c.edit as string, { target: rel, dryRun: true });
      ms += performance.now() - started;
    }
    return ms;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

const onlyMemory = args.includes("--only-memory");
if (!onlyMemory) await throughput();

async function throughput(): Promise<void> {
console.log(`bench:batch: ${cases.length} real edits (${(cases.reduce((n, c) => n + (c.content?.length ?? 0), 0) / 1e6).toFixed(1)} MB of files), load average ${load()} on this machine`);
const fileLayerMs = await viaApplyEdits();
console.log(`  applyEdits, one at a time (dry run, file written first, not timed): ${fileLayerMs.toFixed(0)} ms, ${rate(cases.length, fileLayerMs)} (load ${load()})`);
const inThread = await collect(cases, 0);
console.log(`  applyMany jobs 0 (this thread, one at a time): ${inThread.ms.toFixed(0)} ms, ${rate(cases.length, inThread.ms)} (load ${load()})`);
for (const jobs of jobsList) {
  const pool = await collect(cases, jobs);
  const same = JSON.stringify(pool.results) === JSON.stringify(inThread.results);
  console.log(
    `  applyMany jobs ${jobs}: ${pool.ms.toFixed(0)} ms, ${rate(cases.length, pool.ms)}, ×${(inThread.ms / pool.ms).toFixed(2)} the in-thread rate (first pass, starting the workers: ${pool.firstMs.toFixed(0)} ms; load ${load()})`,
  );
  if (!same) {
    console.error(`bench:batch: jobs ${jobs} gave other results than the in-thread run`);
    process.exit(1);
  }
}
const ok = inThread.results.filter((r) => r.ok).length;
console.log(`  outcomes: ${ok} ok, ${cases.length - ok} failed (refusals and misses, as bench:real counts them)`);
}

if (!args.includes("--skip-memory")) {
  // The cases of the smaller files (under 8,000 characters), so that 100k cases take minutes, not an hour, on a loaded machine.
  const small = cases.filter((c) => (c.content?.length ?? 0) < 8000);
  function* cycled(): Generator<BatchCase> {
    for (let k = 0; k < memoryCases; k++) yield small[k % small.length] as BatchCase;
  }
  const started = performance.now();
  let n = 0;
  const marks: string[] = [];
  for await (const _ of applyMany(cycled(), { jobs: 2 })) {
    n++;
    if (n % Math.max(1, Math.floor(memoryCases / 10)) === 0) marks.push(`${n}: ${Math.round(process.memoryUsage().rss / 2 ** 20)} MB`);
  }
  const ms = performance.now() - started;
  console.log(`  memory, ${memoryCases.toLocaleString("en-US")} cases (${small.length} real edits of files under 8,000 characters, cycled) on 2 workers in ${(ms / 1000).toFixed(1)} s (${rate(memoryCases, ms)}); RSS (the process and its workers) after ${marks.join(", ")}; peak RSS of the process ${Math.round(process.resourceUsage().maxRSS / 1024)} MB (load ${load()})`);
}

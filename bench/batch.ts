/**
 * Batch throughput: the real model edits (`../shared/real-edits`, read at
 * run time) as batch cases with their files' texts (`content`), applied
 *
 * - one at a time in this process through `applyEdits` (each file written
 *   to a temporary root first, dry run): what a loop in a user's code does
 *   today;
 * - one at a time in this process through the batch's own case applier
 *   (`applyMany` with `jobs: 0`): the same work without the file system;
 * - by `applyMany` on 1 and 2 worker threads (or `--jobs N`);
 * - by the CLI's `fuzzpatch batch` (in this process, `runBatch`) on a JSONL
 *   file of the cases, on the same pools: each line parsed and its result
 *   written by a worker.
 *
 * Each row gives the wall-clock rate and the process's CPU time (all its
 * threads: the workers, the garbage collector's and compiler's helpers),
 * and the rate that CPU time allows on the machine's cores: on a shared
 * machine the wall clock measures the other work as much as this.
 *
 * The applyMany and CLI figures are of the last of `--passes N` (default 4)
 * passes through the same pool or thread (see `collect`): a worker is a heap
 * and a compiler of its own, and its JIT still compiled ~100 functions in
 * the third pass of the 978 cases (in-thread: ~20 in the fourth), on the
 * helper threads the CPU figure counts.
 *
 * Each pool's results must equal the in-process ones (the bench fails
 * otherwise). Then memory: `--cases N` (default 100,000) cases cycled from
 * the real ones through a 2-worker pool, RSS (the process and its workers)
 * printed every tenth of the way, and the peak: flat means the window, not
 * the input, bounds it (`--only-memory` for a peak of this part alone).
 *
 * Usage: npm run bench:batch -- [CASES.jsonl] [--jobs N] [--passes N] [--cases N] [--skip-memory] [--only-memory]
 * The machine may be shared: the load average is printed with the figures.
 */
import { existsSync, readFileSync } from "node:fs";
import { appendFile, mkdtemp, rm, writeFile } from "node:fs/promises";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { Writable } from "node:stream";
import { dirname, join, resolve } from "node:path";
import type { BatchCase, BatchResult } from "../src/batch/apply-case.ts";
import { applyMany } from "../src/batch/apply-many.ts";
import { runBatch } from "../src/cli/batch.ts";
import { applyEdits } from "../src/node.ts";

const args = process.argv.slice(2);
const value = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const positional = args.filter((a, i) => !a.startsWith("--") && !["--jobs", "--cases", "--passes"].includes(args[i - 1] ?? ""));
const casesFile = resolve(positional[0] ?? join(import.meta.dirname, "../../shared/real-edits/cases.jsonl"));
const jobsList = value("--jobs") !== undefined ? [Number(value("--jobs"))] : [1, 2];
const memoryCases = Number(value("--cases") ?? 100_000);
const passes = Math.max(2, Number(value("--passes") ?? 4));
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
const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
/** CPU time, a case's share, and the rate that CPU time allows on all the machine's cores (an idle machine, the work spread over them). */
const cpuFigure = (n: number, cpuMs: number) =>
  `CPU ${cpuMs.toFixed(0)} ms, ${((cpuMs * 1000) / n).toFixed(0)} µs a case (${Math.round((n * 1000) / cpuMs).toLocaleString("en-US")} edits per CPU-second, ×${availableParallelism()} cores: ${rate(n * availableParallelism(), cpuMs)})`;

/**
 * The cases `passes` times through one pool: the first pass starts the
 * workers and warms their code (~0.3 s of compiling and JIT per worker under
 * tsx), the next ones go on warming it, the last is timed: a pipeline
 * applies cases by the million.
 */
async function collect(input: BatchCase[], jobs: number): Promise<{ results: BatchResult[]; ms: number; firstMs: number; cpuMs: number }> {
  const started = performance.now();
  let first = 0;
  let last = started;
  let cpu = cpuNow();
  // Only the timed pass's results are kept (to compare): holding every pass's texts (50 MB a pass)
  // made the main thread's heap, and its collector's work in the timed pass, grow with the passes.
  const results: BatchResult[] = [];
  let n = 0;
  const all = Array.from({ length: passes }, () => input).flat();
  for await (const r of applyMany(all, { jobs })) {
    n++;
    if (n > input.length * (passes - 1)) results.push(r);
    if (n === input.length) first = performance.now() - started;
    if (n === input.length * (passes - 1)) {
      last = performance.now();
      cpu = cpuNow();
    }
  }
  return { results, ms: performance.now() - last, firstMs: first, cpuMs: cpuNow() - cpu };
}

/**
 * `fuzzpatch batch` (runBatch in this process) on a JSONL file of the cases
 * `passes` times over: the last time is timed (from the result line before
 * its first to its last), as in `collect`. The result lines must be the in-thread results.
 */
async function viaCli(jobs: number, want: BatchResult[]): Promise<{ ms: number; cpuMs: number }> {
  const dir = await mkdtemp(join(tmpdir(), "fuzzpatch-bench-batch-cli-"));
  try {
    const file = join(dir, "cases.jsonl");
    const lines = cases.map((c) => `${JSON.stringify(c)}\n`).join("");
    // One pass at a time: the cases' text repeated 12 times is past V8's longest string (~512 MB).
    await writeFile(file, "");
    for (let p = 0; p < passes; p++) await appendFile(file, lines);
    let n = 0;
    let second = 0;
    let cpu = 0;
    let tail = "";
    const got: string[] = [];
    const out = new Writable({
      write(chunk: Buffer, _encoding, done) {
        const parts = (tail + chunk.toString("utf8")).split("\n");
        tail = parts.pop() ?? "";
        for (const line of parts) {
          if (++n === cases.length * (passes - 1)) {
            second = performance.now();
            cpu = cpuNow();
          } else if (n > cases.length * (passes - 1)) got.push(line);
        }
        done();
      },
    });
    await runBatch(file, { root: dir, dryRun: true, jobs }, { out, err: process.stderr, env: process.env }, () => process.stdin);
    const ms = performance.now() - second;
    const cpuMs = cpuNow() - cpu;
    if (got.length !== want.length || got.some((line, k) => line !== JSON.stringify(want[k]))) {
      console.error(`bench:batch: the CLI on ${jobs} workers gave other results than the in-thread run`);
      process.exit(1);
    }
    return { ms, cpuMs };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** applyEdits one case at a time, each file in a temporary root (dry run: the file layer reads, plans and diffs). */
async function viaApplyEdits(): Promise<{ ms: number; cpuMs: number }> {
  const root = await mkdtemp(join(tmpdir(), "fuzzpatch-bench-batch-"));
  try {
    let ms = 0;
    let cpuMs = 0;
    for (const c of cases) {
      const rel = c.path.replace(/^\/+/, "") || "file";
      await rm(join(root, "f"), { recursive: true, force: true });
      const file = join(root, "f", rel);
      await import("node:fs/promises").then((fs) => fs.mkdir(dirname(file), { recursive: true }));
      await writeFile(file, c.content ?? "");
      const started = performance.now();
      const cpu = cpuNow();
      await applyEdits(join(root, "f"), c.edit as string, { target: rel, dryRun: true });
      ms += performance.now() - started;
      cpuMs += cpuNow() - cpu;
    }
    return { ms, cpuMs };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

const onlyMemory = args.includes("--only-memory");
if (!onlyMemory) await throughput();

async function throughput(): Promise<void> {
console.log(`bench:batch: ${cases.length} real edits (${(cases.reduce((n, c) => n + (c.content?.length ?? 0), 0) / 1e6).toFixed(1)} MB of files), load average ${load()} on this machine; the applyMany and CLI rows time the last of ${passes} passes`);
const fileLayer = await viaApplyEdits();
console.log(`  applyEdits, one at a time (dry run, file written first, not timed): ${fileLayer.ms.toFixed(0)} ms, ${rate(cases.length, fileLayer.ms)}; ${cpuFigure(cases.length, fileLayer.cpuMs)} (load ${load()})`);
const inThread = await collect(cases, 0);
console.log(`  applyMany jobs 0 (this thread, one at a time): ${inThread.ms.toFixed(0)} ms, ${rate(cases.length, inThread.ms)}; ${cpuFigure(cases.length, inThread.cpuMs)} (load ${load()})`);
for (const jobs of jobsList) {
  const pool = await collect(cases, jobs);
  const same = JSON.stringify(pool.results) === JSON.stringify(inThread.results);
  console.log(
    `  applyMany jobs ${jobs}: ${pool.ms.toFixed(0)} ms, ${rate(cases.length, pool.ms)}, ×${(inThread.ms / pool.ms).toFixed(2)} the in-thread rate; ${cpuFigure(cases.length, pool.cpuMs)} (first pass, starting the workers: ${pool.firstMs.toFixed(0)} ms; load ${load()})`,
  );
  if (!same) {
    console.error(`bench:batch: jobs ${jobs} gave other results than the in-thread run`);
    process.exit(1);
  }
}
for (const jobs of jobsList) {
  const cli = await viaCli(jobs, inThread.results);
  console.log(`  fuzzpatch batch --jobs ${jobs} (a JSONL file of the cases): ${cli.ms.toFixed(0)} ms, ${rate(cases.length, cli.ms)}, ×${(inThread.ms / cli.ms).toFixed(2)} the in-thread rate; ${cpuFigure(cases.length, cli.cpuMs)} (load ${load()})`);
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

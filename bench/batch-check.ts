/**
 * The batch's results on the real edits, to compare a change with main, and
 * where a case's CPU time goes.
 *
 * Applies the 978 cases of `../shared/real-edits` (as bench/batch.ts builds
 * them: `content` given) `--passes N` times (default 6) through one
 * `applyMany` (`--jobs N`, default 0: this thread) and prints each pass's
 * CPU time a case: the process's (every thread: the collector's and the
 * compiler's helpers, the workers), and per thread (Linux: the main thread,
 * the others by id; all but the main thread are named "node"). Then the
 * median of the passes after the first two. `--out FILE` writes the last
 * pass's results as NDJSON (compare two runs with `cmp`); `--drop` keeps no
 * result (a consumer that writes each out).
 *
 * `--best`: instead, each case alone through the case applier in this
 * thread, every pass, its CPU time read around it; the minimum of each case
 * over the passes, summed by outcome (the engine's own work, with as little
 * of the collector and the compiler as a pass gives it).
 *
 * `--only FILE`: the cases whose ids are FILE's lines (to profile one kind).
 *
 * `--fresh`: each case's text a new string (see `freshTexts`).
 *
 * Usage: node --import tsx bench/batch-check.ts [--passes N] [--jobs N] [--out FILE] [--drop] [--fresh] [--best] [--only FILE] [--cases CASES.jsonl]
 * The machine may be shared: CPU time, not the wall clock, is the figure.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { applyCase, type BatchCase, type BatchResult } from "../src/batch/apply-case.ts";
import { applyMany } from "../src/batch/apply-many.ts";
import { median } from "./median.ts";

const args = process.argv.slice(2);
const value = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const passes = Math.max(3, Number(value("--passes") ?? 6));
const jobs = Number(value("--jobs") ?? 0);
const out = value("--out");
const casesFile = resolve(value("--cases") ?? join(import.meta.dirname, "../../shared/real-edits/cases.jsonl"));
const only = value("--only");
const fresh = args.includes("--fresh");
const onlyIds = only === undefined ? undefined : new Set(readFileSync(only, "utf8").split("\n"));
const blob = (sha1: string) => (sha1 === "" ? "" : readFileSync(join(dirname(casesFile), "blobs", `${sha1}.txt`), "utf8"));
const cases: BatchCase[] = readFileSync(casesFile, "utf8")
  .split("\n")
  .filter((l) => l.trim() !== "")
  .map((l) => JSON.parse(l) as { id: string; path: string; path_applied?: string; edit: string; before_sha1: string })
  .map((c) => ({ id: c.id, path: c.path_applied ?? c.path, content: blob(c.before_sha1), edit: c.edit }))
  .filter((c) => onlyIds === undefined || onlyIds.has(c.id));

const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const load = () => loadavg()[0]?.toFixed(1);

type ThreadTimes = Map<string, number>;
/** CPU ms of each thread of this process, by thread id (Linux; empty elsewhere). */
function threadCpu(): ThreadTimes {
  const times: ThreadTimes = new Map();
  try {
    for (const tid of readdirSync("/proc/self/task")) {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // utime and stime, in clock ticks (100 a second).
      times.set(tid, (Number(fields[11]) + Number(fields[12])) * 10);
    }
  } catch {
    // Not Linux: no per-thread figures.
  }
  return times;
}
/** µs a case of each thread since `before`, the busiest first. */
function byThread(before: ThreadTimes, n: number): string {
  const rows: [string, number][] = [];
  for (const [tid, ms] of threadCpu()) {
    const spent = ms - (before.get(tid) ?? 0);
    if (spent > 0) rows.push([tid === String(process.pid) ? "main" : tid, spent]);
  }
  return rows
    .sort((a, b) => b[1] - a[1])
    .map(([name, ms]) => `${name} ${((ms * 1000) / n).toFixed(0)}`)
    .join(", ");
}

async function passesThrough(): Promise<void> {
  const perCase: number[] = [];
  const keep = !args.includes("--drop");
  let results: BatchResult[] = [];
  let last: BatchResult[] = [];
  let seen = 0;
  let cpu = cpuNow();
  let wall = performance.now();
  let threads = threadCpu();
  const all = Array.from({ length: passes }, () => cases).flat();
  for await (const r of applyMany(fresh ? freshTexts(all) : all, { jobs })) {
    if (keep) results.push(r);
    if (++seen < cases.length) continue;
    const ms = cpuNow() - cpu;
    const wallMs = performance.now() - wall;
    perCase.push((ms * 1000) / cases.length);
    console.log(`pass ${perCase.length}: wall ${wallMs.toFixed(0)} ms (${Math.round((cases.length * 1000) / wallMs)} edits/s), CPU ${ms.toFixed(0)} ms, ${((ms * 1000) / cases.length).toFixed(0)} µs a case (µs a case by thread: ${byThread(threads, cases.length)}; load ${load()})`);
    last = results;
    results = [];
    seen = 0;
    cpu = cpuNow();
    wall = performance.now();
    threads = threadCpu();
  }
  const mid = median(perCase.slice(2));
  console.log(`median CPU a case, passes 3-${passes} (jobs ${jobs}): ${mid.toFixed(0)} µs (${Math.round(1e6 / mid)} edits per CPU-second)`);
  if (out) writeFileSync(out, last.map((r) => `${JSON.stringify(r)}\n`).join(""));
}

/**
 * The cases, each with its text copied to a new string just before it is
 * taken (`--fresh`), as a pipeline that reads its cases gets them (and as a
 * pool's worker does): the loaded texts are old-generation strings that
 * every pass reuses, which no real input is. The copy is timed with the pass.
 */
function* freshTexts(all: BatchCase[]): Generator<BatchCase> {
  for (const c of all) yield c.content === undefined ? c : { ...c, content: Buffer.from(c.content, "utf16le").toString("utf16le") };
}

/** Each case alone, its least CPU time over the passes, summed by outcome. */
async function bestOfPasses(): Promise<void> {
  const best = cases.map(() => Number.POSITIVE_INFINITY);
  const kinds = cases.map(() => "");
  for (let p = 0; p < passes; p++) {
    for (const [k, c] of cases.entries()) {
      const cpu = cpuNow();
      const r = await applyCase(c, k + 1, {});
      best[k] = Math.min(best[k] as number, cpuNow() - cpu);
      kinds[k] = r.ok ? `ok ${r.report.edits[0]?.strategy ?? r.report.edits[0]?.status ?? r.report.status}` : `failed ${r.error?.code ?? ""}`;
    }
  }
  const sum = best.reduce((a, b) => a + b, 0);
  console.log(`each case's least CPU over ${passes} passes, summed: ${sum.toFixed(0)} ms, ${((sum * 1000) / cases.length).toFixed(0)} µs a case (load ${load()})`);
  const by = new Map<string, { n: number; ms: number }>();
  for (const [k, kind] of kinds.entries()) {
    const row = by.get(kind) ?? { n: 0, ms: 0 };
    row.n++;
    row.ms += best[k] as number;
    by.set(kind, row);
  }
  for (const [kind, { n, ms }] of [...by].sort((a, b) => b[1].ms - a[1].ms)) {
    console.log(`  ${kind}: ${n} cases, ${ms.toFixed(0)} ms (${((ms * 1000) / cases.length).toFixed(0)} µs of the average case)`);
  }
  const slowest = best.map((_, k) => k).sort((a, b) => (best[b] as number) - (best[a] as number));
  console.log(`  slowest: ${slowest.slice(0, 8).map((k) => `${cases[k]?.id} ${(best[k] as number).toFixed(1)} ms`).join("; ")}`);
}

if (args.includes("--best")) await bestOfPasses();
else await passesThrough();

/**
 * `applyMany(cases, options)`: applies cases (batch/apply-case.ts) on a pool
 * of worker threads and yields their results in input order.
 *
 * - Cases are posted in chunks (one message per CHUNK cases: a message costs
 *   tens of microseconds, a real edit a few hundred), content cases to the
 *   worker with the least work, path cases to the worker their path hashes
 *   to, so that cases of one file apply one after another in input order.
 * - At most WINDOW cases per worker are read ahead of the first result not
 *   yet yielded: memory stays flat over any number of cases (the input is
 *   consumed as results are taken), and one slow case holds back only the
 *   window.
 * - `jobs: 0` applies the cases in the calling thread, one at a time.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { EditError } from "../errors.ts";
import { applyCase, type BatchCase, type BatchResult, type CaseContext, errorData } from "./apply-case.ts";
import type { WorkerChunk, WorkerReply } from "./worker.ts";

export interface ApplyManyOptions {
  /**
   * The directory the paths of cases without `content` are under.
   * @default undefined (such cases fail)
   */
  root?: string;
  /**
   * Write nothing (cases with a path are computed and reported only).
   * @default false
   */
  dryRun?: boolean;
  /**
   * Worker threads; 0 applies the cases in the calling thread.
   * @default os.availableParallelism()
   */
  jobs?: number;
}

/** A case and the line it came from; `error`: the line could not be read as a case (its result is that error). */
export interface CaseEntry {
  line: number;
  value: unknown;
  error?: EditError;
}

const CHUNK = 16;
const WINDOW = 8 * CHUNK;

/**
 * The worker module: beside this one (as .ts under tsx), from the CLI bundle
 * (dist/cli/cli.cjs) in dist/batch/, and from the tests' bundle of the CLI
 * (node_modules/.cache/fuzzpatch-tests/) in the sources.
 */
function workerUrl(): URL {
  // Loaded as CommonJS (the CLI run from source through tsx's require), import.meta is empty.
  const here = typeof import.meta.url === "string" ? import.meta.url : pathToFileURL(__filename).href;
  if (here.endsWith(".ts")) return new URL("./worker.ts", here);
  const candidates = [new URL("./worker.js", here), new URL("../batch/worker.js", here), new URL("../../../src/batch/worker.ts", here)];
  return candidates.find((u) => existsSync(u)) ?? (candidates[0] as URL);
}

/** A worker; from source (tests, benches under tsx) it registers tsx first: a worker thread does not run the parent's --import hooks on Node 20. */
function startWorker(ctx: CaseContext): Worker {
  const url = workerUrl();
  if (!url.pathname.endsWith(".ts")) return new Worker(url, { workerData: ctx });
  // Resolved here, where tsx is found (an eval'd worker resolves from the working directory); not import.meta.resolve, which the CLI's CommonJS bundle lacks.
  // tsx's package: its ESM entry beside the CommonJS one `require.resolve` finds.
  const tsx = pathToFileURL(createRequire(url).resolve("tsx/esm/api").replace(/\.cjs$/, ".mjs")).href;
  const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(url.href)}); });`;
  return new Worker(boot, { eval: true, workerData: ctx });
}

/** A case's result, in this thread; never throws. */
export async function applyEntry(entry: CaseEntry, ctx: CaseContext): Promise<BatchResult> {
  if (entry.error) return { id: entry.line, ok: false, error: errorData(entry.error), report: { status: "failed", applied: 0, failed: 0, alreadyApplied: 0, edits: [] } };
  return applyCase(entry.value, entry.line, ctx);
}

/** A case read from a line of JSON. */
export function caseEntry(text: string, line: number): CaseEntry {
  try {
    return { line, value: JSON.parse(text) };
  } catch (error) {
    return { line, value: undefined, error: new EditError("PARSE", `Line ${line} is not a JSON case: ${(error as Error).message}.`, { line }) };
  }
}

/** The file a case without content edits: its cases go to one worker, in order. */
function pathOf(value: unknown): string | undefined {
  const c = value as Partial<BatchCase> | null;
  return c && typeof c === "object" && c.content === undefined && typeof c.path === "string" ? c.path : undefined;
}

function hashOf(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) | 0;
  return Math.abs(h);
}

interface Slot {
  worker: Worker;
  outbox: WorkerChunk["cases"];
  /** Cases posted and not answered. */
  busy: number;
  /** Their sequence numbers, to fail them if the worker dies. */
  pending: Set<number>;
}

/** Results of the entries, in order, from a pool of `jobs` workers. */
export async function* runPool(entries: Iterable<CaseEntry> | AsyncIterable<CaseEntry>, ctx: CaseContext, jobs: number): AsyncGenerator<BatchResult> {
  if (jobs === 0) {
    for await (const entry of entries) yield await applyEntry(entry, ctx);
    return;
  }
  const done = new Map<number, BatchResult>();
  /** Each pending case's id (its own, else its line), for a failure of its worker. */
  const ids = new Map<number, string | number>();
  let wake: (() => void) | undefined;
  const signal = () => {
    wake?.();
    wake = undefined;
  };
  const slots: Slot[] = [];
  const spawn = (): Slot => {
    const slot: Slot = { worker: startWorker(ctx), outbox: [], busy: 0, pending: new Set() };
    slot.worker.on("message", (reply: WorkerReply) => {
      for (const { seq, result } of reply.results) {
        done.set(seq, result);
        slot.pending.delete(seq);
      }
      slot.busy -= reply.results.length;
      signal();
    });
    slot.worker.on("error", (error) => {
      // The worker's cases fail (a crash, out of memory); a fresh worker takes its place.
      const failure = errorData(new EditError("IO", `A batch worker failed: ${error.message}`));
      for (const seq of slot.pending) done.set(seq, { id: ids.get(seq) ?? seq, ok: false, error: failure, report: { status: "failed", applied: 0, failed: 0, alreadyApplied: 0, edits: [] } });
      slots[slots.indexOf(slot)] = spawn();
      signal();
    });
    return slot;
  };
  for (let k = 0; k < jobs; k++) slots.push(spawn());
  const flush = (slot: Slot) => {
    if (slot.outbox.length === 0) return;
    slot.worker.postMessage({ cases: slot.outbox } satisfies WorkerChunk);
    slot.outbox = [];
  };
  const iterator = Symbol.asyncIterator in entries ? entries[Symbol.asyncIterator]() : (entries as Iterable<CaseEntry>)[Symbol.iterator]();
  let seq = 0;
  let next = 0;
  let ended = false;
  try {
    while (true) {
      while (!ended && seq - next < WINDOW * jobs) {
        const r = await iterator.next();
        if (r.done) {
          ended = true;
          break;
        }
        if (r.value.error) {
          done.set(seq++, await applyEntry(r.value, ctx));
          continue;
        }
        const path = pathOf(r.value.value);
        const slot = path !== undefined ? (slots[hashOf(path) % jobs] as Slot) : slots.reduce((a, b) => (b.busy + b.outbox.length < a.busy + a.outbox.length ? b : a));
        slot.outbox.push({ seq, line: r.value.line, value: r.value.value });
        slot.pending.add(seq);
        slot.busy++;
        const own = (r.value.value as { id?: unknown }).id;
        ids.set(seq, typeof own === "string" || typeof own === "number" ? own : r.value.line);
        seq++;
        if (slot.outbox.length >= CHUNK) flush(slot);
      }
      for (const slot of slots) flush(slot);
      while (done.has(next)) {
        const result = done.get(next) as BatchResult;
        done.delete(next);
        ids.delete(next);
        next++;
        yield result;
      }
      if (ended && next === seq) return;
      if (!done.has(next)) await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }
}

function checkJobs(jobs: unknown): number {
  if (jobs === undefined) return availableParallelism();
  if (typeof jobs !== "number" || !Number.isSafeInteger(jobs) || jobs < 0 || jobs > 256) {
    throw new EditError("INVALID_INPUT", `jobs must be a whole number from 0 to 256, got ${String(jobs)}.`);
  }
  return jobs;
}

/**
 * Applies each case and yields its result, in input order. `cases`: case
 * objects, from any iterable, read as results are
 * taken. Never throws for a bad case: it is a result with `ok: false`.
 */
export function applyMany(cases: Iterable<BatchCase> | AsyncIterable<BatchCase>, options: ApplyManyOptions = {}): AsyncGenerator<BatchResult> {
  if (typeof options !== "object" || options === null) throw new EditError("INVALID_INPUT", "applyMany: options must be an object.");
  const jobs = checkJobs(options.jobs);
  if (options.root !== undefined && typeof options.root !== "string") throw new EditError("INVALID_INPUT", "applyMany: root must be a string.");
  const ctx: CaseContext = { ...(options.root !== undefined && { root: options.root }), dryRun: options.dryRun === true };
  async function* entries(): AsyncGenerator<CaseEntry> {
    let line = 0;
    for await (const value of cases) yield { line: ++line, value };
  }
  return runPool(entries(), ctx, jobs);
}

/**
 * `applyMany(cases, options)`: applies cases (batch/apply-case.ts) on a pool
 * of worker threads and yields their results in input order.
 *
 * - Cases are posted in chunks (one message per CHUNK cases: a message costs
 *   tens of microseconds, a real edit a few hundred), content cases to the
 *   worker with the least work (or, within a chunk of it, to the worker that
 *   holds their text or had their file last: see `nearWorker`), path cases to
 *   the worker their path hashes to, so that cases of one file apply one
 *   after another in input order.
 * - A content case whose text its worker holds from a case before is posted
 *   without it (held-texts.ts).
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
import { HeldTexts } from "./held-texts.ts";
import { fileOfLine, type InputLine } from "./json-lines.ts";
import { withDelta } from "./text-delta.ts";
import type { PostedCase, WorkerChunk, WorkerReply } from "./worker.ts";

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
  /** The case's `content` as posted to a worker: its result's text comes back as a change of it (worker.ts `reply`). */
  sent?: string;
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

/** How the pool carries one kind of input and result: case objects (applyMany), or lines of JSON in and out (the CLI). */
interface Carrier<In, Out> {
  /** The file whose cases must apply in order on one worker; undefined: any worker. */
  route(entry: In): string | undefined;
  /** An entry whose result is known here (a line that was not JSON): computed in this thread, posted nowhere. */
  settled?(entry: In): boolean;
  /** The entry's result computed in this thread. */
  local(entry: In, ctx: CaseContext): Promise<Out>;
  /** The result of an entry whose worker died. */
  failure(entry: In, error: EditError): Out;
  /** Posts a chunk of entries. */
  post(worker: Worker, chunk: Outgoing<In>[]): void;
  /** A worker to prefer for an entry any worker may take (undefined: the least busy). */
  prefer?(entry: In, slots: readonly Slot<In>[]): Slot<In> | undefined;
  /** Called as the entry joins its worker's outbox, in posting order: what the message carries besides it. */
  hold?(entry: In, slot: Slot<In>): Pick<Outgoing<In>, "held">;
  /** The results in a worker's reply; `posted`: the entry posted with a sequence number. */
  results(reply: WorkerReply, posted: (seq: number) => In | undefined): Iterable<[number, Out]>;
}

const objectCarrier: Carrier<CaseEntry, BatchResult> = {
  route: (entry) => pathOf(entry.value),
  settled: (entry) => entry.error !== undefined,
  local: applyEntry,
  failure(entry, error) {
    const own = (entry.value as { id?: unknown } | null)?.id;
    return { id: typeof own === "string" || typeof own === "number" ? own : entry.line, ok: false, error: errorData(error), report: { status: "failed", applied: 0, failed: 0, alreadyApplied: 0, edits: [] } };
  },
  post(worker, chunk) {
    const cases: PostedCase[] = [];
    for (const { seq, entry, held } of chunk) {
      const content = contentOf(entry);
      if (content !== undefined) entry.sent = content;
      if (held === undefined) {
        cases.push({ seq, line: entry.line, value: entry.value });
        continue;
      }
      // The worker has the text: the case without it (a copy; the caller's object is left as it is).
      const { content: _, ...rest } = entry.value as BatchCase;
      cases.push({ seq, line: entry.line, value: rest, held });
    }
    worker.postMessage({ cases } satisfies WorkerChunk);
  },
  prefer: nearWorker,
  hold(entry, slot) {
    const content = contentOf(entry);
    slot.lastPath = (entry.value as { path?: unknown }).path;
    if (content === undefined) return {};
    const held = slot.held.find(content);
    if (held < 0) {
      slot.held.add(content);
      return {};
    }
    slot.held.take(held);
    return { held };
  },
  *results(reply, posted) {
    if (!("results" in reply)) return;
    for (const { seq, result, delta } of reply.results) {
      const base = posted(seq)?.sent;
      if (delta === undefined || base === undefined) {
        yield [seq, result];
        continue;
      }
      // The text where applyCase puts it (after ok), so that the result reads (and prints) as it would have.
      const { id, ok, ...rest } = result;
      yield [seq, { id, ok, content: withDelta(base, delta), ...rest }];
    }
  },
};

/** A result as its line of JSON (UTF-8, ending in "\n"), and whether it is ok. */
export interface LineResult {
  ok: boolean;
  json: Uint8Array;
}

const encoder = new TextEncoder();

export const lineCarrier: Carrier<InputLine, LineResult> = {
  route: (entry) => fileOfLine(entry.bytes),
  local: async (entry, ctx) => {
    const result = await applyLine(entry, ctx);
    return { ok: result.ok, json: encoder.encode(`${JSON.stringify(result)}\n`) };
  },
  failure(entry, error) {
    const parsed = caseEntry(new TextDecoder("utf-8", { ignoreBOM: true }).decode(entry.bytes), entry.line);
    const result = objectCarrier.failure(parsed, error);
    return { ok: false, json: encoder.encode(`${JSON.stringify(result)}\n`) };
  },
  post(worker, chunk) {
    // One buffer for the chunk's lines, moved (not copied) to the worker.
    const bytes = new Uint8Array(chunk.reduce((n, c) => n + c.entry.bytes.length, 0));
    const ends: number[] = [];
    let at = 0;
    for (const { entry } of chunk) {
      bytes.set(entry.bytes, at);
      at += entry.bytes.length;
      ends.push(at);
    }
    const lines = { seqs: chunk.map((c) => c.seq), lines: chunk.map((c) => c.entry.line), bytes, ends };
    worker.postMessage({ lines } satisfies WorkerChunk, [bytes.buffer]);
  },
  *results(reply) {
    if (!("lines" in reply)) return;
    const { seqs, ok, bytes, ends } = reply.lines;
    for (let k = 0; k < seqs.length; k++) yield [seqs[k] as number, { ok: ok[k] as boolean, json: bytes.subarray(ends[k - 1] ?? 0, ends[k]) }];
  },
};

/** A line of the input as a case, applied in this thread; never throws. */
export function applyLine(entry: InputLine, ctx: CaseContext): Promise<BatchResult> {
  return applyEntry(caseEntry(new TextDecoder("utf-8", { ignoreBOM: true }).decode(entry.bytes), entry.line), ctx);
}

/** An entry in a worker's outbox; `held`: its text is the one the worker holds at that place (held-texts.ts). */
interface Outgoing<In> {
  seq: number;
  entry: In;
  held?: number;
}

interface Slot<In> {
  worker: Worker;
  outbox: Outgoing<In>[];
  /** Entries posted and not answered, by sequence number, to fail them if the worker dies. */
  pending: Map<number, In>;
  /** The texts the worker holds, as it will hold them once it has read the outbox. */
  held: HeldTexts;
  /** The `path` of the last case given to the worker. */
  lastPath?: unknown;
}

function contentOf(entry: CaseEntry): string | undefined {
  const content = (entry.value as { content?: unknown } | null)?.content;
  return typeof content === "string" ? content : undefined;
}

/**
 * The worker for a content case when one holds its text, else the one that had
 * its file last (a model's next try at a file: the syntax judge parses it from
 * the tree of the last try it kept, syntax/tree-cache.ts `keptNear`), as long as
 * that worker has at most a chunk more cases waiting than the least busy one.
 */
function nearWorker(entry: CaseEntry, slots: readonly Slot<CaseEntry>[]): Slot<CaseEntry> | undefined {
  const content = contentOf(entry);
  if (content === undefined || slots.length < 2) return undefined;
  let least = Number.POSITIVE_INFINITY;
  for (const s of slots) least = Math.min(least, s.pending.size);
  const near = slots.filter((s) => s.pending.size <= least + CHUNK);
  const path = (entry.value as { path?: unknown }).path;
  return near.find((s) => s.held.find(content) >= 0) ?? near.find((s) => s.lastPath === path);
}

/** Results of the entries, in order, from a pool of `jobs` workers. */
export function runPool(entries: Iterable<CaseEntry> | AsyncIterable<CaseEntry>, ctx: CaseContext, jobs: number): AsyncGenerator<BatchResult> {
  return pool(entries, ctx, jobs, objectCarrier);
}

/** Results of lines of JSON cases, as lines of JSON, in order, from a pool of `jobs` workers (each line parsed and its result written by its worker). */
export function runLinePool(lines: AsyncIterable<InputLine>, ctx: CaseContext, jobs: number): AsyncGenerator<LineResult> {
  return pool(lines, ctx, jobs, lineCarrier);
}

async function* pool<In, Out>(entries: Iterable<In> | AsyncIterable<In>, ctx: CaseContext, jobs: number, carrier: Carrier<In, Out>): AsyncGenerator<Out> {
  if (jobs === 0) {
    for await (const entry of entries) yield await carrier.local(entry, ctx);
    return;
  }
  const done = new Map<number, Out>();
  let wake: (() => void) | undefined;
  const signal = () => {
    wake?.();
    wake = undefined;
  };
  const slots: Slot<In>[] = [];
  const spawn = (): Slot<In> => {
    const slot: Slot<In> = { worker: startWorker(ctx), outbox: [], pending: new Map(), held: new HeldTexts() };
    slot.worker.on("message", (reply: WorkerReply) => {
      for (const [seq, result] of carrier.results(reply, (seq) => slot.pending.get(seq))) {
        done.set(seq, result);
        slot.pending.delete(seq);
      }
      signal();
    });
    slot.worker.on("error", (error) => {
      // The worker's cases fail (a crash, out of memory); a fresh worker takes its place.
      const failure = new EditError("IO", `A batch worker failed: ${error.message}`);
      for (const [seq, entry] of slot.pending) done.set(seq, carrier.failure(entry, failure));
      slots[slots.indexOf(slot)] = spawn();
      signal();
    });
    return slot;
  };
  for (let k = 0; k < jobs; k++) slots.push(spawn());
  const flush = (slot: Slot<In>) => {
    if (slot.outbox.length === 0) return;
    carrier.post(slot.worker, slot.outbox);
    slot.outbox = [];
  };
  const iterator = Symbol.asyncIterator in entries ? entries[Symbol.asyncIterator]() : (entries as Iterable<In>)[Symbol.iterator]();
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
        if (carrier.settled?.(r.value)) {
          done.set(seq++, await carrier.local(r.value, ctx));
          continue;
        }
        const path = carrier.route(r.value);
        const slot =
          path !== undefined
            ? (slots[hashOf(path) % jobs] as Slot<In>)
            : (carrier.prefer?.(r.value, slots) ?? slots.reduce((a, b) => (b.pending.size < a.pending.size ? b : a)));
        slot.outbox.push({ seq, entry: r.value, ...carrier.hold?.(r.value, slot) });
        slot.pending.set(seq, r.value);
        seq++;
        if (slot.outbox.length >= CHUNK) flush(slot);
      }
      for (const slot of slots) flush(slot);
      while (done.has(next)) {
        const result = done.get(next) as Out;
        done.delete(next);
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

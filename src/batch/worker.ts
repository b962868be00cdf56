/**
 * A batch worker thread: applies the chunks of cases the pool posts, in
 * the order they arrive (a file's cases come to one worker, so they apply
 * in input order), and posts each chunk's results back.
 */
import { parentPort, workerData } from "node:worker_threads";
import { applyCase, type CaseContext } from "./apply-case.ts";

export interface WorkerChunk {
  /** Each case with its sequence number and its fallback id (its line). */
  cases: { seq: number; line: number; value: unknown }[];
}

export interface WorkerReply {
  results: { seq: number; result: import("./apply-case.ts").BatchResult }[];
}

const ctx = workerData as CaseContext;
let queue: Promise<void> = Promise.resolve();

parentPort?.on("message", (chunk: WorkerChunk) => {
  queue = queue.then(async () => {
    const results: WorkerReply["results"] = [];
    for (const { seq, line, value } of chunk.cases) results.push({ seq, result: await applyCase(value, line, ctx) });
    parentPort?.postMessage({ results } satisfies WorkerReply);
  });
});

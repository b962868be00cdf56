/**
 * A batch worker thread: applies the chunks of cases the pool posts, in
 * the order they arrive (a file's cases come to one worker, so they apply
 * in input order), and posts each chunk's results back: case objects for
 * `applyMany`, or (the CLI) lines of JSON parsed here and answered as lines
 * of JSON, in one buffer moved back to the pool.
 */
import { parentPort, workerData } from "node:worker_threads";
import { applyCaseWithDelta, type BatchResult, type CaseContext } from "./apply-case.ts";
import { applyLine } from "./apply-many.ts";
import { type TextDelta, textDelta } from "./text-delta.ts";

export type WorkerChunk =
  /** Each case with its sequence number and its fallback id (its line). */
  | { cases: { seq: number; line: number; value: unknown }[] }
  /** Lines of JSON cases, one after another in `bytes`, each ending at its `ends` entry. */
  | { lines: { seqs: number[]; lines: number[]; bytes: Uint8Array; ends: number[] } };

export type WorkerReply =
  /** `delta`: the result's `content`, left out of `result`, as a change of the case's own (which the pool holds). */
  | { results: { seq: number; result: BatchResult; delta?: TextDelta }[] }
  /** Each result as a line of JSON ("\n" included) in `bytes`, ending at its `ends` entry. */
  | { lines: { seqs: number[]; ok: boolean[]; bytes: Uint8Array; ends: number[] } };

const ctx = workerData as CaseContext;
let queue: Promise<void> = Promise.resolve();
const encoder = new TextEncoder();

async function answer(chunk: WorkerChunk): Promise<void> {
  if ("cases" in chunk) {
    const results: { seq: number; result: BatchResult; delta?: TextDelta }[] = [];
    for (const { seq, line, value } of chunk.cases) results.push(reply(seq, value, await applyCaseWithDelta(value, line, ctx)));
    parentPort?.postMessage({ results } satisfies WorkerReply);
    return;
  }
  const { seqs, lines, bytes, ends } = chunk.lines;
  const ok: boolean[] = [];
  const texts: string[] = [];
  const outEnds: number[] = [];
  let length = 0;
  for (let k = 0; k < seqs.length; k++) {
    const result = await applyLine({ line: lines[k] as number, bytes: bytes.subarray(ends[k - 1] ?? 0, ends[k]) }, ctx);
    const text = `${JSON.stringify(result)}\n`;
    ok.push(result.ok);
    texts.push(text);
    length += Buffer.byteLength(text, "utf8");
    outEnds.push(length);
  }
  const out = new Uint8Array(length);
  let at = 0;
  for (const text of texts) at += encoder.encodeInto(text, out.subarray(at)).written;
  parentPort?.postMessage({ lines: { seqs, ok, bytes: out, ends: outEnds } } satisfies WorkerReply, [out.buffer]);
}

/** A case's result as posted: a text result as the change it made to the case's text, which the pool has (text-delta.ts): as the case's formats said it, else found by comparing the texts. */
function reply(seq: number, value: unknown, outcome: { result: BatchResult; delta?: TextDelta }): { seq: number; result: BatchResult; delta?: TextDelta } {
  const { result } = outcome;
  const base = (value as { content?: unknown }).content;
  if (result.content === undefined || typeof base !== "string") return { seq, result };
  const { content, ...rest } = result;
  return { seq, result: rest, delta: outcome.delta ?? textDelta(base, content) };
}

parentPort?.on("message", (chunk: WorkerChunk) => {
  queue = queue.then(() => answer(chunk));
});

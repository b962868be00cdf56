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
import { HeldTexts } from "./held-texts.ts";
import { type TextDelta, textDelta } from "./text-delta.ts";

/** A case with its sequence number and its fallback id (its line); `held`: its `content` is the text this worker holds there (held-texts.ts). */
export interface PostedCase {
  seq: number;
  line: number;
  value: unknown;
  held?: number;
}

export type WorkerChunk =
  | { cases: PostedCase[] }
  /** Lines of JSON cases, one after another in `bytes`, each ending at its `ends` entry. */
  | { lines: { seqs: number[]; lines: number[]; bytes: Uint8Array; ends: number[] } };

export type WorkerReply =
  /** `delta`: the result's `content`, left out of `result`, as a change of the case's own (which the pool holds). */
  | { results: { seq: number; result: BatchResult; delta?: TextDelta }[] }
  /** Each result as a line of JSON ("\n" included) in `bytes`, ending at its `ends` entry. */
  | { lines: { seqs: number[]; ok: boolean[]; bytes: Uint8Array; ends: number[] } };

const ctx = workerData as CaseContext;
/** The texts of the last cases, as the pool's mirror of them says (held-texts.ts). */
const held = new HeldTexts();
let queue: Promise<void> = Promise.resolve();
const encoder = new TextEncoder();

async function answer(chunk: WorkerChunk): Promise<void> {
  if ("cases" in chunk) {
    const results: { seq: number; result: BatchResult; delta?: TextDelta }[] = [];
    for (const posted of chunk.cases) {
      const value = withHeldText(posted);
      results.push(reply(posted.seq, value, await applyCaseWithDelta(value, posted.line, ctx)));
    }
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

/** The case with its text: the one posted (now held), or the held one it names; the same steps as the pool's `hold`, in the same order. */
function withHeldText(posted: PostedCase): unknown {
  const value = posted.value as { content?: unknown } | null;
  if (posted.held === undefined) {
    if (typeof value?.content === "string") held.add(value.content);
    return value;
  }
  const text = held.take(posted.held);
  // Cannot happen while both sides take the same steps; a case without its text would be read as a path case.
  if (text === undefined) throw new Error(`batch worker: no held text at ${posted.held}`);
  return { ...value, content: text };
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

/**
 * `fuzzpatch batch [CASES.jsonl]`: applies one case per line (see
 * src/batch/apply-case.ts for its fields) on a pool of worker threads and
 * prints one result per case, as NDJSON, in input order. `--shard I/N`
 * takes every Nth case from the Ith (1-based), so N machines split a corpus
 * without coordinating. The input is read as results are printed: memory
 * stays flat however many cases there are.
 */
import { once } from "node:events";
import { constants, createReadStream } from "node:fs";
import { access } from "node:fs/promises";
import { runLinePool } from "../batch/apply-many.ts";
import { type InputLine, inputLines, isBlankLine } from "../batch/json-lines.ts";
import { EditError } from "../errors.ts";
import { type Streams, writeError } from "./output.ts";

export interface BatchCommandOptions {
  root: string;
  dryRun: boolean;
  jobs?: number;
  /** `I/N`. */
  shard?: string;
}

/** `I/N` with 1 <= I <= N. */
export function parseShard(value: string): { index: number; count: number } | undefined {
  const m = /^(\d{1,6})\/(\d{1,6})$/.exec(value.trim());
  if (!m) return undefined;
  const index = Number(m[1]);
  const count = Number(m[2]);
  return index >= 1 && index <= count ? { index, count } : undefined;
}

/** The cases of this shard, each with its line in the file (blank lines are not cases), as bytes: a worker parses each. */
async function* entriesOf(lines: AsyncIterable<InputLine>, shard: { index: number; count: number } | undefined): AsyncGenerator<InputLine> {
  let k = 0;
  for await (const entry of lines) {
    if (isBlankLine(entry.bytes)) continue;
    const mine = shard === undefined || k % shard.count === shard.index - 1;
    k++;
    if (mine) yield entry;
  }
}

/** Exit codes: 0 every case ok, 1 some case failed, 2 bad usage or an unreadable input. */
export async function runBatch(file: string | undefined, options: BatchCommandOptions, streams: Streams, stdin: () => NodeJS.ReadStream): Promise<number> {
  const shard = options.shard === undefined ? undefined : parseShard(options.shard);
  if (options.shard !== undefined && !shard) {
    writeError(streams, new EditError("INVALID_INPUT", `--shard expects I/N with 1 <= I <= N (as 2/4), got ${JSON.stringify(options.shard)}.`));
    return 2;
  }
  const fromStdin = file === undefined || file === "-";
  if (file === undefined && stdin().isTTY) {
    writeError(streams, new EditError("INVALID_INPUT", "No cases: give CASES.jsonl, or pipe the cases on stdin."));
    return 2;
  }
  let failed = false;
  try {
    // A missing file is said before any case runs (readline would end quietly on a stream that failed to open).
    if (!fromStdin) await access(file, constants.R_OK);
    const source = fromStdin ? stdin() : createReadStream(file);
    const results = runLinePool(entriesOf(inputLines(source), shard), { root: options.root, dryRun: options.dryRun }, options.jobs ?? (await import("node:os")).availableParallelism());
    for await (const result of results) {
      if (!result.ok) failed = true;
      if (!streams.out.write(result.json)) await once(streams.out, "drain");
    }
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code === "ENOENT" ? `Cannot read ${file}: no such file.` : `Cannot read the cases: ${(error as Error).message}`;
    writeError(streams, error instanceof EditError ? error : new EditError("IO", why, fromStdin ? {} : { path: file }));
    return 2;
  }
  return failed ? 1 : 0;
}

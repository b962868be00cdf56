/**
 * The journal's full prune, in CPU ms (`node --import tsx bench/journal-prune.ts [journal]`):
 * a copy of the journal named (e.g. ~/.local/state/fuzzpatch/journal), or
 * one generated like a user's (JOURNAL_PRUNE_ENTRIES entries, default 200,
 * each with a 64 KiB input and a ~70 KiB diff kept inline, and small versions). The copy
 * is pruned with the default bounds (no age bound, so every run sees the same
 * entries): RUNS times with no index (removed before each run), then RUNS
 * times with the index the run before left. Prints the medians of each.
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { JournalEntry } from "../src/fs/journal-entry.ts";
import { PRUNE_INDEX } from "../src/fs/journal-prune-index.ts";
import { newEntryId, pruneJournal, writeEntry } from "../src/fs/journal-store.ts";
import { hashBytes } from "../src/fs/read-file.ts";
import { median } from "./median.ts";

const RUNS = 5;
const BOUNDS = { maxEntries: 1000, maxBytes: 100 * 1024 * 1024, maxAgeMs: Number.MAX_SAFE_INTEGER };

/** An input like a model's SEARCH/REPLACE response: code lines with quotes, escaped in the entry's JSON. */
function inputText(k: number): string {
  const line = `    const value${k} = "text with \\"quotes\\"\\t and a tab";\n`;
  return line.repeat(Math.floor((64 * 1024) / line.length));
}

async function generate(dir: string, count: number): Promise<void> {
  let before = Buffer.from("version 0\n");
  for (let k = 1; k <= count; k++) {
    const after = Buffer.from(`version ${k}\n`);
    const id = newEntryId();
    const entry: JournalEntry = {
      format: 1,
      id,
      time: new Date().toISOString(),
      root: "/tmp/project",
      source: "bench",
      version: "0.0.0",
      files: [{ path: "a.ts", kind: "write", before: hashBytes(before), after: hashBytes(after) }],
      read: [{ path: "a.ts", exists: true, blob: hashBytes(before) }],
      input: { kind: "text", text: inputText(k) },
      result: { ok: true, applied: 1, failed: 0, alreadyApplied: 0, files: [], errors: [], diffText: inputText(k).replaceAll("\n", "\n+") },
    };
    await writeEntry(dir, entry, new Map([[hashBytes(before), before], [hashBytes(after), after]]));
    before = after;
  }
}

/** CPU ms of one prune of `dir`. */
async function timedPrune(dir: string): Promise<number> {
  const start = process.cpuUsage();
  await pruneJournal(dir, BOUNDS);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

const base = mkdtempSync(path.join(tmpdir(), "fuzzpatch-prune-bench-"));
try {
  const dir = path.join(base, "journal");
  const from = process.argv[2];
  if (from !== undefined) cpSync(from, dir, { recursive: true });
  else {
    const { preparePrivateDir } = await import("../src/fs/journal-dir.ts");
    preparePrivateDir(dir);
    await generate(dir, Number(process.env.JOURNAL_PRUNE_ENTRIES ?? 200));
  }
  const cold: number[] = [];
  for (let k = 0; k < RUNS; k++) {
    rmSync(path.join(dir, PRUNE_INDEX), { force: true });
    cold.push(await timedPrune(dir));
  }
  const warm: number[] = [];
  for (let k = 0; k < RUNS; k++) warm.push(await timedPrune(dir));
  const f = (xs: number[]) => `median ${median(xs).toFixed(1)} (${xs.map((x) => x.toFixed(0)).join(", ")})`;
  console.log(`${from ?? "generated journal"}: full prune, CPU ms`);
  console.log(`  no index:   ${f(cold)}`);
  console.log(`  with index: ${f(warm)}`);
} finally {
  rmSync(base, { recursive: true, force: true });
}

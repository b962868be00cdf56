/**
 * What the journal's full prune learned of each entry (its size and the
 * versions it names), kept in `prune-index.json` beside the `pruned` mark,
 * so that the next prune reads only the entries written since.
 *
 * Why: the prune read and parsed every entry (inline inputs and diffs of up
 * to 64 KiB each) to learn the same few hashes again: ~300 ms of CPU on a
 * 22 MB journal of 178 entries, seconds near the 100 MiB bound, inside
 * whichever user's write it fell due in.
 *
 * An entry is written once under a new name (time and random) and never
 * changed; undo records a new entry. Still, a record is trusted only while
 * the entry file's lstat gives the inode, size, mtime and ctime the record
 * was learned with (an fstat of the descriptor the entry was read through,
 * taken before reading): a file replaced or rewritten is read again. The
 * index is written privately and atomically, last writer wins when two
 * processes prune at once; every record in it checks itself against its
 * file, so a stale index costs a read, never a wrong decision. One that
 * cannot be read or parsed is an empty index: the prune reads every entry
 * and writes a new one.
 *
 * Format: `{"format":1,"entries":{"<id>":[ino,size,mtimeMs,ctimeMs,<sha256>...]}}`.
 */

import type { Stats } from "node:fs";
import { ID_PATTERN } from "./journal-entry.ts";

export const PRUNE_INDEX = "prune-index.json";

const FORMAT = 1;
const HASH = /^[0-9a-f]{64}$/;

/** What the prune needs of an entry: its size on disk and the versions it names. */
export interface EntryInfo {
  size: number;
  blobs: string[];
}

/** An entry file's identity as a stat gives it: the record is trusted only while this is unchanged. */
export interface EntryStat {
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

export interface IndexedEntry {
  stat: EntryStat;
  info: EntryInfo;
}

export type PruneIndex = Map<string, IndexedEntry>;

export function statOf(st: Stats): EntryStat {
  return { ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
}

/** What `known` (an entry's record) says, when the entry file's stat `st` (an lstat, a regular file) still matches it. */
export function trustedInfo(known: IndexedEntry | undefined, st: Stats | undefined): EntryInfo | undefined {
  if (!known || !st?.isFile()) return undefined;
  const k = known.stat;
  return k.ino === st.ino && k.size === st.size && k.mtimeMs === st.mtimeMs && k.ctimeMs === st.ctimeMs ? known.info : undefined;
}

/** The index in `text`; an empty one when anything in it is off (it is rebuilt from the entries). */
export function parsePruneIndex(text: string): PruneIndex {
  const out: PruneIndex = new Map();
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return out;
  }
  if (typeof raw !== "object" || raw === null || (raw as { format?: unknown }).format !== FORMAT) return out;
  const entries = (raw as { entries?: unknown }).entries;
  if (typeof entries !== "object" || entries === null || Array.isArray(entries)) return out;
  for (const [id, record] of Object.entries(entries)) {
    const parsed = ID_PATTERN.test(id) ? parseRecord(record) : undefined;
    if (!parsed) return new Map();
    out.set(id, parsed);
  }
  return out;
}

function parseRecord(record: unknown): IndexedEntry | undefined {
  if (!Array.isArray(record) || record.length < 4) return undefined;
  const [ino, size, mtimeMs, ctimeMs] = record as unknown[];
  const numbers = [ino, size, mtimeMs, ctimeMs];
  if (!numbers.every((n) => typeof n === "number" && Number.isFinite(n) && n >= 0)) return undefined;
  const blobs = record.slice(4);
  if (!blobs.every((h) => typeof h === "string" && HASH.test(h))) return undefined;
  return { stat: { ino: ino as number, size: size as number, mtimeMs: mtimeMs as number, ctimeMs: ctimeMs as number }, info: { size: size as number, blobs: blobs as string[] } };
}

export function serializePruneIndex(index: PruneIndex): string {
  const entries: Record<string, (number | string)[]> = {};
  for (const [id, { stat, info }] of index) entries[id] = [stat.ino, stat.size, stat.mtimeMs, stat.ctimeMs, ...info.blobs];
  return `${JSON.stringify({ format: FORMAT, entries })}\n`;
}

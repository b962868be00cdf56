/**
 * The journal on disk: `blobs/<sha256>` holds each version of a file once
 * (content-addressed: the version a write leaves is the one the next write
 * starts from, and costs nothing the second time), `entries/<id>.json` one
 * write each. Both are written through the file layer's transaction
 * (transaction.ts: staged, synced, renamed under the directory's lock, all
 * or nothing), created 0600, never through a symlink (O_EXCL|O_NOFOLLOW),
 * and read through a descriptor opened with O_NOFOLLOW.
 *
 * Bounded: `pruneJournal` drops the oldest entries past a count, an age and
 * a total size, then the versions no entry needs any more.
 */

import { randomBytes } from "node:crypto";
import { fstatSync, lstatSync, lutimesSync, readdirSync, type Stats } from "node:fs";
import { open, unlink } from "node:fs/promises";
import path from "node:path";
import { EditError } from "../errors.ts";
import { READ_FLAGS } from "./fd-place.ts";
import { ID_PATTERN, type JournalEntry, parseEntry, type RecordedResult } from "./journal-entry.ts";
import { BLOBS, ENTRIES } from "./journal-dir.ts";
import { hashBytes } from "./read-file.ts";
import { commitChanges, type PlannedChange } from "./transaction.ts";

/** How large, old and long the journal may grow. */
export interface JournalBounds {
  /** Most entries kept. */
  maxEntries: number;
  /** Most bytes kept (entries and file versions together). */
  maxBytes: number;
  /** Oldest entry kept, in milliseconds. */
  maxAgeMs: number;
}

/** A file version written by a write another process is recording now is not removed for this long. */
const GRACE_MS = 60_000;

let lastMs = 0;

/**
 * A new entry id: the time in base 36 (ms, 9 digits: names sort by time
 * until the year 5188), then random hex so two processes never collide.
 */
export function newEntryId(now = Date.now()): string {
  const ms = Math.max(now, lastMs + 1);
  lastMs = ms;
  return `${ms.toString(36).padStart(9, "0")}-${randomBytes(4).toString("hex")}`;
}

/** The time an id was made, in ms since the epoch. */
export function timeOfId(id: string): number {
  return Number.parseInt(id.slice(0, id.indexOf("-")), 36);
}

/**
 * Writes the blobs not yet stored (bytes, or a text stored as UTF-8) and the entry, as one transaction. A blob
 * already there (same name, same size) is not written again; its time is
 * touched so a concurrent prune keeps it. Returns the bytes added.
 */
export async function writeEntry(dir: string, entry: JournalEntry, blobs: ReadonlyMap<string, Uint8Array | string>): Promise<number> {
  const changes: PlannedChange[] = [];
  const now = new Date();
  for (const [hash, blob] of blobs) {
    const abs = path.join(dir, BLOBS, hash);
    const st = lstatOrUndefined(abs);
    // A text (a history version) is encoded only to be written.
    const size = typeof blob === "string" ? Buffer.byteLength(blob, "utf8") : blob.length;
    if (st?.isFile() && st.size === size) {
      lutimesSync(abs, now, now);
      continue;
    }
    // A damaged version (wrong size) is replaced; anything but a file there fails the write.
    const bytes = typeof blob === "string" ? Buffer.from(blob, "utf8") : blob;
    changes.push({ rel: `${BLOBS}/${hash}`, abs, kind: st ? "write" : "create", bytes, original: st ? await readPrivate(abs) : new Uint8Array(), mode: 0o600 });
  }
  const text = Buffer.from(`${JSON.stringify(entry)}\n`, "utf8");
  changes.push({ rel: `${ENTRIES}/${entry.id}.json`, abs: path.join(dir, ENTRIES, `${entry.id}.json`), kind: "create", bytes: text, original: new Uint8Array(), mode: 0o600 });
  await commitChanges(changes);
  return changes.reduce((n, c) => n + c.bytes.length, 0);
}

/** A stored file version, checked against its name: `IO` when missing or damaged. */
export async function readBlob(dir: string, hash: string): Promise<Buffer> {
  let bytes: Buffer;
  try {
    bytes = await readPrivate(path.join(dir, BLOBS, hash));
  } catch (error) {
    throw new EditError("IO", `The journal lost a file version (${hash.slice(0, 12)}…: ${(error as Error).message}); nothing can be written from it.`, { hash });
  }
  if (hashBytes(bytes) !== hash) throw new EditError("IO", `A file version in the journal is damaged (its sha256 is not ${hash.slice(0, 12)}…); nothing is written from it.`, { hash });
  return bytes;
}

/** An entry's input as written (kept in the entry, or as a blob by entries before INLINE_MAX_BYTES). */
export async function inputText(dir: string, input: NonNullable<JournalEntry["input"]>): Promise<string> {
  if (input.text !== undefined) return input.text;
  return (await readBlob(dir, input.blob as string)).toString("utf8");
}

/** A recorded result's diff (kept in the entry, or as a blob). */
export async function diffText(dir: string, result: RecordedResult): Promise<string> {
  if (result.diffText !== undefined) return result.diffText;
  return result.diff === undefined ? "" : (await readBlob(dir, result.diff)).toString("utf8");
}

/** Every entry id, oldest first. */
export function listEntryIds(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(path.join(dir, ENTRIES));
  } catch {
    return [];
  }
  const ids = names.filter((n) => n.endsWith(".json")).map((n) => n.slice(0, -5));
  return ids.filter((id) => ID_PATTERN.test(id)).sort();
}

export async function readEntry(dir: string, id: string): Promise<JournalEntry> {
  if (!ID_PATTERN.test(id)) throw new EditError("INVALID_INPUT", `${JSON.stringify(id)} is not a journal entry id (see fuzzpatch log).`, { id });
  let bytes: Buffer;
  try {
    bytes = await readPrivate(path.join(dir, ENTRIES, `${id}.json`));
  } catch (error) {
    const missing = (error as { code?: string }).code === "ENOENT";
    throw new EditError(missing ? "NOT_FOUND" : "IO", missing ? `No write ${id} in the journal (see fuzzpatch log); it may have been dropped as the journal's oldest.` : `Cannot read journal entry ${id}: ${(error as Error).message}.`, { id });
  }
  return parseEntry(id, bytes.toString("utf8"));
}

/** A file of the journal, read through a descriptor that never followed a symlink. */
async function readPrivate(abs: string): Promise<Buffer> {
  const handle = await open(abs, READ_FLAGS);
  try {
    if (!fstatSync(handle.fd).isFile()) throw new Error("not a regular file");
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

function lstatOrUndefined(abs: string): Stats | undefined {
  try {
    return lstatSync(abs);
  } catch {
    return undefined;
  }
}

/**
 * Drops the oldest entries past the bounds, then the file versions no
 * entry refers to: those only dropped entries used, and strays older than
 * GRACE_MS (a version another process wrote for an entry not yet placed is
 * younger). Returns the ids dropped.
 */
export async function pruneJournal(dir: string, bounds: JournalBounds, now = Date.now()): Promise<string[]> {
  const ids = listEntryIds(dir);
  const dropped = new Set<string>();
  for (const id of ids) if (now - timeOfId(id) > bounds.maxAgeMs) dropped.add(id);
  let kept = ids.filter((id) => !dropped.has(id));
  while (kept.length > bounds.maxEntries) dropped.add(kept.shift() as string);
  // References and sizes of what is left; the versions of entries dropped so far are freed unless a kept one uses them.
  const refs = new Map<string, number>();
  const entryRefs = new Map<string, { size: number; blobs: string[] }>();
  const freed = new Set<string>();
  for (const id of ids) {
    const info = await entryInfo(dir, id);
    entryRefs.set(id, info);
    if (dropped.has(id)) for (const b of info.blobs) freed.add(b);
    else for (const b of info.blobs) refs.set(b, (refs.get(b) ?? 0) + 1);
  }
  const blobSizes = new Map<string, { size: number; mtimeMs: number }>();
  for (const name of safeReaddir(path.join(dir, BLOBS))) {
    const st = lstatOrUndefined(path.join(dir, BLOBS, name));
    if (st?.isFile()) blobSizes.set(name, { size: st.size, mtimeMs: st.mtimeMs });
  }
  let total = kept.reduce((n, id) => n + (entryRefs.get(id)?.size ?? 0), 0);
  for (const [name, b] of blobSizes) if ((refs.get(name) ?? 0) > 0 || !freed.has(name)) total += b.size;
  while (total > bounds.maxBytes && kept.length > 0) {
    const id = kept.shift() as string;
    dropped.add(id);
    const info = entryRefs.get(id) as { size: number; blobs: string[] };
    total -= info.size;
    for (const b of new Set(info.blobs)) {
      const left = (refs.get(b) ?? 0) - info.blobs.filter((x) => x === b).length;
      refs.set(b, left);
      if (left === 0) {
        freed.add(b);
        total -= blobSizes.get(b)?.size ?? 0;
      }
    }
  }
  kept = kept.filter((id) => !dropped.has(id));
  for (const id of dropped) await unlink(path.join(dir, ENTRIES, `${id}.json`)).catch(() => undefined);
  for (const [name, st] of blobSizes) {
    if ((refs.get(name) ?? 0) > 0) continue;
    // A version freed here was written before this prune began; a stray must be older than the grace.
    const old = freed.has(name) ? st.mtimeMs <= now : now - st.mtimeMs > GRACE_MS;
    if (old) await unlink(path.join(dir, BLOBS, name)).catch(() => undefined);
  }
  return [...dropped];
}

/** An entry's size on disk and the versions it refers to (a damaged entry refers to none, and is dropped first by age or count like any). */
async function entryInfo(dir: string, id: string): Promise<{ size: number; blobs: string[] }> {
  const abs = path.join(dir, ENTRIES, `${id}.json`);
  try {
    const bytes = await readPrivate(abs);
    const entry = parseEntry(id, bytes.toString("utf8"));
    return { size: bytes.length, blobs: blobsOf(entry) };
  } catch {
    return { size: lstatOrUndefined(abs)?.size ?? 0, blobs: [] };
  }
}

/** Every blob an entry refers to. */
export function blobsOf(entry: JournalEntry): string[] {
  const out: string[] = [];
  for (const f of entry.files) {
    if (f.before) out.push(f.before);
    if (f.after) out.push(f.after);
  }
  for (const r of entry.read) if (r.blob) out.push(r.blob);
  if (entry.input?.blob) out.push(entry.input.blob);
  if (entry.result?.diff) out.push(entry.result.diff);
  const history = entry.options?.history;
  if (history && typeof history === "object") for (const list of Object.values(history)) if (Array.isArray(list)) for (const h of list) if (typeof h === "string") out.push(h);
  return out;
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir).filter((n) => /^[0-9a-f]{64}$/.test(n));
  } catch {
    return [];
  }
}

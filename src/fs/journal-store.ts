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
 * a total size, then the versions no entry needs any more. What it learns of
 * each entry is kept in `prune-index.json` (journal-prune-index.ts), so it
 * reads only the entries written since the last prune.
 */

import { randomBytes } from "node:crypto";
import { fstatSync, lstatSync, lutimesSync, readdirSync, type Stats } from "node:fs";
import { type FileHandle, open, rename, unlink } from "node:fs/promises";
import path from "node:path";
import { EditError } from "../errors.ts";
import { isDebris, tempNameFor } from "./debris.ts";
import { CREATE_FLAGS, READ_FLAGS } from "./fd-place.ts";
import { ID_PATTERN, type JournalEntry, parseEntry, type RecordedResult } from "./journal-entry.ts";
import { BLOBS, ENTRIES } from "./journal-dir.ts";
import { type EntryInfo, type EntryStat, PRUNE_INDEX, type PruneIndex, parsePruneIndex, serializePruneIndex, statOf, trustedInfo } from "./journal-prune-index.ts";
import { applyDelta, encodeDelta, MAX_DEPTH, parseDelta } from "./journal-delta.ts";
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

/** A version to store that may be kept as a delta on its base (the version the write read): the journal-delta.ts decides. */
export interface DeltaCandidate {
  base: string;
  baseBytes: Uint8Array;
  bytes: Uint8Array;
}

/** A version to store: bytes, a text stored as UTF-8, or bytes that may be a delta. */
export type VersionToStore = Uint8Array | string | DeltaCandidate;

/** The name's ending of a version stored as a delta. */
export const DELTA = ".delta";

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
 * Writes the blobs not yet stored (bytes, or a text stored as UTF-8) and the entry. A blob
 * already there (same name, same size) is not written again; its time is
 * touched so a concurrent prune keeps it. Returns the bytes added.
 */
export async function writeEntry(dir: string, entry: JournalEntry, blobs: ReadonlyMap<string, VersionToStore>): Promise<number> {
  const staged = await stageEntry(dir, entry, blobs);
  await staged.place();
  return staged.added;
}

/** An entry staged by `stageEntry`: its versions stored, the entry itself synced under a temporary name. */
export interface StagedEntry {
  /** Bytes added (versions and entry). */
  added: number;
  /** Renames the entry into place: from then on the write is in the journal. */
  place(): Promise<void>;
  /** Removes the staged entry (the write it records did not happen); its versions are left to the prune. */
  discard(): Promise<void>;
}

/**
 * `writeEntry` up to the entry's rename: the versions not yet stored are
 * written and placed, the entry written and fdatasync'd under a temporary
 * name. applyEdits stages its record while the file's own write waits on
 * the disk, and places it once the file is in place: the entry never names
 * a write that did not happen, and a version stored for a write that then
 * failed is only a version no entry names, which the prune removes (as a
 * killed writer's).
 */
export async function stageEntry(dir: string, entry: JournalEntry, blobs: ReadonlyMap<string, VersionToStore>): Promise<StagedEntry> {
  const changes: PlannedChange[] = [];
  const now = new Date();
  /** Versions stored whole by this write: a delta on one of them is 1 deep. */
  const whole = new Set<string>();
  const deltas: [string, DeltaCandidate][] = [];
  /** The deltas this write stores, with their depths (remembered once written: the next write lies on one). */
  const written = new Map<string, number>();
  for (const [hash, blob] of blobs) {
    const abs = path.join(dir, BLOBS, hash);
    const st = lstatOrUndefined(abs);
    // A text (a history version) is encoded only to be written.
    const size = typeof blob === "string" ? Buffer.byteLength(blob, "utf8") : blob instanceof Uint8Array ? blob.length : blob.bytes.length;
    if (st?.isFile() && st.size === size) {
      lutimesSync(abs, now, now);
      whole.add(hash);
      continue;
    }
    const deltaAbs = `${abs}${DELTA}`;
    if (!st && lstatOrUndefined(deltaAbs)?.isFile()) {
      lutimesSync(deltaAbs, now, now);
      continue;
    }
    if (!(blob instanceof Uint8Array) && typeof blob !== "string") {
      deltas.push([hash, blob]);
      continue;
    }
    // A damaged version (wrong size) is replaced; anything but a file there fails the write.
    const bytes = typeof blob === "string" ? Buffer.from(blob, "utf8") : blob;
    changes.push({ rel: `${BLOBS}/${hash}`, abs, kind: st ? "write" : "create", bytes, original: st ? await readPrivate(abs) : new Uint8Array(), mode: 0o600 });
    whole.add(hash);
  }
  for (const [hash, d] of deltas) {
    const abs = path.join(dir, BLOBS, hash);
    // A damaged whole version (the wrong size) is replaced by a whole one: it would be read before a delta.
    const damaged = lstatOrUndefined(abs);
    const depth = damaged ? undefined : whole.has(d.base) ? 0 : await storedDepth(dir, d.base);
    const delta = depth === undefined ? undefined : encodeDelta(d.base, depth, d.baseBytes, d.bytes);
    if (delta && depth !== undefined) written.set(`${abs}${DELTA}`, depth + 1);
    const st = delta ? undefined : damaged;
    const at = delta ? `${abs}${DELTA}` : abs;
    changes.push({ rel: `${BLOBS}/${path.basename(at)}`, abs: at, kind: st ? "write" : "create", bytes: delta ?? d.bytes, original: st ? await readPrivate(abs) : new Uint8Array(), mode: 0o600 });
  }
  const text = Buffer.from(`${JSON.stringify(entry)}\n`, "utf8");
  // New names (nearly every write): each file on its own, all at once; a damaged version is replaced through the transaction.
  const staging = stageNewPrivate(path.join(dir, ENTRIES, `${entry.id}.json`), text);
  const versions = Promise.all([commitChanges(changes.filter((c) => c.kind !== "create")), ...changes.filter((c) => c.kind === "create").map((c) => writeNewPrivate(c.abs, c.bytes))]);
  const [stored, staged] = await Promise.allSettled([versions, staging]);
  if (stored.status === "fulfilled") for (const [at, depth] of written) rememberDepth(at, depth);
  if (stored.status === "rejected" || staged.status === "rejected") {
    if (staged.status === "fulfilled") await staged.value.discard();
    throw stored.status === "rejected" ? stored.reason : (staged as PromiseRejectedResult).reason;
  }
  return { added: changes.reduce((n, c) => n + c.bytes.length, text.length), place: staged.value.place, discard: staged.value.discard };
}

/**
 * A new file of the journal, written as its own: a temporary file beside
 * it (O_EXCL|O_NOFOLLOW, 0600), written, fdatasync'd, renamed. The
 * transaction an edit goes through (transaction.ts) adds the directory's
 * lock, the checks that the directory was not swapped and that the name
 * still holds what was read, and a rollback: ~15 file system calls more,
 * each a wait on the thread pool (a journal entry took 55-110 ms of wall
 * time at load 18-23, 13 ms of CPU). None of them guards anything here:
 * the directory is the user's private one (checked at each write,
 * journal-dir.ts), an entry's name is new (time and random), a version's
 * name is its sha256 (two writers of it write the same version), and a
 * file that does not get placed is only a version no entry names yet,
 * which the prune removes.
 */
async function writeNewPrivate(abs: string, bytes: Uint8Array, sync = true): Promise<void> {
  await (await stageNewPrivate(abs, bytes, sync)).place();
}

/** `writeNewPrivate` up to the rename: the temporary file written, synced (unless `sync` is false) and closed; `place` renames it, `discard` removes it. */
async function stageNewPrivate(abs: string, bytes: Uint8Array, sync = true): Promise<{ place(): Promise<void>; discard(): Promise<void> }> {
  const temp = path.join(path.dirname(abs), tempNameFor(path.basename(abs)));
  const handle = await open(temp, CREATE_FLAGS, 0o600);
  let synced = false;
  try {
    for (let done = 0; done < bytes.length; ) done += (await handle.write(bytes, done, bytes.length - done, done)).bytesWritten;
    if (sync) await handle.datasync();
    await handle.close();
    synced = true;
  } finally {
    if (!synced) {
      await handle.close().catch(() => undefined);
      await unlink(temp).catch(() => undefined);
    }
  }
  const discard = () => unlink(temp).catch(() => undefined);
  const place = async () => {
    try {
      await rename(temp, abs);
    } catch (error) {
      await discard();
      throw error;
    }
  };
  return { place, discard };
}

/**
 * The depths of delta files this process read or wrote, by the file's
 * identity (path, device, inode, size, and birth time where the system
 * gives one; not its mtime, which each write naming the version touches): a
 * session's next write lies on the version the previous one stored, and
 * reading its header back was four round trips through the thread pool on
 * the write's way. A file replaced or re-made since (another writer, after
 * a prune) is mostly another identity, read again; a depth taken wrong
 * could only make a chain longer than MAX_DEPTH, which readBlob refuses:
 * never wrong bytes.
 */
const knownDepths = new Map<string, number>();
const KNOWN_DEPTHS = 64;

function depthKey(abs: string, st: Stats): string {
  return `${abs}\0${st.dev}\0${st.ino}\0${st.size}\0${st.birthtimeMs}`;
}

function rememberDepth(abs: string, depth: number): void {
  const st = lstatOrUndefined(abs);
  if (!st?.isFile()) return;
  knownDepths.set(depthKey(abs, st), depth);
  if (knownDepths.size > KNOWN_DEPTHS) knownDepths.delete(knownDepths.keys().next().value as string);
}

/** How many deltas the stored version `hash` lies on (0: stored whole), or undefined when it is not stored (or its delta is unreadable). */
async function storedDepth(dir: string, hash: string): Promise<number | undefined> {
  const abs = path.join(dir, BLOBS, hash);
  if (lstatOrUndefined(abs)?.isFile()) return 0;
  const at = `${abs}${DELTA}`;
  const st = lstatOrUndefined(at);
  const known = st?.isFile() ? knownDepths.get(depthKey(at, st)) : undefined;
  if (known !== undefined) return known;
  try {
    const depth = parseDelta(hash, await readPrivate(at)).header.depth;
    rememberDepth(at, depth);
    return depth;
  } catch {
    return undefined;
  }
}

/** A stored file version, checked against its name: `IO` when missing or damaged. */
export async function readBlob(dir: string, hash: string, depth = 0): Promise<Buffer> {
  let bytes: Buffer;
  try {
    bytes = await readPrivate(path.join(dir, BLOBS, hash));
  } catch (error) {
    const delta = (error as { code?: string }).code === "ENOENT" ? await readPrivate(path.join(dir, BLOBS, `${hash}${DELTA}`)).catch(() => undefined) : undefined;
    if (delta === undefined) throw new EditError("IO", `The journal lost a file version (${hash.slice(0, 12)}…: ${(error as Error).message}); nothing can be written from it.`, { hash });
    // A damaged journal could name a loop of deltas; a real chain is at most MAX_DEPTH long.
    if (depth > MAX_DEPTH) throw new EditError("IO", `A file version in the journal lies on more than ${MAX_DEPTH} deltas (${hash.slice(0, 12)}…); nothing is written from it.`, { hash });
    const { header } = parseDelta(hash, delta);
    bytes = applyDelta(hash, delta, await readBlob(dir, header.base, depth + 1));
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
 * entry needs: those only dropped entries used (directly, or as the base
 * of a delta they used), and strays older than GRACE_MS (a version another
 * process wrote for an entry not yet placed is younger). Returns the ids
 * dropped. `learn` reads an entry the index does not know (tests count its calls).
 */
export async function pruneJournal(dir: string, bounds: JournalBounds, now = Date.now(), learn = readEntryInfo): Promise<string[]> {
  const ids = listEntryIds(dir);
  const dropped = new Set<string>();
  for (const id of ids) if (now - timeOfId(id) > bounds.maxAgeMs) dropped.add(id);
  const kept = ids.filter((id) => !dropped.has(id));
  while (kept.length > bounds.maxEntries) dropped.add(kept.shift() as string);
  const learned = await entriesInfo(dir, ids, learn);
  const entryRefs = learned.infos;
  const files = await storedVersions(dir);
  /** The versions the entries `of` need: what they name, and the bases of the deltas among those, down the chain. */
  const needed = (of: readonly string[]): Set<string> => {
    const out = new Set<string>();
    const todo = of.flatMap((id) => entryRefs.get(id)?.blobs ?? []);
    for (let hash = todo.pop(); hash !== undefined; hash = todo.pop()) {
      if (out.has(hash)) continue;
      out.add(hash);
      for (const f of files.get(hash) ?? []) if (f.base !== undefined) todo.push(f.base);
    }
    return out;
  };
  const named = needed(ids);
  const sizeOf = (live: ReadonlySet<string>): number => {
    let total = kept.reduce((n, id) => n + (entryRefs.get(id)?.size ?? 0), 0);
    // A version no entry names (a write of another process under way) counts until it is old enough to go.
    for (const [hash, list] of files) if (live.has(hash) || !named.has(hash)) for (const f of list) total += f.size;
    return total;
  };
  let live = needed(kept);
  while (kept.length > 0 && sizeOf(live) > bounds.maxBytes) {
    dropped.add(kept.shift() as string);
    live = needed(kept);
  }
  for (const id of dropped) await unlink(path.join(dir, ENTRIES, `${id}.json`)).catch(() => undefined);
  await keepIndex(dir, learned, dropped);
  await removeDebris(dir, now);
  for (const [hash, list] of files) {
    if (live.has(hash)) continue;
    for (const f of list) {
      // A version freed here was written before this prune began; a stray must be older than the grace.
      const old = named.has(hash) ? f.mtimeMs <= now : now - f.mtimeMs > GRACE_MS;
      if (old) await unlink(path.join(dir, BLOBS, f.name)).catch(() => undefined);
    }
  }
  return [...dropped];
}

/** Temporary files a killed fuzzpatch left in the journal (writeNewPrivate's, the prune index's beside it; debris.ts says whose are whose). */
async function removeDebris(dir: string, now: number): Promise<void> {
  for (const sub of [BLOBS, ENTRIES, "."]) {
    let names: string[];
    try {
      names = readdirSync(path.join(dir, sub));
    } catch {
      continue;
    }
    for (const name of names) {
      const abs = path.join(dir, sub, name);
      const st = name.endsWith(".tmp") ? lstatOrUndefined(abs) : undefined;
      if (st?.isFile() && isDebris(name, now - st.mtimeMs)) await unlink(abs).catch(() => undefined);
    }
  }
}

/** A stored version's file: whole, or a delta on `base`. */
interface StoredFile {
  name: string;
  size: number;
  mtimeMs: number;
  base?: string;
}

/** The files of the blobs directory by the version they hold (a version may be stored whole and as a delta). */
async function storedVersions(dir: string): Promise<Map<string, StoredFile[]>> {
  const out = new Map<string, StoredFile[]>();
  for (const name of safeReaddir(path.join(dir, BLOBS))) {
    const abs = path.join(dir, BLOBS, name);
    const st = lstatOrUndefined(abs);
    if (!st?.isFile()) continue;
    const hash = name.slice(0, 64);
    const file: StoredFile = { name, size: st.size, mtimeMs: st.mtimeMs };
    // A damaged delta keeps no base: it cannot give its version anyway.
    if (name.endsWith(DELTA)) file.base = await readPrivate(abs).then((bytes) => parseDelta(hash, bytes).header.base, () => undefined);
    out.set(hash, [...(out.get(hash) ?? []), file]);
  }
  return out;
}

/** What the prune learned of an entry, and the stat of the file it learned it from (none when the file could not be read). */
export interface LearnedEntry {
  info: EntryInfo;
  stat?: EntryStat;
}

/**
 * An entry's size on disk and the versions it refers to (a damaged entry refers to none, and is dropped first by age or count like any),
 * read through a descriptor whose fstat, taken before reading, is the record's key in the prune index.
 */
export async function readEntryInfo(dir: string, id: string): Promise<LearnedEntry> {
  const abs = path.join(dir, ENTRIES, `${id}.json`);
  let handle: FileHandle | undefined;
  try {
    handle = await open(abs, READ_FLAGS);
    const st = fstatSync(handle.fd);
    if (!st.isFile()) throw new Error("not a regular file");
    const bytes = await handle.readFile();
    let blobs: string[] = [];
    try {
      blobs = [...new Set(blobsOf(parseEntry(id, bytes.toString("utf8"))))];
    } catch {
      // Damaged: it names no version (and the index says so while the file is unchanged).
    }
    return { info: { size: bytes.length, blobs }, stat: statOf(st) };
  } catch {
    return { info: { size: lstatOrUndefined(abs)?.size ?? 0, blobs: [] } };
  } finally {
    await handle?.close();
  }
}

/**
 * Every entry's info: from the prune index where the entry file's lstat
 * still matches its record, else read with `learn`; and the index of them
 * all, `stale` when it differs from the one read.
 */
async function entriesInfo(dir: string, ids: readonly string[], learn: typeof readEntryInfo): Promise<{ infos: Map<string, EntryInfo>; index: PruneIndex; stale: boolean }> {
  const index = parsePruneIndex((await readPrivate(path.join(dir, PRUNE_INDEX)).catch(() => Buffer.alloc(0))).toString("utf8"));
  const infos = new Map<string, EntryInfo>();
  const next: PruneIndex = new Map();
  let stale = false;
  for (const id of ids) {
    const known = index.get(id);
    const trusted = known && trustedInfo(known, lstatOrUndefined(path.join(dir, ENTRIES, `${id}.json`)));
    const learned = trusted ? { info: trusted, stat: known.stat } : await learn(dir, id);
    infos.set(id, learned.info);
    if (!trusted) stale = true;
    if (learned.stat) next.set(id, { stat: learned.stat, info: learned.info });
  }
  return { infos, index: next, stale: stale || next.size !== index.size };
}

/** The index of the entries kept, when it differs from the one read. A cache: not synced (a torn index is an empty one), atomic by the rename. */
async function keepIndex(dir: string, learned: { index: PruneIndex; stale: boolean }, dropped: ReadonlySet<string>): Promise<void> {
  for (const id of dropped) learned.index.delete(id);
  if (!learned.stale && dropped.size === 0) return;
  await writeNewPrivate(path.join(dir, PRUNE_INDEX), Buffer.from(serializePruneIndex(learned.index), "utf8"), false).catch(() => undefined);
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
    return readdirSync(dir).filter((n) => /^[0-9a-f]{64}(\.delta)?$/.test(n));
  } catch {
    return [];
  }
}

/**
 * Taking a recorded write back: every file of it restored (bytes and
 * mode), files it created removed, files it deleted or moved away put
 * back, as one transaction (transaction.ts: all or nothing, each file
 * checked to still hold what the write left right before it is replaced).
 *
 * A file changed since the write is not overwritten: the undo is refused
 * with what changed, or with `merge` the write's own change is taken out
 * of the current text by a three-way merge (base: what the write left,
 * ours: the file now, theirs: the file before the write; carry-over.ts,
 * the engine's merge for edits written against an older version), and a
 * conflict refuses. Nothing is written from a stored version whose sha256
 * does not match its name (journal-store.ts).
 */

import path from "node:path";
import { EditError } from "../errors.ts";
import { createPatch } from "../formats/create-patch.ts";
import { carryOver } from "../engine/carry-over.ts";
import { journalDisabled } from "./journal-dir.ts";
import type { JournalEntry, JournalFile } from "./journal-entry.ts";
import { entryById, journalDirOf, lastWrite } from "./journal-find.ts";
import { type JournalOptions, type JournalRecord, recordWrite, resolveJournal } from "./journal.ts";
import { readBlob } from "./journal-store.ts";
import { decodeText, encodeText, hashBytes, type LoadedFile, loadTextFile } from "./read-file.ts";
import { resolveRoot, resolveSafePath } from "./safe-path.ts";
import { commitChanges, type PlannedChange } from "./transaction.ts";

export interface UndoOptions {
  /**
   * The write to undo: its journal id, or the start of one that names it alone.
   * @default the last write not yet undone (under `root`, to `path`)
   */
  id?: string;
  /**
   * Without `id`: only writes whose root is this directory, inside it, or holds it.
   * @default any root
   */
  root?: string;
  /**
   * Without `id`: only writes that changed this file (relative to `root`, which it needs).
   * @default any file
   */
  path?: string;
  /**
   * Refuse a write whose root is not one of these directories or inside
   * one (a tool server's roots: a model may not undo another project's write by its id).
   * @default any root
   */
  roots?: readonly string[];
  /**
   * A file changed since the write: take the write's change out of its
   * current text by three-way merge instead of refusing (a conflict still refuses).
   * @default false
   */
  merge?: boolean;
  /**
   * Report what would be written; write nothing.
   * @default false
   */
  dryRun?: boolean;
  /**
   * The journal to read (`dir`), and whether to record the undo itself
   * (`false`: not recorded; it can then not be redone).
   * @default true (the default journal, the undo recorded unless FUZZPATCH_JOURNAL=0)
   */
  journal?: boolean | JournalOptions;
}

export interface UndoFile {
  /** Relative to the write's root. */
  path: string;
  /** restored: bytes and mode put back; removed: the write created it; recreated: the write deleted or moved it; merged: restored onto later changes. */
  action: "restored" | "removed" | "recreated" | "merged";
  /** Unified diff from the file now to the file after the undo. */
  diff: string;
  /** sha256 of the file's bytes after the undo (not for a file removed). */
  sha256?: string;
}

export interface UndoResult {
  /** The write undone, and its root. */
  id: string;
  root: string;
  files: UndoFile[];
  written: boolean;
  dryRun: boolean;
  /** Every file's diff, concatenated. */
  diff: string;
  /** The undo's own journal entry (undo it to redo the write), or why it was not recorded. */
  journal?: JournalRecord;
}

/** A file of the write as it is now. */
interface Now {
  file: JournalFile;
  abs: string;
  current: LoadedFile;
  before?: Buffer;
  after?: Buffer;
}

/**
 * Undoes one write (by `id`, else the last one under `root` / to `path`).
 * Throws `EditError`: NOT_FOUND (no such write), STALE (a file changed
 * since, without `merge`), CONFLICT (the merge conflicts, or a file the
 * write created or deleted changed since), IO (the journal is damaged),
 * UNSAFE_PATH (a path no longer passes the checks).
 */
export async function undoWrite(options: UndoOptions = {}): Promise<UndoResult> {
  const journalOption = options.journal === false ? undefined : options.journal === true || options.journal === undefined ? {} : options.journal;
  const dir = journalDirOf(journalOption);
  const entry = await findTarget(dir, options);
  await checkWithin(entry, options.roots);
  const realRoot = await resolveRoot(entry.root);
  if (realRoot !== entry.root) throw new EditError("UNSAFE_PATH", `The root of write ${entry.id}, ${entry.root}, now resolves to ${realRoot}; refusing to undo through it.`, { id: entry.id });
  const states: Now[] = [];
  for (const file of entry.files) states.push(await stateOf(dir, realRoot, file));
  const changed = states.filter((s) => !holdsWhatWriteLeft(s));
  if (changed.length > 0 && !options.merge) throw staleError(entry, changed);
  const changes: PlannedChange[] = [];
  const files: UndoFile[] = [];
  for (const s of states) {
    const planned = planUndo(s, states, changed.includes(s));
    changes.push(planned.change);
    const after = planned.change.kind === "delete" ? undefined : planned.change.bytes;
    files.push({ path: s.file.path, action: planned.action, diff: diffOf(s.file.path, s.current.exists ? s.current.bytes : undefined, after), ...(after && { sha256: hashBytes(after) }) });
  }
  const result: UndoResult = { id: entry.id, root: entry.root, files, written: false, dryRun: options.dryRun ?? false, diff: files.map((f) => f.diff).join("") };
  if (options.dryRun) return result;
  await commitChanges(changes);
  result.written = true;
  const record = options.journal === false || journalDisabled() ? undefined : resolveJournal({ ...journalOption, source: journalOption?.source ?? "undo" });
  if (record) {
    const read = states.map((s) => ({ abs: s.abs, exists: s.current.exists, bytes: s.current.bytes, mode: s.current.mode }));
    result.journal = await recordWrite(record, { realRoot, changes, read, undoes: entry.id });
  }
  return result;
}

/** Undoes the last write under `root` (to `path`, relative to it, when given): for agents' undo commands. */
export function undoLast(options: { root: string; path?: string } & Omit<UndoOptions, "id" | "root" | "path">): Promise<UndoResult> {
  return undoWrite(options);
}

async function checkWithin(entry: JournalEntry, roots: readonly string[] | undefined): Promise<void> {
  if (roots === undefined) return;
  for (const root of roots) {
    const real = await resolveRoot(root);
    if (entry.root === real || entry.root.startsWith(real.endsWith(path.sep) ? real : `${real}${path.sep}`)) return;
  }
  throw new EditError("UNSAFE_PATH", `Write ${entry.id} was made under ${entry.root}, outside the roots this undo may touch.`, { id: entry.id });
}

async function findTarget(dir: string, options: UndoOptions): Promise<JournalEntry> {
  if (options.id !== undefined) return entryById(dir, options.id);
  if (options.path !== undefined) {
    if (options.root === undefined) throw new EditError("INVALID_INPUT", "undo: a path needs the root it is relative to.");
    const safe = await resolveSafePath(await resolveRoot(options.root), options.path);
    return lastWrite(dir, { file: safe.abs });
  }
  return lastWrite(dir, options.root === undefined ? {} : { root: await resolveRoot(options.root) });
}

async function stateOf(dir: string, realRoot: string, file: JournalFile): Promise<Now> {
  const safe = await resolveSafePath(realRoot, file.path);
  // The versions are checked before anything is decided: a damaged journal writes nothing.
  const before = file.before === undefined ? undefined : await readBlob(dir, file.before);
  const after = file.after === undefined ? undefined : await readBlob(dir, file.after);
  const current = await loadTextFile(safe.abs, file.path, { allowBinary: true, maxBytes: Number.MAX_SAFE_INTEGER });
  return { file, abs: safe.abs, current, ...(before && { before }), ...(after && { after }) };
}

function holdsWhatWriteLeft(s: Now): boolean {
  if (s.file.kind === "delete") return !s.current.exists;
  return s.current.exists && s.after !== undefined && s.current.bytes.equals(s.after);
}

/** The write that takes `s` back, and what it does. */
function planUndo(s: Now, all: readonly Now[], changedSince: boolean): { change: PlannedChange; action: UndoFile["action"] } {
  const { file, abs, current } = s;
  const base = { rel: file.path, abs };
  if (file.kind === "create") {
    if (changedSince) throw conflict(file.path, current.exists ? "was created by that write and changed since; undoing would delete those changes" : "was created by that write and deleted since");
    return { change: { ...base, kind: "delete", bytes: new Uint8Array(), original: current.bytes }, action: "removed" };
  }
  let bytes = s.before as Buffer;
  let action: UndoFile["action"] = file.kind === "delete" ? "recreated" : "restored";
  // A move: the file at its new path, changed since, gives the restored file its later changes.
  const moved = file.kind === "delete" ? all.find((o) => o.file.movedFrom === file.path) : undefined;
  if (moved && !holdsWhatWriteLeft(moved)) {
    if (!moved.current.exists) throw conflict(moved.file.path, "was moved there by that write and deleted since");
    bytes = mergeBack(moved.file.path, moved.after as Buffer, moved.current, bytes);
    action = "merged";
  }
  if (file.kind === "delete") {
    if (changedSince) throw conflict(file.path, "was deleted by that write and created again since");
    return { change: { ...base, kind: "create", bytes, original: new Uint8Array(), ...(file.modeBefore !== undefined && { mode: file.modeBefore }) }, action };
  }
  if (changedSince) {
    if (!current.exists) throw conflict(file.path, "was deleted since that write");
    bytes = mergeBack(file.path, s.after as Buffer, current, bytes);
    action = "merged";
  }
  const mode = file.modeBefore ?? current.mode;
  return {
    change: { ...base, kind: "write", bytes, original: current.bytes, ...(mode !== undefined && { mode }), ...(current.mode !== undefined && current.mode !== mode && { originalMode: current.mode }) },
    action,
  };
}

/** The current text with the write's change (after -> before) taken out; CONFLICT where later changes overlap it. */
function mergeBack(rel: string, after: Buffer, current: LoadedFile, before: Buffer): Buffer {
  const base = decodeText(after, rel, false);
  const theirs = decodeText(before, rel, false);
  const merged = carryOver(base.text, current.text, theirs.text);
  if (merged.conflict) {
    const c = merged.conflict;
    const shown = c.lines.slice(0, 12).map((l, k) => `${c.startLine + k}: ${l}`);
    throw new EditError(
      "CONFLICT",
      `${rel} changed since that write where the write changed it, so its change cannot be taken out by merging. The current lines:\n${shown.join("\n") || `(none, at line ${c.startLine})`}\nThe write had turned:\n${c.before.join("\n")}\ninto:\n${c.after.join("\n")}\nEdit the file by hand instead; nothing was written.`,
      { path: rel, startLine: c.startLine },
    );
  }
  return encodeText(merged.text, current.layout);
}

function conflict(rel: string, why: string): EditError {
  return new EditError("CONFLICT", `${rel} ${why}; nothing was written.`, { path: rel });
}

/** STALE naming each file that no longer holds what the write left, and how it differs. */
function staleError(entry: JournalEntry, changed: readonly Now[]): EditError {
  const parts = changed.map((s) => {
    if (s.file.kind === "delete") return `${s.file.path}: deleted by that write, exists again now`;
    if (!s.current.exists) return `${s.file.path}: deleted since`;
    const diff = diffOf(s.file.path, s.after, s.current.bytes, "as the write left it", "now").split("\n").slice(2);
    const more = diff.length > 30 ? `\n... (${diff.length - 30} more diff lines)` : "";
    return `${s.file.path}: changed since:\n${diff.slice(0, 30).join("\n")}${more}`;
  });
  return new EditError(
    "STALE",
    `Cannot undo write ${entry.id}: ${changed.length === 1 ? "a file it wrote has" : `${changed.length} files it wrote have`} changed since (another writer, or a later edit).\n${parts.join("\n")}\nNothing was written. Undo the later writes first (fuzzpatch log), or merge: fuzzpatch undo ${entry.id} --merge.`,
    { id: entry.id, changed: changed.map((s) => s.file.path) },
  );
}

/** A unified diff between two versions' texts (decoded leniently: a binary file shows as its replacement characters). */
function diffOf(rel: string, from: Uint8Array | undefined, to: Uint8Array | undefined, fromLabel = "", toLabel = ""): string {
  const text = (b: Uint8Array | undefined) => (b === undefined ? "" : decodeText(Buffer.from(b), rel, true).text);
  const label = (side: string, l: string) => (l === "" ? `${side}/${rel}` : `${rel} (${l})`);
  return createPatch(text(from), text(to), {
    fuzzy: false,
    oldPath: from === undefined ? "/dev/null" : label("a", fromLabel),
    newPath: to === undefined ? "/dev/null" : label("b", toLabel),
  });
}

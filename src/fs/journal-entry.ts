/**
 * One journal entry: what one write changed, enough to take it back (each
 * file's bytes and mode before and after, by sha256) and to reproduce it
 * (the input, the options, the files as the edit met them, the result).
 * Stored as `entries/<id>.json`; the bytes are in `blobs/<sha256>`.
 *
 * An entry is read back as untrusted data (the journal is a directory on
 * disk): `parseEntry` checks every field it relies on, and the blobs are
 * checked against their names before anything is written from them.
 */

import { EditError } from "../errors.ts";

export const ENTRY_FORMAT = 1;

/**
 * An input or a diff up to this many bytes of UTF-8 is kept in the entry
 * itself instead of as a blob: each blob was one more file written,
 * fdatasync'd and renamed under the blobs directory's lock (~10 ms wall a
 * file under load); a model's edit is mostly a few kB.
 */
export const INLINE_MAX_BYTES = 64 * 1024;

/** One file the write changed (paths relative to the root, `/`-separated). */
export interface JournalFile {
  path: string;
  /** write: replaced; create: did not exist before; delete: does not exist after. */
  kind: "write" | "create" | "delete";
  /** sha256 of the bytes before (write, delete) and after (write, create). */
  before?: string;
  after?: string;
  /** Permission bits before (write, delete) and after (write, create), when known. */
  modeBefore?: number;
  modeAfter?: number;
  /** A move's new file: the path it came from (deleted by the same write). */
  movedFrom?: string;
}

/** A file as the edit met it (read, whether or not it was written). */
export interface JournalRead {
  path: string;
  exists: boolean;
  /** sha256 of its bytes (a file that exists). */
  blob?: string;
  mode?: number;
}

/** What came of the write, in a form that compares across runs (replay). */
export interface RecordedEdit {
  index: number;
  format: string;
  status: string;
  strategy?: string;
  startLine?: number;
  endLine?: number;
  fuzzy?: boolean;
  version?: number;
  rejected?: boolean;
  code?: string;
  message?: string;
}

export interface RecordedFile {
  path: string;
  status: string;
  written: boolean;
  movedTo?: string;
  copiedFrom?: string;
  reject?: string;
  code?: string;
  message?: string;
  edits: RecordedEdit[];
}

export interface RecordedResult {
  ok: boolean;
  applied: number;
  failed: number;
  alreadyApplied: number;
  files: RecordedFile[];
  errors: { code: string; message?: string }[];
  /** sha256 of the result's unified diff (in blobs), when it is not `diffText`. */
  diff?: string;
  /** The result's unified diff itself, when short (INLINE_MAX_BYTES): one file fewer to write and sync. */
  diffText?: string;
}

export interface JournalEntry {
  format: typeof ENTRY_FORMAT;
  id: string;
  /** ISO time of the write. */
  time: string;
  /** The root's real path. */
  root: string;
  /** Who wrote: "cli apply", "tool edit_file", "undo", "library", ... */
  source: string;
  /** fuzzpatch's version. */
  version: string;
  /**
   * The input: a response's text or a JSON list of edits (absent for an
   * undo), by sha256 (`blob`), or itself when short (`text`; entries
   * written before this field have `blob` only).
   */
  input?: { kind: "text" | "edits"; blob?: string; text?: string };
  /** The options that shape the result (JSON; history texts by sha256). */
  options?: Record<string, unknown>;
  files: JournalFile[];
  read: JournalRead[];
  result?: RecordedResult;
  /** This write undid that entry. */
  undoes?: string;
}

const HASH = /^[0-9a-f]{64}$/;
export const ID_PATTERN = /^[0-9a-z]{8,12}-[0-9a-f]{4,8}$/;

function bad(id: string, why: string): EditError {
  return new EditError("IO", `Journal entry ${id} is damaged (${why}); it cannot be used to undo anything.`, { id });
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const optHash = (v: unknown) => v === undefined || (typeof v === "string" && HASH.test(v));
const optMode = (v: unknown) => v === undefined || (typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= 0o7777);
const optString = (v: unknown) => v === undefined || typeof v === "string";
const relPath = (v: unknown) => typeof v === "string" && v !== "" && !v.includes("\0");

/** The entry in `text`, checked field by field; `IO` when anything is off. */
export function parseEntry(id: string, text: string): JournalEntry {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw bad(id, "not JSON");
  }
  if (!isObject(raw)) throw bad(id, "not an object");
  if (raw.format !== ENTRY_FORMAT) throw bad(id, `format ${JSON.stringify(raw.format)}, expected ${ENTRY_FORMAT}`);
  if (raw.id !== id) throw bad(id, "its id differs from its file name");
  for (const key of ["time", "root", "source", "version"]) if (typeof raw[key] !== "string") throw bad(id, `no ${key}`);
  if (!Array.isArray(raw.files) || !Array.isArray(raw.read)) throw bad(id, "no file list");
  for (const f of raw.files as unknown[]) {
    if (!isObject(f) || !relPath(f.path) || !["write", "create", "delete"].includes(f.kind as string)) throw bad(id, "a file record is malformed");
    if (!optHash(f.before) || !optHash(f.after) || !optMode(f.modeBefore) || !optMode(f.modeAfter)) throw bad(id, `the record of ${String(f.path)} is malformed`);
    if ((f.kind !== "create" && f.before === undefined) || (f.kind !== "delete" && f.after === undefined)) throw bad(id, `the record of ${String(f.path)} lacks a hash`);
    if (f.movedFrom !== undefined && !relPath(f.movedFrom)) throw bad(id, "a move record is malformed");
  }
  for (const r of raw.read as unknown[]) {
    if (!isObject(r) || !relPath(r.path) || typeof r.exists !== "boolean" || !optHash(r.blob) || !optMode(r.mode)) throw bad(id, "a read record is malformed");
  }
  if (raw.input !== undefined && (!isObject(raw.input) || !["text", "edits"].includes(raw.input.kind as string) || !optHash(raw.input.blob) || !optString(raw.input.text))) throw bad(id, "the input record is malformed");
  if (raw.input !== undefined && (raw.input as Record<string, unknown>).blob === undefined && (raw.input as Record<string, unknown>).text === undefined) throw bad(id, "the input record has neither a blob nor a text");
  if (raw.result !== undefined && (!isObject(raw.result) || !optHash(raw.result.diff) || !optString(raw.result.diffText))) throw bad(id, "the result record is malformed");
  if (raw.undoes !== undefined && (typeof raw.undoes !== "string" || !ID_PATTERN.test(raw.undoes))) throw bad(id, "its undoes field is malformed");
  return raw as unknown as JournalEntry;
}

/**
 * Reads a target file as text for editing, refusing what must not be edited
 * as text: files over the size limit, binary files (NUL bytes) and bytes that
 * are not valid UTF-8 (decoding would replace them and the write would
 * corrupt the file).
 *
 * The text handed to the core is normalised so that every format sees the
 * same thing: the BOM is removed and a file whose line endings are all CRLF
 * is read as LF. `encodeText` puts both back, so untouched bytes round-trip.
 */

// The declarations name Buffer: without this line a consumer on TypeScript 6+ (whose `types` default
// is empty) fails with "Cannot find name 'Buffer'" unless it lists "node" itself. `preserve` keeps the
// line in the emitted .d.ts (TypeScript 5.5+ drops reference directives otherwise).
/// <reference types="node" preserve="true" />

import { constants, isAscii } from "node:buffer";
import { createHash } from "node:crypto";
import { fstatSync } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { EditError } from "../errors.ts";
import type { TextChange } from "../text/common-ends.ts";
import type { FileCache } from "./file-cache.ts";
import { isAt, pathOfOpen, READ_FLAGS } from "./fd-place.ts";
import { hashOnce, rememberHash } from "./known-hashes.ts";
import type { ScratchHold } from "./scratch.ts";
import { describeIoError } from "./safe-path.ts";
import { decodeLossy } from "./undecoded-bytes.ts";

export interface ReadOptions {
  /**
   * Largest file, in bytes, that is read for editing.
   * @default 10485760 (10 MiB)
   */
  maxBytes?: number;
  /**
   * Edit files that hold NUL bytes or invalid UTF-8 anyway (invalid bytes
   * are decoded as U+FFFD and written back as such).
   * @default false
   */
  allowBinary?: boolean;
  /**
   * Where the decoded text of files read before is kept: when the bytes
   * read are those of its entry, decoding is skipped (see file-cache.ts).
   * @default undefined (every read decodes)
   */
  cache?: FileCache;
  /**
   * Where a big file's bytes are read into a reused buffer (scratch.ts):
   * the bytes handed out are valid until the hold is released.
   * @default undefined (a new buffer)
   */
  hold?: ScratchHold;
}

export const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;

/**
 * The largest file read at all, whatever `maxBytes` says: its text must fit
 * one JavaScript string (V8's longest, 2^29 - 24 characters on 64-bit
 * systems), and a single read of 2 GiB or more aborts Node (a length past
 * int32 fails an assertion in its fs binding: exit 134, no error to catch).
 */
export const MAX_READABLE_BYTES: number = constants.MAX_STRING_LENGTH;

/** How the file's bytes were laid out, to restore on write. */
export interface TextLayout {
  bom: boolean;
  /** True when every line ending was CRLF and the text was converted to LF. */
  crlf: boolean;
  /**
   * A file that is not valid UTF-8, read with `allowBinary`: the text
   * offsets of the U+FFFD that each stand for one byte that did not decode
   * (undecoded-bytes.ts writes those bytes back). Such a text is never
   * converted from CRLF.
   */
  undecoded?: readonly number[];
}

export interface LoadedFile {
  exists: boolean;
  /** Text for the core: no BOM, LF when the file was uniformly CRLF. */
  text: string;
  layout: TextLayout;
  /** The file's bytes as read (empty when it does not exist). */
  bytes: Buffer;
  /** Permission bits, to keep on write. */
  mode?: number;
  /** sha256 of the bytes, hex. */
  hash: string;
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

export function hashBytes(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Opens of a path whose file another writer replaced (renamed a new version over it) meanwhile. */
const REOPENS = 3;

export async function loadTextFile(abs: string, rel: string, options: ReadOptions = {}): Promise<LoadedFile> {
  for (let attempt = 0; ; attempt++) {
    const loaded = await loadOnce(abs, rel, options, attempt < REOPENS);
    if (loaded !== "replaced") return loaded;
  }
}

/** One open and read; "replaced" when the file opened was unlinked before it was checked and `mayRetry`. */
async function loadOnce(abs: string, rel: string, options: ReadOptions, mayRetry: boolean): Promise<LoadedFile | "replaced"> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  let handle: FileHandle;
  try {
    // Opened before it is inspected, and inspected through the descriptor: a file swapped for a
    // symlink (O_NOFOLLOW) or a FIFO (O_NONBLOCK: the open does not wait for a writer) after its
    // path was checked is refused, never read.
    handle = await open(abs, READ_FLAGS);
  } catch (error) {
    const code = (error as { code?: string }).code;
    // ENOTDIR: a parent is a file; the path does not exist (creating it
    // will fail at write time, inside the transaction, and roll back).
    if (code === "ENOENT" || code === "ENOTDIR") {
      return { exists: false, text: "", layout: { bom: false, crlf: false }, bytes: Buffer.alloc(0), hash: hashBytes("") };
    }
    if (code === "ELOOP") throw new EditError("UNSAFE_PATH", `${rel} became a symbolic link after its path was checked; refusing to read it.`, { path: rel });
    if (code === "ENXIO" || code === "EOPNOTSUPP") throw notRegular(rel);
    throw new EditError("IO", `Cannot read ${rel}: ${describeIoError(error)}.`, { path: rel });
  }
  try {
    const stats = fstatSync(handle.fd);
    if (stats.isDirectory()) {
      throw new EditError("INVALID_INPUT", `${rel} is a directory, not a file. Name a file to edit.`, { path: rel });
    }
    if (!stats.isFile()) throw notRegular(rel);
    // A directory of the path swapped for a symlink since the check: the file opened is elsewhere.
    if (!(await isAt(handle, abs))) {
      // Another writer's atomic rename put a new file at the path after this one was opened: read that one.
      if (mayRetry && (await pathOfOpen(handle)) === null) return "replaced";
      throw new EditError("UNSAFE_PATH", `${rel} moved while it was being opened (a directory of its path was swapped); refusing to read it.`, { path: rel });
    }
    const allowBinary = options.allowBinary ?? false;
    const mode = stats.mode & 0o7777;
    const hold = options.hold;
    // With a hold, a big file's bytes go into a reused buffer (scratch.ts), given back when the caller's call ends.
    const into = hold !== undefined && stats.size <= Math.min(maxBytes, MAX_READABLE_BYTES) ? hold.take(stats.size + 1) : undefined;
    const bytes = await readBounded(handle, stats.size, maxBytes, rel, into);
    const cached = options.cache?.lookup(abs, bytes, allowBinary);
    if (cached) {
      // The entry's bytes, equal to those read (an entry of its text alone keeps none: those read are handed out).
      const kept = cached.textOnly ? bytes : Buffer.from(cached.bytes.buffer, cached.bytes.byteOffset, cached.bytes.byteLength);
      // The journal's record of this read hashes them no more.
      rememberHash(kept, () => cached.hash);
      return { exists: true, text: cached.text, layout: cached.layout, bytes: kept, mode, get hash() { return cached.hash; } };
    }
    const { text, layout } = decodeText(bytes, rel, allowBinary);
    // An entry that keeps the bytes takes them for good (scratch.ts `keep`); one of the text alone leaves them to the hold.
    options.cache?.store(abs, bytes, text, layout, !allowBinary);
    return withLazyHash({ exists: true, text, layout, bytes, mode });
  } catch (error) {
    if (error instanceof EditError) throw error;
    throw new EditError("IO", `Cannot read ${rel}: ${describeIoError(error)}.`, { path: rel });
  } finally {
    // Not waited for: a close is one more round trip through the thread pool on the edit's way (each ~0.2-2 ms under load).
    void handle.close().catch(() => undefined);
  }
}

/**
 * The file with its sha256 computed when first asked: only a STALE check
 * and a tool's answer need it, and it is a pass over the bytes (~5 ms on a
 * 9 MB file) that most edits never use.
 */
function withLazyHash(file: Omit<LoadedFile, "hash">): LoadedFile {
  let hash: string | undefined;
  Object.defineProperty(file, "hash", { get: () => (hash ??= hashOnce(file.bytes)), enumerable: true });
  return file as LoadedFile;
}

function notRegular(rel: string): EditError {
  return new EditError("UNSAFE_PATH", `${rel} is not a regular file (device, socket or pipe); refusing to edit it.`, { path: rel });
}

function tooLarge(rel: string, size: number, limit: number): EditError {
  const which = limit === MAX_READABLE_BYTES ? "the most fuzzpatch can read" : "the limit";
  return new EditError("TOO_LARGE", `${rel} is ${size} bytes, over ${which} of ${limit} bytes; refusing to edit it.`, { path: rel, size, limit });
}

/** Reads the open file to its end, refusing it once it passes `maxBytes` (it may grow after the stat). */
async function readBounded(handle: FileHandle, size: number, asked: number, rel: string, into?: Buffer): Promise<Buffer> {
  const maxBytes = Math.min(asked, MAX_READABLE_BYTES);
  if (size > maxBytes) throw tooLarge(rel, size, maxBytes);
  const first = Math.min(maxBytes + 1, size + 1);
  let buffer = into !== undefined && into.length >= first ? into.subarray(0, first) : Buffer.allocUnsafe(first);
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (length > maxBytes) throw tooLarge(rel, length, maxBytes);
      const bigger = Buffer.allocUnsafe(Math.min(maxBytes + 1, buffer.length * 2 + 4096));
      buffer.copy(bigger, 0, 0, length);
      buffer = bigger;
    }
    const asked = buffer.length - length;
    const { bytesRead } = await handle.read(buffer, length, asked, length);
    length += bytesRead;
    // A regular file's read returns less than asked only at its end: no second call to hear so
    // (one hand-off to the thread pool per file; a short read that was not the end is caught by
    // the check of the file's bytes before it is replaced, as STALE).
    if (bytesRead < asked) break;
  }
  if (length > maxBytes) throw tooLarge(rel, length, maxBytes);
  return buffer.subarray(0, length);
}

export function decodeText(bytes: Buffer, rel: string, allowBinary: boolean): { text: string; layout: TextLayout } {
  const bom = bytes.length >= 3 && bytes.subarray(0, 3).equals(UTF8_BOM);
  const body = bom ? bytes.subarray(3) : bytes;
  if (!allowBinary && body.includes(0)) {
    throw new EditError("BINARY", `${rel} holds NUL bytes (a binary file); refusing to edit it as text.`, { path: rel });
  }
  let text: string;
  try {
    // ASCII (most source files) decodes to the same text as Latin-1, and Node makes a Latin-1
    // string over ~1 MB outside the JS heap: 0.7 ms for the 9 MB typescript.js against 7.5 ms
    // for the UTF-8 decoder, which builds it in the heap (a fresh 9 MB there, page by page).
    text = isAscii(body) ? body.toString("latin1") : new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(body);
  } catch {
    if (!allowBinary) throw new EditError("BINARY", `${rel} is not valid UTF-8; refusing to edit it as text.`, { path: rel });
    // Each byte that does not decode is one U+FFFD, and where it stands is kept: the write puts the byte back.
    const lossy = decodeLossy(body);
    return { text: lossy.text, layout: { bom, crlf: false, undecoded: lossy.undecoded } };
  }
  // Only a uniformly CRLF file is converted: a mixed file is passed through
  // as is, so its lone LFs and CRLFs stay exactly where they are.
  // A file without a CR (most) is LF: one native scan instead of counting
  // every break twice (two indexOf loops, ~4 ms on a 200k-line file).
  const crlfCount = text.includes("\r") ? countOf(text, "\r\n") : 0;
  // "\r\r\n" (a CRLF file converted again) is left for the core, which keeps
  // such breaks whole; converted here, the write would strip a CR from every line.
  const crlf = crlfCount > 0 && crlfCount === countOf(text, "\n") && !text.includes("\r\r\n");
  if (crlf) text = text.replace(/\r\n/g, "\n");
  return { text, layout: { bom, crlf } };
}

/** Turns edited text back into bytes in the file's original layout. */
export function encodeText(text: string, layout: TextLayout): Buffer {
  return Buffer.from(layoutText(text, layout), "utf8");
}

/** The characters `encodeText` writes: the text with the file's BOM and CRLF put back (for the report's exact diff too). */
export function layoutText(text: string, layout: Pick<TextLayout, "bom" | "crlf">): string {
  // Text from the model may carry CRLF of its own; normalise before
  // converting so a CRLF file never gets CR CR LF.
  const body = layout.crlf ? text.replace(/\r\n/g, "\n").replace(/\n/g, "\r\n") : text;
  return layout.bom ? `\uFEFF${body}` : body;
}

/**
 * `encodeText` of `text` with `changes` made (sorted ranges of it, apart:
 * text/change-list.ts), from the bytes `text` was decoded from (valid UTF-8:
 * decoded without allowBinary): the bytes between the changes as they are,
 * the changes' texts encoded. The new text is a rope over the old one that
 * would be copied whole to be encoded (~10 ms on 9 MB). With `hold`, the
 * bytes are made in one of its reused buffers. Undefined where the
 * pieces could encode otherwise than the whole: a surrogate pair or, in a
 * CRLF file, a CR and a LF meeting at a change's border.
 */
export function encodeChanges(bytes: Buffer, text: string, changes: readonly TextChange[], layout: TextLayout, hold?: ScratchHold): Buffer | undefined {
  const surrogate = (s: string, at: number) => (s.charCodeAt(at) & 0xf800) === 0xd800;
  const pieces: Buffer[] = [];
  // The bytes not yet taken start at `taken`; the character `atText` of `text` at byte `atByte` (past the BOM).
  let taken = 0;
  let atText = 0;
  let atByte = layout.bom ? UTF8_BOM.length : 0;
  for (const { start, end, text: inserted } of changes) {
    if (surrogate(text, start - 1) || surrogate(text, end) || (inserted !== "" && (surrogate(inserted, 0) || surrogate(inserted, inserted.length - 1)))) return undefined;
    // The text of a CRLF file holds no CRLF (all read as LF); without a CR at the border none is made.
    if (layout.crlf && (inserted.includes("\r") || text.charCodeAt(start - 1) === 13)) return undefined;
    const head = atByte + byteLength(text, atText, start, layout.crlf);
    pieces.push(bytes.subarray(taken, head), encodeText(inserted, { bom: false, crlf: layout.crlf }));
    atByte = head + byteLength(text, start, end, layout.crlf);
    atText = end;
    taken = atByte;
  }
  pieces.push(bytes.subarray(taken));
  if (hold === undefined) return Buffer.concat(pieces);
  // Into a reused buffer (scratch.ts): Buffer.concat's new 9 MB for typescript.js was ~2,200 page faults a write.
  const out = hold.take(pieces.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const piece of pieces) at += piece.copy(out, at);
  return out;
}

/** Bytes of `text`'s characters [from, to) encoded (a CR more per line break in a CRLF file). */
function byteLength(text: string, from: number, to: number, crlf: boolean): number {
  const part = text.slice(from, to);
  return Buffer.byteLength(part, "utf8") + (crlf ? countOf(part, "\n") : 0);
}

function countOf(text: string, needle: string): number {
  let count = 0;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) count++;
  return count;
}

/**
 * Per file, the state an edit builds from its bytes and a session's next
 * edit of the same file can use again: the decoded text, its layout, its
 * sha256, and the document (line table, indentation facts, see
 * text/document.ts) the strategies search. The MCP server keeps one per
 * connection and `runTool` takes one, so an agent's second edit of a big
 * file skips decoding (~7 ms per 9 MB) and line numbering (~4 ms per 200k
 * lines).
 *
 * When is a cached entry the file? The file is read at every call anyway
 * (its bytes are the transaction's proof of what was there), and an entry
 * is used only when the bytes just read equal the bytes it was made from,
 * compared in full (`Buffer.equals`, a memory comparison: ~0.5 ms per
 * 9 MB). A key of size + mtime + inode alone is not enough: a rewrite of the
 * same size within the file system's mtime granularity (or one that sets
 * the mtime back) looks unchanged, and a wrong text here would be a wrong
 * edit. Hashing the bytes would be as safe but costs ~4 ms per 9 MB; keeping
 * them costs their size in memory, counted below.
 *
 * Memory: an entry costs about its bytes + 2 × its characters (a string of
 * non-Latin-1 text takes two bytes a character) + its line table (4 bytes a
 * line) + the per-line hashes a fuzzy search builds on a kept document (4
 * bytes a line, counted when the entry is stored after an edit); entries are dropped least recently used first once the total
 * passes `maxBytes` (64 MiB by default: a 9 MB file costs ~30 MB), and a
 * file larger than that is not kept.
 */
import { isAscii } from "node:buffer";
import { Document } from "../text/document.ts";
import { shareDocument } from "../text/document-pool.ts";
import { hashOnce, knownHashOf, rememberTextBytes } from "./known-hashes.ts";
import type { TextLayout } from "./read-file.ts";
import { keep } from "./scratch.ts";

/** Default bound on the memory the cache's entries hold, in bytes. */
export const DEFAULT_FILE_CACHE_BYTES = 64 * 1024 * 1024;

export interface CachedFile {
  /** The text for the core (see read-file.ts: no BOM, LF when the file was uniformly CRLF). */
  readonly text: string;
  readonly layout: TextLayout;
  /** sha256 of the bytes, hex, computed once when first asked. */
  readonly hash: string;
  /** The document of `text`, shared (document-pool.ts) while the entry lives. */
  readonly doc: Document;
  /**
   * The bytes it was made from (never changed). An entry kept as its text
   * alone (ASCII bytes, see `textOnly`) makes them again when asked.
   */
  readonly bytes: Uint8Array;
  /**
   * True when the bytes are the text's Latin-1 (after a UTF-8 BOM when the
   * layout has one): the entry keeps the text alone, and a read is
   * compared with it (`lookup`).
   */
  readonly textOnly: boolean;
}

interface Entry extends CachedFile {
  /** Decoded strictly (valid UTF-8, no NUL): may serve a read that refuses binary files. */
  strict: boolean;
  size: number;
  /** The bytes' length. */
  byteLength: number;
}

export class FileCache {
  readonly maxBytes: number;
  private total = 0;
  /** By real path, in order of last use (a Map keeps insertion order). */
  private readonly entries = new Map<string, Entry>();
  /** Calls answered from an entry; tests and benchmarks read it. */
  hits = 0;

  /**
   * @param maxBytes bound on the memory held, in bytes (see the module comment for what an entry costs).
   */
  constructor(maxBytes = DEFAULT_FILE_CACHE_BYTES) {
    this.maxBytes = maxBytes;
  }

  /** Memory the entries hold, about, in bytes. */
  get size(): number {
    return this.total;
  }

  /**
   * The entry of `abs` when `bytes` (just read from it) are the bytes it was
   * made from; a lenient entry (decoded with `allowBinary`) serves only a
   * lenient read.
   */
  lookup(abs: string, bytes: Uint8Array, allowBinary: boolean): CachedFile | undefined {
    const entry = this.entries.get(abs);
    if (!entry || (!entry.strict && !allowBinary) || !sameBytes(entry, bytes)) return undefined;
    this.entries.delete(abs);
    this.entries.set(abs, entry);
    this.hits++;
    return entry;
  }

  /** Whether the entry of `abs` was made from `size` bytes: a read of that many will likely be it. */
  hasSize(abs: string, size: number): boolean {
    return this.entries.get(abs)?.byteLength === size;
  }

  /**
   * The entry of `abs` without comparing it with the file: for the caller
   * that has just written the file (`storeWritten` made the entry of the
   * bytes written, or dropped it), so its hash and text need no read back.
   */
  latest(abs: string): CachedFile | undefined {
    return this.entries.get(abs);
  }

  /**
   * Records what `bytes` of `abs` decode to. `doc` is the document of
   * `text` when the caller has one (an edited document carried from the
   * previous version); else one is made.
   */
  store(abs: string, bytes: Uint8Array, text: string, layout: TextLayout, strict: boolean, doc?: Document): CachedFile {
    const entry = makeEntry(bytes, text, layout, strict, doc ?? Document.from(text));
    this.insert(abs, entry);
    return entry;
  }

  /** Makes `entry` the one of `abs`, dropping the least recently used past the bound. */
  private insert(abs: string, entry: Entry): void {
    const { text, layout, strict } = entry;
    this.drop(abs);
    // Its UTF-8 is these bytes: the journal's record of it as a history version hashes nothing.
    if (strict && !layout.bom && !layout.crlf && layout.undecoded === undefined) rememberTextBytes(text, () => entry.hash);
    if (entry.size > this.maxBytes) return;
    shareDocument(entry.doc);
    this.entries.set(abs, entry);
    this.total += entry.size;
    for (const key of this.entries.keys()) {
      if (this.total <= this.maxBytes) break;
      this.drop(key);
    }
  }

  /**
   * Records the bytes an edit wrote to `abs`: `text` is the edited text,
   * made from `before`; when the entry of `abs` is `before`'s, its document's
   * line table is carried (see `Document.edited`). Kept only when reading the bytes back would give
   * this very text and layout (see `decodesBack`), so a later read skips
   * the decoding without changing what it returns.
   */
  storeWritten(abs: string, bytes: Uint8Array, text: string, layout: TextLayout, before: string): void {
    this.prepareWritten(abs, bytes, text, layout, before)();
  }

  /**
   * `storeWritten` in two steps: the entry is made now (the text of the
   * bytes, the line table carried: ~6 ms of CPU for a 9 MB file), and
   * stored by the function returned. applyEdits makes it while the write
   * waits on the disk and stores it once the file is in place (not at all
   * when the write fails). `bytes` must not change in between.
   */
  prepareWritten(abs: string, bytes: Uint8Array, text: string, layout: TextLayout, before: string): () => void {
    const previous = this.entries.get(abs);
    const ascii = asciiTextOf(bytes, layout);
    const kept = ascii === undefined ? (decodesBack(text, layout) ? text : undefined) : ascii || undefined;
    // A text entry keeps no bytes: the bytes (perhaps a reused buffer, scratch.ts) are left to the caller.
    if (kept === undefined) return () => this.drop(abs);
    const from = previous !== undefined && previous.text === before ? previous.doc : undefined;
    const doc = from?.edited(kept) ?? Document.from(kept);
    // A bytes entry keeps them (`keep`, at the store): until then they stay the caller's.
    const entry = isLatin1Of(bytes, kept, layout) ? textEntry(bytes, kept, layout, doc) : undefined;
    return () => this.insert(abs, entry ?? bytesEntry(keep(bytes), kept, layout, true, doc));
  }

  /** Forgets `abs` (deleted, moved, or written with bytes that cannot be kept). */
  drop(abs: string): void {
    const entry = this.entries.get(abs);
    if (!entry) return;
    this.entries.delete(abs);
    this.total -= entry.size;
  }
}

/**
 * The text of written bytes that are ASCII (most source files), in a plain
 * layout (no CRLF, no undecoded bytes): read back as Latin-1, which Node
 * keeps outside the JS heap for a long string (read-file.ts decodes such
 * files so). The edited text an edit hands over is a rope over the old one;
 * reading it whole (decodesBack, the next call's search) copies it into a
 * fresh 9 MB of the heap for typescript.js, ~50-80 ms of CPU on this
 * machine, where touching new memory is what costs (a reused buffer: ~1 ms).
 * ASCII bytes are the UTF-8 of exactly this text. `false`: they do not read
 * back as a text (a NUL, or a CR, which the next read would take for a
 * line ending); `undefined`: not such bytes, decodesBack decides.
 */
function asciiTextOf(bytes: Uint8Array, layout: TextLayout): string | false | undefined {
  if (layout.crlf || layout.undecoded) return undefined;
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const body = layout.bom ? buffer.subarray(3) : buffer;
  if ((layout.bom && !buffer.subarray(0, 3).equals(UTF8_BOM)) || !isAscii(body)) return undefined;
  if (body.includes(0) || body.includes(13)) return false;
  return body.toString("latin1");
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * Whether decoding `encodeText(text, layout)` strictly (read-file.ts) gives
 * back `text` and `layout`: the text is well-formed UTF-16 (a lone
 * surrogate is written as U+FFFD), holds no NUL (read as binary) and no CR
 * (the layout is found again from the line breaks: a text with CRLFs of its
 * own would read back as converted), and a BOM character at its start is
 * not taken for the file's BOM.
 */
export function decodesBack(text: string, layout: TextLayout): boolean {
  // Bytes that did not decode were written back: reading them gives other offsets.
  if (layout.undecoded) return false;
  if (!(text as unknown as { isWellFormed(): boolean }).isWellFormed()) return false;
  if (text.includes("\0") || text.includes("\r")) return false;
  if (layout.crlf && !text.includes("\n")) return false;
  return layout.bom || !text.startsWith("\uFEFF");
}

/** The entry of `bytes` read as `text`: the text alone when the bytes are its ASCII (`strict`), else both. */
function makeEntry(bytes: Uint8Array, text: string, layout: TextLayout, strict: boolean, doc: Document): Entry {
  return strict && isLatin1Of(bytes, text, layout) ? textEntry(bytes, text, layout, doc) : bytesEntry(keep(bytes), text, layout, strict, doc);
}

/** Whether `bytes` are exactly `text` in Latin-1 (after the UTF-8 BOM when the layout has one) and ASCII: an entry of the text alone. */
function isLatin1Of(bytes: Uint8Array, text: string, layout: TextLayout): boolean {
  if (layout.crlf || layout.undecoded) return false;
  const head = layout.bom ? UTF8_BOM.length : 0;
  if (bytes.byteLength !== text.length + head) return false;
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (layout.bom && !buffer.subarray(0, head).equals(UTF8_BOM)) return false;
  // ASCII bytes of the text's length decode (read-file.ts) to their Latin-1: one check of the bytes says both.
  return isAscii(buffer.subarray(head));
}

/**
 * The entry of bytes that are its text's Latin-1: the text alone is kept
 * (a read compares with it, `sameBytes`), not a second 9 MB of bytes per
 * file. Its hash is the one already computed for those bytes while they
 * were the caller's (the journal's record of a write), else the text's.
 */
function textEntry(bytes: Uint8Array, text: string, layout: TextLayout, doc: Document): Entry {
  let hash: string | undefined;
  let source: Uint8Array | undefined = bytes;
  const bom = layout.bom;
  return {
    text,
    layout,
    strict: true,
    textOnly: true,
    doc,
    byteLength: bytes.byteLength,
    size: text.length + doc.indexBytes,
    get bytes() {
      return latin1Bytes(text, bom);
    },
    get hash() {
      // Only a hash already known: the bytes may be a reused buffer that holds other bytes by now.
      hash ??= (source && knownHashOf(source)) ?? hashOnce(latin1Bytes(text, bom));
      source = undefined;
      return hash;
    },
  };
}

function bytesEntry(bytes: Uint8Array, text: string, layout: TextLayout, strict: boolean, doc: Document): Entry {
  let hash: string | undefined;
  return {
    bytes,
    text,
    layout,
    strict,
    textOnly: false,
    doc,
    byteLength: bytes.byteLength,
    size: bytes.byteLength + 2 * text.length + doc.indexBytes,
    get hash() {
      hash ??= hashOnce(bytes);
      return hash;
    },
  };
}

const latin1Bytes = (text: string, bom: boolean): Buffer => (bom ? Buffer.concat([UTF8_BOM, Buffer.from(text, "latin1")]) : Buffer.from(text, "latin1"));

/** Compared a slice at a time (this buffer, reused): no copy of the whole text. */
const CHUNK = 256 * 1024;
let chunk: Buffer | undefined;

/** Whether `bytes` are the entry's bytes: compared in full, with the text for an entry of the text alone. */
function sameBytes(entry: Entry, bytes: Uint8Array): boolean {
  if (bytes.byteLength !== entry.byteLength) return false;
  const read = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!entry.textOnly) {
    const kept = entry.bytes;
    return read.equals(Buffer.from(kept.buffer, kept.byteOffset, kept.byteLength));
  }
  const head = entry.layout.bom ? UTF8_BOM.length : 0;
  if (head > 0 && !read.subarray(0, head).equals(UTF8_BOM)) return false;
  chunk ??= Buffer.allocUnsafeSlow(CHUNK);
  const text = entry.text;
  for (let at = 0; at < text.length; at += CHUNK) {
    const length = Math.min(CHUNK, text.length - at);
    // A byte of 0x80 or more is never the Latin-1 of ASCII text: latin1Write gives it back as the character's low byte.
    chunk.write(text.slice(at, at + length), 0, length, "latin1");
    if (!read.subarray(head + at, head + at + length).equals(chunk.subarray(0, length))) return false;
  }
  return true;
}

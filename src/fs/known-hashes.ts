/**
 * sha256 of the byte strings and texts one write handles, each computed
 * once. A written edit of a 9 MB file met the same bytes up to four times:
 * the bytes read (the journal's record of the read, and of the change's
 * before), the bytes written (the file cache's entry, which the tool's
 * answer asks for, and the journal's after), and every `history` text the
 * MCP server hands in (encoded to UTF-8 again and hashed at each write):
 * ~20 ms of CPU a call on typescript.js, each pass 5-10 ms.
 *
 * Only for bytes the file layer never changes once read or encoded: a
 * buffer is remembered by identity (a WeakMap: it goes when the buffer
 * goes). Texts, which cannot be weak keys, are remembered by value, the
 * last few long ones only (a long string compares by identity first).
 */
import { createHash } from "node:crypto";

/** sha256 (hex), as read-file.ts's hashBytes (not imported: read-file.ts imports this module). */
const hashBytes = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

/** A buffer's hash, or where to get it (the hash of equal bytes, computed when first asked). */
const byBuffer = new WeakMap<Uint8Array, string | (() => string)>();

/** sha256 (hex) of `bytes`, computed once per buffer. */
export function hashOnce(bytes: Uint8Array): string {
  const known = byBuffer.get(bytes);
  if (typeof known === "string") return known;
  const hash = known !== undefined ? known() : hashBytes(bytes);
  byBuffer.set(bytes, hash);
  return hash;
}

/** Bytes from this size are worth hashing while waiting (below it a hash is under ~0.7 ms: the turns would cost more). */
export const HASH_WHILE_WRITING_FROM = 1024 * 1024;
/** Bytes hashed between two turns of the event loop by `hashWhileWaiting` (~0.3 ms of sha256 each). */
const SLICE = 512 * 1024;

/**
 * Hashes `bytes` a slice at a time, yielding to the event loop between
 * slices, so that the hash of the bytes a write stages is computed while
 * the write waits on the disk (its fdatasync, in the thread pool) instead
 * of after it: the journal and the answer need it once the file is in
 * place (~6 ms of CPU for 9 MB idle, 30-40 ms of wall time under load).
 * `hashOnce` then finds it.
 */
export async function hashWhileWaiting(bytes: Uint8Array): Promise<void> {
  if (byBuffer.has(bytes)) return;
  const hash = createHash("sha256");
  for (let at = 0; at < bytes.length; at += SLICE) {
    hash.update(bytes.subarray(at, at + SLICE));
    await new Promise<void>((resolve) => setImmediate(resolve));
    // Asked for meanwhile (hashOnce): that hash stands.
    if (byBuffer.has(bytes)) return;
  }
  byBuffer.set(bytes, hash.digest("hex"));
}

/** Records that `bytes` hash to what `hashOfEqual` gives (the hash of equal bytes: a file cache entry compared byte for byte). */
export function rememberHash(bytes: Uint8Array, hashOfEqual: () => string): void {
  byBuffer.set(bytes, hashOfEqual);
}

/** The hash of `bytes` when it is already known (computed, or remembered from equal bytes); never hashes them. */
export function knownHashOf(bytes: Uint8Array): string | undefined {
  const known = byBuffer.get(bytes);
  return known === undefined ? undefined : hashOnce(bytes);
}

/** Texts shorter than this are hashed each time (a pass over them costs less than keeping them). */
const KEEP_TEXT_FROM = 64 * 1024;
/** Long texts remembered: a file's history versions, as the MCP server keeps them. */
const KEEP_TEXTS = 4;
/**
 * Long texts' hashes, or where to get them (the hash of bytes that are
 * their UTF-8), newest last. Looked up by identity first: a Map keyed by
 * the text hashed every new 9 MB text as a key (~12 ms a write on
 * typescript.js, the version the file cache keeps after each write).
 */
const byText: { text: string; hash: string | (() => string) }[] = [];

/**
 * Where `text` is among the kept texts, newest first, or -1. `===` on two
 * different strings of one length compares their characters: a scan oldest
 * first, or a scan to drop an equal copy at every new text, compared 9 MB
 * texts two to four times a write of typescript.js (~4.5 ms of CPU a call),
 * where the text asked for is nearly always the newest, the very string
 * kept (no comparison of characters).
 */
function findText(text: string): number {
  for (let i = byText.length - 1; i >= 0; i--) if ((byText[i] as (typeof byText)[number]).text === text) return i;
  return -1;
}

/** Keeps `text`'s hash as the newest; `at`: where it was kept before (dropped there). */
function keepText(text: string, hash: string | (() => string), at = -1): void {
  if (at >= 0) byText.splice(at, 1);
  byText.push({ text, hash });
  if (byText.length > KEEP_TEXTS) byText.shift();
}

/** sha256 (hex) of `text` encoded as UTF-8; the last few long texts' hashes are kept. */
export function hashTextOnce(text: string): string {
  if (text.length < KEEP_TEXT_FROM) return hashBytes(Buffer.from(text, "utf8"));
  // The same string first (no comparison of characters); an equal copy compares its characters once.
  const at = findText(text);
  const known = at >= 0 ? byText[at]?.hash : undefined;
  const hash = typeof known === "string" ? known : known !== undefined ? known() : hashBytes(Buffer.from(text, "utf8"));
  keepText(text, hash, at);
  return hash;
}

/**
 * Records that `text`'s UTF-8 is bytes whose hash `hashOfBytes` gives (a
 * file without BOM, CRLF or undecoded bytes, as the file cache keeps it):
 * computed once. A history version the MCP server hands in is such a text.
 */
export function rememberTextBytes(text: string, hashOfBytes: () => string): void {
  // A text just decoded or written: kept without looking for an equal copy (an older one is pushed out in time).
  if (text.length >= KEEP_TEXT_FROM) keepText(text, hashOfBytes);
}

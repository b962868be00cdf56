/**
 * A buffer reused for bytes that are read only to be compared: a read whose
 * bytes turn out to be the file cache's entry (file-cache.ts), and the check
 * before a file is replaced that it still holds what the edit was computed
 * from (atomic-write.ts). On the 9 MB typescript.js each of those read into
 * a new buffer, and a new buffer of that size is new memory: ~2,200 page
 * faults, ~45 ms of CPU on this machine against ~1 ms for the same read into
 * memory already touched; freed, it fed the garbage collector's external
 * memory pressure (a full collection every call or two of the MCP server).
 *
 * One buffer is kept, the largest given back (up to MAX_KEPT bytes); a
 * caller takes it, and gives it back when done, so two calls at once never
 * share it (the second gets a new buffer). Only for large reads: below
 * MIN_SCRATCH a new buffer costs next to nothing.
 */

/** Reads smaller than this use a new buffer. */
export const MIN_SCRATCH = 256 * 1024;
/** The largest buffer kept between calls. */
const MAX_KEPT = 64 * 1024 * 1024;

let spare: Buffer | undefined;

/** A buffer of `size` bytes whose contents are garbage; give it back with `giveBack` once its bytes are no longer used. */
export function takeScratch(size: number): Buffer {
  const kept = spare;
  if (size >= MIN_SCRATCH && kept !== undefined && kept.length >= size) {
    spare = undefined;
    return kept.subarray(0, size);
  }
  return Buffer.allocUnsafe(size);
}

/** Returns a buffer from `takeScratch` (or any part of it) for the next taker. Nothing may read or keep it after. */
export function giveBack(buffer: Buffer | undefined): void {
  if (buffer === undefined) return;
  const whole = buffer.buffer;
  if (whole.byteLength < MIN_SCRATCH || whole.byteLength > MAX_KEPT) return;
  if (spare !== undefined && spare.buffer.byteLength >= whole.byteLength) return;
  spare = Buffer.from(whole, 0, whole.byteLength);
}

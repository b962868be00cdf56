/**
 * Buffers reused for a big file's bytes from one call to the next: the
 * bytes read (compared with the file cache's entry, then the edit's proof
 * of what was there), the new bytes an edit writes, and the check before a
 * file is replaced that it still holds what the edit was computed from
 * (atomic-write.ts). On the 9 MB typescript.js each was a new buffer per
 * `edit_file`, and a new buffer of that size is new memory: ~2,200 page
 * faults, ~45 ms of CPU on this machine against ~1 ms for the same bytes
 * written into memory already touched; freed, each fed the garbage
 * collector's external memory pressure (a full collection every call or
 * two of the MCP server).
 *
 * A buffer taken is lent: `giveBack` returns it to the pool, `keep` makes it
 * its holder's for good (a cache entry that keeps the bytes), so it is never
 * handed out again. A `ScratchHold` gives back, at once, every buffer a
 * call took (applyEdits releases its hold when the write is recorded). The
 * pool keeps up to POOL buffers of at most MAX_KEPT bytes; only reads of
 * MIN_SCRATCH bytes or more use it (a new small buffer costs next to
 * nothing). A buffer is made with room to spare, so a file that grows by
 * a line at each edit still fits the buffer of the call before.
 */

/** Buffers smaller than this are new ones. */
export const MIN_SCRATCH = 256 * 1024;
/** The largest buffer kept between calls. */
const MAX_KEPT = 64 * 1024 * 1024;
/** Buffers kept: a written edit of one big file lends three at once (read, new bytes, the check before the rename). */
const POOL = 3;

const pool: ArrayBuffer[] = [];
/** The buffers lent out and not yet given back or kept. */
const lent = new WeakSet<ArrayBuffer>();

/** A size with room to spare: 1/16 more, rounded up to 64 KiB. */
const roomy = (size: number): number => Math.ceil((size + (size >> 4)) / 65536) * 65536;

/** A buffer of `size` bytes whose contents are garbage; give it back with `giveBack` (or `keep` it) once its bytes are no longer used. */
export function takeScratch(size: number): Buffer {
  // Past MAX_KEPT it would not be kept: an exact new buffer (and a file too large to read fails in the read, not here).
  if (size < MIN_SCRATCH || size > MAX_KEPT) return Buffer.allocUnsafe(size);
  let best = -1;
  for (let i = 0; i < pool.length; i++) {
    const length = (pool[i] as ArrayBuffer).byteLength;
    if (length >= size && (best < 0 || length < (pool[best] as ArrayBuffer).byteLength)) best = i;
  }
  const whole = best >= 0 ? (pool.splice(best, 1)[0] as ArrayBuffer) : (Buffer.allocUnsafeSlow(roomy(size)).buffer as ArrayBuffer);
  lent.add(whole);
  return Buffer.from(whole, 0, size);
}

/** Returns a buffer from `takeScratch` (or any part of it) for the next taker. Nothing may read or keep it after. Any other buffer is left alone. */
export function giveBack(buffer: Uint8Array | undefined): void {
  if (buffer === undefined) return;
  const whole = buffer.buffer as ArrayBuffer;
  if (!lent.has(whole)) return;
  lent.delete(whole);
  if (whole.byteLength > MAX_KEPT) return;
  pool.push(whole);
  // The smallest go first: the pool keeps the ones that fit the most.
  if (pool.length > POOL) pool.sort((a, b) => b.byteLength - a.byteLength).length = POOL;
}

/** Makes `buffer` its holder's for good (a lent one is never given back to the pool); returns it. */
export function keep<T extends Uint8Array>(buffer: T): T {
  lent.delete(buffer.buffer as ArrayBuffer);
  return buffer;
}

/** The buffers one call took: all given back by `release` (those kept meanwhile stay their keeper's). */
export class ScratchHold {
  private readonly taken: Buffer[] = [];

  /** `takeScratch`, given back at `release`. */
  take(size: number): Buffer {
    const buffer = takeScratch(size);
    this.taken.push(buffer);
    return buffer;
  }

  /** Gives back every buffer taken. Nothing may read the bytes of one after. */
  release(): void {
    for (const buffer of this.taken.splice(0)) giveBack(buffer);
  }
}

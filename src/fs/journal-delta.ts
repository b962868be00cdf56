/**
 * A file version the journal keeps as its change from another version
 * (`blobs/<sha256>.delta`) instead of all its bytes (`blobs/<sha256>`).
 *
 * Why: in a session each write leaves a version no entry has stored yet
 * (the one before it is the previous write's after), and the journal wrote
 * it whole: on a 9 MB file a second 9 MB write and fdatasync per edit
 * (~30 ms wall, the same again as the edit's own write), and a version over
 * 1/16 of the size bound made every write prune the whole journal. An
 * edit's after differs from its before in a few lines, so it is stored as
 * the bytes between their common start and end, on top of the before.
 *
 * Format: one line of JSON, `{"delta":1,"base":<sha256>,"size":<bytes>,
 * "depth":<n>,"splices":[[start,end,length],...]}`, then the splices' new
 * bytes in order: the version is the base with each `[start, end)` (of
 * the base, ascending, apart) replaced by the next `length` bytes. `depth`
 * counts the deltas under it (a base stored whole: 1), so that reading a
 * version applies at most MAX_DEPTH of them; past that it is stored whole.
 * A delta is read back as untrusted (the version it gives is checked
 * against its name, as a whole blob is).
 */

import { EditError } from "../errors.ts";

/** Versions smaller than this are stored whole (the delta would save less than its file costs). */
export const DELTA_FROM = 64 * 1024;
/** Most deltas on top of one another; the next version is stored whole (one 9 MB write in 16 edits). */
export const MAX_DEPTH = 16;
/** A delta whose new bytes are over this share of the version is not worth it: the version is stored whole. */
const MAX_SHARE = 1 / 8;
/** Bytes compared at a time looking for the common start and end (Buffer.compare: memcmp). */
const CHUNK = 64 * 1024;

export interface DeltaHeader {
  base: string;
  size: number;
  depth: number;
  splices: [number, number, number][];
}

const HASH = /^[0-9a-f]{64}$/;

/** Bytes the two have in common at their start. */
function commonStart(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  let at = 0;
  while (at + CHUNK <= n && Buffer.compare(a.subarray(at, at + CHUNK), b.subarray(at, at + CHUNK)) === 0) at += CHUNK;
  while (at < n && a[at] === b[at]) at++;
  return at;
}

/** Bytes the two have in common at their end, not reaching into the first `start` of either. */
function commonEnd(a: Uint8Array, b: Uint8Array, start: number): number {
  const n = Math.min(a.length, b.length) - start;
  let k = 0;
  while (k + CHUNK <= n && Buffer.compare(a.subarray(a.length - k - CHUNK, a.length - k), b.subarray(b.length - k - CHUNK, b.length - k)) === 0) k += CHUNK;
  while (k < n && a[a.length - k - 1] === b[b.length - k - 1]) k++;
  return k;
}

/**
 * `bytes` as a delta on `base` (whose hash is `baseHash`, stored at
 * `baseDepth`: 0 whole), or undefined when it should be stored whole (too
 * small, too deep, or too different).
 */
export function encodeDelta(baseHash: string, baseDepth: number, base: Uint8Array, bytes: Uint8Array): Buffer | undefined {
  if (bytes.length < DELTA_FROM || baseDepth + 1 > MAX_DEPTH) return undefined;
  const start = commonStart(base, bytes);
  const end = commonEnd(base, bytes, start);
  const inserted = bytes.subarray(start, bytes.length - end);
  if (inserted.length > bytes.length * MAX_SHARE) return undefined;
  const header: DeltaHeader & { delta: 1 } = { delta: 1, base: baseHash, size: bytes.length, depth: baseDepth + 1, splices: [[start, base.length - end, inserted.length]] };
  return Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`, "utf8"), inserted]);
}

function damaged(hash: string, why: string): EditError {
  return new EditError("IO", `A file version in the journal is damaged (${hash.slice(0, 12)}…: ${why}); nothing is written from it.`, { hash });
}

/** The header of a delta file and where its new bytes begin; `IO` when malformed. */
export function parseDelta(hash: string, file: Uint8Array): { header: DeltaHeader; payload: number } {
  const nl = file.indexOf(10);
  if (nl < 0 || nl > 64 * 1024) throw damaged(hash, "no delta header");
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(file.subarray(0, nl)).toString("utf8"));
  } catch {
    throw damaged(hash, "its delta header is not JSON");
  }
  const h = raw as Record<string, unknown> | null;
  const nat = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
  if (typeof h !== "object" || h === null || h.delta !== 1 || typeof h.base !== "string" || !HASH.test(h.base) || !nat(h.size) || !nat(h.depth) || !Array.isArray(h.splices)) {
    throw damaged(hash, "its delta header is malformed");
  }
  let last = 0;
  let payload = 0;
  for (const s of h.splices as unknown[]) {
    if (!Array.isArray(s) || s.length !== 3 || !s.every(nat)) throw damaged(hash, "a splice of its delta is malformed");
    const [start, end, length] = s as [number, number, number];
    if (start < last || end < start) throw damaged(hash, "its delta's splices are out of order");
    last = end;
    payload += length;
  }
  if (nl + 1 + payload !== file.length) throw damaged(hash, "its delta's new bytes are not the splices' length");
  return { header: h as unknown as DeltaHeader, payload: nl + 1 };
}

/** The version a delta gives on `base` (the caller checks it against its hash). */
export function applyDelta(hash: string, file: Uint8Array, base: Uint8Array): Buffer {
  const { header, payload } = parseDelta(hash, file);
  const out = Buffer.allocUnsafe(header.size);
  let written = 0;
  let from = 0;
  let next = payload;
  const put = (bytes: Uint8Array) => {
    if (written + bytes.length > out.length) throw damaged(hash, "its delta gives more bytes than its size");
    out.set(bytes, written);
    written += bytes.length;
  };
  for (const [start, end, length] of header.splices) {
    if (end > base.length) throw damaged(hash, "a splice of its delta lies past its base");
    put(base.subarray(from, start));
    put(file.subarray(next, next + length));
    next += length;
    from = end;
  }
  put(base.subarray(from));
  if (written !== out.length) throw damaged(hash, "its delta gives fewer bytes than its size");
  return out;
}

/**
 * Counts the "\n" in a range of a text: how an exact match far into a big
 * file gets its line number without a table of every line before it.
 *
 * An `indexOf("\n")` loop costs one call per line (~1.9 ms for the 100k
 * lines of half of typescript.js, about two scans of the whole file for a
 * needle); JavaScript has no native count, and a byte loop or a SWAR loop in
 * JavaScript measured slower still. So the range is encoded as UTF-8 into a
 * small WebAssembly memory (`TextEncoder.encodeInto`, which a "\n" leaves as
 * the byte 10 and no other character produces) and counted there 16 bytes at
 * a step with SIMD: 0.55 ms for the same range. Where WebAssembly or its SIMD
 * is missing, the `indexOf` loop counts.
 */

/** Characters encoded per call: at most 3 UTF-8 bytes each, plus 16 of padding, within the 4 pages below. */
const CHUNK = 65_536;
const PAGES = 4;

/** Unsigned LEB128, as the module's sizes are written. */
function leb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}

const section = (id: number, bytes: number[]): number[] => [id, ...leb(bytes.length), ...bytes];
const name = (s: string): number[] => [s.length, ...Array.from(s, (c) => c.charCodeAt(0))];

/**
 * `count(n)`: the bytes equal to 10 among the first `n` bytes of memory (`n`
 * a multiple of 16). Lanes of 16 bits add up the per-vector matches, which
 * stay below 2 x 65536 / 16 per call, so nothing overflows.
 */
const COUNT_BODY = [
  // locals: p (one i32: 1), acc and newline / sums (two v128: 2, 3); locals start at zero
  0x02, 0x01, 0x7f, 0x02, 0x7b,
  // newline = i8x16.splat(10)
  0x41, 0x0a, 0xfd, 0x0f, 0x21, 0x03,
  // block; if n == 0 leave it
  0x02, 0x40, 0x20, 0x00, 0x45, 0x0d, 0x00,
  // loop: acc = i16x8.sub(acc, i16x8.extadd_pairwise_i8x16_s(i8x16.eq(v128.load(p), newline)))
  0x03, 0x40, 0x20, 0x02, 0x20, 0x01, 0xfd, 0x00, 0x04, 0x00, 0x20, 0x03, 0xfd, 0x23, 0xfd, 0x7c, 0xfd, 0x91, 0x01, 0x21, 0x02,
  // p += 16; again while p < n
  0x20, 0x01, 0x41, 0x10, 0x6a, 0x22, 0x01, 0x20, 0x00, 0x49, 0x0d, 0x00,
  // end loop, end block
  0x0b, 0x0b,
  // sums = i32x4.extadd_pairwise_i16x8_u(acc); return its four lanes added
  0x20, 0x02, 0xfd, 0x7f, 0x21, 0x03, 0x20, 0x03, 0xfd, 0x1b, 0x00, 0x20, 0x03, 0xfd, 0x1b, 0x01, 0x6a, 0x20, 0x03, 0xfd, 0x1b, 0x02, 0x6a, 0x20, 0x03, 0xfd, 0x1b, 0x03,
  0x6a, 0x0b,
];

function moduleBytes(): Uint8Array<ArrayBuffer> {
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    // type 0: (i32) -> i32
    ...section(1, [0x01, 0x60, 0x01, 0x7f, 0x01, 0x7f]),
    ...section(3, [0x01, 0x00]),
    ...section(5, [0x01, 0x00, PAGES]),
    ...section(7, [0x02, ...name("memory"), 0x02, 0x00, ...name("count"), 0x00, 0x00]),
    ...section(10, [0x01, ...leb(COUNT_BODY.length), ...COUNT_BODY]),
  ]);
}

interface Counter {
  count: (n: number) => number;
  memory: Uint8Array;
  encoder: TextEncoder;
}

let counter: Counter | null | undefined;

/** The WebAssembly counter, made on first use; `null` where it cannot be (no WebAssembly, no SIMD, a policy against it). */
function wasmCounter(): Counter | null {
  if (counter !== undefined) return counter;
  try {
    const instance = new WebAssembly.Instance(new WebAssembly.Module(moduleBytes()));
    const memory = new Uint8Array((instance.exports.memory as WebAssembly.Memory).buffer);
    counter = { count: instance.exports.count as (n: number) => number, memory, encoder: new TextEncoder() };
  } catch {
    counter = null;
  }
  return counter;
}

/**
 * Ranges shorter than this are counted character by character: encoding
 * them costs more than it saves, and `indexOf` would run on past `to` to the
 * next break (on a 1 MB line, once per splice of a replaceAll).
 */
const SHORT = 4096;

/** The number of "\n" in `text` from offset `from` to `to` (exclusive; the end of the text when omitted). */
export function countBreaks(text: string, from = 0, to = text.length, useWasm = true): number {
  let n = 0;
  if (to - from < SHORT) {
    for (let i = from; i < to; i++) if (text.charCodeAt(i) === 10) n++;
    return n;
  }
  const wasm = useWasm ? wasmCounter() : null;
  if (!wasm) {
    for (let p = text.indexOf("\n", from); p !== -1 && p < to; p = text.indexOf("\n", p + 1)) n++;
    return n;
  }
  const { count, memory, encoder } = wasm;
  for (let p = from; p < to; p += CHUNK) {
    const { written = 0 } = encoder.encodeInto(text.slice(p, Math.min(to, p + CHUNK)), memory);
    // Zeros up to the next multiple of 16: the last vector reads no byte of an earlier chunk.
    memory.fill(0, written, written + 16);
    n += count((written + 15) & ~15);
  }
  return n;
}

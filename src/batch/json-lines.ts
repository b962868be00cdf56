/**
 * The batch command's input as bytes: lines cut from the stream's chunks
 * and routed to a worker without being decoded or parsed here. Parsing a
 * case (`JSON.parse` of a line holding a whole file) and writing its result
 * (`JSON.stringify`) in the main thread cost it ~1.6 ms a case on the real
 * edits (50 kB a line), serially, ahead of every worker; a worker parses and
 * writes its own cases, and the main thread only cuts lines and copies
 * bytes (bench:batch, the CLI row).
 *
 * Lines are cut as readline cuts them with `crlfDelay: Infinity`: at "\n",
 * "\r\n" or a lone "\r"; a line whose text trims to nothing is not a case.
 */

/** A line of the input: its 1-based number and its bytes (without the break). */
export interface InputLine {
  line: number;
  bytes: Uint8Array;
}

const LF = 0x0a;
const CR = 0x0d;

/** Whether the line's text trims to nothing (`String.prototype.trim`), decoding it only when it holds non-ASCII bytes and no ASCII text. */
export function isBlankLine(bytes: Uint8Array): boolean {
  let ascii = true;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    if (b >= 0x80) ascii = false;
    else if (b !== 0x20 && (b < 0x09 || b > 0x0d)) return false;
  }
  return ascii || new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes).trim() === "";
}

/**
 * The lines of a stream of byte chunks. A line inside one chunk is a view
 * of it (the pool copies it into the chunk of cases it posts); a line over
 * several chunks is their parts joined once. Breaks are found by `indexOf`
 * (memchr), not by a loop over every byte: 158 MB of cases cost the main
 * thread ~0.4 s more through a byte loop.
 */
export async function* inputLines(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<InputLine> {
  let line = 0;
  let parts: Uint8Array[] = [];
  let afterCr = false;
  for await (const raw of chunks) {
    const chunk = typeof raw === "string" ? Buffer.from(raw, "utf8") : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
    let from = 0;
    // A "\r" that ended the last chunk and a "\n" that starts this one are one break.
    if (afterCr && chunk[0] === LF) from = 1;
    afterCr = false;
    let lf = chunk.indexOf(LF, from);
    let cr = chunk.indexOf(CR, from);
    while (lf !== -1 || cr !== -1) {
      const at = cr === -1 || (lf !== -1 && lf < cr) ? lf : cr;
      parts.push(chunk.subarray(from, at));
      yield { line: ++line, bytes: concat(parts) };
      parts = [];
      from = at + 1;
      if (at === cr) {
        if (from === chunk.length) afterCr = true;
        else if (chunk[from] === LF) from++;
        cr = chunk.indexOf(CR, from);
      }
      if (lf !== -1 && lf < from) lf = chunk.indexOf(LF, from);
    }
    if (from < chunk.length) parts.push(chunk.subarray(from));
  }
  if (parts.length > 0) yield { line: ++line, bytes: concat(parts) };
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  return Buffer.concat(parts);
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function skipSpace(b: Uint8Array, i: number): number {
  while (i < b.length && (b[i] === 0x20 || b[i] === 0x09 || b[i] === LF || b[i] === CR)) i++;
  return i;
}

/** The index of the quote closing the string that opens at `i`, or -1. */
function stringEnd(b: Uint8Array, i: number): number {
  let j = i + 1;
  while (true) {
    const k = b.indexOf(QUOTE, j);
    if (k === -1) return -1;
    let slashes = 0;
    while (b[k - 1 - slashes] === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return k;
    j = k + 1;
  }
}

/** Where the JSON value starting at `i` ends (exclusive), or -1: strings skipped whole, nesting counted. */
function valueEnd(b: Uint8Array, i: number): number {
  const first = b[i];
  if (first === QUOTE) {
    const end = stringEnd(b, i);
    return end === -1 ? -1 : end + 1;
  }
  if (first === 0x7b || first === 0x5b) {
    let depth = 0;
    for (let j = i; j < b.length; j++) {
      const c = b[j];
      if (c === QUOTE) {
        j = stringEnd(b, j);
        if (j === -1) return -1;
      } else if (c === 0x7b || c === 0x5b) depth++;
      else if (c === 0x7d || c === 0x5d) {
        depth--;
        if (depth === 0) return j + 1;
      }
    }
    return -1;
  }
  let j = i;
  while (j < b.length && b[j] !== 0x2c && b[j] !== 0x7d && b[j] !== 0x5d && b[j] !== 0x20 && b[j] !== 0x09) j++;
  return j;
}

const decoder = new TextDecoder();

function keyOf(b: Uint8Array, start: number, end: number): string | undefined {
  const slice = b.subarray(start, end);
  // A key written with escapes ("p\u0061th") is read as JSON.parse reads it.
  if (!slice.includes(BACKSLASH)) return decoder.decode(slice.subarray(1, -1));
  try {
    return JSON.parse(decoder.decode(slice)) as string;
  } catch {
    return undefined;
  }
}

/**
 * The file a case line edits when it has no `content` (its top-level
 * `path`, read as `JSON.parse` would read it: the last of repeated keys),
 * so that one file's cases go to one worker in input order; `undefined` for
 * a case with `content` (any worker), and for a line that is not a JSON
 * object (its worker reports it).
 */
export function fileOfLine(b: Uint8Array): string | undefined {
  let i = skipSpace(b, 0);
  if (b[i] !== 0x7b) return undefined;
  i = skipSpace(b, i + 1);
  let path: [number, number] | undefined;
  let content = false;
  while (b[i] !== 0x7d) {
    if (b[i] !== QUOTE) return undefined;
    const keyClose = stringEnd(b, i);
    if (keyClose === -1) return undefined;
    const key = keyOf(b, i, keyClose + 1);
    i = skipSpace(b, keyClose + 1);
    if (b[i] !== 0x3a) return undefined;
    const start = skipSpace(b, i + 1);
    const end = valueEnd(b, start);
    if (end === -1 || end === start) return undefined;
    if (key === "path") path = [start, end];
    else if (key === "content") content = true;
    i = skipSpace(b, end);
    if (b[i] === 0x2c) i = skipSpace(b, i + 1);
    else if (b[i] !== 0x7d) return undefined;
  }
  if (content || !path || b[path[0]] !== QUOTE) return undefined;
  try {
    return JSON.parse(decoder.decode(b.subarray(path[0], path[1]))) as string;
  } catch {
    return undefined;
  }
}

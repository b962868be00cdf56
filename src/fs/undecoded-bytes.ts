/**
 * Files that are not valid UTF-8, edited anyway (`allowBinary`): a Latin-1
 * file, a file with a stray byte. Their text reads each byte that is not
 * part of a valid UTF-8 sequence as one U+FFFD, and their layout keeps where
 * those stand (`TextLayout.undecoded`, offsets into the text). U+FFFD is
 * three bytes of UTF-8: encoding the edited text whole rewrote every such
 * byte of the file (`e9` became `ef bf bd`), on lines the edit never touched.
 *
 * So the new bytes are the bytes read, with only the changed ranges encoded:
 * the bytes between the ranges are copied, and inside a range that holds an
 * undecodable byte, the lines the edit kept (a line diff of the range) are
 * copied too. What is written as UTF-8 is only the lines the edit changed.
 */

// Buffer in the declarations: node's types named for consumers on TypeScript 6+ (see read-file.ts).
/// <reference types="node" preserve="true" />

import { EditError } from "../errors.ts";
import { commonPrefixLength, commonSuffixLength, type TextChange } from "../text/common-ends.ts";
import { diffLinesBounded } from "../text/line-diff.ts";

/**
 * Decodes `body` as UTF-8, each byte outside a valid sequence (a stray
 * continuation byte, a truncated or overlong sequence, an encoded surrogate,
 * past U+10FFFF) as one U+FFFD; `undecoded` holds their text offsets. Valid
 * runs are decoded by the engine (`toString`), so only the check is a loop.
 */
export function decodeLossy(body: Buffer): { text: string; undecoded: number[] } {
  const parts: string[] = [];
  const undecoded: number[] = [];
  let length = 0;
  let runStart = 0;
  let i = 0;
  while (i < body.length) {
    const size = validSequence(body, i);
    if (size > 0) {
      i += size;
      continue;
    }
    if (i > runStart) {
      const run = body.toString("utf8", runStart, i);
      parts.push(run);
      length += run.length;
    }
    undecoded.push(length);
    parts.push("\uFFFD");
    length += 1;
    i += 1;
    runStart = i;
  }
  if (runStart < body.length) parts.push(body.toString("utf8", runStart));
  return { text: parts.join(""), undecoded };
}

const isCont = (b: number | undefined) => b !== undefined && (b & 0xc0) === 0x80;

/** Length of the valid UTF-8 sequence at `i`, or 0 (RFC 3629's table of well-formed sequences). */
function validSequence(b: Buffer, i: number): number {
  const c = b[i] as number;
  if (c < 0x80) return 1;
  if (c >= 0xc2 && c <= 0xdf) return isCont(b[i + 1]) ? 2 : 0;
  const c1 = b[i + 1];
  if (c1 === undefined) return 0;
  if (c >= 0xe0 && c <= 0xef) {
    const low = c === 0xe0 ? 0xa0 : 0x80;
    const high = c === 0xed ? 0x9f : 0xbf;
    return c1 >= low && c1 <= high && isCont(b[i + 2]) ? 3 : 0;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    const low = c === 0xf0 ? 0x90 : 0x80;
    const high = c === 0xf4 ? 0x8f : 0xbf;
    return c1 >= low && c1 <= high && isCont(b[i + 2]) && isCont(b[i + 3]) ? 4 : 0;
  }
  return 0;
}

/**
 * The bytes of `text` with `changes` made (sorted ranges of it, apart; or,
 * when the edits did not say, one range found from `newText`), where `text`
 * was decoded from `bytes` by `decodeLossy` (after a BOM of `bomBytes`):
 * every byte outside the lines the edit changed is the byte read.
 */
export function encodeKeepingUndecoded(
  bytes: Buffer,
  bomBytes: number,
  text: string,
  undecoded: readonly number[],
  newText: string,
  changes: readonly TextChange[] | undefined,
  rel: string,
): Buffer {
  const ranges = changes ?? [wholeChange(text, newText)];
  const pieces: Buffer[] = [];
  let u = 0;
  let atText = 0;
  let atByte = bomBytes;
  // Byte offset of text offset `t` (>= atText): UTF-8 length, less two for each U+FFFD that was one byte.
  const byteAt = (t: number): number => {
    let n = Buffer.byteLength(text.slice(atText, t));
    while (u < undecoded.length && (undecoded[u] as number) < t) {
      if ((undecoded[u] as number) >= atText) n -= 2;
      u++;
    }
    atByte += n;
    atText = t;
    return atByte;
  };
  let taken = 0;
  for (const change of ranges) {
    if (change.start < atText) throw new EditError("BINARY", `${rel}: the edits' ranges overlap; refusing to write a file that is not UTF-8 from them.`, { path: rel });
    const head = byteAt(change.start);
    pieces.push(bytes.subarray(taken, head));
    const firstInside = u;
    const tail = byteAt(change.end);
    const holdsUndecoded = u > firstInside;
    pieces.push(holdsUndecoded ? keptLines(bytes.subarray(head, tail), text.slice(change.start, change.end), change.text) : Buffer.from(change.text, "utf8"));
    taken = tail;
  }
  pieces.push(bytes.subarray(taken));
  return Buffer.concat(pieces);
}

/** The one range two texts differ in. */
function wholeChange(text: string, newText: string): TextChange {
  const start = commonPrefixLength(text, newText);
  const suffix = commonSuffixLength(text, newText, Math.min(text.length, newText.length) - start);
  return { start, end: text.length - suffix, text: newText.slice(start, newText.length - suffix) };
}

/**
 * The bytes of `newPart` replacing `oldPart` (whose bytes are `oldBytes`):
 * the lines of `oldPart` that the line diff keeps are copied from
 * `oldBytes`, the others encoded. Lines are split after each `\n`, so a
 * line's bytes end where its text does.
 */
function keptLines(oldBytes: Buffer, oldPart: string, newPart: string): Buffer {
  const oldLines = splitKeepingBreaks(oldPart);
  const lineBytes = splitBytesKeepingBreaks(oldBytes);
  if (lineBytes.length !== oldLines.length) return Buffer.from(newPart, "utf8");
  const out: Buffer[] = [];
  let oldIndex = 0;
  for (const part of diffLinesBounded(oldLines, splitKeepingBreaks(newPart))) {
    const lines = part.value;
    if (part.removed) oldIndex += lines.length;
    else if (part.added) out.push(Buffer.from(lines.join(""), "utf8"));
    else {
      for (let k = 0; k < lines.length; k++) out.push(lineBytes[oldIndex + k] as Buffer);
      oldIndex += lines.length;
    }
  }
  return Buffer.concat(out);
}

function splitKeepingBreaks(text: string): string[] {
  const out: string[] = [];
  let from = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", from)) {
    out.push(text.slice(from, i + 1));
    from = i + 1;
  }
  if (from < text.length) out.push(text.slice(from));
  return out;
}

/** The same split over bytes: a 0x0a byte is a line feed in UTF-8 and in every byte that failed to decode (U+FFFD is never one). */
function splitBytesKeepingBreaks(bytes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let from = 0;
  for (let i = bytes.indexOf(0x0a); i !== -1; i = bytes.indexOf(0x0a, from)) {
    out.push(bytes.subarray(from, i + 1));
    from = i + 1;
  }
  if (from < bytes.length) out.push(bytes.subarray(from));
  return out;
}

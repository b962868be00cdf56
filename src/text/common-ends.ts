/**
 * The common start and end of two texts, found by comparing chunks, not
 * characters: the diff of a file after one edit is about the edit, so the
 * report's diff (create-patch.ts) cuts what both texts share before looking
 * at lines. Comparing two slices is a memory comparison inside the engine:
 * on the 9 MB typescript.js, 1.2 ms to a difference at 90 %, against 350 ms
 * for a charCodeAt loop.
 */

import { countBreaks } from "./count-breaks.ts";

/**
 * What an edit did to a text, as one range: the new text is the text with
 * [start, end) (offsets into it) replaced by `text`. The file layer builds
 * its diff and its bytes from it without reading the whole new text (which
 * would copy the rope the engine returns: ~8 ms on 9 MB).
 */
export interface TextChange {
  start: number;
  end: number;
  text: string;
  /** The line it starts on (0-based), when the engine knew it: a replaceAll edit's places (fs/carried-text.ts). */
  line?: number;
}

/** Chunks start this long and double while they match; a mismatch halves them down to a character loop. */
const FIRST_CHUNK = 1024;
const CHAR_LOOP_BELOW = 32;

/** Length of the longest common prefix of `a` and `b`. */
export function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  let chunk = FIRST_CHUNK;
  while (i < n) {
    const len = Math.min(chunk, n - i);
    if (a.slice(i, i + len) === b.slice(i, i + len)) {
      i += len;
      chunk *= 2;
    } else if (len <= CHAR_LOOP_BELOW) {
      while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
      return i;
    } else {
      chunk = len >> 1;
    }
  }
  return n;
}

/** Length of the longest common suffix of `a` and `b`, at most `max`. */
export function commonSuffixLength(a: string, b: string, max: number): number {
  const n = Math.min(a.length, b.length, max);
  const ea = a.length;
  const eb = b.length;
  let i = 0;
  let chunk = FIRST_CHUNK;
  while (i < n) {
    const len = Math.min(chunk, n - i);
    if (a.slice(ea - i - len, ea - i) === b.slice(eb - i - len, eb - i)) {
      i += len;
      chunk *= 2;
    } else if (len <= CHAR_LOOP_BELOW) {
      while (i < n && a.charCodeAt(ea - i - 1) === b.charCodeAt(eb - i - 1)) i++;
      return i;
    } else {
      chunk = len >> 1;
    }
  }
  return n;
}

/**
 * The part of two texts a line diff has to look at: both cut to whole lines
 * around what differs, with `context` equal lines kept on each side (for the
 * hunks' context). `offset` is the number of lines cut before (the same on
 * both sides: they are equal there). Undefined when the cut could change
 * the diff, which reads `\r\n` and `\n` as one break (raw-unequal lines may
 * be equal lines): a CR where the texts differ or in the line next to that
 * on either side (a line "x\r" there can pair with a cut line "x"), or a text
 * without "\n" (CR-terminated lines); the caller diffs the whole texts then.
 */
export function changedPart(a: string, b: string, context: number): { a: string; b: string; offset: number } | undefined {
  if (!a.includes("\n") || !b.includes("\n")) return undefined;
  const c = cut(a, b, context, false, false);
  if (c === "cr" || c === "edge") return undefined;
  return { a: a.slice(c.from, c.toA), b: b.slice(c.from, c.toB), offset: countBreaks(a, 0, c.from) };
}

/**
 * `changedPart(a, b, context)` where `b` is `a` with [start, end) replaced
 * by `change.text`, read from a window of `a` around the change instead of
 * from `b`: the engine returns `b` as a rope over `a`, and reading it copies
 * all of it (~8 ms on 9 MB). The window grows while the cut reaches one of
 * its borders (a long run of equal lines can carry the common start or end
 * far from the change); at the whole text it is changedPart itself.
 * `breaksBefore(at)`: the "\n" in `a` before `at` (a caller with many
 * changes counts on from the last one: `breakCounter`).
 */
export function changedPartOfChange(
  a: string,
  change: TextChange,
  context: number,
  firstMargin = 4096,
  breaksBefore: (at: number) => number = (at) => countBreaks(a, 0, at),
): { a: string; b: string; offset: number } | undefined {
  const { start, end, text } = change;
  const firstBreak = a.indexOf("\n");
  if (firstBreak === -1) return undefined;
  if (!((firstBreak < start) || text.includes("\n") || a.indexOf("\n", end) !== -1)) return undefined;
  // Characters kept on each side of the change (tests set it small).
  for (let margin = Math.max(1, firstMargin); ; margin *= 4) {
    const around = Math.max(0, start - margin);
    // The window starts at a line start: a cut reaching it there is right.
    const ws = around === 0 ? 0 : a.lastIndexOf("\n", around - 1) + 1;
    const we = Math.min(a.length, end + margin);
    const wa = a.slice(ws, we);
    const wb = a.slice(ws, start) + text + a.slice(end, we);
    const c = cut(wa, wb, context, ws > 0, we < a.length);
    if (c === "edge") continue;
    if (c === "cr") return undefined;
    return { a: wa.slice(c.from, c.toA), b: wb.slice(c.from, c.toB), offset: breaksBefore(ws) + countBreaks(wa, 0, c.from) };
  }
}

/**
 * changedPart's cut of `a` and `b`: from the line `context` lines before the
 * first difference to `context` lines after the last (`toA`, `toB`), or
 * "cr" (see changedPart). `openStart`/`openEnd`: the texts are windows of
 * longer texts, equal before them (their start a line start there) and
 * after; "edge" when the cut would look past one, where the longer texts
 * could differ from the window.
 */
function cut(a: string, b: string, context: number, openStart: boolean, openEnd: boolean): { from: number; toA: number; toB: number } | "cr" | "edge" {
  const prefix = commonPrefixLength(a, b);
  if (openEnd && prefix === Math.min(a.length, b.length)) return "edge";
  // Back to the start of the line the first difference is in.
  const start = prefix === 0 ? 0 : a.lastIndexOf("\n", prefix - 1) + 1;
  // Equal past the window too, with the cap moved as far: the suffix is the longer texts' less what follows.
  const suffix = commonSuffixLength(a, b, Math.min(a.length, b.length) - start);
  let endA = a.length - suffix;
  let endB = b.length - suffix;
  // Forward to the start of a line on both sides (equal text from there on).
  if (!(endA === 0 || a.charCodeAt(endA - 1) === 10) || !(endB === 0 || b.charCodeAt(endB - 1) === 10)) {
    const lf = a.indexOf("\n", endA);
    if (lf === -1 && openEnd) return "edge";
    const step = lf === -1 ? a.length - endA : lf + 1 - endA;
    endA += step;
    endB += step;
  }
  const near = linesBefore(a, start, 1);
  const [nearA, nearB] = linesAfter(a, endA, endB, 1);
  const from = linesBefore(a, start, context);
  const [toA, toB] = linesAfter(a, endA, endB, context);
  if (openStart && (near === 0 || from === 0)) return "edge";
  if (openEnd && (nearA === a.length || toA === a.length)) return "edge";
  if (a.slice(near, nearA).includes("\r") || b.slice(near, nearB).includes("\r")) return "cr";
  return { from, toA, toB };
}

/** The start of the `count`th line before the line starting at `at`. */
function linesBefore(text: string, at: number, count: number): number {
  let from = at;
  for (let k = 0; k < count && from > 0; k++) from = from >= 2 ? text.lastIndexOf("\n", from - 2) + 1 : 0;
  return from;
}

/** The ends of `count` lines from `atA` in `a`, and as far from `atB` in the other text (equal there). */
function linesAfter(a: string, atA: number, atB: number, count: number): [number, number] {
  let toA = atA;
  let toB = atB;
  for (let k = 0; k < count && toA < a.length; k++) {
    const lf = a.indexOf("\n", toA);
    const next = lf === -1 ? a.length : lf + 1;
    toB += next - toA;
    toA = next;
  }
  return [toA, toB];
}

/**
 * The first 100 line numbers at which the texts' lines differ, line by line
 * (not a diff), from the first difference on, and only until the rest of
 * both texts is the same text: no whole-file line arrays.
 */
export function changedLineNumbers(a: string, b: string): number[] {
  const prefix = commonPrefixLength(a, b);
  let pa = prefix === 0 ? 0 : a.lastIndexOf("\n", prefix - 1) + 1;
  let pb = pa;
  const suffix = commonSuffixLength(a, b, Math.min(a.length, b.length) - pa);
  const out: number[] = [];
  // A position past the text's end: its lines are over (split would give no more).
  for (let line = countBreaks(a, 0, pa) + 1; out.length < 100; line++) {
    const doneA = pa > a.length;
    const doneB = pb > b.length;
    if (doneA && doneB) break;
    if (!doneA && !doneB && a.length - pa === b.length - pb && a.length - pa <= suffix) break;
    const ea = doneA ? -1 : a.indexOf("\n", pa);
    const eb = doneB ? -1 : b.indexOf("\n", pb);
    const x = doneA ? undefined : a.slice(pa, ea === -1 ? a.length : ea);
    const y = doneB ? undefined : b.slice(pb, eb === -1 ? b.length : eb);
    if (x !== y) out.push(line);
    pa = doneA || ea === -1 ? a.length + 1 : ea + 1;
    pb = doneB || eb === -1 ? b.length + 1 : eb + 1;
  }
  return out;
}

/**
 * `countBreaks(text, 0, at)` for offsets asked in about ascending order,
 * each counted on from the last one asked (or back to it): a patch of 2,000
 * changes of a 1 MB text counted every change's lines from the top.
 */
export function breakCounter(text: string): (at: number) => number {
  let last = 0;
  let breaks = 0;
  return (at) => {
    breaks += at >= last ? countBreaks(text, last, at) : -countBreaks(text, at, last);
    last = at;
    return breaks;
  };
}

/**
 * The merged file as the original text with its changed lines swapped, not
 * every line joined again: a merge changes a few lines of a large file, and
 * joining a 100k-line file's lines (then scanning both whole texts for their
 * bracket balance) took more time than the merge itself. Used where the file
 * has LF breaks only (then the file is its lines joined, byte for byte); a
 * CRLF or mixed file is joined as before.
 */
import { balanceFrom, restartPoint } from "./balance.ts";

/** Lines the two texts share at their start and at their end (`head + tail` at most the shorter length). */
export interface SharedLines {
  head: number;
  tail: number;
}

export function sharedLines(before: readonly string[], after: readonly string[]): SharedLines {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (tail < before.length - head && tail < after.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail++;
  return { head, tail };
}

export interface Spliced {
  /** The merged file, as joinText would write it. */
  content: string;
  /** The first changed character, the same in both texts (a line's start). */
  start: number;
  /** Where the shared tail starts in the file and in the merged text. */
  endBefore: number;
  endAfter: number;
  /** The merged text between them. */
  middle: string;
}

/**
 * The merged lines written into `content` (LF breaks only, an optional BOM,
 * `lines` its lines) by swapping the changed ones; undefined where that
 * cannot give joinText's bytes (CRLF, nothing left, the file's end cut).
 */
export function spliceText(content: string, lines: readonly string[], bom: boolean, finalNewline: boolean, merged: readonly string[], shared: SharedLines): Spliced | undefined {
  if (content.includes("\r\n") || merged.length === 0) return undefined;
  const { head, tail } = shared;
  const n = lines.length;
  let start = bom ? 1 : 0;
  for (let k = 0; k < head; k++) start += (lines[k] as string).length + 1;
  // Every line kept and more after the last, which has no newline to keep.
  if (start > content.length) return undefined;
  let endBefore = start;
  for (let k = head; k < n - tail; k++) endBefore += (lines[k] as string).length + 1;
  let middle: string;
  if (tail > 0) {
    middle = "";
    for (let k = head; k < merged.length - tail; k++) middle += `${merged[k] as string}\n`;
  } else if (merged.length > head) {
    // No shared tail: the middle runs to the end, with the file's final newline or none.
    middle = merged.slice(head).join("\n") + (finalNewline ? "\n" : "");
    endBefore = content.length;
  } else {
    return undefined;
  }
  const out = content.slice(0, start) + middle + content.slice(endBefore);
  return { content: out, start, endBefore, endAfter: out.length - (content.length - endBefore), middle };
}

/**
 * Whether the splice changes the bracket balance (comments and strings left
 * out), scanning about the changed lines only, on short copies of them: the
 * spliced text is a rope, and reading it character by character made V8
 * flatten it (a 4 MB copy, 35 ms of the 100k-line merge) before anyone
 * needed it. A copy is exact where both scans meet further from its end than
 * any token looks ahead (a quoted run, 210 characters), else it grows.
 */
export function balanceMoved(content: string, spliced: Spliced, hashComments: boolean): boolean {
  const { start, endBefore, endAfter, middle } = spliced;
  const from = restartPoint(content, start, hashComments);
  for (let reach = 4096; ; reach *= 8) {
    const to = Math.min(content.length, endBefore + reach);
    const a = content.slice(from, to);
    const b = content.slice(from, start) + middle + content.slice(endBefore, to);
    const { change, metAt } = balanceFrom(a, b, 0, endBefore - from, endAfter - from, hashComments);
    if (metAt > LOOKAHEAD || to === content.length) return change[0] !== 0 || change[1] !== 0 || change[2] !== 0;
  }
}

// The furthest a token looks past its start without ending there: a quoted run's 210 characters, and one.
const LOOKAHEAD = 211;

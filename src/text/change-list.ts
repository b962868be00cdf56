/**
 * What several edits of one file did to the text read, as a few ranges of
 * it. A response often edits a file two or three times (a SEARCH/REPLACE
 * block each); kept as one range, the report's diff and the bytes written
 * would span everything between the first edit and the last, most of the
 * file. Kept as a list, each is made from the edited ranges alone.
 */

import type { TextChange } from "./common-ends.ts";

/**
 * Most ranges kept: past this the caller takes the whole new text (an edit is
 * merged into the list in time proportional to the list's length, and a call
 * may hold 2,000 edits of one file).
 */
export const MAX_CHANGES = 64;

/**
 * The file layer's bound for the changes of carried blocks (src/fs/carried-text.ts:
 * exact, whole lines, apart), up to 2,000 and more in a response, kept as ranges
 * so that the report's diff is made from them (createPatchOfChanges: ~40 ms warm
 * for 1,995 one-line edits of 1 MB, the whole texts' diff ~160 ms warm, ~450 ms
 * cold) and the bytes written from them.
 */
export const MAX_FILE_CHANGES = 4_096;

/**
 * `changes` (ranges of `old`, sorted and apart: each ends before the next
 * starts) with one more change, `change`, made to the text they give: its
 * offsets are into that text. Returns the list for the text `change` gives,
 * still ranges of `old`, sorted and apart: a change touching or overlapping
 * one of the list is merged with it, and a range left as it was in `old` is
 * dropped. Undefined past `max` ranges.
 */
export function withChange(old: string, changes: readonly TextChange[], change: TextChange, max = MAX_CHANGES): TextChange[] | undefined {
  const { i, k, merged } = mergeAt(old, changes, change);
  const out = changes.slice(0, i);
  if (merged) out.push(merged);
  for (let j = k; j < changes.length; j++) out.push(changes[j] as TextChange);
  return out.length > max ? undefined : out;
}

/** The new text's length less `old`'s, per list that `addChange` keeps: a change after every range is then placed at once. */
const shifts = new WeakMap<TextChange[], number>();

/**
 * `withChange` made in `changes` itself (the list is the caller's alone):
 * false past `max` ranges. The file layer adds up to 2,000 and more edits of
 * a file one by one, mostly in the text's order: copying the list for each
 * (and walking it to find the place) was ~110 ms of CPU for 1,995 one-line
 * blocks of 1 MB; a change after every range is placed from the list's shift
 * kept here, and one among them spliced in.
 */
export function addChange(old: string, changes: TextChange[], change: TextChange, max: number): boolean {
  let shift = shifts.get(changes);
  if (shift === undefined) {
    shift = 0;
    for (const c of changes) shift += c.text.length - (c.end - c.start);
  }
  const last = changes[changes.length - 1];
  if (!last || change.start > last.end + shift) {
    const merged = { start: change.start - shift, end: change.end - shift, text: change.text };
    if (merged.text !== old.slice(merged.start, merged.end)) changes.push(merged);
  } else {
    const { i, k, merged } = mergeAt(old, changes, change);
    if (merged) changes.splice(i, k - i, merged);
    else changes.splice(i, k - i);
  }
  shifts.set(changes, shift + change.text.length - (change.end - change.start));
  return changes.length <= max;
}

/** Where `change` goes in `changes` (see withChange): it replaces ranges [i, k) by `merged`, or by nothing when the text is `old`'s there. */
function mergeAt(old: string, changes: readonly TextChange[], change: TextChange): { i: number; k: number; merged: TextChange | undefined } {
  // The new text's offset less the old one's, past the ranges passed.
  let delta = 0;
  let i = 0;
  for (; i < changes.length; i++) {
    const c = changes[i] as TextChange;
    if (c.start + delta + c.text.length >= change.start) break;
    delta += c.text.length - (c.end - c.start);
  }
  // The ranges `change` touches or overlaps (in the new text), merged with it into one.
  let k = i;
  let after = delta;
  for (; k < changes.length; k++) {
    const c = changes[k] as TextChange;
    if (c.start + after > change.end) break;
    after += c.text.length - (c.end - c.start);
  }
  const first = changes[i];
  const last = changes[k - 1];
  let merged: TextChange;
  if (k === i || !first || !last) {
    merged = { start: change.start - delta, end: change.end - delta, text: change.text };
  } else {
    const firstAt = first.start + delta;
    // The last one's end in the new text: past it the offsets differ by `after`.
    const lastEnd = last.end + after;
    // In the new text, the merged range runs from `from` to `to`; in `old`, from `start` to `end`.
    const from = Math.min(change.start, firstAt);
    const to = Math.max(change.end, lastEnd);
    const start = change.start < firstAt ? change.start - delta : first.start;
    const end = change.end > lastEnd ? change.end - after : last.end;
    // The text the list gives over [from, to): the old text between the merged ranges, their texts.
    const pieces: string[] = [];
    let at = start;
    for (let j = i; j < k; j++) {
      const c = changes[j] as TextChange;
      if (c.start > at) pieces.push(old.slice(at, c.start));
      pieces.push(c.text);
      at = c.end;
    }
    if (end > at) pieces.push(old.slice(at, end));
    const given = pieces.join("");
    merged = { start, end, text: given.slice(0, change.start - from) + change.text + given.slice(change.end - from, to - from) };
  }
  return { i, k, merged: merged.text !== old.slice(merged.start, merged.end) ? merged : undefined };
}

/** `old` with `changes` (sorted and apart) made. */
export function applyChanges(old: string, changes: readonly TextChange[]): string {
  const pieces: string[] = [];
  let at = 0;
  for (const c of changes) {
    pieces.push(old.slice(at, c.start), c.text);
    at = c.end;
  }
  pieces.push(old.slice(at));
  return pieces.join("");
}

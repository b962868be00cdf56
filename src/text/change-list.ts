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
 * `changes` (ranges of `old`, sorted and apart: each ends before the next
 * starts) with one more change, `change`, made to the text they give: its
 * offsets are into that text. Returns the list for the text `change` gives,
 * still ranges of `old`, sorted and apart: a change touching or overlapping
 * one of the list is merged with it, and a range left as it was in `old` is
 * dropped. Undefined past MAX_CHANGES.
 */
export function withChange(old: string, changes: readonly TextChange[], change: TextChange): TextChange[] | undefined {
  // The new text's offset less the old one's, past the ranges passed.
  let delta = 0;
  let i = 0;
  for (; i < changes.length; i++) {
    const c = changes[i] as TextChange;
    if (c.start + delta + c.text.length >= change.start) break;
    delta += c.text.length - (c.end - c.start);
  }
  // The ranges before it, copied at once.
  const out = changes.slice(0, i);
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
  if (merged.text !== old.slice(merged.start, merged.end)) out.push(merged);
  for (let j = k; j < changes.length; j++) out.push(changes[j] as TextChange);
  return out.length > MAX_CHANGES ? undefined : out;
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

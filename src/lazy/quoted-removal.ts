/**
 * A removal note right after a marker (blank lines may stand between them)
 * that quotes the start of a line the marker would keep (`# remove class
 * OrderedSet(...` over the line after that class): the marker ends before
 * that line, and the note removes from it to the snippet's next line of the
 * file. The blank lines between the marker and the note are the file's
 * blank lines just before the quoted line. Without this the marker kept
 * everything up to the next aligned line, the note had nothing left to
 * remove and was written into the file as a comment, the quoted line kept
 * and the blank lines doubled (bench:lazy: 2 wrong merges).
 *
 * Only where the quote names one line among the file lines the marker may
 * keep, near the next aligned line, and the file has as many blank lines
 * before it as the snippet shows: else the note is read as before.
 */
import type { Alignment } from "./align.ts";
import { isBlank } from "./blocks.ts";
import { lineKey } from "./align.ts";
import type { SnippetLine } from "./markers.ts";
import { noteQuote } from "./passed-line-note.ts";

// File lines looked at before the next aligned line for the quoted one: a note removes a few lines, not a file.
const REACH = 200;

/**
 * Aligns the blank lines before each such note with the file's; returns, per
 * marker whose note follows it directly, the file line where it must stop
 * (the quoted line), for the merge's marker limits.
 */
export function placeQuotedRemovals(snip: readonly SnippetLine[], al: Alignment, fileLines: readonly string[]): Map<number, number> {
  const stops = new Map<number, number>();
  for (let r = 0; r < snip.length; r++) {
    const note = snip[r] as SnippetLine;
    if (note.kind !== "removal") continue;
    let m = r - 1;
    while (m >= 0 && (snip[m] as SnippetLine).kind === "code" && isBlank((snip[m] as SnippetLine).text) && (al.fileLine[m] as number) < 0) m--;
    if (m < 0 || (snip[m] as SnippetLine).kind !== "marker") continue;
    const next = alignedFrom(al, r + 1, 1);
    const prev = alignedFrom(al, m - 1, -1);
    if (next === undefined) continue;
    const q = quotedLine(note, fileLines, Math.max(prev === undefined ? 0 : prev + 1, next - REACH), next);
    if (q === undefined) continue;
    const blanks = r - m - 1;
    let b = 0;
    while (b < blanks && q - b - 1 > (prev ?? -1) && isBlank(fileLines[q - b - 1] as string)) b++;
    if (b < blanks) continue;
    for (let k = 0; k < blanks; k++) al.fileLine[m + 1 + k] = q - blanks + k;
    if (blanks === 0) stops.set(m, q);
  }
  return stops;
}

/** The one file line in [from, to) whose text starts with the note's quote; undefined when none or several. */
function quotedLine(note: SnippetLine, fileLines: readonly string[], from: number, to: number): number | undefined {
  const quote = noteQuote(note);
  if (quote === undefined) return undefined;
  let found: number | undefined;
  for (let f = to - 1; f >= from; f--) {
    if (!lineKey(fileLines[f] as string).startsWith(quote)) continue;
    if (found !== undefined) return undefined;
    found = f;
  }
  return found;
}

/** The file line of the nearest aligned snippet line from `s` in direction `dir`. */
function alignedFrom(al: Alignment, s: number, dir: 1 | -1): number | undefined {
  for (let k = s; k >= 0 && k < al.fileLine.length; k += dir) if ((al.fileLine[k] as number) >= 0) return al.fileLine[k] as number;
  return undefined;
}

/**
 * New lines between a marker's blank line and a segment's one line of the
 * file, replacing deeper file lines: refused.
 *
 * A segment that opens (after a marker) with blank lines, then new lines,
 * and whose only non-blank line the file has is its last, merges by
 * deleting every code line between the blank line the merge took and that
 * line. Neither edge tells a place: a blank line after a marker stands
 * between most blocks, and one short line (`return res`) may be another
 * function's twin. Where the lines it would delete lie deeper than the new
 * lines put in their place (the tail of a nested block replaced by code
 * one level out), the merge reshapes code the snippet never showed: the
 * lines meant to change are elsewhere, or the marker keeps them and the new
 * lines go before that line. bench:lazy, sympy-16988: a method's last line
 * rewritten as ten lines ending `return res`, anchored at another method's
 * `return res`, deleted that method's nested block after a blank line;
 * reading the blank line as new inserted the ten lines there instead, also
 * wrong. Refused, naming the new lines, the lines that would go and the
 * file line after them. Where the deleted lines are as deep as the new
 * ones (a line replaced in place, 57 merges right in bench:lazy) it stands.
 */
import { EditError } from "../errors.ts";
import type { Alignment } from "./align.ts";
import { indentWidth, isBlank } from "./blocks.ts";
import type { SnippetLine } from "./markers.ts";
import { quoteLine, type Segment, segmentsOf } from "./merge.ts";

/** Whether file lines (from, to) hold a non-blank line. */
function holdsCode(fileLines: readonly string[], from: number, to: number): boolean {
  for (let g = from + 1; g < to; g++) if (!isBlank(fileLines[g] as string)) return true;
  return false;
}

/** Whether snippet line `s` is the only non-blank line of segment `g` the file has, and its last non-blank line. */
function loneLastAnchor(snip: readonly SnippetLine[], al: Alignment, g: Segment, s: number): boolean {
  for (let k = g.start; k < g.end; k++) {
    if (k === s || isBlank((snip[k] as SnippetLine).text)) continue;
    if (k > s || (al.fileLine[k] as number) >= 0) return false;
  }
  return true;
}

/** The least depth of the non-blank file lines (from, to). */
function deletedDepth(fileLines: readonly string[], from: number, to: number): number {
  let least = Number.POSITIVE_INFINITY;
  for (let q = from + 1; q < to; q++) if (!isBlank(fileLines[q] as string)) least = Math.min(least, indentWidth(fileLines[q] as string));
  return least;
}

/** The least depth of the non-blank snippet lines [from, to), at the file's indentation (shifted as snippet line `to` is to file line `fTo`). */
function newDepth(snip: readonly SnippetLine[], fileLines: readonly string[], from: number, to: number, fTo: number): number {
  const shift = indentWidth(fileLines[fTo] as string) - indentWidth((snip[to] as SnippetLine).text);
  let least = Number.POSITIVE_INFINITY;
  for (let k = from; k < to; k++) if (!isBlank((snip[k] as SnippetLine).text)) least = Math.min(least, indentWidth((snip[k] as SnippetLine).text));
  return least + shift;
}

export function checkBlankBoundDeletion(snip: readonly SnippetLine[], al: Alignment, fileLines: readonly string[]): void {
  for (const g of segmentsOf(snip)) {
    if (g.start === 0 || (snip[g.start - 1] as SnippetLine).kind !== "marker") continue;
    // The segment's leading blank lines, the last of them aligned with a blank file line.
    let b = g.start;
    while (b < g.end && isBlank((snip[b] as SnippetLine).text)) b++;
    if (b === g.start || (al.fileLine[b - 1] as number) < 0) continue;
    const fb = al.fileLine[b - 1] as number;
    // Then new lines (one non-blank at least), then the first line of the file.
    let s = b;
    let fresh = 0;
    while (s < g.end && (al.fileLine[s] as number) < 0) {
      if (!isBlank((snip[s] as SnippetLine).text)) fresh++;
      s++;
    }
    if (fresh === 0 || s >= g.end) continue;
    const fs = al.fileLine[s] as number;
    if (isBlank((snip[s] as SnippetLine).text) || fs <= fb + 1 || !holdsCode(fileLines, fb, fs)) continue;
    if (!loneLastAnchor(snip, al, g, s) || deletedDepth(fileLines, fb, fs) <= newDepth(snip, fileLines, b, s, fs)) continue;
    const first = snip[b] as SnippetLine;
    const blank = snip[b - 1] as SnippetLine;
    const anchor = snip[s] as SnippetLine;
    throw new EditError(
      "AMBIGUOUS",
      `The new lines at snippet line ${first.index + 1} (${quoteLine(first.text)}) follow only the blank line at snippet line ${blank.index + 1} after a marker, and come before snippet line ${anchor.index + 1} (${quoteLine(anchor.text)}), file line ${fs + 1}: they would replace file lines ${fb + 2}-${fs}, nested deeper than they are and bounded by the blank line alone, or be added before file line ${fs + 1} with the marker keeping those lines. Include the unchanged line of the file just before the code you replace, copied exactly, or a "// remove ..." note for lines that go.`,
      { segment: first.index + 1, candidates: [{ startLine: fb + 2, endLine: fs }, { startLine: fs + 1, endLine: fs + 1 }] },
    );
  }
}

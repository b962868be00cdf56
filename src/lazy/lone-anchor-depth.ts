/**
 * A segment placed by one line alone, at another depth: refused.
 *
 * When the only non-blank line of a segment that the file has is found at
 * a depth other than the snippet writes it (shifted unlike the snippet's
 * other found lines, or at all when there are none), that one line tells
 * no place: it reads as well as a new line of the same text at another
 * level (a function's new `return expr` one level deeper than the file's,
 * a new `return prettyForm(...)` where a nested one was) as the file's
 * line with the snippet's indentation off. Taking it re-indents the whole
 * run by its shift, which put a new nested `def` at column 0 (bench:lazy,
 * real sympy edits: every wrong merge of this shape). A segment with two
 * found lines or more shows its shift by their agreement and is left to
 * the merge; so is a lone line of the file's text at the run's outermost
 * depth (the snippet as a whole written at another indentation).
 */
import { EditError } from "../errors.ts";
import type { Alignment } from "./align.ts";
import { indentWidth, isBlank } from "./blocks.ts";
import type { SnippetLine } from "./markers.ts";

interface SegmentRange {
  start: number;
  end: number;
}

/** The shift (file depth minus snippet depth) of snippet line `s`, aligned to a file line. */
function shiftOf(snip: readonly SnippetLine[], al: Alignment, fileLines: readonly string[], s: number): number {
  return indentWidth(fileLines[al.fileLine[s] as number] as string) - indentWidth((snip[s] as SnippetLine).text);
}

/** The found non-blank code lines of snippet lines [a, b). */
function foundLines(snip: readonly SnippetLine[], al: Alignment, a: number, b: number): number[] {
  const out: number[] = [];
  for (let s = a; s < b; s++) {
    const l = snip[s] as SnippetLine;
    if (l.kind === "code" && (al.fileLine[s] as number) >= 0 && !isBlank(l.text)) out.push(s);
  }
  return out;
}

/** The one shift all found lines outside segment `g` agree on (0 with none); undefined when they disagree. */
function otherShift(snip: readonly SnippetLine[], al: Alignment, fileLines: readonly string[], g: SegmentRange): number | undefined {
  const others = [...foundLines(snip, al, 0, g.start), ...foundLines(snip, al, g.end, snip.length)];
  const shifts = new Set(others.map((s) => shiftOf(snip, al, fileLines, s)));
  if (shifts.size > 1) return undefined;
  return shifts.size === 1 ? ([...shifts][0] as number) : 0;
}

/** The least depth of the non-blank code lines of snippet lines [start, end). */
function outermost(snip: readonly SnippetLine[], g: SegmentRange): number {
  let least = Number.POSITIVE_INFINITY;
  for (let k = g.start; k < g.end; k++) {
    const l = snip[k] as SnippetLine;
    if (l.kind === "code" && !isBlank(l.text)) least = Math.min(least, indentWidth(l.text));
  }
  return least;
}

/** Throws when a segment with new lines is placed by a single found line whose depth disagrees with the snippet's. */
export function checkLoneAnchorDepth(snip: readonly SnippetLine[], al: Alignment, fileLines: readonly string[], segs: readonly SegmentRange[]): void {
  for (const g of segs) {
    const found = foundLines(snip, al, g.start, g.end);
    if (found.length !== 1) continue;
    const s = found[0] as number;
    // The found line may itself be the change (aligned by similarity): then it is all the segment has.
    let added = al.similar[s] === 1;
    for (let k = g.start; k < g.end && !added; k++) added = (al.fileLine[k] as number) < 0 && !isBlank((snip[k] as SnippetLine).text);
    if (!added) continue;
    const shift = shiftOf(snip, al, fileLines, s);
    const ref = otherShift(snip, al, fileLines, g);
    if (ref === undefined || shift === ref) continue;
    // A line of the file's text at the run's outermost depth may be the whole snippet written at
    // another indentation (a method's lines sent from column 0); nested in new code, it is the new
    // code's own line. A changed line (similar only) places nothing at another depth either way.
    if (al.similar[s] !== 1 && indentWidth((snip[s] as SnippetLine).text) <= outermost(snip, g)) continue;
    const f = al.fileLine[s] as number;
    const text = (snip[s] as SnippetLine).text.trim();
    throw new EditError(
      "AMBIGUOUS",
      `Snippet line ${s + 1} ("${text.length > 70 ? `${text.slice(0, 67)}...` : text}") is the only line that places the lines around it, ${al.similar[s] === 1 ? "read as file line" : "found at file line"} ${f + 1}, but that line is indented ${shift > ref ? "deeper" : "less deep"} by ${Math.abs(shift - ref)} than the snippet writes it: it may be another line, new at this depth. Include more unchanged lines of the file around the change, at the file's indentation.`,
      { segment: s + 1, candidates: [{ startLine: f + 1, endLine: f + 1 }] },
    );
  }
}

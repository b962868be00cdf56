/**
 * Which shift (file depth minus snippet depth) a run of code between
 * markers takes when its lines of the file stand at different shifts: some
 * lines are aligned with the wrong places (an `else:` of another block), or
 * the change re-indented them (a block wrapped in a new `if`, or an `if`
 * taken away around its body). The run is written at the snippet's depths
 * moved by one shift, so only a shift the snippet shows for certain is
 * taken; otherwise the merge refuses (merge.ts refuseMixedShifts).
 *
 * Ends copied: the run's first and last lines of the file stand in the
 * snippet at the file's own depth (shift 0). The model wrote the run at the
 * file's depth, and the run replaces the file's lines from its first to its
 * last whatever its lines between were aligned with: lines between at
 * other depths are re-indented by the change (bench:lazy: 248 more
 * positives merged right, no wrong merge more). Ends at another shift
 * (`if a:` copied 2 shallower, its body at the file's depth) are a copy
 * re-indented by hand, and which part is right is a guess.
 *
 * Header copied: the run's first line of the file is copied at the file's
 * depth, no line of the file in the run is shallower, and it is not a line
 * every block has (`else:`, `return x`): the run is that header's code, and
 * the lines under it at other depths, its last included, were wrapped into
 * or taken out of a block by the change (bench:lazy: 14 more of the runs
 * refused for mixed shifts merged right, no wrong merge more).
 */
import { type Alignment, isTrivial, lineKey } from "./align.ts";
import { isBlank } from "./blocks.ts";
import type { SnippetLine } from "./markers.ts";

interface Segment {
  start: number;
  end: number;
}

interface Shifted {
  /** Snippet line. */
  s: number;
  shift: number;
}

/** The run's aligned non-blank lines, each with its shift. */
function alignedShifts(snip: readonly SnippetLine[], al: Alignment, fileLines: readonly string[], seg: Segment): Shifted[] {
  const out: Shifted[] = [];
  for (let s = seg.start; s < seg.end; s++) {
    const f = al.fileLine[s] as number;
    const line = snip[s] as SnippetLine;
    if (f < 0 || isBlank(line.text)) continue;
    const fl = fileLines[f] as string;
    out.push({ s, shift: fl.length - fl.trimStart().length - line.indent.length });
  }
  return out;
}

/** The shift a run with lines at several shifts takes, or undefined when the snippet does not show it for certain. */
export function settledShift(snip: readonly SnippetLine[], al: Alignment, fileLines: readonly string[], seg: Segment): number | undefined {
  const lines = alignedShifts(snip, al, fileLines, seg);
  const first = lines[0];
  const last = lines[lines.length - 1];
  if (!first || !last) return undefined;
  if (first.shift === 0 && last.shift === 0) return 0;
  if (first.shift === 0 && isHeader(snip, lines, first)) return 0;
  return undefined;
}

/**
 * Whether the run's first line of the file is its header: no line of the
 * file in the run is shallower in the snippet, those as deep stand at its
 * shift, and it is not a line found everywhere (`else:`, `return x`, `}`),
 * which may be another block's.
 */
function isHeader(snip: readonly SnippetLine[], lines: readonly Shifted[], first: Shifted): boolean {
  const line = snip[first.s] as SnippetLine;
  if (isTrivial(lineKey(line.text))) return false;
  const depth = line.indent.length;
  for (const l of lines) {
    const d = (snip[l.s] as SnippetLine).indent.length;
    if (d < depth || (d === depth && l.shift !== first.shift)) return false;
  }
  return true;
}

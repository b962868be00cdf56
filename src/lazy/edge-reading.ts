/**
 * The line next to a marker tells where the marker ends. When the merge
 * refuses because such a line is a line of the file that the alignment left
 * unplaced (verify.ts checkMarkerEdges: the segment was anchored by other
 * lines, often new code repeating lines the file has elsewhere), the snippet
 * is read again from that edge: for each place the file has the line, the
 * snippet's aligned lines that cannot stand with it there are banned as
 * anchors (before it in the snippet and after it in the file, or the
 * reverse, or so far from it that the lines between would be a deletion no
 * marker covers), and the snippet is aligned and merged again (those lines
 * banned in every other reading kept-copies.ts weighs, and `...` lines told
 * again), with every check the merge makes, the syntax check too. A reading
 * counts for that place only when it puts the edge line there. Taken when
 * exactly one place gives a merge that passes them all; the refusal stands
 * otherwise.
 *
 * Rule: the lines right next to a marker are the context a model copies to
 * say where the marker ends, so a reading that places them beats one that
 * takes them for new code (bench:lazy: `if (p - 1) % n == 0:` after a
 * marker, then new lines copying lines the file has just above it, aligned
 * with those and leaving the context unplaced; a change to the second of two
 * twin blocks whose first already reads so). 98 refusals became right
 * merges, none wrong; without putting the edge line at its place, 2 wrong
 * (a `return x` written again before the file's own, placed by other lines);
 * without telling `...` lines again, 1 (a `...` marker written as code: its
 * `if x:` above was new in the refused reading only).
 */
import { EditError } from "../errors.ts";
import { type Alignment, alignSnippet, lineKey } from "./align.ts";
import { isBlank } from "./blocks.ts";
import { preferReading } from "./kept-copies.ts";
import type { SnippetLine } from "./markers.ts";
import { MAX_UNMARKED_DELETION } from "./merge.ts";

/** At most this many places of the edge line are tried: a line the file has more often (`return x`, `}`) tells no place. */
const MAX_PLACES = 8;

/** Whether an error is checkMarkerEdges' refusal (a line next to a marker is the file's but unplaced); its snippet line, 0-based. */
export function markerEdgeLine(error: unknown): number | undefined {
  if (!(error instanceof EditError) || error.code !== "AMBIGUOUS" || !/fits none of them between the code around it/.test(error.message)) return undefined;
  const segment = error.detail.segment;
  return typeof segment === "number" ? segment - 1 : undefined;
}

/** Whether a marker or removal note stands between snippet lines `a` and `b`. */
function markerBetween(snip: readonly SnippetLine[], a: number, b: number): boolean {
  for (let k = Math.min(a, b) + 1; k < Math.max(a, b); k++) if ((snip[k] as SnippetLine).kind !== "code") return true;
  return false;
}

/** The aligned lines of `al` that cannot stand with snippet line `s` at file line `p` (see the header). */
export function linesAgainstPlace(snip: readonly SnippetLine[], al: Alignment, s: number, p: number): Set<number> {
  const banned = new Set<number>();
  for (let k = 0; k < snip.length; k++) {
    const f = al.fileLine[k] as number;
    if (k === s || f < 0 || isBlank((snip[k] as SnippetLine).text)) continue;
    const crossed = f === p || (k - s) * (f - p) < 0;
    const tooFar = !markerBetween(snip, k, s) && Math.abs(f - p) - Math.abs(k - s) > MAX_UNMARKED_DELETION;
    if (crossed || tooFar) banned.add(k);
  }
  return banned;
}

/**
 * The merge read again from the edge line `s` (see the header): `merge`
 * aligns with the given lines banned and runs every check, throwing an
 * EditError on refusal, and returns its alignment (`fileLine`) with the
 * result; `key` tells two merges apart. The one merge, or
 * undefined when none or several places give one.
 */
export function readFromEdge<R>(snip: readonly SnippetLine[], fileKeys: readonly string[], fileLines: readonly string[], places: ReadonlyMap<string, readonly number[]>, s: number, merge: (banned: ReadonlySet<number>) => { fileLine: Int32Array; result: R }, key: (r: R) => string): R | undefined {
  const line = snip[s];
  const at = line && line.kind === "code" ? places.get(lineKey(line.text)) : undefined;
  if (!at || at.length > MAX_PLACES) return undefined;
  const al = preferReading(snip, alignSnippet(snip, fileKeys, fileLines), fileKeys, fileLines);
  const found = new Map<string, R>();
  for (const p of at) {
    const banned = linesAgainstPlace(snip, al, s, p);
    // Nothing stands against that place: the reading is the one refused.
    if (banned.size === 0) continue;
    try {
      const { fileLine, result: r } = merge(banned);
      // A reading that places the edge line elsewhere, or not at all, is not this place's.
      if (fileLine[s] !== p) continue;
      found.set(key(r), r);
    } catch (error) {
      if (!(error instanceof EditError)) throw error;
    }
    if (found.size > 1) return undefined;
  }
  if (found.size !== 1) return undefined;
  return found.values().next().value as R;
}

/**
 * BlankLines (fuzzpatch): equal after trimming once blank lines are ignored.
 * Models drop a blank line between two statements or add one; the lines
 * that carry code must still all be there, in order, with nothing else
 * between them.
 */
import { maxOf, minOf } from "../arrays.ts";
import { isBlank } from "../text/normalize.ts";
import { lineCandidate, linesTrimmedEqual, longestLineIndex, MAX_VERIFIED_LINES } from "./anchors.ts";
import type { Candidate, MatchContext, Query, Strategy } from "./types.ts";

/**
 * Aligns the query around file line `at` (where query line `anchor` is), or
 * null when the lines that carry code differ. A blank query line takes a
 * blank file line when one is there (so deleting it deletes the file's);
 * otherwise it is the model's extra blank line (-1). Blank file lines where
 * the query has code are the file's extra blank lines (left unaligned).
 */
function alignAround(ctx: MatchContext, q: Query, anchor: number, at: number, work: { lines: number }): number[] | null {
  const { doc } = ctx;
  const alignment = new Array<number>(q.lines.length).fill(-1);
  alignment[anchor] = at;
  // Every file line looked at counts (runs of blank lines included).
  const inFile = (f: number) => {
    work.lines++;
    return doc.hasLine(f);
  };
  for (const dir of [-1, 1]) {
    let f = at + dir;
    for (let j = anchor + dir; j >= 0 && j < q.lines.length; j += dir) {
      if (isBlank(q.lines[j] ?? "")) {
        if (inFile(f) && isBlank(doc.line(f))) {
          alignment[j] = f;
          f += dir;
        }
        continue;
      }
      while (inFile(f) && isBlank(doc.line(f))) f += dir;
      if (!inFile(f) || doc.line(f).trim() !== q.trimmed[j]) return null;
      alignment[j] = f;
      f += dir;
    }
  }
  return alignment;
}

export const blankLines: Strategy = {
  name: "blank-lines",
  exact: true,
  find(ctx, q) {
    const anchor = longestLineIndex(q);
    if (anchor === -1) return [];
    const out: Candidate[] = [];
    // The same cap as the window checks: in `}` and blank lines repeated, every `}` is a place to align around.
    const work = { lines: 0 };
    const hits = linesTrimmedEqual(ctx, q.trimmed[anchor] ?? "");
    for (let h = 0; h < hits.length; h++) {
      ctx.tick();
      if (work.lines > MAX_VERIFIED_LINES) {
        ctx.noteCap(q, { what: "windows", examined: h, total: hits.length });
        // Two places seen are an ambiguity whatever the rest holds; one is not a safe answer.
        return out.length > 1 ? out : [];
      }
      const at = hits[h] as number;
      const alignment = alignAround(ctx, q, anchor, at, work);
      if (!alignment) continue;
      const used = alignment.filter((l) => l >= 0);
      const first = minOf(used);
      const last = maxOf(used);
      // Same shape as the query: line-trimmed would have found it.
      if (last - first + 1 === q.lines.length && alignment.every((l, j) => l === first + j)) continue;
      out.push(lineCandidate(ctx, q, first, last - first + 1, "blank-lines", 0.99, { alignment }));
    }
    return out;
  },
};

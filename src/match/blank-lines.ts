/**
 * BlankLines (fuzzpatch): equal after trimming once blank lines are ignored.
 * Models drop a blank line between two statements or add one; the lines
 * that carry code must still all be there, in order, with nothing else
 * between them.
 */
import { isBlank } from "../text/normalize.ts";
import { lineCandidate, linesTrimmedEqual, longestLineIndex } from "./anchors.ts";
import type { Candidate, MatchContext, Query, Strategy } from "./types.ts";

/** Aligns the query's non-blank lines around file line `at` (where query line `anchor` is); null when they differ. */
function alignAround(ctx: MatchContext, q: Query, anchor: number, at: number): number[] | null {
  const { doc } = ctx;
  const alignment = new Array<number>(q.lines.length).fill(-1);
  alignment[anchor] = at;
  // Walk backwards then forwards, skipping blank lines on both sides.
  for (const dir of [-1, 1]) {
    let f = at + dir;
    for (let j = anchor + dir; j >= 0 && j < q.lines.length; j += dir) {
      if (isBlank(q.lines[j] ?? "")) continue;
      while (f >= 0 && f < doc.lineCount && isBlank(doc.line(f))) f += dir;
      if (f < 0 || f >= doc.lineCount || doc.line(f).trim() !== q.trimmed[j]) return null;
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
    for (const at of linesTrimmedEqual(ctx, q.trimmed[anchor] ?? "")) {
      const alignment = alignAround(ctx, q, anchor, at);
      if (!alignment) continue;
      const used = alignment.filter((l) => l >= 0);
      const first = Math.min(...used);
      const last = Math.max(...used);
      // Same shape as the query: line-trimmed would have found it.
      if (last - first + 1 === q.lines.length && alignment.every((l, j) => l === first + j)) continue;
      out.push(lineCandidate(ctx, q, first, last - first + 1, "blank-lines", 0.99, { alignment }));
    }
    return out;
  },
};

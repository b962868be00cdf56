/**
 * 2. LineTrimmed: every line equal after trimming. The model got the code
 * right and the indentation wrong (the most common near miss).
 */
import { lineCandidate, linesTrimmedEqual, longestLineIndex, noLineWiseWindow, trimLine, verifyWindows } from "./anchors.ts";
import type { Candidate, MatchContext, Query, Strategy } from "./types.ts";

/** Start lines of windows whose lines equal the query's after trimming. */
export function trimmedWindows(ctx: MatchContext, q: Query): number[] {
  const anchor = longestLineIndex(q);
  if (anchor === -1) return [];
  const hits = linesTrimmedEqual(ctx, q.trimmed[anchor] ?? "");
  return verifyWindows(ctx, q, anchor, hits, { of: trimLine, keys: q.trimmed });
}

export const lineTrimmed: Strategy = {
  name: "line-trimmed",
  exact: true,
  find(ctx, q): Candidate[] {
    if (noLineWiseWindow(ctx, q)) return [];
    return trimmedWindows(ctx, q).map((s) => lineCandidate(ctx, q, s, q.lines.length, "line-trimmed", 1));
  },
};

/**
 * 7. TrimmedBoundary: the find text with blank space added or lost at its
 * ends (a stray leading newline, trailing spaces after the last line).
 */
import { innerLineNowhere, lineCandidate, linesTrimmedEqual, longestLineIndex, rangeCandidate, verifyWindows } from "./anchors.ts";
import { createQuery } from "./query.ts";
import type { Candidate, Strategy } from "./types.ts";

export const trimmedBoundary: Strategy = {
  name: "trimmed-boundary",
  exact: true,
  find(ctx, q) {
    const t = createQuery(q.text.trim());
    if (t.text === q.text || t.text === "") return [];
    // A call with many edits asks its line index first: 2,000 failing blocks scanned the file for each one's longest line.
    if (innerLineNowhere(ctx, t.lines)) return [];
    // Every window below contains the longest trimmed line; skip when it is nowhere (memoised search).
    const anchor = longestLineIndex(t);
    if (anchor === -1 || ctx.occurrences(t.trimmed[anchor] ?? "").length === 0) return [];
    const direct: Candidate[] = ctx
      .occurrences(t.text)
      .map((at) => rangeCandidate(ctx, t, at, at + t.text.length, "trimmed-boundary", 1, { rewrite: "trim-boundary" }));
    if (direct.length > 0) return direct;
    const n = t.lines.length;
    const hits = linesTrimmedEqual(ctx, t.trimmed[anchor] ?? "");
    return verifyWindows(ctx, t, anchor, hits, "any")
      .filter((s) => ctx.doc.lines(s, s + n).join("\n").trim() === t.text)
      .map((s) => lineCandidate(ctx, t, s, n, "trimmed-boundary", 1, { rewrite: "trim-boundary" }));
  },
};

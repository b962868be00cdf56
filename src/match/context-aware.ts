/**
 * 8. ContextAware: first and last lines as anchors, the same line count, and
 * at least half of the non-empty middle lines equal after trimming (a block
 * with no non-empty middle line passes). The default preset also asks for a
 * minimum similarity of the whole block.
 */
import { blockSimilarity } from "../text/similarity.ts";
import { boundaryLines, lineCandidate, linesTrimmedEqual, MAX_SCORED_PAIRS, MAX_VERIFIED_LINES } from "./anchors.ts";
import { selectScored } from "./select.ts";
import type { Candidate, Strategy } from "./types.ts";

export const contextAware: Strategy = {
  name: "context-aware",
  exact: false,
  find(ctx, q) {
    const anchors = boundaryLines(q);
    if (!anchors) return [];
    const { first, last } = anchors;
    const n = q.lines.length;
    const o = ctx.options;
    const cands: Candidate[] = [];
    // The same caps as the other anchor searches: windows compared line by
    // line, and blocks scored by edit distance (`}` … `}` in 200k lines of `}`).
    let compared = 0;
    let scored = 0;
    const hits = linesTrimmedEqual(ctx, first);
    for (let h = 0; h < hits.length; h++) {
      ctx.tick();
      const i = hits[h] as number;
      const j = i + n - 1;
      if (!ctx.doc.hasLine(j) || ctx.doc.line(j).trim() !== last) continue;
      compared += n;
      if (compared > MAX_VERIFIED_LINES || scored >= MAX_SCORED_PAIRS) {
        ctx.noteCap(q, { what: "context-aware", examined: h, total: hits.length });
        // Unexamined windows may hold a better block: one winner is not a safe answer.
        const seen = o.contextAwareSimilarity === 0 ? cands : selectScored(cands, o.contextAwareSimilarity, o.contextAwareSimilarity, o.ambiguityMargin);
        return seen.length > 1 ? seen : [];
      }
      // The middle compared line by line before the block is built: a `}` … `}` window in a file where
      // `}` is every other line passes the anchors 7,000 times a block and fails here.
      let total = 0;
      let equal = 0;
      for (let k = 1; k < n - 1; k++) {
        const a = ctx.doc.line(i + k).trim();
        const b = q.trimmed[k] ?? "";
        if (a === "" && b === "") continue;
        total++;
        if (a === b) equal++;
      }
      if (total > 0 && equal / total < o.contextAwareRatio) continue;
      if (o.contextAwareSimilarity > 0) scored++;
      const score = o.contextAwareSimilarity > 0 ? blockSimilarity(ctx.doc.lines(i, j + 1), q.lines) : total === 0 ? 1 : equal / total;
      if (score < o.contextAwareSimilarity) continue;
      cands.push(lineCandidate(ctx, q, i, n, "context-aware", score));
    }
    if (o.contextAwareSimilarity === 0) return cands;
    return selectScored(cands, o.contextAwareSimilarity, o.contextAwareSimilarity, o.ambiguityMargin);
  },
};

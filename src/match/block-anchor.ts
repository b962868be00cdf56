/**
 * 3. BlockAnchor: first and last lines equal after trimming (at least three
 * lines), the middle scored by similarity. The model misremembered a token
 * inside the block, or the file changed there since it was read.
 *
 * The OpenCode preset keeps the specified behaviour: middle lines compared
 * position by position, any similarity accepted for a lone candidate (0.0),
 * 0.3 among several. The default preset compares the middle as one text
 * (robust to an inserted or dropped line), limits how far the block size may
 * differ, and demands real resemblance, so `try {` … `}` around other code
 * is refused.
 */
import { blockSimilarity, positionalMiddleSimilarity, similarityBound } from "../text/similarity.ts";
import { lineCandidate, linesTrimmedEqual } from "./anchors.ts";
import { selectScored } from "./select.ts";
import type { Candidate, Strategy } from "./types.ts";

/** Smallest element of ascending `sorted` that is >= `min`, or undefined. */
function firstAtLeast(sorted: readonly number[], min: number): number | undefined {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] ?? 0) < min) lo = mid + 1;
    else hi = mid;
  }
  return sorted[lo];
}

export const blockAnchor: Strategy = {
  name: "block-anchor",
  exact: false,
  find(ctx, q) {
    const n = q.lines.length;
    const first = q.trimmed[0] ?? "";
    const last = q.trimmed[n - 1] ?? "";
    if (n < 3 || first === "" || last === "") return [];
    const o = ctx.options;
    const positional = o.blockAnchorSizeSlack === Number.POSITIVE_INFINITY;
    const slack = positional ? Number.POSITIVE_INFINITY : Math.max(1, Math.round(n * o.blockAnchorSizeSlack));
    const lastHits = linesTrimmedEqual(ctx, last);
    if (lastHits.length === 0) return [];
    const findMiddle = q.trimmed.slice(1, -1).join("\n");
    const floor = Math.min(o.blockAnchorSingleThreshold, o.blockAnchorMultipleThreshold);
    const cands: Candidate[] = [];
    for (const i of linesTrimmedEqual(ctx, first)) {
      const j = firstAtLeast(lastHits, i + 2);
      if (j === undefined) break;
      const size = j - i + 1;
      if (Math.abs(size - n) > slack) continue;
      const block = ctx.doc.lines(i, j + 1);
      let score: number;
      if (positional) {
        score = positionalMiddleSimilarity(block, q.lines);
      } else {
        const middle = block.slice(1, -1).map((l) => l.trim());
        if (similarityBound(middle.join("\n").length, findMiddle.length) < floor) continue;
        score = blockSimilarity(middle, q.trimmed.slice(1, -1));
      }
      cands.push(lineCandidate(ctx, q, i, size, "block-anchor", score));
    }
    return selectScored(cands, o.blockAnchorSingleThreshold, o.blockAnchorMultipleThreshold, o.ambiguityMargin);
  },
};

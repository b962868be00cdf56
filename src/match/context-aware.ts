/**
 * 8. ContextAware: first and last lines as anchors, the same line count, and
 * at least half of the non-empty middle lines equal after trimming (a block
 * with no non-empty middle line passes). The default preset also asks for a
 * minimum similarity of the whole block.
 */
import { blockSimilarity } from "../text/similarity.ts";
import { boundaryLines, lineCandidate, linesTrimmedEqual } from "./anchors.ts";
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
    for (const i of linesTrimmedEqual(ctx, first)) {
      const j = i + n - 1;
      if (j >= ctx.doc.lineCount || ctx.doc.line(j).trim() !== last) continue;
      const block = ctx.doc.lines(i, j + 1);
      let total = 0;
      let equal = 0;
      for (let k = 1; k < n - 1; k++) {
        const a = (block[k] ?? "").trim();
        const b = q.trimmed[k] ?? "";
        if (a === "" && b === "") continue;
        total++;
        if (a === b) equal++;
      }
      if (total > 0 && equal / total < o.contextAwareRatio) continue;
      const score = o.contextAwareSimilarity > 0 ? blockSimilarity(block, q.lines) : total === 0 ? 1 : equal / total;
      if (score < o.contextAwareSimilarity) continue;
      cands.push(lineCandidate(ctx, q, i, n, "context-aware", score));
    }
    if (o.contextAwareSimilarity === 0) return cands;
    return selectScored(cands, o.contextAwareSimilarity, o.contextAwareSimilarity, o.ambiguityMargin);
  },
};

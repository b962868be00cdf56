/**
 * 3. BlockAnchor: first and last lines equal after trimming (at least three
 * lines), the middle scored by similarity. The model misremembered a token
 * inside the block, or the file changed there since it was read.
 *
 * The OpenCode preset keeps the specified behaviour: the nearest last line,
 * middle lines compared position by position, any similarity accepted for a
 * lone candidate (0.0), 0.3 among several. The default preset compares the
 * middle as one text (robust to an inserted or dropped line), weighs every
 * last line within a size slack, and demands real resemblance, so `try {` …
 * `}` around other code is refused.
 */
import { firstAtLeast, lastAtMost } from "../arrays.ts";
import { blockSimilarity, positionalMiddleSimilarity, similarityBound } from "../text/similarity.ts";
import { boundaryLines, lineCandidate, lineTrimmedIs, linesTrimmedEqual, MAX_SCORED_PAIRS, MAX_VERIFIED_LINES } from "./anchors.ts";
import { selectScored } from "./select.ts";
import type { Candidate, MatchContext, Strategy } from "./types.ts";

/** Lines checked in place before a scan of the whole file for the last line is cheaper. */
const MAX_CHECKED_IN_PLACE = 20_000;

/**
 * The lines equal (trimmed) to `last` that some first line can pair with: a
 * few first lines within the size slack are checked in place, which saves a
 * scan of the file (~1.5 ms on typescript.js, 9 MB); otherwise the scan.
 */
function lastLinesNear(ctx: MatchContext, firstHits: readonly number[], last: string, n: number, slack: number): readonly number[] {
  const reach = 2 * slack + 1;
  if (!Number.isFinite(reach) || firstHits.length * reach > MAX_CHECKED_IN_PLACE) return linesTrimmedEqual(ctx, last);
  const out: number[] = [];
  let next = 0;
  for (const i of firstHits) {
    const from = Math.max(next, i + 2, i + n - 1 - slack);
    const to = i + n - 1 + slack;
    for (let j = from; j <= to && ctx.doc.hasLine(j); j++) if (lineTrimmedIs(ctx, j, last)) out.push(j);
    next = Math.max(next, to + 1);
  }
  return out;
}

export const blockAnchor: Strategy = {
  name: "block-anchor",
  exact: false,
  find(ctx, q) {
    const anchors = boundaryLines(q);
    if (!anchors) return [];
    const { first, last } = anchors;
    const n = q.lines.length;
    const o = ctx.options;
    const positional = o.blockAnchorSizeSlack === Number.POSITIVE_INFINITY;
    const slack = positional ? Number.POSITIVE_INFINITY : Math.max(1, Math.round(n * o.blockAnchorSizeSlack));
    const firstHits = linesTrimmedEqual(ctx, first);
    const lastHits = lastLinesNear(ctx, firstHits, last, n, slack);
    if (lastHits.length === 0) return [];
    const findMiddle = q.trimmed.slice(1, -1).join("\n");
    const floor = Math.min(o.blockAnchorSingleThreshold, o.blockAnchorMultipleThreshold);
    // The last lines each first line may pair with, as an index range into
    // lastHits. Counted before any scoring, by binary search (no pair is built),
    // so the cap is known up front.
    const ranges: [number, number, number][] = [];
    let total = 0;
    for (const i of firstHits) {
      const from = firstAtLeast(lastHits, positional ? i + 2 : Math.max(i + 2, i + n - 1 - slack));
      if (from === lastHits.length) break;
      const to = positional ? from : lastAtMost(lastHits, i + n - 1 + slack);
      if (to < from) continue;
      ranges.push([i, from, to]);
      total += to - from + 1;
    }
    let budget = MAX_SCORED_PAIRS;
    // Lines read to score blocks, under the window checks' cap: 300 pairs of a
    // 32k-line find text read 9.6M lines (a file of `{` lines: ~1 s).
    let lines = MAX_VERIFIED_LINES;
    const cands: Candidate[] = [];
    for (const [i, from, to] of ranges) {
      if (budget <= 0 || lines <= 0) break;
      // OpenCode takes the nearest last line. The default preset weighs every
      // last line within the size slack: the nearest `}` is often not the one.
      let best: Candidate | undefined;
      for (let k = from; k <= to && budget > 0; k++) {
        const j = lastHits[k] as number;
        const size = j - i + 1;
        // Scoring a pair is an edit distance over the block: it weighs as many steps as a few window checks.
        ctx.tick(32);
        budget--;
        lines -= size;
        if (lines < 0) break;
        const block = ctx.doc.lines(i, j + 1);
        let score: number;
        if (positional) {
          score = positionalMiddleSimilarity(block, q.lines);
        } else {
          const middle = block.slice(1, -1).map((l) => l.trim());
          if (similarityBound(middle.join("\n").length, findMiddle.length) < floor) continue;
          score = blockSimilarity(middle, q.trimmed.slice(1, -1));
        }
        // Equal scores: the size closest to the find text's.
        if (!best || score > best.score || (score === best.score && Math.abs(size - n) < Math.abs(best.endLine - best.startLine - n))) {
          best = lineCandidate(ctx, q, i, size, "block-anchor", score);
        }
      }
      if (best) cands.push(best);
    }
    const chosen = selectScored(cands, o.blockAnchorSingleThreshold, o.blockAnchorMultipleThreshold, o.ambiguityMargin);
    if (total <= MAX_SCORED_PAIRS && lines >= 0) return chosen;
    ctx.noteCap(q, { what: "block-anchor", examined: MAX_SCORED_PAIRS - budget, total });
    // Unscored pairs may hold a better block: one winner is not a safe answer.
    return chosen.length > 1 ? chosen : [];
  },
};

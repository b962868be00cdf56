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
import { blockSimilarity, positionalMiddleSimilarity, similarityBound } from "../text/similarity.ts";
import { boundaryLines, lineCandidate, lineTrimmedIs, linesTrimmedEqual, MAX_SCORED_PAIRS, MAX_VERIFIED_LINES } from "./anchors.ts";
import { selectScored } from "./select.ts";
import type { Candidate, MatchContext, Query, Strategy } from "./types.ts";

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
    for (let j = from; j <= to && ctx.doc.hasLine(j); j++) {
      // Each line checked is a place examined, counted (nothing keeps it for the next search).
      ctx.tick();
      if (lineTrimmedIs(ctx, j, last)) out.push(j);
    }
    next = Math.max(next, to + 1);
  }
  return out;
}

/** Middle lines kept per context (a few MB at most), and the longest block kept (lines). */
const MAX_KEPT_LINES = 100_000;
const MAX_KEPT_SIZE = 64;

/**
 * A block's middle lines, trimmed, and their joined length. Blocks anchored on
 * common lines (`}` … `}`) are the same pairs for every find text of a size:
 * 2,000 such blocks sliced, trimmed and joined the same 300 blocks each, most
 * of their time in allocation; short blocks are kept per context.
 */
const middles = new WeakMap<MatchContext, { blocks: Map<number, { lines: string[]; length: number }>; lines: number }>();

function middleOf(ctx: MatchContext, i: number, j: number): { lines: string[]; length: number } {
  const size = j - i + 1;
  let kept = middles.get(ctx);
  const key = i * 128 + size;
  const known = size <= MAX_KEPT_SIZE ? kept?.blocks.get(key) : undefined;
  if (known) return known;
  const lines = ctx.doc.lines(i + 1, j).map((l) => l.trim());
  let length = Math.max(0, lines.length - 1);
  for (const l of lines) length += l.length;
  const middle = { lines, length };
  if (size > MAX_KEPT_SIZE) return middle;
  if (!kept) {
    kept = { blocks: new Map(), lines: 0 };
    middles.set(ctx, kept);
  }
  if (kept.lines + lines.length <= MAX_KEPT_LINES) {
    kept.blocks.set(key, middle);
    kept.lines += lines.length;
  }
  return middle;
}

/** What scoring pairs may still spend, and how blocks are scored. */
interface Scoring {
  budget: number;
  lines: number;
  findMiddle: string;
  floor: number;
  positional: boolean;
}

/** The best-scoring block from first line `i` to one of the last lines `lastHits[from..to]`, spending `s`. */
function bestPair(ctx: MatchContext, q: Query, i: number, lastHits: readonly number[], from: number, to: number, s: Scoring): Candidate | undefined {
  const n = q.lines.length;
  // OpenCode takes the nearest last line. The default preset weighs every
  // last line within the size slack: the nearest `}` is often not the one.
  let best: Candidate | undefined;
  for (let k = from; k <= to && s.budget > 0; k++) {
    const j = lastHits[k] as number;
    const size = j - i + 1;
    // Scoring a pair is an edit distance over the block: it weighs as many steps as a few window checks.
    ctx.tick(32);
    s.budget--;
    s.lines -= size;
    if (s.lines < 0) break;
    let score: number;
    if (s.positional) {
      score = positionalMiddleSimilarity(ctx.doc.lines(i, j + 1), q.lines);
    } else {
      const middle = middleOf(ctx, i, j);
      if (similarityBound(middle.length, s.findMiddle.length) < s.floor) continue;
      score = blockSimilarity(middle.lines, q.trimmed.slice(1, -1));
    }
    // Equal scores: the size closest to the find text's.
    if (!best || score > best.score || (score === best.score && Math.abs(size - n) < Math.abs(best.endLine - best.startLine - n))) {
      best = lineCandidate(ctx, q, i, size, "block-anchor", score);
    }
  }
  return best;
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
    // lastHits: both bounds grow with the first line, so two pointers walk
    // lastHits once, and every pair is counted (the cap's total) while only
    // the first MAX_SCORED_PAIRS are scored. (A binary search and a range
    // kept per first line: 14,000 `}` lines, 2,000 blocks anchored on them,
    // ~1 ms a block, mostly allocation.)
    let total = 0;
    let from = 0;
    let upto = 0;
    const score: Scoring = { budget: MAX_SCORED_PAIRS, lines: MAX_VERIFIED_LINES, findMiddle, floor, positional };
    const cands: Candidate[] = [];
    for (const i of firstHits) {
      // Each first line is a place examined, paired or not (a `}` of every other line: 4,000-14,000 a search).
      ctx.tick();
      const low = positional ? i + 2 : Math.max(i + 2, i + n - 1 - slack);
      while (from < lastHits.length && (lastHits[from] as number) < low) from++;
      if (from === lastHits.length) break;
      let to = from;
      if (!positional) {
        const high = i + n - 1 + slack;
        upto = Math.max(upto, from);
        while (upto < lastHits.length && (lastHits[upto] as number) <= high) upto++;
        to = upto - 1;
      }
      if (to < from) continue;
      total += to - from + 1;
      // Lines read to score blocks, under the window checks' cap: 300 pairs of a
      // 32k-line find text read 9.6M lines (a file of `{` lines: ~1 s).
      if (score.budget <= 0 || score.lines <= 0) continue;
      const best = bestPair(ctx, q, i, lastHits, from, to, score);
      if (best) cands.push(best);
    }
    const { budget, lines } = score;
    const chosen = selectScored(cands, o.blockAnchorSingleThreshold, o.blockAnchorMultipleThreshold, o.ambiguityMargin);
    if (total <= MAX_SCORED_PAIRS && lines >= 0) return chosen;
    ctx.noteCap(q, { what: "block-anchor", examined: MAX_SCORED_PAIRS - budget, total });
    // Unscored pairs may hold a better block: one winner is not a safe answer.
    return chosen.length > 1 ? chosen : [];
  },
};

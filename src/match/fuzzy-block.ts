/**
 * FuzzyBlock (fuzzpatch): the similarity fallback. Windows are proposed by
 * votes — every exact (trimmed) occurrence of one of the query's most
 * selective lines votes for the window it implies — and only the most voted
 * windows are scored by edit distance over the trimmed block, with a few
 * neighbouring sizes so a line inserted or removed since the model read the
 * file does not hide the block. This catches a misremembered token on the
 * first or last line, where BlockAnchor has no anchor.
 *
 * `closestRegion` runs the same search without a threshold; NOT_FOUND
 * errors use it to show the model the nearest text.
 */
import { isBlank } from "../text/normalize.ts";
import { blockSimilarity } from "../text/similarity.ts";
import { lineCandidate, linesContaining, linesTrimmedEqual, selectiveWord } from "./anchors.ts";
import { selectScored } from "./select.ts";
import type { Candidate, MatchContext, Query, Strategy } from "./types.ts";

/** Longest lines used as anchors, besides the first and last (which BlockAnchor has already searched). */
const ANCHOR_LINES = 3;
/** An anchor line with more hits than this says nothing about where the block is. */
const MAX_HITS_PER_ANCHOR = 2000;
const WINDOWS_SCORED = 16;
const WINDOWS_REFINED = 2;
/** Windows less similar than this are not worth refining (each score is an edit distance over the block). */
const REFINE_FROM = 0.5;

interface Scored {
  start: number;
  size: number;
  score: number;
}

function anchorIndexes(q: Query): number[] {
  const idx = q.trimmed.map((t, j) => ({ t, j })).filter(({ t }) => t.length >= 2);
  idx.sort((a, b) => b.t.length - a.t.length);
  const chosen = new Set(idx.slice(0, ANCHOR_LINES).map((x) => x.j));
  const firstNonBlank = q.trimmed.findIndex((t) => t !== "");
  const lastNonBlank = q.trimmed.length - 1 - [...q.trimmed].reverse().findIndex((t) => t !== "");
  if (firstNonBlank !== -1) chosen.add(firstNonBlank);
  if (lastNonBlank < q.trimmed.length) chosen.add(lastNonBlank);
  return [...chosen];
}

function scoreWindow(ctx: MatchContext, q: Query, start: number, size: number): number {
  if (start < 0 || size < 1 || !ctx.doc.hasLine(start + size - 1)) return -1;
  return blockSimilarity(ctx.doc.lines(start, start + size), q.lines);
}

/** A window moved and cut to lie inside the document (a block near the end may run past it). */
function clampWindow(ctx: MatchContext, start: number, size: number): { start: number; size: number } {
  // Inside the file (the common case) needs no line count, which would build the whole line table.
  if (start >= 0 && size >= 1 && ctx.doc.hasLine(start + size - 1)) return { start, size };
  const s = Math.max(0, Math.min(start, ctx.doc.lineCount - 1));
  return { start: s, size: Math.max(1, Math.min(size, ctx.doc.lineCount - s)) };
}

const searched = new WeakMap<MatchContext, WeakMap<Query, Scored[]>>();

/** The best windows, best first, whatever their score; memoised, as NOT_FOUND reports reuse them. */
export function searchWindows(ctx: MatchContext, q: Query): Scored[] {
  let byQuery = searched.get(ctx);
  if (!byQuery) {
    byQuery = new WeakMap();
    searched.set(ctx, byQuery);
  }
  const known = byQuery.get(q);
  if (known) return known;
  const found = scoreWindows(ctx, q);
  byQuery.set(q, found);
  return found;
}

function scoreWindows(ctx: MatchContext, q: Query): Scored[] {
  const n = q.lines.length;
  const votes = new Map<number, number>();
  const vote = (start: number, weight: number) => votes.set(start, (votes.get(start) ?? 0) + weight);
  for (const j of anchorIndexes(q)) {
    const hits = linesTrimmedEqual(ctx, q.trimmed[j] ?? "", MAX_HITS_PER_ANCHOR);
    if (hits.length > MAX_HITS_PER_ANCHOR) continue;
    for (const at of hits) vote(at - j, 1);
  }
  // Lines may all differ a little: an identifier (the one the whitespace
  // strategies searched) votes too, with less weight than a whole line.
  const word = selectiveWord(ctx, q.lines);
  const wordHits = word === "" ? [] : linesContaining(ctx, word, MAX_HITS_PER_ANCHOR);
  if (wordHits.length <= MAX_HITS_PER_ANCHOR) {
    q.lines.forEach((line, j) => {
      if (line.includes(word)) for (const at of wordHits) vote(at - j, 0.5);
    });
  }
  const top = [...votes.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, WINDOWS_SCORED);
  const scored: Scored[] = top
    .map(([start]) => clampWindow(ctx, start, n))
    .map((w) => ({ ...w, score: scoreWindow(ctx, q, w.start, w.size) }))
    .filter((w) => w.score >= 0);
  scored.sort((a, b) => b.score - a.score);
  // Refine the best few: shift by up to two lines, then grow or shrink by up to two.
  const refined = new Map<string, Scored>();
  for (const w of scored) refined.set(`${w.start}:${w.size}`, w);
  for (const w of scored.slice(0, WINDOWS_REFINED).filter((x) => x.score >= REFINE_FROM)) {
    let best = w;
    for (let ds = -2; ds <= 2; ds++) {
      const score = ds === 0 ? -1 : scoreWindow(ctx, q, w.start + ds, w.size);
      if (score > best.score) best = { start: w.start + ds, size: w.size, score };
    }
    const shifted = best;
    for (let dn = -2; dn <= 2; dn++) {
      const score = dn === 0 ? -1 : scoreWindow(ctx, q, shifted.start, shifted.size + dn);
      if (score > best.score) best = { start: shifted.start, size: shifted.size + dn, score };
    }
    best = trimBlankEdges(ctx, best);
    refined.set(`${best.start}:${best.size}`, best);
  }
  // Equal scores in file order: which window was scored first (the anchors' votes) must not pick the closest.
  return [...refined.values()].sort((a, b) => b.score - a.score || a.start - b.start || a.size - b.size);
}

/** A window never starts or ends on a blank line the query does not have there. */
function trimBlankEdges(ctx: MatchContext, w: Scored): Scored {
  let { start, size } = w;
  while (size > 1 && isBlank(ctx.doc.line(start))) {
    start++;
    size--;
  }
  while (size > 1 && isBlank(ctx.doc.line(start + size - 1))) size--;
  return { ...w, start, size };
}

export function closestRegion(ctx: MatchContext, q: Query): Scored | undefined {
  return searchWindows(ctx, q)[0];
}

/** How far past a window its query's missing edge line is looked for. */
const CUT_REACH = 12;

/**
 * A window whose last (first) line is not the query's, while the query's
 * line stands as it is a few lines further on (before): the file has lines
 * inside the block that the query lacks, added since the model read it, and
 * the window stops inside them. It is not the block: the edit would change
 * the line that stands in the query's place and write its new lines beside
 * the ones added (a real stale block, aider-swebench sympy-22005 try6 msg2,
 * inserted a check the file had just gained a second time, under the line
 * it meant to change). Only a telling line counts (8 characters or more).
 */
function cutShort(ctx: MatchContext, q: Query, w: Scored): boolean {
  const first = q.trimmed.findIndex((t) => t !== "");
  let last = q.trimmed.length - 1;
  while (last > 0 && q.trimmed[last] === "") last--;
  const end = w.start + w.size;
  const beyond = (t: string | undefined, from: number, to: number) =>
    t !== undefined && t.length >= 8 && linesTrimmedEqual(ctx, t, MAX_HITS_PER_ANCHOR).some((at) => at >= from && at < to);
  const lastLine = q.trimmed[last];
  if (lastLine !== ctx.doc.line(end - 1).trim() && beyond(lastLine, end, end + CUT_REACH)) return true;
  const firstLine = q.trimmed[first];
  return firstLine !== ctx.doc.line(w.start).trim() && beyond(firstLine, w.start - CUT_REACH, w.start);
}

export const fuzzyBlock: Strategy = {
  name: "fuzzy-block",
  exact: false,
  find(ctx, q) {
    // One line is too little evidence for a similarity match.
    if (q.lines.filter((l) => !isBlank(l)).length < 2) return [];
    const o = ctx.options;
    const cands: Candidate[] = searchWindows(ctx, q)
      .filter((w) => w.score >= o.fuzzyThreshold && !cutShort(ctx, q, w))
      .map((w) => lineCandidate(ctx, q, w.start, w.size, "fuzzy-block", w.score));
    // Overlapping windows around one place are one candidate, not an ambiguity.
    const distinct: Candidate[] = [];
    for (const c of cands) {
      if (!distinct.some((d) => c.startLine < d.endLine && d.startLine < c.endLine)) distinct.push(c);
    }
    return selectScored(distinct, o.fuzzyThreshold, o.fuzzyThreshold, o.ambiguityMargin);
  },
};

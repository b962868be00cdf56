/**
 * A guard for matches that ignored how the model indented or spaced its
 * lines. When such a match is unique, the model's own lines, *as written*,
 * may still fit another place better: the file has two similar blocks at
 * different depths, one was edited since the model read it, and a
 * whitespace-tolerant strategy found only the other. The rival is a window
 * elsewhere where some of the model's lines occur verbatim (indentation
 * included) and which is as similar as the similarity fallback demands;
 * with one, the edit is one of two places (a line hint may choose), never
 * applied to the weaker reading alone.
 */
import { blockSimilarity } from "../text/similarity.ts";
import { lineCandidate } from "./anchors.ts";
import type { Candidate, MatchContext, Query, StrategyName } from "./types.ts";

const ANCHORS = 3;

/** Strategies that ignore how lines are indented or spaced, or rewrite them first. */
const TOLERANT: ReadonlySet<StrategyName> = new Set<StrategyName>([
  "line-trimmed",
  "whitespace-normalized",
  "whitespace-insensitive",
  "indentation-flexible",
  "escape-normalized",
  "trimmed-boundary",
  "punctuation-normalized",
  "line-numbers",
  "blank-lines",
]);

/** How many of the model's lines the window starting at `start` holds verbatim, position by position. */
function verbatim(ctx: MatchContext, q: Query, start: number): number {
  return countLines(ctx, q, start, (file, line) => file === line);
}

/**
 * How many of the model's lines the window holds, each as written or grown
 * (the file line contains the model's trimmed line: a comment appended
 * since the model read it).
 */
function held(ctx: MatchContext, q: Query, start: number): number {
  return countLines(ctx, q, start, (file, line) => file.includes(line.trim()));
}

function countLines(ctx: MatchContext, q: Query, start: number, same: (file: string, line: string) => boolean): number {
  let n = 0;
  q.lines.forEach((line, j) => {
    if (line.trim() !== "" && ctx.doc.hasLine(start + j) && same(ctx.doc.line(start + j), line)) n++;
  });
  return n;
}

/** A rival of an anchor-bound match is a plausible block at least (it holds more of the model's lines). */
const ANCHOR_BOUND_RIVAL_SIMILARITY = 0.5;

/**
 * Similarity strategies that only see the windows their anchors propose:
 * BlockAnchor pairs the first and last lines, so a block whose first line
 * changed since the model read it is not among its candidates, and a
 * similar block elsewhere with the same first and last lines wins alone (a
 * doc comment's closing line above `export type Foreground…` gained a
 * comment; the block above `export type Background…` was taken). A window
 * that holds more of the model's lines, as written or grown, is as good a
 * reading, even when its edit distance is larger.
 */
const ANCHOR_BOUND: ReadonlySet<StrategyName> = new Set<StrategyName>(["block-anchor", "context-aware"]);

export function findRival(ctx: MatchContext, q: Query, winner: Candidate): Candidate | undefined {
  // Exact matches need no guard; FuzzyBlock already weighs every window its
  // anchors and words vote for against each other (selectScored's margin).
  if (!winner.lineBased) return undefined;
  const nonBlank = q.lines.filter((l) => l.trim() !== "").length;
  // Lines held (cheap) first, then the similarity of the window.
  let holds: (start: number) => boolean;
  let floor: number;
  if (TOLERANT.has(winner.strategy)) {
    // A tolerant match has every line modulo spacing: a rival needs more lines as written, and the fallback's similarity.
    const bar = Math.max(verbatim(ctx, q, winner.startLine) + 1, Math.ceil(nonBlank / 2));
    if (bar > nonBlank) return undefined;
    holds = (start) => verbatim(ctx, q, start) >= bar;
    floor = ctx.options.fuzzyThreshold;
  } else if (ANCHOR_BOUND.has(winner.strategy)) {
    const bar = Math.max(held(ctx, q, winner.startLine) + 1, Math.ceil(nonBlank / 2));
    if (bar > nonBlank) return undefined;
    holds = (start) => held(ctx, q, start) >= bar;
    floor = ANCHOR_BOUND_RIVAL_SIMILARITY;
  } else {
    return undefined;
  }
  const text = ctx.doc.text;
  const n = q.lines.length;
  const anchors = q.lines
    .map((line, j) => ({ line, j }))
    .filter(({ line }) => line.trim().length >= 4)
    .sort((a, b) => b.line.length - a.line.length)
    .slice(0, ANCHORS);
  const seen = new Set<number>();
  for (const { line, j } of anchors) {
    for (const at of ctx.occurrences(line)) {
      // Whole lines only: the model's indentation must be the line's.
      if (at > 0 && text[at - 1] !== "\n") continue;
      const end = at + line.length;
      if (end < text.length && text[end] !== "\n") continue;
      const start = ctx.doc.lineAt(at) - j;
      if (start < 0 || !ctx.doc.hasLine(start + n - 1) || seen.has(start)) continue;
      seen.add(start);
      if (start < winner.endLine && winner.startLine < start + n) continue;
      if (!holds(start)) continue;
      const score = blockSimilarity(ctx.doc.lines(start, start + n), q.lines);
      if (score >= floor) return lineCandidate(ctx, q, start, n, "fuzzy-block", score);
    }
  }
  return undefined;
}

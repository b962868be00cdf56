/**
 * A guard for matches that ignored how the model indented or spaced its
 * lines. When such a match is unique, the model's own lines, *as written*,
 * may still fit another place better: the file has two similar blocks at
 * different depths, one was edited since the model read it, and a
 * whitespace-tolerant strategy found only the other. The rival is a window
 * elsewhere where some of the model's lines occur verbatim (indentation
 * included) and which is as similar as the similarity fallback demands;
 * with one, the edit is ambiguous, never applied to the weaker reading.
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
  let same = 0;
  q.lines.forEach((line, j) => {
    if (line.trim() !== "" && ctx.doc.hasLine(start + j) && ctx.doc.line(start + j) === line) same++;
  });
  return same;
}

export function findRival(ctx: MatchContext, q: Query, winner: Candidate): Candidate | undefined {
  // Exact matches need no guard; similarity strategies already weigh their
  // candidates against each other (selectScored's margin).
  if (!TOLERANT.has(winner.strategy) || !winner.lineBased) return undefined;
  const text = ctx.doc.text;
  const n = q.lines.length;
  const nonBlank = q.lines.filter((l) => l.trim() !== "").length;
  const bar = Math.max(verbatim(ctx, q, winner.startLine) + 1, Math.ceil(nonBlank / 2));
  if (bar > nonBlank) return undefined;
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
      if (verbatim(ctx, q, start) < bar) continue;
      const score = blockSimilarity(ctx.doc.lines(start, start + n), q.lines);
      if (score >= ctx.options.fuzzyThreshold) return lineCandidate(ctx, q, start, n, "fuzzy-block", score);
    }
  }
  return undefined;
}

/**
 * A guard for lone matches that are not exact. When a match ignored how the
 * model indented or spaced its lines, or was chosen by similarity, the
 * model's own lines may still fit another place better: the file has two
 * similar blocks at different depths, or one was edited since the model read
 * it (a line grew a comment), and the strategy found only the other. The
 * rival is a window elsewhere that holds more of the model's lines (as
 * written; for a similarity match, as written or grown), or the window at
 * the op's line hint holding all of them; with one, the edit is one of two
 * places (a line hint may choose), never applied to the weaker reading alone.
 */
import { blockSimilarity } from "../text/similarity.ts";
import { lineCandidate, linesEqualTo } from "./anchors.ts";
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

type SameLine = (file: string, line: string) => boolean;
/** The model's line as written, indentation included. */
const asWritten: SameLine = (file, line) => file === line;
/** The model's line as written or grown: the file line contains it (a comment appended since). */
const writtenOrGrown: SameLine = (file, line) => file.includes(line.trim());
/**
 * Grown only at its end, after blank space, at the model's indentation
 * (`foo(); // note`; `yaa` is not `y` grown): what may beat an exact match. Containing the trimmed line is too weak there:
 * `  return;` holds `return;` at another depth, and an exact, unique
 * `\nreturn;\n` was moved to it by a line hint (issue 22, item 6).
 */
const writtenOrGrownAtEnd: SameLine = (file, line) => file === line || (file.startsWith(line) && /^\s/.test(file.slice(line.length)));

/** Whether window line `j` (file line `start + j`) holds the model's line `j`. */
const holdsLine = (ctx: MatchContext, q: Query, start: number, j: number, same: SameLine): boolean =>
  ctx.doc.hasLine(start + j) && same(ctx.doc.line(start + j), q.lines[j] ?? "");

/** Line `j` of the window starting at file line `start`, undefined past the file. */
const windowAt =
  (ctx: MatchContext, start: number) =>
  (j: number): string | undefined =>
    ctx.doc.hasLine(start + j) ? ctx.doc.line(start + j) : undefined;

/** How many of the model's non-blank lines the window starting at `start` holds, position by position. */
function held(ctx: MatchContext, q: Query, start: number, same: SameLine): number {
  return heldBy(windowAt(ctx, start), q.lines, same);
}

/** How many of the model's non-blank lines a window holds, position by position: its line `j` is `line(j)`, undefined past the text. */
function heldBy(line: (j: number) => string | undefined, model: readonly string[], same: SameLine): number {
  let n = 0;
  for (let j = 0; j < model.length; j++) {
    const file = line(j);
    if ((model[j] ?? "").trim() !== "" && file !== undefined && same(file, model[j] ?? "")) n++;
  }
  return n;
}

/**
 * Whether a window (its line `j` is `line(j)`) holds what makes it an exact
 * match's rival at the op's line hint (rivalOf): every non-blank line of the
 * model as written or grown at its end, not all as written. fs/carried-text.ts
 * asks it of the hinted lines of a text it has not made whole.
 */
export function rivalLinesOfExact(line: (j: number) => string | undefined, model: readonly string[]): boolean {
  const nonBlank = model.filter((l) => l.trim() !== "").length;
  return heldBy(line, model, writtenOrGrownAtEnd) >= nonBlank && heldBy(line, model, asWritten) < nonBlank;
}

/** A rival of a similarity match is a plausible block at least (it holds more of the model's lines). */
const SIMILARITY_RIVAL_FLOOR = 0.5;

/**
 * Similarity strategies, which judge a window by its edit distance (or only
 * see the windows their anchors propose: BlockAnchor pairs the first and
 * last lines). A line the file grew since the model read it (a comment
 * appended) costs the real place more distance than a changed token costs
 * a look-alike block: the block above `export type Background…` was taken
 * for the one above `export type Foreground…`, whose closing line had
 * gained a comment. A window that holds more of the model's lines, as
 * written or grown, is as good a reading, even when its distance is larger.
 */
const BY_SIMILARITY: ReadonlySet<StrategyName> = new Set<StrategyName>(["block-anchor", "context-aware", "fuzzy-block", "compound"]);

/** Whether the window of `n` lines from `start` shares a line with the winner. */
const overlaps = (winner: Candidate, start: number, n: number): boolean => start < winner.endLine && winner.startLine < start + n;

/** Whether the block of lines `start` to `end` shares at least half of the winner's lines. */
const sharesMost = (winner: Candidate, start: number, end: number): boolean =>
  2 * (Math.min(end, winner.endLine) - Math.max(start, winner.startLine)) >= winner.endLine - winner.startLine;

/**
 * The window at the op's line hint, apart from the winner and inside the
 * file, when `rivals` says it holds every line of the model as written or
 * grown (a comment appended since) and reads better than the winner.
 * Two cases, one rule: a similarity winner that does not hold them all (a
 * similar block elsewhere scored higher than the real place: a numbered
 * hunk at line 287 was applied at 318, where `ColorName` reads
 * `colorNames`); an exact winner, when the hinted window has grown since
 * (the same block twice in a file, the model read the hinted copy). Only
 * the hinted window is read: an exact match costs no search for rivals.
 */
function rivalAtHint(
  ctx: MatchContext,
  q: Query,
  winner: Candidate,
  hintStart: number | undefined,
  rivals: (start: number) => boolean,
): Candidate | undefined {
  if (hintStart === undefined || !Number.isInteger(hintStart) || hintStart < 0) return undefined;
  const n = q.lines.length;
  if (!ctx.doc.hasLine(hintStart + n - 1) || overlaps(winner, hintStart, n) || !rivals(hintStart)) return undefined;
  return lineCandidate(ctx, q, hintStart, n, "fuzzy-block", blockSimilarity(ctx.doc.lines(hintStart, hintStart + n), q.lines));
}

const nonBlankLines = (q: Query): number => q.lines.filter((l) => l.trim() !== "").length;

/**
 * The rival of a lone non-exact match, if any. `supersedes`: the rival
 * overlaps the winner and holds every line of the model, all but one as
 * written (the winner slid a few lines onto look-alike code, or dropped a
 * line the file grew): the same place read better, which replaces the
 * winner. Otherwise the two are one of two places.
 */
export function findRival(ctx: MatchContext, q: Query, winner: Candidate, hintStart?: number): { cand: Candidate; supersedes: boolean } | undefined {
  const found = rivalOf(ctx, q, winner, hintStart);
  if (!found) return undefined;
  return { cand: found, supersedes: overlaps(winner, found.startLine, found.endLine - found.startLine) };
}

function rivalOf(ctx: MatchContext, q: Query, winner: Candidate, hintStart?: number): Candidate | undefined {
  // An exact winner holds every line as written: the hinted window must hold them too, some only grown
  // (all as written, it would be an exact match as well).
  // One line of text is too little to tell a grown copy from another line that starts alike
  // (`$&` and `$&\t@@…`): an exact match of one line stands (issue 22, item 6).
  if (winner.strategy === "exact" && nonBlankLines(q) < 2) return undefined;
  // An exact match that starts inside a line holds its first line grown at the start: a hinted window
  // holding it grown at the end is no better a reading, and removing the line there would fail.
  if (winner.strategy === "exact" && winner.start !== ctx.doc.lineStart(winner.startLine)) return undefined;
  if (winner.strategy === "exact") return rivalAtHint(ctx, q, winner, hintStart, (at) => rivalLinesOfExact(windowAt(ctx, at), q.lines));
  if (!winner.lineBased) return undefined;
  const nonBlank = nonBlankLines(q);
  const atHint = rivalAtHint(ctx, q, winner, hintStart, (at) => held(ctx, q, at, writtenOrGrown) >= nonBlank && held(ctx, q, winner.startLine, writtenOrGrown) < nonBlank);
  if (atHint) return atHint;
  // A tolerant match has every line modulo spacing: a rival needs more lines
  // as written, and the fallback's similarity. A similarity match: more lines
  // as written or grown, and to be a plausible block at all.
  const tolerant = TOLERANT.has(winner.strategy);
  if (!tolerant && !BY_SIMILARITY.has(winner.strategy)) return undefined;
  const same = tolerant ? asWritten : writtenOrGrown;
  const floor = tolerant ? ctx.options.fuzzyThreshold : SIMILARITY_RIVAL_FLOOR;
  const bar = Math.max(held(ctx, q, winner.startLine, same) + 1, Math.ceil(nonBlank / 2));
  if (bar > nonBlank) return undefined;
  const n = q.lines.length;
  // A window holding more lines than the winner holds one the winner lacks:
  // the anchors are those lines (usually the one the model changed or
  // misremembered, so one search, not one per long line).
  const anchors = q.lines
    .map((line, j) => ({ line, j }))
    .filter(({ line, j }) => line.trim().length >= 4 && !holdsLine(ctx, q, winner.startLine, j, same))
    .sort((a, b) => b.line.length - a.line.length)
    .slice(0, ANCHORS);
  const seen = new Set<number>();
  for (const { line, j } of anchors) {
    // Whole lines only: the model's indentation must be the line's.
    for (const i of linesEqualTo(ctx, line)) {
      const start = i - j;
      if (start < 0 || !ctx.doc.hasLine(start + n - 1) || seen.has(start)) continue;
      seen.add(start);
      if (start === winner.startLine) continue;
      // A window overlapping the winner is a rival only when it holds every line,
      // all but one as written (the winner slid a few lines onto look-alike code:
      // `case '>'` for `case '<'`, the real place's line grown by a comment).
      const onWinner = overlaps(winner, start, n);
      // Lines held (cheap) first, then the similarity of the window.
      if (held(ctx, q, start, same) < (onWinner ? nonBlank : bar)) continue;
      if (onWinner && held(ctx, q, start, asWritten) < nonBlank - 1) continue;
      const score = blockSimilarity(ctx.doc.lines(start, start + n), q.lines);
      if (score >= floor) return lineCandidate(ctx, q, start, n, "fuzzy-block", score);
    }
  }
  return BY_SIMILARITY.has(winner.strategy) ? changedSinceRival(ctx, q, winner, anchors) : undefined;
}

/**
 * The block around model line `j` found at file line `at`: from the model's
 * first line above it to its last line below, each looked for within the
 * block's length (lines inserted since stretch it); the model's own span
 * where one is not found.
 */
function blockAround(ctx: MatchContext, q: Query, at: number, j: number): [number, number] {
  const n = q.lines.length;
  const texts = q.lines.map((l) => l.trim());
  const first = texts.findIndex((t) => t !== "");
  const last = texts.length - 1 - [...texts].reverse().findIndex((t) => t !== "");
  let start = Math.max(0, at - j);
  for (let i = at; i >= Math.max(0, at - 2 * n); i--) {
    if (ctx.doc.line(i).trim() === texts[first]) {
      start = i;
      break;
    }
  }
  let end = Math.min(ctx.doc.lineCount, start + n);
  for (let i = at; i < Math.min(ctx.doc.lineCount, at + 2 * n); i++) {
    if (ctx.doc.line(i).trim() === texts[last]) {
      end = i + 1;
      break;
    }
  }
  return [start, Math.max(end, at + 1)];
}

/** Trimmed length a model line needs to tell a place by (shorter ones, `return x`, stand in many). */
const TELLING_LINE = 12;

/**
 * A similarity winner lacks a line of the model that stands, once and as
 * written, elsewhere, among most of the model's other lines (in any order
 * there, within the block's length either side): the place the model quoted
 * may be that one, changed since it read it (lines inserted, moved), and the
 * winner a look-alike that only reads closer (the block of
 * `simplify_union` taken for the one of `simplify_intersection`, which the
 * model had edited before). One of two places: never the look-alike alone.
 */
function changedSinceRival(ctx: MatchContext, q: Query, winner: Candidate, anchors: readonly { line: string; j: number }[]): Candidate | undefined {
  const n = q.lines.length;
  const wanted = new Set(q.lines.map((l) => l.trim()).filter((l) => l !== ""));
  const need = Math.max(3, Math.ceil(wanted.size / 2));
  for (const { line, j } of anchors) {
    if (line.trim().length < TELLING_LINE) continue;
    const places = linesEqualTo(ctx, line);
    if (places.length !== 1) continue;
    const lineNo = places[0] as number;
    const present = new Set<string>();
    for (const l of ctx.doc.lines(Math.max(0, lineNo - j - n), lineNo - j + 2 * n)) if (wanted.has(l.trim())) present.add(l.trim());
    if (present.size < need) continue;
    const [start, end] = blockAround(ctx, q, lineNo, j);
    // A block around the winner is the winner's own place, stretched: the merge reads it line by line.
    // Sharing a line or two at an edge is not: a look-alike function's window (its trailing context)
    // can end on the first line of the quoted one, rewritten since.
    if (sharesMost(winner, start, end)) continue;
    return lineCandidate(ctx, q, start, end - start, "fuzzy-block", blockSimilarity(ctx.doc.lines(start, end), q.lines));
  }
  return undefined;
}

/**
 * Candidate search starts from anchors: a selective piece of the find text
 * located with the native `indexOf` (a few ms over 9 MB), never from a scan
 * that compares every line of the file. Strategies then verify the few
 * windows the anchors point at.
 */
import type { Document } from "../text/document.ts";
import { isTrimmedAt } from "../text/blank.ts";
import { coarseKey } from "../text/normalize.ts";
import { buildLineIndex, isSpace, type LineIndex, SCANS_BEFORE_INDEX, trimBlank } from "./line-index.ts";
import { createOccurrenceFinder, type LineSource } from "./occurrences.ts";
import type { Candidate, CapNote, MatchContext, Query, StrategyName, StrategyOptions } from "./types.ts";

/**
 * Line comparisons one strategy may spend verifying windows (a window costs
 * the lines compared until the first that differs). A periodic file (one
 * line repeated 32k times) made every strategy verify every window: 3.2 s
 * for one failing 12-line edit; at 500k comparisons per strategy still
 * 0.75 s, most of it normalising lines. 150k is ~10–30 ms per strategy; the
 * anchors of real edits on typescript.js (200k lines) stay far below it.
 */
export const MAX_VERIFIED_LINES = 150_000;

/**
 * Blocks scored by similarity at most, per strategy. Each score is a line
 * diff plus edit distances over the block; pairing every `}` with every `}`
 * within BlockAnchor's size slack made 200k lines of `}` cost 11.7 s, a
 * 120-line edit in JSON of 2,000 objects 31 s. Past the cap a strategy
 * answers from what it scored: an ambiguity when two blocks pass, else
 * nothing, with the cap noted.
 */
export const MAX_SCORED_PAIRS = 300;

/**
 * `edits`: how many edits the context will search for. A call with at least as
 * many edits as the scans that pay for the line index (hundreds of hunks) builds
 * it on its first line lookup instead of after that many scans of the file:
 * its first edits ran every strategy over the file (noLineWiseWindow waits for the index).
 */
export function createContext(doc: Document, options: StrategyOptions, checkBudget: () => void = () => {}, edits = 1): MatchContext {
  // Needles holding a whole line are found through the line index, once the searches have paid for it.
  const lines: LineSource = { index: (build) => (build ? builtLineIndex(ctx) : knownLineIndex(ctx)), start: (i) => doc.lineStart(i) };
  const occurrences = createOccurrenceFinder(doc.text, lines, edits);
  const caps = new WeakMap<Query, CapNote[]>();
  let steps = 0;
  let total = 0;
  const ctx: MatchContext = {
    doc,
    options,
    noteCap(q: Query, note: CapNote): void {
      const list = caps.get(q) ?? [];
      list.push(note);
      caps.set(q, list);
    },
    capsFor(q: Query): readonly CapNote[] {
      return caps.get(q) ?? [];
    },
    occurrences,
    tick(weight = 1, counted = true): void {
      if (counted) total += weight;
      steps += weight;
      if (steps < STEPS_PER_BUDGET_CHECK) return;
      steps = 0;
      checkBudget();
    },
    steps: () => total,
  };
  if (edits >= SCANS_BEFORE_INDEX) memoOf(ctx).scans = SCANS_BEFORE_INDEX;
  return ctx;
}

/** Steps of the strategies' loops between two budget checks. */
const STEPS_PER_BUDGET_CHECK = 512;

/**
 * Per context: the line lists of anchor needles (several strategies anchor
 * on the same line or word, and each used to map every hit to its line
 * again), the anchor-line scans done, and the line index once they paid for it.
 */
interface AnchorMemo {
  containing: Map<string, readonly number[]>;
  trimmedEqual: Map<string, readonly number[]>;
  /** `selectiveWord` by the lines it was asked for (four strategies ask for the same hunk's). */
  selective: Map<string, string>;
  scans: number;
  index: LineIndex | undefined;
  /** The coarse keys of the file's lines (see `noLineWiseWindow`), once asked for in a call with its own line index. */
  coarse: Set<string> | undefined;
  /** `noLineWiseWindow` by query. */
  lineWise: WeakMap<Query, boolean>;
}
const memos = new WeakMap<MatchContext, AnchorMemo>();

function memoOf(ctx: MatchContext): AnchorMemo {
  let m = memos.get(ctx);
  if (!m) {
    m = { containing: new Map(), trimmedEqual: new Map(), selective: new Map(), scans: 0, index: undefined, coarse: undefined, lineWise: new WeakMap() };
    memos.set(ctx, m);
  }
  return m;
}

/**
 * The distinct lines (ascending) of the hits of `needle` that `accept`
 * keeps, memoised in `memo`; past `limit` lines the search stops and the
 * cut list is returned, not memoised (the caller only needs to know there
 * are too many).
 */
function linesOfHits(ctx: MatchContext, memo: Map<string, readonly number[]>, needle: string, limit: number, accept: (at: number) => boolean): readonly number[] {
  const out: number[] = [];
  let last = -1;
  for (const at of ctx.occurrences(needle)) {
    // Not counted in the steps: a later search of the same needle finds the list memoised.
    ctx.tick(1, false);
    if (!accept(at)) continue;
    const line = ctx.doc.lineAt(at);
    if (line !== last) out.push(line);
    last = line;
    if (out.length > limit) return out;
  }
  memo.set(needle, out);
  return out;
}

/** Distinct lines that contain `needle`, ascending (cut past `limit`, see `linesOfHits`). */
export function linesContaining(ctx: MatchContext, needle: string, limit = Number.POSITIVE_INFINITY): readonly number[] {
  const { containing } = memoOf(ctx);
  return containing.get(needle) ?? linesOfHits(ctx, containing, needle, limit, () => true);
}

/**
 * The lines of a trimmed text through the document's per-line hashes
 * (Document.trimmedHashes), each hit checked in place: what the index or a
 * scan answers, ascending.
 */
function hashedLineIndex(ctx: MatchContext): LineIndex {
  const doc = ctx.doc;
  return { get: (trimmed) => doc.linesTrimmedAs(trimmed), maybe: (trimmed) => doc.linesHashedAs(trimmed), mayHave: (trimmed) => doc.mayHaveLineHashedAs(trimmed) };
}

/** A line index this context may use without building one: its own, or the hashes its document already has. */
function knownLineIndex(ctx: MatchContext): LineIndex | undefined {
  const m = memoOf(ctx);
  if (!m.index && ctx.doc.hasTrimmedHashes) m.index = hashedLineIndex(ctx);
  return m.index;
}

function lineIndexFor(ctx: MatchContext): LineIndex | undefined {
  const m = memoOf(ctx);
  if (m.index) return m.index;
  // A document kept across calls: its hashes, built once, serve this call and the owner's next ones.
  if (ctx.doc.retained || ctx.doc.hasTrimmedHashes) return builtLineIndex(ctx);
  m.scans++;
  if (m.scans <= SCANS_BEFORE_INDEX) return undefined;
  return builtLineIndex(ctx);
}

function builtLineIndex(ctx: MatchContext): LineIndex {
  const m = memoOf(ctx);
  m.index ??= ctx.doc.retained || ctx.doc.hasTrimmedHashes ? hashedLineIndex(ctx) : buildLineIndex(ctx.doc);
  return m.index;
}

/**
 * Lines whose trimmed text is exactly `trimmed` (non-empty), ascending (cut
 * past `limit`, as in `linesContaining`). Each hit is checked in place —
 * only whitespace between it and the line's ends — so a common anchor such
 * as `}` costs no string allocation per occurrence.
 */
export function linesTrimmedEqual(ctx: MatchContext, trimmed: string, limit = Number.POSITIVE_INFINITY): readonly number[] {
  const { trimmedEqual } = memoOf(ctx);
  const known = trimmedEqual.get(trimmed);
  if (known) return known;
  // A needle with blank ends is no line's trimmed text (the scan would let its blanks fall in the indentation).
  if (trimmed === "" || trimBlank(trimmed) !== trimmed) return [];
  const index = lineIndexFor(ctx);
  if (index) {
    const lines = index.get(trimmed) ?? [];
    trimmedEqual.set(trimmed, lines);
    return lines;
  }
  const text = ctx.doc.text;
  return linesOfHits(ctx, trimmedEqual, trimmed, limit, (at) => {
    for (let p = at - 1; p >= 0; p--) {
      const c = text.charCodeAt(p);
      if (c === 10) break;
      if (!isSpace(c)) return false;
    }
    for (let p = at + trimmed.length; p < text.length; p++) {
      const c = text.charCodeAt(p);
      if (c === 10) break;
      if (!isSpace(c)) return false;
    }
    return true;
  });
}

/**
 * Lines (ascending) that may be `trimmed` (non-empty, no blank ends), trimmed,
 * through this context's line index: a superset that the caller checks in
 * place. Undefined without an index (counted as a scan, as for
 * `linesTrimmedEqual`, which a scan of the file then follows) or past `max`
 * lines (a `}` of a file of them: the caller searches as it would without).
 */
export function linesMaybeTrimmedAs(ctx: MatchContext, trimmed: string, max: number): readonly number[] | undefined {
  const index = lineIndexFor(ctx);
  if (!index) return undefined;
  // The document's hashes (the index with `maybe`) stop listing past `max`: never the 200k places of a `}` to learn there are more.
  const lines = index.maybe ? ctx.doc.linesHashedAs(trimmed, max) : (index.get(trimmed) ?? []);
  return lines.length > max ? undefined : lines;
}

/**
 * Lines (ascending) whose whole text is `line` (no line break in it): those
 * of its trimmed text that are it exactly, when this context has a line
 * index (its own or its document's hashes); else the places of a search
 * that are whole lines.
 */
export function linesEqualTo(ctx: MatchContext, line: string): readonly number[] {
  const trimmed = trimBlank(line);
  const index = trimmed === "" ? undefined : knownLineIndex(ctx);
  if (index) return (index.get(trimmed) ?? []).filter((i) => ctx.doc.line(i) === line);
  const text = ctx.doc.text;
  const out: number[] = [];
  for (const at of ctx.occurrences(line)) {
    if ((at === 0 || text[at - 1] === "\n") && (at + line.length === text.length || text[at + line.length] === "\n")) out.push(ctx.doc.lineAt(at));
  }
  return out;
}

/**
 * True when this context's line index, already built (or its document's
 * hashes), has no line whose trimmed text is `line`'s; false when it has
 * one, or when there is no index to ask (nothing is searched for it).
 */
export function noLineTrimmedAs(ctx: MatchContext, line: string): boolean {
  const trimmed = trimBlank(line);
  const index = trimmed === "" ? undefined : knownLineIndex(ctx);
  if (!index) return false;
  // Asked for every inner line of a hunk: listing the places of a `}` line each time (a 375-line hunk of them
  // on 86,000 `}` lines, through a server's kept document) took ~13 s of CPU for seven hunks.
  if (index.mayHave) return !index.mayHave(trimmed);
  return (index.maybe ? index.maybe(trimmed) : (index.get(trimmed) ?? [])).length === 0;
}

/**
 * Whether `lines` stand nowhere as a run of whole lines, as this context's
 * line index (already built) says: a line between the first and the last,
 * which is a whole file line wherever the run stands, is no file line,
 * trimmed. False without an index (nothing searched). The first and last
 * lines may be parts of lines, or carry blank space the index keeps
 * (U+3000), so they are not asked about.
 */
export function innerLineNowhere(ctx: MatchContext, lines: readonly string[]): boolean {
  for (let k = 1; k < lines.length - 1; k++) if (noLineTrimmedAs(ctx, lines[k] as string)) return true;
  return false;
}

/** Whether line `i`, without the blank space at its ends (as `linesTrimmedEqual` reads it), is `trimmed`. */
export function lineTrimmedIs(ctx: MatchContext, i: number, trimmed: string): boolean {
  return isTrimmedAt(ctx.doc.text, ctx.doc.lineStart(i), ctx.doc.lineEnd(i), trimmed);
}

/*
 * `coarseKey` (normalize.ts) reads a line as all five line-for-line
 * strategies at most tell it apart. Two lines equal trimmed (line-trimmed,
 * indentation-flexible), with whitespace runs collapsed
 * (whitespace-normalized), without whitespace (whitespace-insensitive) or
 * under punctuation-normalized's key have equal coarse keys: each of those
 * forms only drops or merges whitespace (which the coarse key drops) or is
 * the coarse key's own punctuation mapping.
 */

/**
 * Whether no window of the file can match query `q` (two lines or more)
 * line for line under any of those five strategies, because one of its
 * lines has a coarse key no file line has: they then answer nothing
 * without their own searches (2,000 fuzzy hunks ran all five, ~25 % of the
 * CPU, before block-anchor found each). Only in a call that built its own
 * line index (many edits: the set of keys is one more pass over the lines),
 * and only where none of their searches could stop at MAX_VERIFIED_LINES
 * (at most one window per line, each `n` lines: a capped search notes it in
 * the NOT_FOUND message, and skipping it would drop the note).
 */
export function noLineWiseWindow(ctx: MatchContext, q: Query): boolean {
  const n = q.lines.length;
  if (n < 2) return false;
  const m = memoOf(ctx);
  if (!(m.index instanceof Map) || ctx.doc.lineCount * n > MAX_VERIFIED_LINES) return false;
  const known = m.lineWise.get(q);
  if (known !== undefined) return known;
  if (!m.coarse) {
    const coarse = new Set<string>();
    const count = ctx.doc.lineCount;
    for (let i = 0; i < count; i++) coarse.add(coarseKey(ctx.doc.line(i)));
    m.coarse = coarse;
  }
  const keys = m.coarse;
  const none = q.lines.some((line) => {
    const key = coarseKey(line);
    return key !== "" && !keys.has(key);
  });
  m.lineWise.set(q, none);
  return none;
}

/**
 * The first and last lines (trimmed) of a query of at least three lines, the
 * anchors of BlockAnchor and ContextAware; undefined when either is blank.
 */
export function boundaryLines(q: Query): { first: string; last: string } | undefined {
  const first = q.trimmed[0] ?? "";
  const last = q.trimmed[q.lines.length - 1] ?? "";
  return q.lines.length >= 3 && first !== "" && last !== "" ? { first, last } : undefined;
}

/** Index of the query line with the longest trimmed text, or -1 when all are blank. */
export function longestLineIndex(q: Query): number {
  let best = -1;
  for (let j = 0; j < q.trimmed.length; j++) {
    const len = q.trimmed[j]?.length ?? 0;
    if (len > 0 && (best === -1 || len > (q.trimmed[best]?.length ?? 0))) best = j;
  }
  return best;
}

/** Windows already verified by one strategy's search, and the line comparisons spent (shared by its calls of `verifyWindows`). */
export interface VerifyBudget {
  seen: Set<number>;
  spent: number;
  capped: boolean;
  /**
   * File lines already normalised by this search, by line index. Windows
   * overlap: in periodic text every line is compared in up to n windows,
   * and normalising it (a regular expression) was most of the cost.
   */
  keyed: Map<number, string>;
}

export const newBudget = (): VerifyBudget => ({ seen: new Set(), spent: 0, capped: false, keyed: new Map() });

/**
 * How a window's lines are compared: file line `i` matches query line `j`
 * when `of(line i) === keys[j]`; "any" passes every line (the caller checks
 * the window as a whole).
 */
export type LineKeys = { of: (fileLine: string) => string; keys: readonly string[] } | "any";

/** A line without the blank space at its ends: the key of the trimmed strategies. */
export const trimLine = (line: string): string => line.trim();

function lineMatches(doc: Document, match: LineKeys, budget: VerifyBudget, i: number, j: number): boolean {
  if (match === "any") return true;
  let key = budget.keyed.get(i);
  if (key === undefined) {
    key = match.of(doc.line(i));
    budget.keyed.set(i, key);
  }
  return key === match.keys[j];
}

/**
 * Start lines of windows of `q.lines.length` lines where every line equals
 * the query line under `same`. Windows are proposed by `anchorLines`: file
 * lines where query line `anchor` may be. A window is verified once per
 * budget, and verification stops when the budget's comparisons run out:
 * then the result is empty (an exact strategy must not report some of the
 * places as if they were all) and the cap is noted for the NOT_FOUND message.
 */
export function verifyWindows(
  ctx: MatchContext,
  q: Query,
  anchor: number,
  anchorLines: readonly number[],
  match: LineKeys,
  budget: VerifyBudget = newBudget(),
): number[] {
  const { doc } = ctx;
  const n = q.lines.length;
  const starts: number[] = [];
  for (let k = 0; k < anchorLines.length; k++) {
    ctx.tick();
    const start = (anchorLines[k] as number) - anchor;
    if (start < 0 || !doc.hasLine(start + n - 1) || budget.seen.has(start)) continue;
    if (budget.spent + n > MAX_VERIFIED_LINES) {
      budget.capped = true;
      ctx.noteCap(q, { what: "windows", examined: budget.seen.size, total: budget.seen.size + anchorLines.length - k });
      return [];
    }
    budget.seen.add(start);
    let ok = true;
    let j = 0;
    for (; j < n && ok; j++) ok = lineMatches(doc, match, budget, start + j, j);
    budget.spent += j;
    if (ok) starts.push(start);
  }
  return starts;
}

/** A word with at most this many occurrences is selective enough to anchor a search. */
const SELECTIVE_WORD_HITS = 1000;
/** Words tried, longest first, when the longest is not selective. */
const WORDS_TRIED = 3;

/**
 * The anchor word of a query: its longest identifier, unless that occurs
 * everywhere (`compute` on each of 50k lines made every failing block
 * verify 50k windows per strategy, ~0.3 s a block); then the one with the
 * fewest occurrences among the few longest. Any word of the query must be
 * in a matching window, so any of them finds every window; the rarer, the
 * fewer to verify.
 */
export function selectiveWord(ctx: MatchContext, lines: readonly string[]): string {
  const { selective } = memoOf(ctx);
  const key = lines.join("\n");
  const known = selective.get(key);
  if (known !== undefined) return known;
  const words = distinctWordsByLength(lines, WORDS_TRIED);
  let best = words[0] ?? "";
  let bestHits = Number.POSITIVE_INFINITY;
  for (const w of words) {
    const hits = ctx.occurrences(w).length;
    if (hits < bestHits) {
      best = w;
      bestHits = hits;
    }
    if (hits <= SELECTIVE_WORD_HITS) break;
  }
  selective.set(key, best);
  return best;
}

/** Up to `max` distinct identifiers of the lines, longest first (the first seen on a tie). */
function distinctWordsByLength(lines: readonly string[], max: number): string[] {
  const seen = new Set<string>();
  for (const line of lines) for (const m of line.matchAll(/[A-Za-z0-9_$]+/g)) seen.add(m[0]);
  return [...seen].sort((a, b) => b.length - a.length).slice(0, max);
}

/**
 * Windows found through an identifier of the query (see `selectiveWord`):
 * for strategies whose normalisation keeps identifiers intact (whitespace,
 * punctuation).
 */
export function windowsByWord(ctx: MatchContext, q: Query, match: LineKeys): number[] {
  const word = selectiveWord(ctx, q.lines);
  if (word === "") return [];
  const hits = linesContaining(ctx, word);
  const starts = new Set<number>();
  // One budget for every query line holding the word: a window proposed by
  // several of them is verified once (in periodic text, by all of them).
  const budget = newBudget();
  // Once every window the file has room for was verified (or it has room for none), the other query
  // lines can propose none: a find text of 8,002 lines of `x`, on 8,000 such lines, ran each of its
  // lines over every hit, none fitting (~0.3 s per strategy). (`hasLine` of the line past them all:
  // the line table is not built to the end to count them.)
  const n = q.lines.length;
  for (let j = 0; j < n && ctx.doc.hasLine(budget.seen.size + n - 1); j++) {
    if (!q.lines[j]?.includes(word)) continue;
    for (const s of verifyWindows(ctx, q, j, hits, match, budget)) starts.add(s);
    if (budget.capped) return [];
  }
  return [...starts].sort((a, b) => a - b);
}

/** A candidate covering whole lines [startLine, startLine + count). */
export function lineCandidate(
  ctx: MatchContext,
  q: Query,
  startLine: number,
  count: number,
  strategy: StrategyName,
  score: number,
  extra?: Partial<Candidate>,
): Candidate {
  const c: Candidate = {
    start: ctx.doc.lineStart(startLine),
    end: ctx.doc.lineEnd(startLine + count - 1),
    startLine,
    endLine: startLine + count,
    strategy,
    score,
    lineBased: true,
    query: q,
  };
  return extra ? Object.assign(c, extra) : c;
}

/** A candidate covering an arbitrary range of the text. */
export function rangeCandidate(
  ctx: MatchContext,
  q: Query,
  start: number,
  end: number,
  strategy: StrategyName,
  score: number,
  extra?: Partial<Candidate>,
): Candidate {
  const startLine = ctx.doc.lineAt(start);
  // One line unless the range holds a break (no second lookup for the common case).
  const endLine = (q.lines.length === 1 && start < end ? startLine : ctx.doc.lineAt(Math.max(start, end - 1))) + 1;
  // No spread of an empty object: an exact search with 10,000 hits built its candidates in ~2 ms, half of it spreading.
  const c: Candidate = { start, end, startLine, endLine, strategy, score, lineBased: false, query: q };
  return extra ? Object.assign(c, extra) : c;
}

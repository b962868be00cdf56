/**
 * Locating one op: each reading through the preset's cascade, candidates
 * narrowed by the shared resolver, errors worded with the format's
 * vocabulary. A reading is tried only when the ones before it found
 * nothing; an ambiguity stops the search (a looser reading must not win
 * over it).
 */
import { EditError } from "../errors.ts";
import { blankRuns } from "../match/blank-runs.ts";
import { runCascade } from "../match/locate.ts";
import { createQuery, queryFromLines } from "../match/query.ts";
import { ambiguityError, notFoundError } from "../match/report.ts";
import { type ResolveInput, resolveCandidates } from "../match/resolve.ts";
import { findRival } from "../match/rival.ts";
import { ruleOn } from "./rules.ts";
import { lineCandidate, rangeCandidate } from "../match/anchors.ts";
import type { Candidate, MatchContext, Query, Strategy, StrategyName } from "../match/types.ts";
import { wholeLineCandidates } from "./line-edits.ts";
import { planCap } from "./place-cap.ts";
import { wholeLineExact } from "./whole-line-exact.ts";
import type { Document } from "../text/document.ts";
import type { EditOp, Reading, ResolvedBy } from "./ops.ts";
import type { ResolvedOptions } from "./options.ts";
import type { Vocabulary } from "../match/vocabulary.ts";

export interface LocatedOp {
  /** One candidate, or every occurrence under replaceAll. */
  candidates: Candidate[];
  strategy: StrategyName;
  reading: Reading;
  resolvedBy?: ResolvedBy;
}

export interface LocateContext {
  ctx: MatchContext;
  opts: ResolvedOptions;
  vocab: Vocabulary;
  /** The hint in the coordinates of the searched text. */
  hintLine: number | undefined;
  prevEnd: number;
  ask?: ((op: EditOp, pool: readonly Candidate[]) => number | undefined) | undefined;
  /** The syntax tie-break among places of a non-exact strategy (apply-ops.ts builds it when the options carry a judge). */
  decide?: ((op: EditOp, reading: Reading, pool: readonly Candidate[]) => number | undefined) | undefined;
  /** Only candidates scoring 1 count (a second try of an op that lost an overlap). */
  exactOnly?: boolean;
}

export function queryOf(reading: Reading): Query {
  return reading.lines ? queryFromLines(reading.lines.find, false) : createQuery(reading.find);
}

function strategiesFor(l: LocateContext, op: EditOp, q: Query): readonly Strategy[] {
  if (op.readings[0]?.lines && q.trimmed.every((t) => t === "")) return [blankRuns];
  // A diff's lines are real lines: a literal `\n` in one is the code's own, never a line break the
  // model escaped (issue 22, item 10; a text with no real break is un-escaped whole, unescape-whole.ts).
  const all = op.readings[0]?.lines && q.text.includes("\\n") ? l.opts.preset.strategies.filter((s) => s.name !== "escape-normalized") : l.opts.preset.strategies;
  // replaceAll needs exact-after-normalisation strategies; MultiOccurrence serves only it.
  return op.hints.replaceAll ? all.filter((s) => s.exact) : all.filter((s) => s.name !== "multi-occurrence");
}

/** Distinct, non-overlapping ranges in document order (replaceAll). */
function nonOverlapping(cands: Candidate[]): Candidate[] {
  // The cascade hands them in order, mostly apart: then they are the answer
  // as they are (no copy, no sort of a million).
  let apart = true;
  for (let k = 1; k < cands.length && apart; k++) apart = (cands[k - 1] as Candidate).end <= (cands[k] as Candidate).start;
  if (apart) return cands;
  const out: Candidate[] = [];
  let end = -1;
  for (const c of [...cands].sort((a, b) => a.start - b.start)) {
    if (c.start < end) continue;
    out.push(c);
    end = c.end;
  }
  return out;
}

/** A find text of whole lines: a SEARCH section, or text that ends a line or starts with indentation. */
function lineShaped(op: EditOp, q: Query): boolean {
  return !op.hints.replaceAll && (op.hints.wholeLines === true || q.endsWithNewline || /^[ \t]/.test(q.text));
}

/**
 * Places of a line-shaped find text, by tier: whole lines; else
 * whole lines re-indented (the place starts inside a line's indentation); else
 * places inside longer lines. A place inside a longer line never makes a
 * whole-line place ambiguous. A find text that starts with indentation
 * (`indented`) is never read inside a longer line by a strategy that
 * loosened its whitespace: `      x.delete(k)` is not the `x.delete(k)` of
 * `return x.delete(k)` (a re-sent edit's old line, gone, found there).
 * A SEARCH section (`wholeLines`) is lines by its format: it is never read
 * inside a longer line at all (`StringIO,` is not the start of
 * `StringIO, unicode,`; issue 32).
 */
function wholeLinesFirst(doc: Document, cands: Candidate[], indented: boolean, wholeLines: boolean): Candidate[] {
  if (cands.length < 2 && !indented && !wholeLines) return cands;
  const whole: Candidate[] = [];
  const reindented: Candidate[] = [];
  const t = doc.text;
  // Per line, where its text starts and where its trailing blank space starts: one scan a line, not one a place.
  const textStart = new Map<number, number>();
  const blankTail = new Map<number, number>();
  const startOfText = (line: number): number => {
    let at = textStart.get(line);
    if (at === undefined) {
      const end = doc.lineEnd(line);
      at = doc.lineStart(line);
      while (at < end && (t[at] === " " || t[at] === "\t")) at++;
      textStart.set(line, at);
    }
    return at;
  };
  const startOfBlankTail = (line: number): number => {
    let at = blankTail.get(line);
    if (at === undefined) {
      const begin = doc.lineStart(line);
      at = doc.lineEnd(line);
      while (at > begin && /\s/.test(t[at - 1] ?? "")) at--;
      blankTail.set(line, at);
    }
    return at;
  };
  for (const c of cands) {
    if (c.lineBased) {
      whole.push(c);
      continue;
    }
    const endsLine = c.end === t.length || t[c.end] === "\n" || t[c.end - 1] === "\n" || c.end >= startOfBlankTail(c.endLine - 1);
    if (!endsLine) continue;
    // A SEARCH line is the whole line: the trailing blank space the model did not see goes with it
    // (left, it ended up after the added words: accuracy trailing-whitespace case 602).
    const lineEnd = doc.lineEnd(c.endLine - 1);
    const place = wholeLines && c.end < lineEnd && t[c.end - 1] !== "\n" ? { ...c, end: lineEnd } : c;
    if (c.start === doc.lineStart(c.startLine)) whole.push(place);
    else if (c.start <= startOfText(c.startLine)) reindented.push(place);
  }
  const tier = whole.length > 0 ? whole : reindented;
  if (tier.length > 0 || wholeLines) return tier;
  return indented ? cands.filter((c) => c.strategy === "exact" || c.start <= startOfText(c.startLine)) : cands;
}

type Attempt = { found: LocatedOp } | { error: EditError };

/**
 * The exact match that starts on the hinted line, found without listing
 * every other place: the resolver's first rule picks it whatever else
 * matches, and in a periodic file "everything else" is every line (a
 * numbered hunk on 40k equal lines built 40k candidates, ~50 ms a hunk).
 * Undefined when the fast path does not apply or finds no such match; the
 * cascade then runs as usual.
 */
function exactAtHint(l: LocateContext, op: EditOp, reading: Reading, q: Query, strategies: readonly Strategy[]): LocatedOp | undefined {
  const hint = l.hintLine;
  const doc = l.ctx.doc;
  if (hint === undefined || !Number.isInteger(hint) || hint < 1 || q.text === "") return undefined;
  if (strategies[0]?.name !== "exact" || op.hints.replaceAll || op.hints.after !== undefined) return undefined;
  const text = doc.text;
  // The text's first match (a scan the check below needs anyway) is numbered first, by counting breaks
  // (count-breaks.ts): a fresh document would otherwise record every line start up to the hint, one
  // indexOf each (a hunk at line 100k of typescript.js: ~2 ms, twice one scan of the file). No match
  // starts on a line before it: a hint there finds none, as the checks below would.
  const first = text.indexOf(q.text);
  if (first === -1 || doc.lineAt(first) > hint - 1 || !doc.hasLine(hint - 1)) return undefined;
  const lineStart = doc.lineStart(hint - 1);
  const lineEnd = doc.lineEnd(hint - 1);
  let cand: Candidate;
  if (reading.lines) {
    // Whole lines from the start of the hinted line, as a hunk means them.
    const last = hint - 2 + q.lines.length;
    if (!doc.hasLine(last) || !text.startsWith(q.text, lineStart) || lineStart + q.text.length !== doc.lineEnd(last)) return undefined;
    cand = lineCandidate(l.ctx, q, hint - 1, q.lines.length, "exact", 1);
  } else {
    const at = text.indexOf(q.text, lineStart);
    // One match starting on that line (two there are the resolver's to weigh).
    if (at === -1 || at > lineEnd) return undefined;
    const next = text.indexOf(q.text, at + 1);
    if (next !== -1 && next <= lineEnd) return undefined;
    cand = rangeCandidate(l.ctx, q, at, at + q.text.length, "exact", 1);
  }
  // Said to be chosen by the hint only when another place matches too (as the resolver says it).
  const elsewhere = first !== cand.start || text.indexOf(q.text, cand.start + 1) !== -1;
  return { candidates: [cand], strategy: "exact", reading, ...(elsewhere && { resolvedBy: "line-hint" as const }) };
}

/**
 * What the resolver reads of a reading's search; `lineCount` asked of the
 * document only when read (the end-of-file rules; a fresh document would
 * build its whole line table for it).
 *
 * A class, its getter on the prototype: a getter written in an object
 * literal is a new function each time, and V8 gives the object a new map
 * holding it, which its minor collector keeps alive (the getter's scope with
 * the document and its text) until a major collection: every case's text
 * and document were promoted so (the engine's `replace` on the real exact
 * edits' files, 4 passes: 70 MB promoted by the scavenges, 0.1 without).
 */
class ReadingInput implements ResolveInput {
  constructor(
    readonly hints: ResolveInput["hints"],
    readonly hintLine: number | undefined,
    readonly hintWindow: number,
    readonly prevEnd: number,
    private readonly doc: Document,
    readonly ask: ResolveInput["ask"],
    readonly decide?: ResolveInput["decide"],
  ) {}

  get lineCount(): number {
    return this.doc.lineCount;
  }
}

function locateReading(l: LocateContext, op: EditOp, reading: Reading): Attempt {
  const q = queryOf(reading);
  const { ctx, opts } = l;
  const doc = ctx.doc;
  const strategies = strategiesFor(l, op, q);
  const atHint = exactAtHint(l, op, reading, q, strategies);
  if (atHint) return { found: atHint };
  const stopOnAmbiguity = opts.preset.stopOnAmbiguity;
  const ask = l.ask ? (pool: readonly Candidate[]) => l.ask?.(op, pool) : undefined;
  const resolveInput = new ReadingInput(op.hints, l.hintLine, opts.hintWindow, l.prevEnd, doc, ask);
  // Syntax weighs places of a non-exact strategy only: an exact match is literal wherever it stands.
  // (So the place cap below, which cuts the exact strategy's places only, never hides a place it would weigh.)
  const decideFor = (strategy: StrategyName): ResolveInput =>
    l.decide && strategy !== "exact" ? new ReadingInput(op.hints, l.hintLine, opts.hintWindow, l.prevEnd, doc, ask, (pool) => l.decide?.(op, reading, pool)) : resolveInput;
  // The answer certain from MAX_PLACES places (and those the order and file-edge rules read): the exact search stops there (place-cap.ts).
  const cap = planCap(op, l.hintLine, l.ask !== undefined, l.prevEnd, strategies);
  // The exact strategy's candidates as the resolver saw them, for the cap's check.
  let exactPool: readonly Candidate[] = [];
  const search = (cascade: readonly Strategy[]) => runCascade<{ cands: Candidate[]; resolvedBy?: ResolvedBy }>(
    ctx,
    q,
    cascade,
    stopOnAmbiguity,
    (cands, strategy) => {
      if (strategy === "exact") exactPool = cands;
      if (op.hints.replaceAll) return { found: { cands: nonOverlapping(cands) } };
      const input = decideFor(strategy);
      const r = resolveCandidates(cands, input);
      if (!("cand" in r)) return { ambiguous: r.pool };
      // A lone whitespace-tolerant or similarity match whose lines fit elsewhere as well
      // (see rival.ts) is one of two places: the hint may tell them apart, else ambiguous.
      const hintStart = l.hintLine === undefined ? undefined : l.hintLine - 1;
      // Order only ruled out the places before the previous edit: a rival after it still competes.
      const rival = stopOnAmbiguity && ruleOn("rival") && (!r.resolvedBy || r.resolvedBy === "order" || r.resolvedBy === "syntax") ? findRival(ctx, q, r.cand, hintStart) : undefined;
      if (rival?.supersedes) return { found: { cands: [rival.cand] } };
      if (rival) {
        const pair = [r.cand, rival.cand].sort((a, b) => a.start - b.start);
        const decided = resolveCandidates(pair, input);
        if (!("cand" in decided)) return { ambiguous: decided.pool };
        return { found: { cands: [decided.cand], ...(decided.resolvedBy && { resolvedBy: decided.resolvedBy }) } };
      }
      return { found: { cands: [r.cand], ...(r.resolvedBy && { resolvedBy: r.resolvedBy }) } };
    },
    (cands) => {
      const lines = reading.lines ? wholeLineCandidates(doc, cands) : lineShaped(op, q) ? wholeLinesFirst(doc, cands, /^(\t| {2})/.test(q.text), op.hints.wholeLines === true) : cands;
      const after = op.hints.after;
      const below = after === undefined ? lines : lines.filter((c) => c.startLine >= after);
      return l.exactOnly || reading.looser ? below.filter((c) => c.score >= 1) : below;
    },
    (strategy) => {
      opts.budget.check(`the ${strategy} search of ${op.origin.label || "the edit"}`);
      opts.allowance.enter(op, strategy, q.text, ctx.doc.text.length);
    },
  );
  // A SEARCH section's exact places through the line index, where it has one (whole-line-exact.ts).
  const lined = (s: readonly Strategy[]) => (op.hints.wholeLines === true && !reading.lines && !op.hints.replaceAll ? wholeLineExact(s) : s);
  // The steps of a search beyond exact text count against the call's allowance (search-allowance.ts).
  const counted = (s: readonly Strategy[]) => {
    const before = ctx.steps();
    try {
      return search(lined(s));
    } finally {
      opts.allowance.add(op, ctx.steps() - before);
    }
  };
  let run = counted(cap?.strategies ?? strategies);
  const capped = cap?.capped() === true;
  // Cut short where the places kept may not decide as all of them would: the full search answers.
  const fromExact = run.found ? run.found.strategy === "exact" : run.ambiguous?.strategy === "exact";
  if (capped && !(fromExact && cap?.certain(exactPool))) run = counted(strategies);
  const more = capped && run.ambiguous !== undefined && !run.found && run.ambiguous.strategy === "exact";
  if (run.found) {
    const { cands, resolvedBy } = run.found.value;
    return { found: { candidates: cands, strategy: run.found.strategy, reading, ...(resolvedBy && { resolvedBy }) } };
  }
  if (run.ambiguous) {
    const { strategy, cands } = run.ambiguous;
    const hint = op.hints.startLine;
    throw ambiguityError(doc, strategy, cands, l.vocab, { ...(hint !== undefined && { hint }), hintWindow: opts.hintWindow, ...(more && { more: true }) });
  }
  return { error: notFoundError(ctx, q, run.tried, l.vocab) };
}

/**
 * The op's place(s), or an EditError: AMBIGUOUS from the first reading that
 * found several places; NOT_FOUND from the stripped reading when there is
 * one (its closest match compares text with text rather than with numbers).
 */
export function locateOp(l: LocateContext, op: EditOp): LocatedOp {
  let kept: { error: EditError; reading: Reading } | undefined;
  // A spent allowance stops a reading's search past exact text, not the exact search of the readings after
  // it (a numbered SEARCH section whose numbers stripped are the file's text): its refusal is thrown last.
  let spent: EditError | undefined;
  for (const reading of op.readings) {
    let attempt: Attempt;
    try {
      attempt = locateReading(l, op, reading);
    } catch (error) {
      if (!(error instanceof EditError && error.detail.reason === "fuzzy-allowance")) throw error;
      spent ??= error;
      continue;
    }
    if ("found" in attempt) return attempt.found;
    if (!kept || (reading.stripped && !kept.reading.stripped)) kept = { error: attempt.error, reading };
  }
  if (spent) throw spent;
  if (!kept) throw new EditError("INVALID_INPUT", `${l.vocab.find} is missing.`);
  throw kept.error;
}

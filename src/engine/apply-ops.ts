/**
 * `applyOps`: the one applier behind every format.
 *
 *   locate (cascade) -> resolve (hints) -> plan (splice) -> overlaps -> render -> second tries
 *
 * 1. Every op is located in the text as given, in input order, and planned
 *    against that same text, so one op's replacement is never mistaken for
 *    another op's find text. Ops in file order (diff hunks) carry the end of
 *    the previous op and the drift of its line hint forward.
 * 2. Overlapping ops are settled by their policy: line edits that both
 *    `merge` are combined line by line (CONFLICT when they insert different
 *    lines at one place); otherwise the better match stays and the other is
 *    retried (`retry`) or fails as CONFLICT.
 * 3. Everything accepted is written in one pass over the original text.
 * 4. Ops with the `retry` policy that were not found, ambiguous, or lost an
 *    overlap get a second try, one at a time, in the text as edited: models
 *    write an op that edits what an earlier one produced, or a bare op for
 *    the one copy an earlier op did not take. Their hints, which count lines
 *    of the original, are shifted by the edits applied above them. An op that
 *    still fails reports the error about the text the model read.
 */
import { EditError } from "../errors.ts";
import { checkLimit } from "../limits.ts";
import { createContext } from "../match/anchors.ts";
import { SCANS_BEFORE_INDEX } from "../match/line-index.ts";
import type { Candidate, MatchContext } from "../match/types.ts";
import { Document } from "../text/document.ts";
import { countBreaks } from "../text/count-breaks.ts";
import { lineEditsOverlap, type LineEdit, mergeLineEdits, newLinesAt, renderLineEditsWithChange, spliceDelta } from "./line-edits.ts";
import { type Place, readsTheSame, standsAmongCandidates, standsAroundMatch, standsInstead, standsVerbatim } from "./already-applied.ts";
import { readCrAsBreaks, readCrsLfAsBreaks } from "./cr-lines.ts";
import { type LocateContext, type LocatedOp, locateOp, queryOf } from "./locate-op.ts";
import { notFoundNotes, withOrigin } from "./op-messages.ts";
import { exactLines, exactRangeWarnings, repeatWarnings, withWarnings } from "./exact-report.ts";
import { ruleOn } from "./rules.ts";
import { type AppliedOp, type EditOp, type EditReport, type FailedOp, isFuzzy, type LineShift, placedOp, type Reading, type TextChange } from "./ops.ts";
import type { ResolvedOptions } from "./options.ts";
import { MAX_PARTS, planSplice, renderSplicesWithChange, type Splice } from "./splice.ts";
import { MAX_JUDGED, pickBySyntax, type SyntaxJudge } from "./syntax-decide.ts";
import { capitalize, type Vocabulary } from "../match/vocabulary.ts";
import { count } from "../text/plural.ts";

export interface ApplyOpsOptions {
  opts: ResolvedOptions;
  vocab: Vocabulary;
  /** Last resort for an ambiguous op: index into the candidates, or undefined to refuse. */
  ask?: (op: EditOp, pool: readonly Candidate[]) => number | undefined;
  /** Edits already made to the original text the hints count lines of (an earlier diff of a list). @default [] */
  shifts?: readonly LineShift[];
}

/** An op planned against one text: its splices (several under replaceAll), or one line edit. */
interface Planned {
  op: EditOp;
  splices: Splice[];
  line?: LineEdit;
  report: AppliedOp;
  /** The reports of the ops merged into this one line edit. */
  merged?: AppliedOp[];
  /** Located by a looser reading (a hunk with context dropped). */
  looser?: boolean;
  /** Written as sent by an exact match, reading no line but its place's (EditReport.literal). */
  literal?: boolean;
}

interface Retry {
  op: EditOp;
  error: EditError;
  exactOnly?: boolean;
}

type LogEntry = LineShift;


/** Maps a 1-based line of the original through the edits applied since: below one it moves by its delta, inside one to its first line. */
function shiftHint(hint: number | undefined, log: readonly LogEntry[]): number | undefined {
  if (hint === undefined) return undefined;
  let line = hint - 1;
  for (const e of log) {
    if (line >= e.end) line += e.delta;
    else if (line >= e.start) line = e.start;
  }
  return Math.max(1, line + 1);
}

function asEditError(error: unknown): EditError {
  if (error instanceof EditError) return error;
  return new EditError("INVALID_INPUT", `Unexpected failure while applying the edit: ${String(error)}`);
}

function appliedOf(op: EditOp, l: LocatedOp, lineDelta: number): AppliedOp {
  const first = l.candidates[0];
  const last = l.candidates[l.candidates.length - 1];
  let score = 1;
  for (const c of l.candidates) score = Math.min(score, c.score);
  return {
    op,
    strategy: l.strategy,
    startLine: (first?.startLine ?? 0) + 1,
    endLine: last?.endLine ?? 0,
    score,
    fuzzy: isFuzzy(l.strategy),
    count: l.candidates.length,
    lineDelta,
    ...(l.resolvedBy && { resolvedBy: l.resolvedBy }),
    merged: false,
    retried: false,
  };
}

/**
 * For a same-size match, the splice reading whose old side equals more
 * lines of the region exactly (a diff's context lines that lost their
 * prefix may really start with a space).
 */
function spliceReading(doc: Document, op: EditOp, cand: Candidate, found: Reading): Reading {
  const alt = op.spliceReading;
  if (!alt?.lines || !found.lines || cand.alignment || cand.rewrite) return found;
  if (cand.endLine - cand.startLine !== cand.query.lines.length) return found;
  const file = doc.lines(cand.startLine, cand.endLine);
  const equal = (ls: readonly string[]) => ls.filter((x, k) => x === file[k]).length;
  return equal(alt.lines.find) > equal(cand.query.lines) ? alt : found;
}

/** A line op with nothing to find: a new file's content, or lines inserted where the hint says. */
function placeInsertion(doc: Document, op: EditOp, hintLine: number | undefined, vocab: Vocabulary): Planned {
  const lines = [...(op.readings[0]?.lines?.replace ?? [])];
  // An insertion point: lines from + 1 .. from (none replaced).
  const report = (from: number, strategy: "create" | "line-hint") => placedOp(op, strategy, from + 1, from, lines.length);
  const n = doc.lineCount;
  if (n === 0) return { op, splices: [], line: { from: 0, to: 0, lines }, report: report(0, "create") };
  if (hintLine === undefined) throw new EditError("PARSE", vocab.emptyFind);
  const gap = hintLine - 1;
  if (gap < 0 || gap > n) {
    throw new EditError(
      "NOT_FOUND",
      `${vocab.emptyFindAt(gap)}, but the file has ${n} lines. ${vocab.moreContext} around the insertion point so that it can be found by its text.`,
    );
  }
  return { op, splices: [], line: { from: gap, to: gap, lines }, report: report(gap, "line-hint") };
}

function finalNewlineNotAtEnd(doc: Document, from: number, to: number): EditError {
  const where = from === to ? `after line ${from}` : `at lines ${from + 1}-${to}`;
  return new EditError(
    "NOT_FOUND",
    `It changes the file's final newline ('\\ No newline at end of file'), so it must reach the end of the file, but it was placed ${where} and the file has ${count(doc.lineCount - to, "more line", "more lines")} after that. Include the lines up to the end of the file, or drop the marker.`,
    { candidates: [{ startLine: from + 1, endLine: to }] },
  );
}

function planOp(doc: Document, l: LocateContext, op: EditOp): Planned {
  const first = op.readings[0];
  if (first?.lines && first.lines.find.length === 0) return placeInsertion(doc, op, l.hintLine, l.vocab);
  return planLocated(doc, l, op, locateOp(l, op));
}

/**
 * The syntax tie-break of one text (syntax-decide.ts): each tied place is
 * planned and rendered on its own, as this op alone would write the file,
 * and the judge compares the results. A place that cannot be planned is
 * unknown (no decision).
 */
function syntaxDecider(doc: Document, l: LocateContext, judge: SyntaxJudge): NonNullable<LocateContext["decide"]> {
  return (op, reading, pool) => {
    if (pool.length > MAX_JUDGED) return undefined;
    const texts = pool.map((cand) => {
      try {
        return render(doc, [planLocated(doc, l, op, { candidates: [cand], strategy: cand.strategy, reading })]).text;
      } catch {
        return undefined;
      }
    });
    return pickBySyntax(doc.raw, texts, judge);
  };
}

function planLocated(doc: Document, l: LocateContext, op: EditOp, located: LocatedOp): Planned {
  const reading = located.reading;
  if (reading.lines) {
    const cand = located.candidates[0] as Candidate;
    if (op.finalNewline !== undefined && cand.endLine !== doc.lineCount) throw finalNewlineNotAtEnd(doc, cand.startLine, cand.endLine);
    const r = spliceReading(doc, op, cand, reading);
    const rl = r.lines ?? reading.lines;
    const same = rl.find.length === rl.replace.length && rl.find.every((x, k) => x === rl.replace[k]);
    // The strategy's reading of the find text (un-escaped, numbers stripped) unless the splice reading won.
    const query = r === reading ? cand.query : queryOf(r);
    const literal = located.strategy === "exact" && ruleOn("exact-literal") ? exactLines(doc, cand, rl) : undefined;
    const lines = same ? doc.lines(cand.startLine, cand.endLine) : (literal ?? newLinesAt(doc, { ...cand, query }, rl.replace, l.opts.strategy, l.vocab, l.opts.judge));
    const line = { from: cand.startLine, to: cand.endLine, lines };
    const report = withWarnings(appliedOf(op, located, lines.length - (line.to - line.from)), literal && repeatWarnings(doc, cand.startLine, cand.endLine, rl.find, lines));
    return { op, splices: [], line, report, ...(reading.looser && { looser: true }), literal: literal !== undefined };
  }
  // replaceAll: a candidate sharing its line with another is spliced literally
  // (widened to the line, each would copy the whole line: memory without end on one huge line).
  // One pass, no object per candidate but its splice: there may be a million.
  const cands = located.candidates;
  const splices: Splice[] = new Array(cands.length);
  // Two option objects per op, not one per place.
  const sharing = { sharesLine: true, words: l.vocab };
  // The syntax judge weighs a single place's readings (merge.ts), never each of replaceAll's many.
  const own = { sharesLine: false, words: l.vocab, ...(cands.length === 1 && l.opts.judge && { judge: l.opts.judge }) };
  let delta = 0;
  let literal = true;
  for (let k = 0; k < cands.length; k++) {
    const c = cands[k] as Candidate;
    const sharesLine = (cands[k - 1]?.endLine ?? -1) > c.startLine || (cands[k + 1]?.startLine ?? Number.POSITIVE_INFINITY) < c.endLine;
    const s = planSplice(doc, c, reading.replace, l.opts.strategy, sharesLine ? sharing : own);
    splices[k] = s;
    delta += spliceDelta(doc, s);
    if (!s.literal) literal = false;
    // Each place's line, for the file layer, which would count the lines between places far apart (carried-text.ts).
    // A literal splice starts on its place's line, or at the break before it (a last line deleted with that break).
    else if (cands.length > 1 && cands.length <= MAX_PARTS) s.line = s.start < c.start && doc.text.charCodeAt(s.start) === 10 ? c.startLine - 1 : c.startLine;
  }
  const report = appliedOf(op, located, delta);
  const only = cands.length === 1 ? splices[0] : undefined;
  if (!only || located.strategy !== "exact") return { op, splices, report, literal };
  if (only.exception) report.exception = only.exception;
  return { op, splices, report: withWarnings(report, exactRangeWarnings(doc, cands[0] as Candidate, only)), literal };
}

function unchanged(doc: Document, p: Planned): boolean {
  const line = p.line;
  if (line) return line.lines.length === line.to - line.from && line.lines.every((x, k) => x === doc.line(line.from + k));
  return p.splices.every((s) => s.text === doc.text.slice(s.start, s.end));
}

/**
 * An op that changes nothing: ALREADY_APPLIED when the file at the matched
 * place already reads as the replacement (a SEARCH equal to its REPLACE, a
 * block sent again), else NO_CHANGE (the replacement differs from the file
 * only in what the merge keeps of the file's: the model should look again).
 */
function noChangeError(doc: Document, p: Planned, vocab: Vocabulary): EditError {
  const r = p.report;
  const place = { startLine: r.startLine, endLine: r.endLine };
  const region = doc.lines(r.startLine - 1, r.endLine);
  if (p.op.readings.some((x) => readsTheSame(region, x.lines ? x.lines.replace : x.replace.split("\n")))) {
    return new EditError("ALREADY_APPLIED", `already applied (lines ${r.startLine}-${r.endLine} already read as ${vocab.replacement}); nothing to do.`, place);
  }
  return new EditError(
    "NO_CHANGE",
    `${capitalize(vocab.find)} was found at lines ${r.startLine}-${r.endLine} (${r.strategy}), but applying ${vocab.replacement} there changes nothing: the file already reads that way. Check that ${vocab.replacement} holds the intended change.`,
    { candidates: [{ startLine: r.startLine, endLine: r.endLine, strategy: r.strategy, score: r.score }] },
  );
}

/** ALREADY_APPLIED for an op whose new text stands at `at` (0-based, half-open); the detail carries 1-based lines. */
function alreadyAppliedError(at: Place, why: string): EditError {
  const lines = { startLine: at.startLine + 1, endLine: at.endLine };
  return new EditError("ALREADY_APPLIED", `already applied (its new text is at lines ${lines.startLine}-${lines.endLine}; ${why}); nothing to do.`, lines);
}

/** Offsets the planned op covers in the original text, for overlap checks. */
function spanOf(doc: Document, p: Planned): { start: number; end: number } {
  if (p.line) return { start: doc.lineStart(p.line.from), end: p.line.to > p.line.from ? doc.lineEnd(p.line.to - 1) : doc.lineStart(p.line.from) };
  let start = Number.POSITIVE_INFINITY;
  let end = 0;
  for (const s of p.splices) {
    start = Math.min(start, s.start);
    end = Math.max(end, s.end);
  }
  return { start, end };
}

function overlapping(doc: Document, a: Planned, b: Planned): boolean {
  if (a.line && b.line) return lineEditsOverlap(a.line, b.line);
  const x = spanOf(doc, a);
  const y = spanOf(doc, b);
  if (x.start === x.end && y.start === y.end) return x.start === y.start;
  return x.start < y.end && y.start < x.end;
}

function conflictError(loser: Planned, winner: Planned, vocab: Vocabulary, how: string): EditError {
  const range = (p: Planned) => `lines ${p.report.startLine}-${p.report.endLine}`;
  const name = (p: Planned) => (p.op.origin.label ? p.op.origin.label.charAt(0).toLowerCase() + p.op.origin.label.slice(1) : `edit ${p.op.origin.index + 1}`);
  return new EditError(
    "CONFLICT",
    `It overlaps ${name(winner)}: ${vocab.find} of this one matched ${range(loser)}, that of the other ${range(winner)}${how}. Merge the two into one, or make them cover different lines.`,
    {
      candidates: [winner, loser].map((p) => ({ startLine: p.report.startLine, endLine: p.report.endLine, strategy: p.report.strategy, score: p.report.score })),
    },
  );
}

/** Groups of overlapping planned ops in file order; linear after the sort. */
function overlapGroups(doc: Document, planned: Planned[]): Planned[][] {
  const sorted = [...planned].sort((a, b) => spanOf(doc, a).start - spanOf(doc, b).start || spanOf(doc, a).end - spanOf(doc, b).end || a.op.origin.index - b.op.origin.index);
  const groups: Planned[][] = [];
  let current: Planned[] = [];
  for (const p of sorted) {
    if (current.some((q) => overlapping(doc, q, p))) current.push(p);
    else {
      if (current.length > 0) groups.push(current);
      current = [p];
    }
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

/** Settles one group of overlapping ops: merged, or the best kept and the rest retried or failed. */
function settleGroup(doc: Document, group: Planned[], vocab: Vocabulary, retry: Retry[], failed: FailedOp[]): Planned | undefined {
  if (group.length === 1) return group[0];
  if (group.every((p) => p.line && p.op.overlap === "merge")) {
    try {
      const line = mergeLineEdits(
        doc,
        group.map((p) => p.line as LineEdit),
        (a, b, at) => {
          const [x, y] = [group[a], group[b]].sort((m, n) => (m?.op.origin.index ?? 0) - (n?.op.origin.index ?? 0)) as [Planned, Planned];
          return withOrigin(conflictError(y, x, vocab, ` and the two insert different lines before line ${at + 1}`), y.op);
        },
      );
      const reports = group.map((p) => ({ ...p.report, merged: true }));
      const head = reports[0] as AppliedOp;
      return { op: head.op, splices: [], line, report: head, merged: reports };
    } catch (error) {
      const e = asEditError(error);
      const loser = group.find((p) => p.op.origin.index === e.detail.index) ?? group[group.length - 1];
      if (loser) failed.push({ op: loser.op, error: e });
      return undefined;
    }
  }
  // The better match stays (the earlier in the file on a tie).
  let keep = group[0] as Planned;
  for (const p of group) if (p.report.score > keep.report.score) keep = p;
  for (const p of group) {
    if (p === keep) continue;
    const error = withOrigin(conflictError(p, keep, vocab, ""), p.op);
    if (p.op.overlap === "retry") retry.push({ op: p.op, error, exactOnly: true });
    else failed.push({ op: p.op, error });
  }
  return keep;
}

function logOf(doc: Document, p: Planned): LogEntry[] {
  if (p.line) return [{ start: p.line.from, end: p.line.to, delta: p.line.lines.length - (p.line.to - p.line.from) }];
  const out: LogEntry[] = [];
  for (const s of p.splices) {
    const delta = spliceDelta(doc, s);
    const last = Math.max(s.start, s.end - 1);
    // Inside one line and adding none, a splice moves no hint (shiftHint maps
    // its line to itself): left out, as replaceAll makes up to a million (330 ms of 1 s).
    if (delta === 0 && countBreaks(doc.text, s.start, last) === 0) continue;
    out.push({ start: doc.lineAt(s.start), end: doc.lineAt(last) + 1, delta });
  }
  return out;
}

function render(doc: Document, accepted: readonly Planned[]): { text: string; change?: TextChange; parts?: TextChange[] } {
  if (accepted.some((p) => p.line)) {
    let want: boolean | undefined;
    for (const p of accepted) {
      if (p.op.finalNewline !== undefined) want = p.op.finalNewline;
      // A new file's content ends with a line break unless the op says otherwise.
      else if (p.report.strategy === "create") want = true;
    }
    return renderLineEditsWithChange(
      doc,
      accepted.map((p) => p.line ?? { from: 0, to: 0, lines: [] }),
      want,
    );
  }
  // One op's splices as they are (replaceAll's million are not copied).
  if (accepted.length === 1) return renderSplicesWithChange(doc, (accepted[0] as Planned).splices);
  const splices: Splice[] = [];
  for (const p of accepted) for (const s of p.splices) splices.push(s);
  return renderSplicesWithChange(doc, splices);
}

/** One op located and planned in `doc`, or its failure (already labelled). */
/** Failures of ops already located in this text, by what decides them: a model repeating one block 500 times is located once. */
type FailureMemo = Map<string, { code: EditError["code"]; message: string; detail: EditError["detail"] }>;

/** What decides an op's place in one text, when the previous op does not (ops in file order depend on it). */
function memoKey(op: EditOp, l: LocateContext): string | undefined {
  if (op.hints.inOrder || op.hints.after !== undefined) return undefined;
  const readings = op.readings.map((r) => `${r.find}\u0000${r.replace}\u0000${r.lines ? "L" : ""}`).join("\u0001");
  return `${readings}\u0002${l.hintLine ?? ""}\u0002${op.hints.replaceAll ?? ""}\u0002${l.exactOnly ?? ""}`;
}

function tryPlan(doc: Document, l: LocateContext, op: EditOp, a: ApplyOpsOptions, memo?: FailureMemo): Planned | EditError {
  const key = memo ? memoKey(op, l) : undefined;
  const known = key === undefined ? undefined : memo?.get(key);
  if (known) return withOrigin(new EditError(known.code, known.message, { ...known.detail }), op);
  try {
    const p = planOp(doc, l, op);
    const applied = ruleOn("already-applied");
    // Found only by a looser reading (context dropped): the whole new side standing once says it was applied before.
    const before = p.looser && applied ? standsInstead(l.ctx, op) : undefined;
    if (before) return withOrigin(alreadyAppliedError(before, "its old text is found only with context dropped"), op);
    const stands = !applied || p.report.strategy === "create" || p.report.strategy === "line-hint" ? undefined : standsAroundMatch(l.ctx, op, { startLine: p.report.startLine - 1, endLine: p.report.endLine });
    if (stands) return withOrigin(alreadyAppliedError(stands, "its old text stands only inside its new text"), op);
    // Found only by a similarity strategy while the new text stands verbatim elsewhere: the edit was made there
    // and its old text is gone; the look-alike it found is another place (a sibling function), not its own.
    // A whole copy found with other whitespace (score 1) is a real copy still to change (one of several).
    const elsewhere = applied && p.report.fuzzy && p.report.score < 1 ? standsVerbatim(l.ctx, op, l.hintLine) : undefined;
    if (elsewhere) {
      const over = elsewhere.startLine < p.report.endLine && p.report.startLine - 1 < elsewhere.endLine;
      return withOrigin(alreadyAppliedError(elsewhere, over ? "its old text was read into the new text there" : "what its old text matched is a look-alike elsewhere"), op);
    }
    if (op.requireChange && unchanged(doc, p)) return withOrigin(noChangeError(doc, p, a.vocab), op);
    return p;
  } catch (error) {
    const e = asEditError(error);
    // Out of time: the whole call stops, nothing of it is kept.
    if (e.code === "TIMEOUT") throw e;
    if (e.code === "AMBIGUOUS" && ruleOn("already-applied")) {
      const cands = (e.detail.candidates ?? []).map((c) => ({ startLine: c.startLine - 1, endLine: c.endLine, strategy: c.strategy }));
      const stands = standsAmongCandidates(l.ctx, op, cands);
      if (stands) return withOrigin(alreadyAppliedError(stands, "every place its old text matches is inside its new text, or near-misses elsewhere"), op);
    }
    if (e.code === "NOT_FOUND") e.message += notFoundNotes(op, a.opts, l.ctx, e);
    if (key !== undefined && (e.code === "NOT_FOUND" || e.code === "AMBIGUOUS")) memo?.set(key, { code: e.code, message: e.message, detail: { ...e.detail } });
    return withOrigin(e, op);
  }
}

/** Limits checked before any work (TOO_LARGE names the limit and the option that raises it). */
function checkLimits(ops: readonly EditOp[], a: ApplyOpsOptions): void {
  checkLimit("maxEdits", ops.length, a.opts.limits);
  for (const op of ops) {
    const find = op.readings[0]?.find ?? "";
    checkLimit("maxFindLength", find.length, a.opts.limits, op.origin.label || undefined);
  }
}

export function applyOps(content: string, ops: readonly EditOp[], a: ApplyOpsOptions): EditReport {
  checkLimits(ops, a);
  a.opts.budget.check();
  const doc = Document.from(content);
  // A file of CR-terminated lines: the CRs a model copied into its edit are line breaks.
  const edits = doc.crLines ? ops.map(readCrAsBreaks) : doc.breakCrs > 1 ? ops.map(readCrsLfAsBreaks) : ops;
  const ctx = contextOf(doc, a.opts.strategy, () => a.opts.budget.check("the search"), edits.length);
  const failed: FailedOp[] = [];
  const retry: Retry[] = [];
  const planned: Planned[] = [];
  let prevEnd = 0;
  let drift = 0;
  const memo: FailureMemo = new Map();
  const prior = a.shifts ?? [];
  for (const op of edits) {
    // A place the user chose decides like a hint on the line where it starts.
    const chosen = a.opts.choices.get(op.origin.index);
    const hint = chosen ?? shiftHint(op.hints.startLine, prior);
    const hintLine = hint === undefined ? undefined : op.hints.inOrder && chosen === undefined ? Math.max(1, hint + drift) : hint;
    const l: LocateContext = { ctx, opts: a.opts, vocab: a.vocab, hintLine, prevEnd, ask: a.ask };
    if (a.opts.judge) l.decide = syntaxDecider(doc, l, a.opts.judge);
    const p = tryPlan(doc, l, op, a, memo);
    if (p instanceof EditError) {
      if (op.overlap === "retry" && (p.code === "NOT_FOUND" || p.code === "AMBIGUOUS")) retry.push({ op, error: p });
      else failed.push({ op, error: p });
      continue;
    }
    planned.push(p);
    if (op.hints.inOrder && p.line) {
      prevEnd = p.line.to;
      if (hint !== undefined) drift = p.line.from + 1 - hint;
    }
  }

  const accepted: Planned[] = [];
  const applied: AppliedOp[] = [];
  for (const group of overlapGroups(doc, planned)) {
    const p = settleGroup(doc, group, a.vocab, retry, failed);
    if (!p) continue;
    accepted.push(p);
    for (const r of p.merged ?? [p.report]) applied.push(r);
  }
  const rendered = accepted.length > 0 ? render(doc, accepted) : { text: content };
  let text = rendered.text;
  // The change stands for the text only until a retried op edits it further.
  let change = rendered.change;
  const parts = accepted.length === 1 ? rendered.parts : undefined;
  const log: LogEntry[] = [...prior];
  // Bottom-up, each entry's lines are still those of the text it applies to.
  const entries = accepted.flatMap((p) => logOf(doc, p)).sort((x, y) => y.start - x.start);
  for (const e of entries) log.push(e);

  const ordered = retry
    .map((r) => ({ ...r, hint: shiftHint(r.op.hints.startLine, log) }))
    .sort((x, y) => (x.hint ?? Number.POSITIVE_INFINITY) - (y.hint ?? Number.POSITIVE_INFINITY) || x.op.origin.index - y.op.origin.index);
  // One document and search context per text the retries see: it changes only when one succeeds, and a
  // thousand blocks repeated after their first copies applied (issue 39) each built both anew (~10 ms a block).
  let seen: RetryText | undefined;
  for (const r of ordered) {
    // A second try only in a text that something changed.
    if (accepted.length > 0 && seen?.text !== text) seen = retryText(text, a, ordered.length);
    const p = seen ? retryOp(seen, r, shiftHint(r.op.hints.startLine, log), a) : undefined;
    if (!p) {
      failed.push({ op: r.op, error: r.error });
      continue;
    }
    text = p.text;
    change = undefined;
    for (const e of p.log) log.push(e);
    applied.push({ ...p.report, retried: true });
  }
  failed.sort((x, y) => (x.op.origin.diffIndex ?? 0) - (y.op.origin.diffIndex ?? 0) || x.op.origin.index - y.op.origin.index);
  const literal = accepted.every((p) => p.literal === true && !p.merged);
  return { content: text, applied, failed, complete: failed.length === 0, shifts: log, ...(change && { change, ...(parts && { parts }), ...(literal && { literal: true as const }) }) };
}

/**
 * Search contexts of documents an owner keeps alive (`retained`: an editor,
 * the file cache, the file layer's current text), reused by the next call on
 * the same text with the same strategy options: a response's blocks, each its
 * own edit of one file, shared none of the scans, and 1,740 blocks anchored
 * on the `}` lines of a 435 kB file scanned them again each (~4 ms a block,
 * issue 39). The context's memos are answers about the text, so a kept one
 * answers as a fresh one would; only the budget is the call's own.
 */
const contexts = new WeakMap<Document, { strategy: ResolvedOptions["strategy"]; ctx: MatchContext; check: { now: () => void } }>();

function contextOf(doc: Document, strategy: ResolvedOptions["strategy"], check: () => void, edits: number): MatchContext {
  if (!doc.retained) return createContext(doc, strategy, check, edits);
  const kept = contexts.get(doc);
  const same = kept !== undefined && (Object.keys(strategy) as (keyof typeof strategy)[]).every((k) => Object.is(kept.strategy[k], strategy[k]));
  if (kept && same) {
    kept.check.now = check;
    return kept.ctx;
  }
  const holder = { now: check };
  // It serves the calls to come as well: its indexes are built as for a call of many edits.
  const ctx = createContext(doc, strategy, () => holder.now(), Math.max(edits, SCANS_BEFORE_INDEX));
  contexts.set(doc, { strategy, ctx, check: holder });
  return ctx;
}

/** The text the retries search, its document and its context (shared scans and line index), and their failures. */
interface RetryText {
  text: string;
  doc: Document;
  ctx: LocateContext["ctx"];
  memo: FailureMemo;
}

function retryText(text: string, a: ApplyOpsOptions, edits: number): RetryText {
  const doc = Document.from(text);
  return { text, doc, ctx: createContext(doc, a.opts.strategy, () => a.opts.budget.check("the search"), edits), memo: new Map() };
}

function retryOp(t: RetryText, r: Retry, hintLine: number | undefined, a: ApplyOpsOptions) {
  const current = t.doc;
  const l: LocateContext = { ctx: t.ctx, opts: a.opts, vocab: a.vocab, hintLine, prevEnd: 0, ...(r.exactOnly && { exactOnly: true }) };
  if (a.opts.judge) l.decide = syntaxDecider(current, l, a.opts.judge);
  const p = tryPlan(current, l, r.op, a, t.memo);
  if (p instanceof EditError) return undefined;
  // Bottom-up, as the first pass logs its entries.
  return { text: render(current, [p]).text, log: logOf(current, p).sort((x, y) => y.start - x.start), report: p.report };
}

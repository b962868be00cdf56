/**
 * `applyPatch()`: a unified diff or fuzzy unified diff (`@@ @@`) for ONE
 * file, applied on the shared engine (see unified-parse.ts for the grammar).
 *
 * How a patch is applied:
 *
 * 1. Parse. A patch for several files is INVALID_INPUT (the file layer,
 *    `applyEdits`, splits those). `--- /dev/null` applies to empty content
 *    only (CONFLICT otherwise); `+++ /dev/null` must remove every line and
 *    yields "".
 * 2. Locate every hunk's old side (context and `-` lines, as lines) in the
 *    ORIGINAL content, through the preset's cascade: every tolerance of
 *    `replace()` applies, and the deleted lines and the trailing context are
 *    checked like the leading context. A candidate must cover whole lines: a
 *    hunk line is a line, never a piece of one (`foo()` does not match inside
 *    `x = foo()`; only blank space may surround it, as re-indentation).
 * 3. Several candidates are narrowed, in this order, and only a single
 *    survivor is taken:
 *    - order: hunks come top to bottom, so the one candidate starting at or
 *      after the line where the previous hunk ended wins (the spec: hunks
 *      "should be processed in order");
 *    - `\ No newline at end of file`: the one candidate ending the file;
 *    - the header's old-start line (a standard diff), shifted by how far the
 *      previous hunk was from its own header line: a candidate starting
 *      exactly there, else `pickByHint` (clearly the nearest);
 *    - file boundary: a hunk with less context before its change than after
 *      it, and fewer than three lines, belongs at the start of the file, and
 *      the reverse at the end (diff(1) writes short context only there);
 *    - `resolveAmbiguity`, when given (the CLI asks the user).
 *    Otherwise AMBIGUOUS with every remaining candidate: never guess. With
 *    the default preset an ambiguous strategy stops the cascade, as in
 *    `locate()`.
 * 4. Splice each hunk's new side with `planSplice`: unchanged lines keep the
 *    file's bytes, added lines are re-indented to the file's indentation.
 *    Hunks that overlap (share a line) are merged line by line when they
 *    agree — a line deleted by one and kept as context by the other is
 *    deleted, insertions at one place must be identical — and are a
 *    CONFLICT otherwise. Adjacent hunks are independent.
 * 5. Every hunk is located before anything is applied, and all failures
 *    are reported together: one EditError whose message lists each failed
 *    hunk ("Hunk 2 (patch line 14): ...", with the closest text and how it
 *    differs) and whose `detail.failures` holds each one's code and detail.
 *    The error's code is the first failure's.
 *
 * Special hunks:
 * - Context only: verifies (fails if absent), changes nothing.
 * - Additions only, no context: there is nothing to locate, so it is valid
 *   only in an empty (new) file, or with a numbered header
 *   (`@@ -12,0 +13,2 @@` inserts after line 12); otherwise PARSE.
 * - Deletions only: located like any other hunk (the removed lines are the
 *   text to find). The fuzzy-diff spec calls this an invalid hunk, but
 *   `createPatch` with `context: 0` writes it and it is unambiguous when
 *   found once, so it is accepted.
 *
 * Final newline: a hunk whose old and new sides differ in
 * `\ No newline at end of file` sets the file's final newline exactly, and
 * must then end at the end of the file. Otherwise the file keeps its own
 * final newline (or lack of one) whatever lines are added or removed at its
 * end: models rarely write the marker, and deleting the first or last line
 * must not change it. Line endings and BOM are the file's (CRLF stays CRLF).
 */
import { appendAll, maxOf, minOf } from "../arrays.ts";
import { diffArrays } from "diff";
import { EditError, type EditErrorCode, type EditErrorDetail } from "../errors.ts";
import { createContext } from "../match/anchors.ts";
import { PRESETS, type Preset, type PresetName } from "../match/cascade.ts";
import { exact } from "../match/exact.ts";
import { lineTrimmed } from "../match/line-trimmed.ts";
import { pickByHint, runCascade } from "../match/locate.ts";
import { queryFromLines } from "../match/query.ts";
import { ambiguityError, notFoundError } from "../match/report.ts";
import { findRival } from "../match/rival.ts";
import type { Candidate, MatchContext, Query, Strategy, StrategyName } from "../match/types.ts";
import { planSplice, renderSplices, type Splice } from "../splice.ts";
import { Document } from "../text/document.ts";
import { isBlank } from "../text/normalize.ts";
import { type Hunk, parsePatch } from "./unified-parse.ts";

/** A place where an ambiguous hunk may go; 1-based inclusive lines of the original content. */
export interface HunkCandidate {
  startLine: number;
  endLine: number;
  strategy: StrategyName;
  score: number;
}

/** The hunk a `resolveAmbiguity` callback is asked about. */
export interface AmbiguousHunk {
  /** 0-based position of the hunk in the patch. */
  index: number;
  /** 1-based line of its header in the patch text. */
  line: number;
  /** Its old side (context and removed lines), joined with "\n". */
  oldText: string;
  /** Its new side (context and added lines), joined with "\n". */
  newText: string;
}

export interface ApplyPatchOptions {
  /** Which matcher cascade locates the hunks. @default "default" */
  preset?: PresetName;
  /**
   * Minimum similarity (0–1) for the similarity fallback.
   * @default the preset's value: 0.9 for "default", 1 for "opencode"
   */
  fuzzyThreshold?: number;
  /**
   * Called when a hunk still matches several places after order, line
   * hints and file boundaries were considered. Return the index of the
   * candidate to use, or undefined to refuse (the hunk then fails as
   * AMBIGUOUS). Synchronous; an index out of range counts as a refusal.
   * @default undefined (an ambiguous hunk fails)
   */
  resolveAmbiguity?: ((candidates: readonly HunkCandidate[], hunk: AmbiguousHunk) => number | undefined) | undefined;
}

/** How one hunk was applied. Lines are 1-based inclusive lines of the original content. */
export interface HunkReport {
  /** 0-based position of the hunk in the patch. */
  index: number;
  /** 1-based line of the hunk header in the patch text. */
  line: number;
  /** The cascade strategy that found it; "create" in an empty file, "line-hint" for an insertion placed by its header. */
  strategy: StrategyName | "create" | "line-hint";
  /** First line of the old side; for a hunk without old lines, the line before which it inserts. */
  startLine: number;
  /** Last line of the old side; `startLine - 1` for a hunk without old lines. */
  endLine: number;
  /** 1 for exact (after normalisation), lower for similarity matches. */
  score: number;
  /** Found by a strategy other than exact text: worth a look. */
  fuzzy: boolean;
  /** The hunk adds or removes lines (false: a context-only check). */
  changed: boolean;
  /** What chose among several candidates, when there were several. */
  resolvedBy?: "order" | "end-of-file" | "line-hint" | "boundary" | "callback";
  /** Merged with an overlapping hunk before applying. */
  merged: boolean;
}

export interface PatchResult {
  content: string;
  hunks: HunkReport[];
}

interface ResolvedOptions {
  preset: Preset;
  fuzzyThreshold: number | undefined;
  resolveAmbiguity: ApplyPatchOptions["resolveAmbiguity"];
}

const DEFAULTS = Object.freeze({ preset: "default" as PresetName, fuzzyThreshold: undefined, resolveAmbiguity: undefined });

function resolveOptions(options: ApplyPatchOptions): ResolvedOptions {
  const o = { ...DEFAULTS, ...options };
  const preset = PRESETS[o.preset ?? "default"];
  if (!preset) throw new EditError("INVALID_INPUT", `Unknown preset "${String(o.preset)}". Use "default" or "opencode".`);
  const t = o.fuzzyThreshold;
  if (t !== undefined && !(typeof t === "number" && t >= 0 && t <= 1)) {
    throw new EditError("INVALID_INPUT", `fuzzyThreshold must be a number from 0 to 1, got ${String(t)}.`);
  }
  if (o.resolveAmbiguity !== undefined && typeof o.resolveAmbiguity !== "function") {
    throw new EditError("INVALID_INPUT", "resolveAmbiguity must be a function.");
  }
  return { preset, fuzzyThreshold: t, resolveAmbiguity: o.resolveAmbiguity };
}

/** Replace original lines [from, to) (0-based) by `lines`; from === to inserts before line `from`. */
interface LineEdit {
  from: number;
  to: number;
  lines: string[];
  /** Reports of the hunks this edit carries (several after a merge). */
  reports: HunkReport[];
}

/** Per-run state: hunks are located in order against one document. */
interface State {
  doc: Document;
  ctx: MatchContext;
  opts: ResolvedOptions;
  /** 0-based line after the previous located hunk. */
  prevEnd: number;
  /** Found start minus header start of the previous numbered hunk. */
  drift: number;
  /** Final newline wanted by a hunk's `\ No newline` markers. */
  finalNewline: boolean | undefined;
}

const oldSide = (h: Hunk) => h.lines.filter((l) => l.kind !== "add").map((l) => l.text);
const newSide = (h: Hunk) => h.lines.filter((l) => l.kind !== "delete").map((l) => l.text);
const hasChanges = (h: Hunk) => h.lines.some((l) => l.kind !== "context");
const label = (h: Hunk) => `Hunk ${h.index + 1} (patch line ${h.line})`;

/** 1-based line where the header says the old side starts (for an empty old side: the line it inserts before). */
function headerStart(h: Hunk): number | undefined {
  if (h.oldStart === undefined) return undefined;
  return h.oldLines === 0 ? h.oldStart + 1 : Math.max(1, h.oldStart);
}

function contextRuns(h: Hunk): { leading: number; trailing: number } {
  const first = h.lines.findIndex((l) => l.kind !== "context");
  if (first === -1) return { leading: h.lines.length, trailing: h.lines.length };
  let last = h.lines.length - 1;
  while (last > 0 && h.lines[last]?.kind === "context") last--;
  return { leading: first, trailing: h.lines.length - 1 - last };
}

/**
 * A candidate as whole lines, or undefined when it covers part of a line
 * with something other than blank space beside it. Strategies that match a
 * substring (exact, trimmed-boundary) return ranges; a hunk means lines.
 */
function toWholeLines(doc: Document, c: Candidate): Candidate | undefined {
  if (c.lineBased) return c;
  const first = doc.lineAt(c.start);
  const last = first + c.query.lines.length - 1;
  if (last >= doc.lineCount) return undefined;
  const lastEnd = doc.lineEnd(last);
  if (c.end < doc.lineStart(last) || c.end > lastEnd) return undefined;
  if (!isBlank(doc.text.slice(doc.lineStart(first), c.start)) || !isBlank(doc.text.slice(c.end, lastEnd))) return undefined;
  return { ...c, start: doc.lineStart(first), end: lastEnd, startLine: first, endLine: last + 1, lineBased: true };
}

function wholeLineCandidates(doc: Document, cands: readonly Candidate[]): Candidate[] {
  const byRange = new Map<string, Candidate>();
  for (const c of cands) {
    const w = toWholeLines(doc, c);
    if (w && !byRange.has(`${w.startLine}:${w.endLine}`)) byRange.set(`${w.startLine}:${w.endLine}`, w);
  }
  return [...byRange.values()].sort((a, b) => a.startLine - b.startLine || a.endLine - b.endLine);
}

/**
 * An old side made only of blank lines gives the cascade nothing to anchor
 * on (every strategy starts from a non-blank line), yet createPatch writes
 * such hunks for files of blank lines. Its candidates are runs of blank lines.
 */
const blankRuns: Strategy = {
  name: "line-trimmed",
  exact: true,
  find(ctx, q) {
    const { doc } = ctx;
    const n = q.lines.length;
    const out: Candidate[] = [];
    let run = 0;
    for (let i = 0; i < doc.lineCount; i++) {
      run = isBlank(doc.line(i)) ? run + 1 : 0;
      if (run >= n) {
        const s = i - n + 1;
        out.push({ start: doc.lineStart(s), end: doc.lineEnd(i), startLine: s, endLine: i + 1, strategy: "line-trimmed", score: 1, lineBased: true, query: q });
      }
    }
    return out;
  },
};

interface Choice {
  cand?: Candidate;
  resolvedBy?: HunkReport["resolvedBy"];
  /** The candidates still in question when none was chosen. */
  pool: Candidate[];
}

/** Narrows several candidates of one strategy to one, or returns those left (see step 3 above). */
/** The context lines a diff tool writes on each side of a change (diff -u). */
const BOUNDARY_CONTEXT = 3;

function choose(s: State, h: Hunk, cands: Candidate[], hint: number | undefined): Choice {
  const one = (list: Candidate[], resolvedBy: HunkReport["resolvedBy"]): Choice | undefined =>
    list.length === 1 && list[0] ? { cand: list[0], resolvedBy, pool: list } : undefined;
  if (cands.length === 1) return { cand: cands[0], pool: cands };
  let pool = cands;
  const after = pool.filter((c) => c.startLine >= s.prevEnd);
  const byOrder = one(after, "order");
  if (byOrder) return byOrder;
  if (after.length > 1) pool = after;
  const lineCount = s.doc.lineCount;
  if (h.oldEofNoNewline || h.newEofNoNewline) {
    const atEnd = pool.filter((c) => c.endLine === lineCount);
    const byEnd = one(atEnd, "end-of-file");
    if (byEnd) return byEnd;
    if (atEnd.length > 1) pool = atEnd;
  }
  if (hint !== undefined) {
    const byLine = one(
      pool.filter((c) => c.startLine + 1 === hint),
      "line-hint",
    );
    if (byLine) return byLine;
    const near = pickByHint(pool, hint);
    if (near) return { cand: near, resolvedBy: "line-hint", pool };
  }
  // Less context on one side than the usual three means the hunk was cut by
  // the file's edge. More context than that is no boundary evidence.
  const { leading, trailing } = contextRuns(h);
  if (leading < trailing && leading < BOUNDARY_CONTEXT) {
    const byStart = one(
      pool.filter((c) => c.startLine === 0),
      "boundary",
    );
    if (byStart) return byStart;
  }
  if (trailing < leading && trailing < BOUNDARY_CONTEXT) {
    const byEnd = one(
      pool.filter((c) => c.endLine === lineCount),
      "boundary",
    );
    if (byEnd) return byEnd;
  }
  const ask = s.opts.resolveAmbiguity;
  if (ask) {
    const picked = ask(pool.map(toHunkCandidate), { index: h.index, line: h.line, oldText: oldSide(h).join("\n"), newText: newSide(h).join("\n") });
    const cand = typeof picked === "number" && Number.isInteger(picked) ? pool[picked] : undefined;
    if (cand) return { cand, resolvedBy: "callback", pool };
  }
  return { pool };
}

function toHunkCandidate(c: Candidate): HunkCandidate {
  return { startLine: c.startLine + 1, endLine: c.endLine, strategy: c.strategy, score: c.score };
}

interface Found {
  cand: Candidate;
  resolvedBy?: HunkReport["resolvedBy"];
}

/** The cascade (`runCascade`, as `locate()` runs it) over whole-line candidates, with the hunk's own tie-breakers. */
function searchHunk(s: State, h: Hunk, q: Query, hint: number | undefined): Found {
  const strategies = q.trimmed.every((t) => t === "") ? [blankRuns] : s.opts.preset.strategies.filter((x) => x.name !== "multi-occurrence");
  const run = runCascade<Found>(
    s.ctx,
    q,
    strategies,
    s.opts.preset.stopOnAmbiguity,
    (cands) => {
      const choice = choose(s, h, cands, hint);
      if (!choice.cand) return { ambiguous: choice.pool };
      // A lone whitespace-tolerant match whose lines, as written, fit elsewhere is no match.
      const rival = s.opts.preset.stopOnAmbiguity && !choice.resolvedBy ? findRival(s.ctx, q, choice.cand) : undefined;
      if (rival) return { ambiguous: [choice.cand, rival].sort((a, b) => a.start - b.start) };
      return { found: { cand: choice.cand, ...(choice.resolvedBy ? { resolvedBy: choice.resolvedBy } : {}) } };
    },
    (cands) => wholeLineCandidates(s.doc, cands),
  );
  if (run.found) return run.found.value;
  if (run.ambiguous) throw hunkAmbiguous(s, h, run.ambiguous.strategy, run.ambiguous.cands);
  throw hunkNotFound(s, h, q, run.tried);
}

function hunkAmbiguous(s: State, h: Hunk, strategy: StrategyName, pool: Candidate[]): EditError {
  const base = ambiguityError(s.doc, strategy, pool, false);
  const listed = base.message.split("\n").filter((l) => l.startsWith("- "));
  const how = strategy === "exact" ? "exactly" : `with the ${strategy} strategy`;
  const message = [
    `${label(h)}: its old lines (the ' ' and '-' lines) match ${pool.length} places in the file ${how}:`,
    ...listed,
    "Add unchanged lines above or below the change as ' ' context lines (a line that differs between these places) so that the hunk matches one place, or give the hunk a numbered header (@@ -12,3 +12,4 @@) with the right line.",
  ].join("\n");
  return new EditError("AMBIGUOUS", message, { ...base.detail, index: h.index, line: h.line });
}

function hunkNotFound(s: State, h: Hunk, q: Query, tried: StrategyName[]): EditError {
  const base = notFoundError(s.ctx, q, tried);
  const rest = base.message
    .split("\n")
    .slice(1)
    .map((l) => l.replace("the text to replace", "the ' ' and '-' lines"));
  const notes: string[] = [];
  const detail: EditErrorDetail = { ...base.detail, index: h.index, line: h.line };
  const applied = hasChanges(h) ? findNewSide(s, h) : undefined;
  if (applied) {
    notes.push(`The hunk's new side (its ' ' and '+' lines) is already in the file at lines ${applied.startLine}-${applied.endLine}: this change seems to be applied already.`);
    detail.alreadyApplied = applied;
  }
  if (h.unprefixedLines && h.unprefixedLines.length > 0) {
    notes.push(
      `Patch line${h.unprefixedLines.length > 1 ? "s" : ""} ${h.unprefixedLines.join(", ")} had no ' ', '-' or '+' prefix and ${h.unprefixedLines.length > 1 ? "were" : "was"} read as unchanged context; if that text is not in the file, give each hunk line its prefix.`,
    );
  }
  const message = [`${label(h)}: its old lines (the ' ' and '-' lines) were not found in the file.`, ...rest, ...notes].join("\n");
  return new EditError("NOT_FOUND", message, detail);
}

/** Where the hunk's new side is, when it is there exactly once (the patch was applied before). */
function findNewSide(s: State, h: Hunk): { startLine: number; endLine: number } | undefined {
  const lines = newSide(h);
  if (!lines.some((l) => !isBlank(l))) return undefined;
  const q = queryFromLines(lines, false);
  for (const strategy of [exact, lineTrimmed]) {
    const cands = wholeLineCandidates(s.doc, strategy.find(s.ctx, q));
    if (cands.length === 1 && cands[0]) return { startLine: cands[0].startLine + 1, endLine: cands[0].endLine };
    if (cands.length > 1) return undefined;
  }
  return undefined;
}

/**
 * In a hunk where the model dropped the prefix of some context lines, the
 * ` `-prefixed context lines may be unprefixed lines that start with a space
 * (the spec's example: `    // ... processing code` is the file's 4-space
 * line, not ` ` + 3 spaces). Reading them short would make the splice
 * re-indent added lines by a misread offset, so for a same-size match the
 * reading whose context lines equal more file lines exactly is used.
 */
function readingFor(doc: Document, h: Hunk, cand: Candidate): { query: Query; added: string[] } {
  const asParsed = { query: cand.query, added: newSide(h) };
  if (!h.lines.some((l) => l.unprefixed) || cand.alignment || cand.rewrite) return asParsed;
  if (cand.endLine - cand.startLine !== cand.query.lines.length) return asParsed;
  const whole = h.lines.map((l) => (l.kind === "context" && !l.unprefixed ? ` ${l.text}` : l.text));
  const wholeOld = whole.filter((_, k) => h.lines[k]?.kind !== "add");
  const file = doc.lines(cand.startLine, cand.endLine);
  const equal = (ls: readonly string[]) => ls.filter((l, k) => l === file[k]).length;
  if (equal(wholeOld) <= equal(cand.query.lines)) return asParsed;
  return { query: queryFromLines(wholeOld, false), added: whole.filter((_, k) => h.lines[k]?.kind !== "delete") };
}

/** The new lines for a located candidate: planSplice's merge of the edit into the file's own lines. */
function newLinesAt(doc: Document, cand: Candidate, lines: string[]): string[] {
  // planSplice reads "" as no lines at all; one empty line is written as a
  // query ending with a newline and a replacement that is only a newline.
  // No new side: every line of the region goes (planSplice would agree, but its
  // result for a one-line file without a break cannot be told from one empty line).
  if (lines.length === 0) return [];
  const single = lines.length === 1 && lines[0] === "";
  const c = single ? { ...cand, query: { ...cand.query, endsWithNewline: true } } : cand;
  const splice = planSplice(doc, c, single ? "\n" : lines.join("\n"));
  // A shorter or longer range than the candidate is planSplice deleting every line with its break.
  return splice.start === cand.start && splice.end === cand.end ? splice.text.split("\n") : [];
}

function report(h: Hunk, from: number, to: number, strategy: HunkReport["strategy"], score: number, resolvedBy?: HunkReport["resolvedBy"]): HunkReport {
  return {
    index: h.index,
    line: h.line,
    strategy,
    startLine: from + 1,
    endLine: to,
    score,
    fuzzy: strategy !== "exact" && strategy !== "create" && strategy !== "line-hint",
    changed: hasChanges(h),
    ...(resolvedBy ? { resolvedBy } : {}),
    merged: false,
  };
}

/** A hunk with no old lines: nothing to locate, so only an empty file or the header can place it. */
function placeInsertion(s: State, h: Hunk, hint: number | undefined): LineEdit {
  const lines = newSide(h);
  const n = s.doc.lineCount;
  if (n === 0) {
    s.finalNewline = !h.newEofNoNewline;
    return { from: 0, to: 0, lines, reports: [report(h, 0, 0, "create", 1)] };
  }
  if (hint === undefined) {
    throw new EditError(
      "PARSE",
      `${label(h)}: the hunk only adds lines and has no context lines, so there is nothing to find its place by (that is only valid in an empty or new file). Add one or more unchanged lines from above or below the insertion point as context lines, each prefixed with one space.`,
      { index: h.index, line: h.line },
    );
  }
  const gap = hint - 1;
  if (gap < 0 || gap > n) {
    throw new EditError(
      "NOT_FOUND",
      `${label(h)}: the hunk only adds lines, after line ${gap} according to its header, but the file has ${n} lines. Add unchanged lines around the insertion point as ' ' context lines so the hunk can be found by its text.`,
      { index: h.index, line: h.line },
    );
  }
  if (h.oldEofNoNewline !== h.newEofNoNewline) {
    if (gap !== n) throw finalNewlineNotAtEnd(s, h, gap, gap);
    s.finalNewline = !h.newEofNoNewline;
  }
  return { from: gap, to: gap, lines, reports: [report(h, gap, gap, "line-hint", 1)] };
}

function placeHunk(s: State, h: Hunk): LineEdit {
  const start = headerStart(h);
  const hint = start === undefined ? undefined : start + s.drift;
  const old = oldSide(h);
  const edit = old.length === 0 ? placeInsertion(s, h, hint) : placeLocated(s, h, old, hint);
  s.prevEnd = edit.to;
  if (start !== undefined) s.drift = edit.from + 1 - start;
  return edit;
}

function finalNewlineNotAtEnd(s: State, h: Hunk, from: number, to: number): EditError {
  const where = from === to ? `after line ${from}` : `at lines ${from + 1}-${to}`;
  return new EditError(
    "NOT_FOUND",
    `${label(h)}: the hunk changes the file's final newline ('\\ No newline at end of file'), so it must reach the end of the file, but it was placed ${where} and the file has ${s.doc.lineCount - to} more line(s) after that. Include the lines up to the end of the file, or drop the marker.`,
    { index: h.index, line: h.line, candidates: [{ startLine: from + 1, endLine: to }] },
  );
}

function placeLocated(s: State, h: Hunk, old: string[], hint: number | undefined): LineEdit {
  const { cand, resolvedBy } = searchHunk(s, h, queryFromLines(old, false), hint);
  const atEnd = cand.endLine === s.doc.lineCount;
  if (h.oldEofNoNewline !== h.newEofNoNewline) {
    if (!atEnd) throw finalNewlineNotAtEnd(s, h, cand.startLine, cand.endLine);
    s.finalNewline = !h.newEofNoNewline;
  }
  const { query, added } = readingFor(s.doc, h, cand);
  const lines = hasChanges(h) ? newLinesAt(s.doc, { ...cand, query }, added) : s.doc.lines(cand.startLine, cand.endLine);
  return { from: cand.startLine, to: cand.endLine, lines, reports: [report(h, cand.startLine, cand.endLine, cand.strategy, cand.score, resolvedBy)] };
}

/** Whether two edits touch the same lines (an insertion touches the edges of a range too, so both become one splice). */
function overlaps(a: LineEdit, b: LineEdit): boolean {
  const aEmpty = a.from === a.to;
  const bEmpty = b.from === b.to;
  if (aEmpty && bEmpty) return a.from === b.from;
  if (aEmpty) return b.from <= a.from && a.from <= b.to;
  if (bEmpty) return a.from <= b.from && b.from <= a.to;
  return a.from < b.to && b.from < a.to;
}

/** Groups of mutually overlapping edits (connected components), in file order. */
function groupOverlapping(edits: LineEdit[]): LineEdit[][] {
  const sorted = [...edits].sort((a, b) => a.from - b.from || a.to - b.to);
  const groups: LineEdit[][] = [];
  for (const e of sorted) {
    const joined = groups.filter((g) => g.some((x) => overlaps(x, e)));
    const merged = [...joined.flat(), e];
    for (const g of joined) groups.splice(groups.indexOf(g), 1);
    groups.push(merged);
  }
  return groups.sort((a, b) => minOf(a.map((e) => e.from)) - minOf(b.map((e) => e.from)));
}

/**
 * One edit from overlapping ones. Each edit is read as, per original line,
 * kept or deleted, and lines inserted before each line (diff of its range
 * against its new lines). A line deleted by any edit goes; insertions at one
 * place must be the same in every edit that makes one, else CONFLICT.
 */
function mergeEdits(doc: Document, group: LineEdit[]): LineEdit {
  const from = minOf(group.map((e) => e.from));
  const to = maxOf(group.map((e) => e.to));
  const deleted = new Array<boolean>(to - from).fill(false);
  const inserted = new Map<number, { lines: string[]; edit: LineEdit }>();
  for (const e of group) {
    let line = e.from;
    const mine = new Map<number, string[]>();
    for (const part of diffArrays(doc.lines(e.from, e.to), e.lines)) {
      const count = part.count ?? part.value.length;
      if (part.added) mine.set(line, [...(mine.get(line) ?? []), ...part.value]);
      else {
        if (part.removed) for (let k = 0; k < count; k++) deleted[line + k - from] = true;
        line += count;
      }
    }
    for (const [at, lines] of mine) {
      const other = inserted.get(at);
      if (other && other.lines.join("\n") !== lines.join("\n")) throw overlapConflict(other.edit, e, at);
      inserted.set(at, { lines, edit: e });
    }
  }
  const lines: string[] = [];
  for (let at = from; at <= to; at++) {
    appendAll(lines, inserted.get(at)?.lines ?? []);
    if (at < to && !deleted[at - from]) lines.push(doc.line(at));
  }
  const reports = group.flatMap((e) => e.reports).map((r) => ({ ...r, merged: true }));
  return { from, to, lines, reports };
}

function overlapConflict(a: LineEdit, b: LineEdit, at: number): EditError {
  const [first, second] = [a, b].sort((x, y) => (x.reports[0]?.index ?? 0) - (y.reports[0]?.index ?? 0));
  const fr = first?.reports[0];
  const sr = second?.reports[0];
  const range = (e: LineEdit | undefined) => (e ? (e.from === e.to ? `before line ${e.from + 1}` : `lines ${e.from + 1}-${e.to}`) : "");
  const name = (r: HunkReport | undefined) => (r ? `hunk ${r.index + 1} (patch line ${r.line})` : "another hunk");
  const message = `${name(sr).replace(/^h/, "H")}: it overlaps ${name(fr)} — found at ${range(second)} and ${range(first)} — and the two insert different lines before line ${at + 1}. Merge the two hunks into one hunk that shows the change once.`;
  return new EditError("CONFLICT", message, {
    index: sr?.index,
    line: sr?.line,
    candidates: [first, second].filter((e): e is LineEdit => e !== undefined).map((e) => ({ startLine: e.from + 1, endLine: e.to })),
  });
}

/** The splice of one line edit into `Document.text`. The final newline is settled afterwards. */
function spliceOf(doc: Document, e: LineEdit): Splice {
  const n = doc.lineCount;
  const body = e.lines.join("\n");
  if (e.from < e.to) {
    if (e.lines.length > 0) return { start: doc.lineStart(e.from), end: doc.lineEnd(e.to - 1), text: body };
    // Whole lines with their breaks; lineStart(n) is the end of the text.
    return { start: doc.lineStart(e.from), end: doc.lineStart(e.to), text: "" };
  }
  if (e.from < n) return { start: doc.lineStart(e.from), end: doc.lineStart(e.from), text: `${body}\n` };
  const end = doc.text.length;
  if (n === 0) return { start: 0, end: 0, text: `${body}\n` };
  return { start: end, end, text: doc.finalNewline ? `${body}\n` : `\n${body}` };
}

const countBreaks = (text: string) => {
  let n = 0;
  for (let p = text.indexOf("\n"); p !== -1; p = text.indexOf("\n", p + 1)) n++;
  return n;
};

/**
 * Renders the splices and settles the final newline. Whether the result
 * ends with a line break cannot be read off its last character ("a\n" is
 * one line with its break, or "a" and an empty last line without one), so
 * it is counted: a result of L lines has L breaks with a final newline and
 * L - 1 without. Breaks are counted in the spliced ranges only.
 */
function render(doc: Document, splices: Splice[], lines: number, want: boolean): string {
  const out = renderSplices(doc, splices);
  if (lines === 0) return doc.bom ? "\uFEFF" : "";
  let breaks = doc.lineCount - (doc.finalNewline || doc.lineCount === 0 ? 0 : 1);
  for (const sp of splices) breaks += countBreaks(sp.text) - countBreaks(doc.text.slice(sp.start, sp.end));
  const has = breaks === lines;
  if (want && !has) return out + doc.eolAt(doc.text.length);
  // The final break may be "\r\r\n" (see Document): drop all of it.
  if (!want && has) return out.replace(/\r*\n$/, "");
  return out;
}

interface Failure {
  hunk: Hunk;
  error: EditError;
}

function failureSummary(failures: Failure[], total: number): EditError {
  const first = failures[0] as Failure;
  const list = failures.map((f) => ({ index: f.hunk.index, code: f.error.code, message: f.error.message, ...f.error.detail }));
  const code: EditErrorCode = first.error.code;
  if (failures.length === 1) {
    const others = total - 1;
    const tail = others > 0 ? `\nNothing was applied (the other ${others} hunk${others > 1 ? "s were" : " was"} found). Send the whole patch again with this hunk fixed.` : "";
    return new EditError(code, first.error.message + tail, { ...first.error.detail, index: first.hunk.index, line: first.hunk.line, failures: list });
  }
  const message = [
    `${failures.length} of ${total} hunks failed; nothing was applied. Send the whole patch again with these hunks fixed.`,
    ...failures.map((f) => f.error.message),
  ].join("\n\n");
  return new EditError(code, message, { index: first.hunk.index, line: first.hunk.line, failures: list });
}

/**
 * Applies a unified or fuzzy unified diff for one file to `content`.
 * Returns the new content and a report per hunk; throws EditError when the
 * patch cannot be parsed or any hunk cannot be placed (nothing is applied).
 */
export function applyPatch(content: string, patchText: string, options: ApplyPatchOptions = {}): PatchResult {
  for (const [name, value] of [
    ["content", content],
    ["patchText", patchText],
  ] as const) {
    if (typeof value !== "string") {
      throw new EditError("INVALID_INPUT", `${name} must be a string, got ${value === null ? "null" : typeof value}.`);
    }
  }
  const opts = resolveOptions(options);
  const files = parsePatch(patchText);
  const withHunks = files.filter((f) => f.hunks.length > 0);
  if (withHunks.length > 1) {
    const names = withHunks.map((f) => f.newPath ?? f.oldPath ?? "(no path)").join(", ");
    throw new EditError(
      "INVALID_INPUT",
      `The patch holds ${withHunks.length} files (${names}); applyPatch applies a patch for one file. Use the files layer (applyEdits) for multi-file patches, or send one file's hunks.`,
      { files: withHunks.length },
    );
  }
  const file = withHunks[0] ?? files[0];
  const hunks = file?.hunks ?? [];
  if (file?.isNew && content !== "") {
    throw new EditError(
      "CONFLICT",
      "The patch creates the file (--- /dev/null), but the file already has content. Send a patch against its current content instead.",
    );
  }
  const doc = Document.from(content);
  const preset = opts.preset;
  const strategyOptions = opts.fuzzyThreshold === undefined ? preset.options : { ...preset.options, fuzzyThreshold: opts.fuzzyThreshold };
  const state: State = { doc, ctx: createContext(doc, strategyOptions), opts, prevEnd: 0, drift: 0, finalNewline: undefined };

  const edits: LineEdit[] = [];
  const failures: Failure[] = [];
  for (const h of hunks) {
    try {
      edits.push(placeHunk(state, h));
    } catch (error) {
      if (!(error instanceof EditError)) throw error;
      failures.push({ hunk: h, error });
    }
  }
  const merged: LineEdit[] = [];
  for (const group of groupOverlapping(edits)) {
    if (group.length === 1 && group[0]) {
      merged.push(group[0]);
      continue;
    }
    try {
      merged.push(mergeEdits(doc, group));
    } catch (error) {
      if (!(error instanceof EditError)) throw error;
      const index = error.detail.index;
      const h = hunks.find((x) => x.index === index) ?? hunks[0];
      if (h) failures.push({ hunk: h, error });
    }
  }
  if (failures.length > 0) {
    failures.sort((a, b) => a.hunk.index - b.hunk.index);
    throw failureSummary(failures, hunks.length);
  }

  const splices = merged.filter((e) => e.from !== e.to || e.lines.length > 0).map((e) => spliceOf(doc, e));
  const lineCount = merged.reduce((n, e) => n - (e.to - e.from) + e.lines.length, doc.lineCount);
  const output = render(doc, splices, lineCount, state.finalNewline ?? doc.finalNewline);
  const reports = merged.flatMap((e) => e.reports).sort((a, b) => a.index - b.index);

  if (file?.isDeleted) {
    if (!isBlank(output.replace(/^\uFEFF/, ""))) {
      const left = Document.from(output).lineCount;
      throw new EditError(
        "CONFLICT",
        `The patch deletes the file (+++ /dev/null), but ${left} line(s) of the file are not among its removed lines; the file holds more than the patch shows. Send every line as a removed line, or a patch that edits the file.`,
      );
    }
    return { content: "", hunks: reports };
  }
  if (output === content && hunks.some(hasChanges)) {
    const where = reports.map((r) => `hunk ${r.index + 1} at lines ${r.startLine}-${r.endLine}`).join(", ");
    throw new EditError(
      "NO_CHANGE",
      `Every hunk was found (${where}), but applying them changes nothing: the file already reads that way. Check that the '+' lines hold the intended change.`,
      { candidates: reports.map((r) => ({ startLine: r.startLine, endLine: r.endLine, strategy: r.strategy, score: r.score })) },
    );
  }
  return { content: output, hunks: reports };
}

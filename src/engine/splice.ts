/**
 * Applying a located edit.
 *
 * The replacement is first read as a careful human reads it (replacement.ts:
 * the find text's rewrites, and the slips of a two-string edit). A range
 * match (exact text, a span inside a line) then takes it literally. A line
 * match is a three-way merge of the find text (base), the file's matched
 * region (ours) and the replacement (theirs): merge.ts.
 *
 * `renderSplices` writes the splices into the raw text: bytes outside the
 * spliced ranges never change, and inserted line breaks take the ending of
 * the line where they land (CRLF stays CRLF, even in a mixed file).
 */
import { diffArrays } from "diff";
import { EditError } from "../errors.ts";
import { isReplacementElision } from "../match/elided.ts";
import type { Candidate, StrategyOptions } from "../match/types.ts";
import type { Document } from "../text/document.ts";
import type { TextChange } from "./ops.ts";
import { appendAll } from "../arrays.ts";
import { collapseWhitespace, leadingWhitespace } from "../text/normalize.ts";
import { type MergedLine, mergeLines, removedLineFloor } from "./merge.ts";
import { readReplacement } from "./replacement.ts";
import { type LiteralException, literalText } from "./exact-literal.ts";
import { ruleOn } from "./rules.ts";
import type { SyntaxJudge } from "./syntax-decide.ts";
import { capitalize, GENERIC_WORDS, type SpliceWords } from "../match/vocabulary.ts";

/** Replace `text` (LF line breaks) over [start, end) of `Document.text`. */
export interface Splice {
  start: number;
  end: number;
  text: string;
  /**
   * The raw break to write after each line of `text` but the last, when
   * they differ: in a file with mixed endings a line the edit keeps keeps
   * its own ending. Omitted: every break takes the ending where the splice lands.
   */
  breaks?: string[];
  /** An exact match's replacement was not written as sent: which of the named exceptions (exact-literal.ts). */
  exception?: LiteralException;
  /** Written as sent by an exact match (exactSplice, or writtenOnItsLine), reading no line but the place's own. */
  literal?: true;
  /** The line it starts on (0-based), when its planner knew it: given with its part (renderSplicesWithChange). */
  line?: number;
}

/** `options`: the preset's thresholds, which set how closely a removed line must match (merge.ts). */
export interface SpliceHow {
  /** The replacement is a diff's new side, every line written on purpose (see expandElisions in merge.ts). @default false */
  explicitLines?: boolean;
  /** Another candidate of the same edit (replaceAll) is on the same line: splice literally, never widen to the line. @default false */
  sharesLine?: boolean;
  /** The format's names for the find text and the replacement, for refusals. @default GENERIC_WORDS */
  words?: SpliceWords;
  /** Weighs readings the merge leaves tied (the frame of a re-indented replacement, merge.ts) by the code's syntax. @default undefined */
  judge?: SyntaxJudge;
}

/**
 * The one fork between the two kinds of edit. An exact match (the `exact`
 * strategy's range, not inside a deeper line's indentation) is literal:
 * exactSplice, nothing else. Everything else is a non-exact edit, and this
 * is where its readings are chosen, in order: the replacement as read
 * (replacement.ts: escapes, numbers, whitespace kind, repeated neighbours,
 * final break), the match widened to its lines (widenToLines), then the
 * three-way merge (merge.ts). A layer that breaks ties between readings of
 * a non-exact edit (syntax) belongs here, after the exact fork.
 */
export function planSplice(doc: Document, cand: Candidate, newString: string, options?: StrategyOptions, how: SpliceHow = {}): Splice {
  const explicitLines = how.explicitLines ?? false;
  const words = how.words ?? GENERIC_WORDS;
  if (cand.strategy === "exact" && !cand.lineBased && !startsInsideIndent(doc, cand) && ruleOn("exact-literal")) {
    const literal = exactSplice(doc, cand, newString, words, explicitLines);
    literal.literal = true;
    return literal;
  }
  const replacement = readReplacement(doc, cand, newString, explicitLines);
  if (how.sharesLine && !cand.lineBased) return literalSplice(doc, cand.start, cand.end, replacement);
  // A match widened to its lines may not move or change the text around it on those lines.
  let exact: Candidate | undefined;
  let marker: string | undefined;
  if (!cand.lineBased) {
    const widened = ruleOn("widen-to-lines") ? widenToLines(doc, cand, replacement) : undefined;
    const elided = widened ? undefined : elisionToLines(doc, cand, replacement, words);
    const lines = widened ?? elided?.cand;
    if (!lines) {
      const splice = literalSplice(doc, cand.start, cand.end, replacement);
      if (writtenOnItsLine(cand, newString, replacement)) splice.literal = true;
      return splice;
    }
    exact = cand;
    marker = elided?.marker;
    cand = lines;
  }
  const q = cand.query;
  let body = replacement;
  if (q.endsWithNewline && body.endsWith("\n")) body = body.slice(0, -1);
  const repl = replacement === "" ? [] : body.split("\n");
  const merged = mergeLines(doc, cand, repl, alignmentOf(doc, cand), removedLineFloor(cand.strategy, options), explicitLines, words, how.judge);
  const text = merged.map((m) => m.text).join("\n");
  if (exact && !keepsAround(doc, exact, cand, merged.length === 0 ? undefined : text)) {
    // An elision is never written literally (elisionToLines); an added line is.
    if (marker !== undefined) throw elisionInsideLine(marker, words);
    return literalSplice(doc, exact.start, exact.end, replacement);
  }
  if (merged.length === 0) return deleteLines(doc, cand.start, cand.end);
  const splice: Splice = { start: cand.start, end: cand.end, text };
  if (doc.mixedLineEndings) splice.breaks = breaksOf(doc, merged, doc.eolAt(cand.start));
  return splice;
}

/**
 * A find text that starts with indentation, found starting inside a deeper
 * line's indentation: the model quoted the line less indented (`  "type"`
 * for `    "type"`). Its text is there, but as lines it is a re-indented
 * match, not an exact one: its lines go through the merge, which writes
 * them at the file's depth.
 */
function startsInsideIndent(doc: Document, cand: Candidate): boolean {
  // The find text first: the line's start is a lookup that walks the line table (a replaceAll edit's places far apart).
  if (!/^[ \t]/.test(cand.query.text)) return false;
  const lineStart = doc.lineStart(cand.startLine);
  if (cand.start === lineStart) return false;
  return cand.start <= blankPrefixEnd(doc, cand.startLine);
}

/**
 * An exact match inside a line's indentation (startsInsideIndent) written as
 * sent, reading no other line: find text and replacement of one line each,
 * with no escape, no line break, no number column (replacement.ts reads the
 * match's line number for one) and no indentation of the other kind than the
 * find text's (whitespace-kind.ts then reads the lines around): the reading
 * steps read none, and an edit adding no line is not widened. Carried text
 * (fs/carried-text.ts) carries such a result as it does a literal one.
 */
function writtenOnItsLine(cand: Candidate, newString: string, replacement: string): boolean {
  if (cand.strategy !== "exact" || replacement !== newString || cand.query.lines.length !== 1 || cand.query.endsWithNewline) return false;
  if (/[\n\r\\]/.test(newString) || /^[ \t]*\d/.test(newString)) return false;
  const kinds = leadingWhitespace(cand.query.text);
  return [...leadingWhitespace(newString)].every((c) => kinds.includes(c));
}

/** The last line's blank prefix: replaceAll asks it for each of a million places on one line. */
let lastBlankPrefix: { doc: Document; line: number; end: number } | undefined;

/**
 * Offset where line `line`'s leading whitespace (what `trim` strips) ends.
 * Memoised for the last line asked: slicing and trimming the text before
 * each place was quadratic (a space replaced in a 1 MB line of spaces ran
 * for minutes).
 */
function blankPrefixEnd(doc: Document, line: number): number {
  if (lastBlankPrefix?.doc === doc && lastBlankPrefix.line === line) return lastBlankPrefix.end;
  const t = doc.text;
  const start = doc.lineStart(line);
  const stop = doc.lineEnd(line);
  let end = start;
  while (end < stop && t[end]?.trim() === "") end++;
  lastBlankPrefix = { doc, line, end };
  return end;
}

/** The last answer of literalText: replaceAll plans a splice per place (a million) with one find text and one replacement. */
let lastLiteral: { find: string; text: string; explicit: boolean; out: ReturnType<typeof literalText> } | undefined;

/**
 * An exact match, replaced literally (exact-literal.ts): the replacement as
 * sent, or one of the named exceptions. A deletion of all of a line's text
 * after its indentation deletes the line.
 */
function exactSplice(doc: Document, cand: Candidate, newString: string, words: SpliceWords, explicit: boolean): Splice {
  // CRLF the model typed is a line break like the file's (written back in the file's ending).
  const text = !explicit && newString.includes("\r\n") ? newString.replaceAll("\r\n", "\n") : newString;
  const find = cand.query.text;
  if (lastLiteral?.find !== find || lastLiteral.text !== text || lastLiteral.explicit !== explicit) {
    lastLiteral = { find, text, explicit, out: literalText(find, text, words, explicit) };
  }
  const out = lastLiteral.out;
  if (out.text === "") {
    const t = doc.text;
    const lineStart = doc.lineStart(cand.startLine);
    // Text of the line itself, not only its break: deleting the "\n" after a blank line's indentation is literal.
    const blankEnd = blankPrefixEnd(doc, cand.startLine);
    const afterIndent = cand.start > lineStart && cand.start <= blankEnd && blankEnd < doc.lineEnd(cand.startLine);
    if (afterIndent && t[cand.end - 1] === "\n") return { start: lineStart, end: cand.end, text: "" };
    if (afterIndent && (cand.end === t.length || t[cand.end] === "\n")) return deleteLines(doc, lineStart, cand.end);
  }
  const splice = literalSplice(doc, cand.start, cand.end, out.text);
  return out.exception ? { ...splice, exception: out.exception } : splice;
}

/** Each kept line brings its own break; a new line takes the break of the line before it. */
function breaksOf(doc: Document, merged: readonly MergedLine[], fallback: string): string[] {
  const breaks: string[] = [];
  let previous = fallback;
  for (let k = 0; k < merged.length - 1; k++) {
    const from = merged[k]?.from ?? -1;
    if (from >= 0) previous = doc.breakAfter(from) || fallback;
    breaks.push(previous);
  }
  return breaks;
}

/**
 * An exact match that is really a line match: it starts inside a line's
 * indentation (`  "type": "git",` found inside `    "type": "git",`: the
 * model quoted the line with less indentation), or it spans several lines and
 * ends inside the last one, which the edit keeps (`foo();` has since become
 * `foo(); // note`). Spliced literally, added lines would keep the model's
 * indentation or cut the grown line in two; as a line match they are
 * re-indented and the file's lines stay whole. Only edits that add lines are
 * widened (otherwise the literal splice is exactly right), and a partial last
 * line that the edit changes stays a literal edit.
 */
function widenToLines(doc: Document, cand: Candidate, replacement: string): Candidate | undefined {
  const q = cand.query;
  const t = doc.text;
  // Only an edit that adds lines can misplace them; otherwise literal is exact.
  if (q.endsWithNewline || replacement.split("\n").length <= q.lines.length) return undefined;
  const lineStart = doc.lineStart(cand.startLine);
  const inIndent = cand.start > lineStart && t.slice(lineStart, cand.start).trim() === "";
  if (cand.start !== lineStart && !inIndent) return undefined;
  // Widened, the first line is re-indented from the file's: one that is blank, or indented
  // otherwise than the find text's first line, would lose the indentation before the match.
  const firstNew = replacement.split("\n")[0] ?? "";
  if (inIndent && (firstNew.trim() === "" || leadingWhitespace(firstNew) !== leadingWhitespace(q.lines[0] ?? ""))) return undefined;
  const lineEnd = doc.lineEnd(cand.endLine - 1);
  const cutsLastLine = cand.end !== lineEnd;
  if (cutsLastLine) {
    // A one-line match followed by more text on its line: lines added after it
    // must stay before that text (`x = 1; return x`), so the splice is literal.
    if (q.lines.length < 2 && t.slice(cand.end, lineEnd).trim() !== "") return undefined;
    if (q.lines.length < 2 && !inIndent) return undefined;
    if (changesLine(q.lines, replacement.split("\n"), q.lines.length - 1)) return undefined;
  } else if (!inIndent) {
    return undefined;
  }
  return { ...cand, lineBased: true, start: lineStart, end: lineEnd };
}

/**
 * Whether the merge of a widened exact match keeps the text of its lines
 * outside the match: what precedes it on its first line (the indentation the
 * model did not quote) starts the merged text, and what follows it on its last
 * line ends it. The merge re-indents a line it reads as replaced (a
 * whitespace-only or re-indented first line) and keeps a last line whole,
 * with lines added after it: either would move or change bytes the model
 * never quoted (`"\n  x"` with `x` -> `a\n  x` lost the two spaces), so such
 * an edit is spliced literally instead (and one with an elision refused).
 * One move is kept: trailing whitespace or a trailing comment after the
 * match stays at the end of its line when the merge keeps that line whole
 * and adds lines after it (`x = 1;` quoted from `    x = 1;  `, or from
 * `    x = 1; // note` the file grew since): spliced literally, the added
 * line would land at column 0, out of its block, or take the comment.
 * So does a last line whose last word the model cut short (`## Doc` for
 * `## Docs`): lines are never added inside a word. Code after the match is
 * not moved (`b` quoted from `  b)`, `, c` added: the added text belongs
 * inside the call).
 */
function keepsAround(doc: Document, exact: Candidate, widened: Candidate, text: string | undefined): boolean {
  if (text === undefined) return exact.start === widened.start && exact.end === widened.end;
  const before = doc.text.slice(widened.start, exact.start);
  const after = doc.text.slice(exact.end, widened.end);
  if (!text.startsWith(before)) return false;
  if (text.length >= before.length + after.length && text.endsWith(after)) return true;
  const endsMidWord = /\w$/.test(doc.text.slice(Math.max(0, exact.end - 1), exact.end)) && /^\w/.test(after);
  return (after.trim() === "" || TRAILING_COMMENT.test(after) || endsMidWord) && text.split("\n").includes(doc.line(widened.endLine - 1));
}

/** A comment after the code of a line (` // note`): it belongs to that line, not to the lines added after it. */
const TRAILING_COMMENT = /^[ \t]+(?:\/\/|#|\/\*|<!--|--)/;

/**
 * A replacement with an elision line the find text does not have is never
 * written literally: as whole lines, the merge expands the elision (or
 * refuses). A match that cuts a line cannot be merged, so it is refused.
 */
function elisionToLines(doc: Document, cand: Candidate, replacement: string, words: SpliceWords): { cand: Candidate; marker: string } | undefined {
  const find = new Set(cand.query.lines.map((l) => l.trim()));
  // A find text of one line has no lines for a marker to stand for: the marker is text the model writes.
  if (cand.query.lines.length < 2) return undefined;
  const marker = replacement.split("\n").find((l) => isReplacementElision(l) && !find.has(l.trim()));
  if (marker === undefined) return undefined;
  const t = doc.text;
  const startLine = doc.lineAt(cand.start);
  const lastLine = doc.lineAt(Math.max(cand.start, cand.end - 1));
  const lineStart = doc.lineStart(startLine);
  const lineEnd = doc.lineEnd(lastLine);
  const endsLine = cand.end === lineEnd || (cand.query.endsWithNewline && cand.end === lineEnd + 1);
  if (t.slice(lineStart, cand.start).trim() !== "" || !endsLine) throw elisionInsideLine(marker, words);
  return { cand: { ...cand, lineBased: true, start: lineStart, end: lineEnd, startLine, endLine: lastLine + 1 }, marker };
}

function elisionInsideLine(marker: string, w: SpliceWords): EditError {
  return new EditError(
    "INVALID_INPUT",
    `${capitalize(w.replacement)} has an elision line, \`${marker.trim()}\`, but ${w.find} has none: it cannot stand for lines of a match inside a line. Nothing was changed. Send ${w.replacement} in full, without elided lines.`,
  );
}

/** Literal replacement; deleting whole lines also removes their line break. */
function literalSplice(doc: Document, start: number, end: number, text: string): Splice {
  const t = doc.text;
  const wholeLines = end > start && (start === 0 || t[start - 1] === "\n") && (end === t.length || t[end] === "\n");
  if (text === "" && wholeLines && t[end - 1] !== "\n") return deleteLines(doc, start, end);
  const splice: Splice = { start, end, text };
  if (doc.mixedLineEndings && text.includes("\n")) {
    // The k-th new break takes the k-th replaced break: a rewritten line keeps its ending.
    const replaced: string[] = [];
    for (let p = t.indexOf("\n", start); p !== -1 && p < end; p = t.indexOf("\n", p + 1)) {
      replaced.push(doc.breakAfter(doc.lineAt(p)));
    }
    const fallback = replaced[replaced.length - 1] ?? doc.eolAt(start);
    splice.breaks = text
      .split("\n")
      .slice(1)
      .map((_, k) => replaced[k] ?? fallback);
  }
  return splice;
}

/** Removes [start, end) and one adjacent line break: the following one, or the preceding one at the end of the file. */
function deleteLines(doc: Document, start: number, end: number): Splice {
  if (doc.text[end] === "\n") return { start, end: end + 1, text: "" };
  if (start > 0 && doc.text[start - 1] === "\n") return { start: start - 1, end, text: "" };
  return { start, end, text: "" };
}

/** For each query line, the document line it stands for (-1: none). */
function alignmentOf(doc: Document, cand: Candidate): number[] {
  if (cand.alignment) return cand.alignment;
  const find = cand.query.lines;
  const size = cand.endLine - cand.startLine;
  if (size === find.length) return find.map((_, j) => cand.startLine + j);
  // Sizes differ (a similarity match): align equal lines, then pair changed runs in order.
  const region = doc.lines(cand.startLine, cand.endLine);
  const parts = diffArrays(region.map(collapseWhitespace), find.map(collapseWhitespace));
  const alignment: number[] = [];
  let f = cand.startLine;
  let pendingRemoved: number[] = [];
  for (const part of parts) {
    const count = part.count ?? part.value.length;
    if (part.removed) {
      pendingRemoved = Array.from({ length: count }, (_, k) => f + k);
      f += count;
    } else if (part.added) {
      for (let k = 0; k < count; k++) alignment.push(pendingRemoved[k] ?? -1);
      pendingRemoved = [];
    } else {
      for (let k = 0; k < count; k++) alignment.push(f + k);
      f += count;
      pendingRemoved = [];
    }
  }
  return alignment;
}

/** Whether the edit, as the model wrote it, removes or changes query line `j`. */
function changesLine(find: readonly string[], repl: readonly string[], j: number): boolean {
  let at = 0;
  for (const part of diffArrays([...find], [...repl])) {
    const count = part.count ?? part.value.length;
    if (part.added) continue;
    if (part.removed && at <= j && j < at + count) return true;
    at += count;
  }
  return false;
}

function withBreaks(s: Splice, eol: string): string {
  if (!s.breaks) return eol === "\n" ? s.text : s.text.replaceAll("\n", eol);
  const lines = s.text.split("\n");
  let out = lines[0] ?? "";
  for (let k = 1; k < lines.length; k++) out += (s.breaks[k - 1] ?? eol) + lines[k];
  return out;
}

/** Whether the splices are already in order (replaceAll's are: a million of them were copied and sorted, ~60 ms). */
function inOrder(splices: readonly Splice[]): boolean {
  for (let k = 1; k < splices.length; k++) {
    const a = splices[k - 1] as Splice;
    const b = splices[k] as Splice;
    if (a.start > b.start || (a.start === b.start && a.end > b.end)) return false;
  }
  return true;
}

/** Pieces up to which `+` (a rope, no copy) beats one `join`. */
const FEW_PIECES = 64;

/** Writes splices into the raw text. Overlapping splices are a CONFLICT. */
export function renderSplices(doc: Document, splices: readonly Splice[]): string {
  return renderSplicesWithChange(doc, splices).text;
}

/** `renderSplices`, and what it changed as one range of the raw text (from the first splice to the last). */
const PIECES = Symbol("change pieces");

/** `text` of a change from `lazyChange`: its pieces joined, once. */
function joinedPieces(this: { [PIECES]: string[] | string }): string {
  const pieces = this[PIECES];
  if (typeof pieces === "string") return pieces;
  const text = pieces.join("");
  this[PIECES] = text;
  return text;
}

/**
 * A change whose `text` is its pieces joined when first read: an enumerable
 * getter (a spread or `deepEqual` reads it) shared by every change, defined
 * on the object. Not a getter written in the object literal: that is a new
 * function each call, and V8 gives each such object a map of its own
 * holding it, which its minor collector keeps alive until a major
 * collection, with the getter's scope: the pieces, slices of the file's
 * text (the engine's `replace` on the real exact edits' files, 4 passes:
 * 32 MB promoted by the scavenges with it, 0.1 without).
 */
function lazyChange(start: number, end: number, pieces: string[]): TextChange {
  const change = { start, end } as TextChange;
  Object.defineProperty(change, PIECES, { value: pieces, writable: true });
  Object.defineProperty(change, "text", { get: joinedPieces, enumerable: true, configurable: true });
  return change;
}

/**
 * Splices up to which the change is also given as its parts (a change a
 * splice, the file layer's carried text keeps each apart, carried-text.ts);
 * replaceAll makes up to a million.
 */
export const MAX_PARTS = 64;

export function renderSplicesWithChange(doc: Document, splices: readonly Splice[]): { text: string; change: TextChange; parts?: TextChange[] } {
  const sorted = inOrder(splices) ? splices : [...splices].sort((a, b) => a.start - b.start || a.end - b.end);
  // Many pieces are joined once: a million `+=` built a rope that cost twice the join.
  const middle: string[] = [];
  const parts: TextChange[] | undefined = sorted.length > 1 && sorted.length <= MAX_PARTS ? [] : undefined;
  let first = -1;
  let rawAt = 0;
  let prev: Splice | undefined;
  for (const s of sorted) {
    if (prev && (s.start < prev.end || (s.start === prev.start && s.start === s.end && prev.start === prev.end))) {
      throw new EditError(
        "CONFLICT",
        `Two edits overlap at lines ${doc.lineAt(prev.start) + 1}-${doc.lineAt(Math.max(prev.start, prev.end - 1)) + 1} and ${doc.lineAt(s.start) + 1}-${doc.lineAt(Math.max(s.start, s.end - 1)) + 1}. Combine them into one edit.`,
        {
          candidates: [prev, s].map((x) => ({
            startLine: doc.lineAt(x.start) + 1,
            endLine: doc.lineAt(Math.max(x.start, x.end - 1)) + 1,
          })),
        },
      );
    }
    const rawStart = doc.toRaw(s.start);
    if (first === -1) first = rawStart;
    else if (rawStart > rawAt) middle.push(doc.raw.slice(rawAt, rawStart));
    // Only a text with a break needs the ending there, which eolAt finds by
    // scanning to the line's end: per splice, a 1 MB CRLF line took 7 s.
    const text = s.breaks || s.text.includes("\n") ? withBreaks(s, doc.eolAt(s.start)) : s.text;
    middle.push(text);
    rawAt = doc.toRaw(s.end);
    parts?.push(s.line === undefined ? { start: rawStart, end: rawAt, text } : { start: rawStart, end: rawAt, text, line: s.line });
    prev = s;
  }
  const start = Math.max(0, first);
  const out = start > 0 ? [doc.raw.slice(0, start)] : [];
  appendAll(out, middle);
  out.push(doc.raw.slice(rawAt));
  // The change's text is joined only when asked (replaceAll's million pieces are most of the file).
  const change = lazyChange(start, rawAt, middle);
  if (out.length > FEW_PIECES) return { text: out.join(""), change, ...(parts && { parts }) };
  // A few pieces: `+` makes a rope that shares the file's text; a join copies all of it (~4 ms on 9 MB).
  let text = "";
  for (const piece of out) text += piece;
  return { text, change, ...(parts && { parts }) };
}

/**
 * Ops made of whole lines (diff hunks) are applied as line edits: original
 * lines [from, to) replaced by new lines. This module turns candidates into
 * whole lines, merges overlapping line edits, and renders them with the
 * file's final newline settled exactly.
 */
import { diffArrays } from "diff";
import type { EditError } from "../errors.ts";
import type { Candidate, StrategyOptions } from "../match/types.ts";
import type { Document } from "../text/document.ts";
import { countBreaks } from "../text/count-breaks.ts";
import { isBlank } from "../text/normalize.ts";
import { planSplice, renderSplicesWithChange, type Splice } from "./splice.ts";
import type { TextChange } from "./ops.ts";
import type { SpliceWords } from "../match/vocabulary.ts";
import type { SyntaxJudge } from "./syntax-decide.ts";

/** Replace original lines [from, to) (0-based) by `lines`; from === to inserts before line `from`. */
export interface LineEdit {
  from: number;
  to: number;
  lines: string[];
}

/**
 * A candidate as whole lines, or undefined when it covers part of a line
 * with something other than blank space beside it. Strategies that match a
 * substring (exact, trimmed-boundary) return ranges; a hunk means lines:
 * `foo()` does not match inside `x = foo()`.
 */
function toWholeLines(doc: Document, c: Candidate): Candidate | undefined {
  if (c.lineBased) return c;
  const first = doc.lineAt(c.start);
  const last = first + c.query.lines.length - 1;
  if (!doc.hasLine(last)) return undefined;
  const lastEnd = doc.lineEnd(last);
  if (c.end < doc.lineStart(last) || c.end > lastEnd) return undefined;
  if (!isBlank(doc.text.slice(doc.lineStart(first), c.start)) || !isBlank(doc.text.slice(c.end, lastEnd))) return undefined;
  return { ...c, start: doc.lineStart(first), end: lastEnd, startLine: first, endLine: last + 1, lineBased: true };
}

export function wholeLineCandidates(doc: Document, cands: readonly Candidate[]): Candidate[] {
  // Candidates in document order (the cascade's `distinct` gives them so) give whole-line ranges in
  // order, a repeat only next to its twin: no string keys and no sort. A find text of 1,700 `}` lines
  // in a file of 200,000 has 198,000 places; keyed and sorted, this took ~0.8 s per hunk.
  const out: Candidate[] = [];
  let ordered = true;
  for (const c of cands) {
    const w = toWholeLines(doc, c);
    if (!w) continue;
    const last = out[out.length - 1];
    if (last && last.startLine === w.startLine && last.endLine === w.endLine) continue;
    if (last && (w.startLine < last.startLine || (w.startLine === last.startLine && w.endLine < last.endLine))) ordered = false;
    out.push(w);
  }
  if (ordered) return out;
  const byRange = new Map<string, Candidate>();
  for (const w of out) if (!byRange.has(`${w.startLine}:${w.endLine}`)) byRange.set(`${w.startLine}:${w.endLine}`, w);
  return [...byRange.values()].sort((a, b) => a.startLine - b.startLine || a.endLine - b.endLine);
}

/** The new lines for a located candidate: the splice's merge of the edit into the file's own lines. */
export function newLinesAt(doc: Document, cand: Candidate, lines: readonly string[], options?: StrategyOptions, words?: SpliceWords, judge?: SyntaxJudge): string[] {
  // No new side: every line of the region goes. (The splice reads "" as no
  // lines; one empty line is a query ending with a newline and a replacement
  // that is only a newline.)
  if (lines.length === 0) return [];
  const single = lines.length === 1 && lines[0] === "";
  const c = single ? { ...cand, query: { ...cand.query, endsWithNewline: true } } : cand;
  const splice = planSplice(doc, c, single ? "\n" : lines.join("\n"), options, { explicitLines: true, ...(words && { words }), ...(judge && { judge }) });
  // A shorter or longer range than the candidate is the splice deleting every line with its break.
  return splice.start === cand.start && splice.end === cand.end ? splice.text.split("\n") : [];
}

/** Whether two edits touch the same lines (an insertion touches the edges of a range too, so both become one edit). */
export function lineEditsOverlap(a: LineEdit, b: LineEdit): boolean {
  const aEmpty = a.from === a.to;
  const bEmpty = b.from === b.to;
  if (aEmpty && bEmpty) return a.from === b.from;
  if (aEmpty) return b.from <= a.from && a.from <= b.to;
  if (bEmpty) return a.from <= b.from && b.from <= a.to;
  return a.from < b.to && b.from < a.to;
}

/**
 * One edit from overlapping ones. Each edit is read as, per original line,
 * kept or deleted, and lines inserted before each line (diff of its range
 * against its new lines). A line deleted by any edit goes; insertions at one
 * place must be the same in every edit that makes one: otherwise `conflict`
 * is called with the two edits' positions in `group` and the line.
 */
export function mergeLineEdits(doc: Document, group: readonly LineEdit[], conflict: (a: number, b: number, at: number) => EditError): LineEdit {
  let from = Number.POSITIVE_INFINITY;
  let to = 0;
  for (const e of group) {
    from = Math.min(from, e.from);
    to = Math.max(to, e.to);
  }
  const deleted = new Array<boolean>(to - from).fill(false);
  const inserted = new Map<number, { lines: string[]; k: number }>();
  group.forEach((e, k) => {
    let line = e.from;
    const mine = new Map<number, string[]>();
    for (const part of diffArrays(doc.lines(e.from, e.to), e.lines)) {
      const count = part.count ?? part.value.length;
      if (part.added) {
        const list = mine.get(line) ?? [];
        for (const v of part.value) list.push(v);
        mine.set(line, list);
      } else {
        if (part.removed) for (let i = 0; i < count; i++) deleted[line + i - from] = true;
        line += count;
      }
    }
    for (const [at, lines] of mine) {
      const other = inserted.get(at);
      if (other && other.lines.join("\n") !== lines.join("\n")) throw conflict(other.k, k, at);
      inserted.set(at, { lines, k });
    }
  });
  const lines: string[] = [];
  for (let at = from; at <= to; at++) {
    for (const l of inserted.get(at)?.lines ?? []) lines.push(l);
    if (at < to && !deleted[at - from]) lines.push(doc.line(at));
  }
  return { from, to, lines };
}

/** The splice of one line edit into `Document.text`. The final newline is settled by `renderLineEdits`. */
export function spliceOfLineEdit(doc: Document, e: LineEdit): Splice {
  const body = e.lines.join("\n");
  if (e.from < e.to) {
    if (e.lines.length > 0) {
      const splice: Splice = { start: doc.lineStart(e.from), end: doc.lineEnd(e.to - 1), text: body };
      if (e.lines.length > 1 && doc.mixedLineEndings) splice.breaks = keptBreaks(doc, e);
      return splice;
    }
    // Whole lines with their breaks; lineStart(n) is the end of the text.
    return { start: doc.lineStart(e.from), end: doc.lineStart(e.to), text: "" };
  }
  if (doc.hasLine(e.from)) return { start: doc.lineStart(e.from), end: doc.lineStart(e.from), text: `${body}\n` };
  const end = doc.text.length;
  if (end === 0) return { start: 0, end: 0, text: `${body}\n` };
  return { start: end, end, text: doc.finalNewline ? `${body}\n` : `\n${body}` };
}

/**
 * In a file with mixed line endings, the break after each new line of `e`
 * but the last: a line the edit keeps keeps its own (a CRLF context line
 * between LF lines stays CRLF, issue 22 item 8); lines written in place of
 * removed ones take their breaks in order, the last of them the last
 * removed line's (so the bytes after the removed lines stay); another new
 * line takes the break of the line before it.
 */
function keptBreaks(doc: Document, e: LineEdit): string[] {
  const breaks: string[] = [];
  let previous = doc.eolAt(doc.lineStart(e.from));
  let at = e.from;
  // Breaks of the lines just removed: a line written in place of one takes its break.
  let removed: string[] = [];
  for (const part of diffArrays(doc.lines(e.from, e.to), e.lines)) {
    const count = part.count ?? part.value.length;
    if (part.removed) {
      removed = [];
      for (let k = 0; k < count; k++, at++) removed.push(doc.breakAfter(at) || previous);
      continue;
    }
    if (part.added) {
      // The last takes the last removed line's break, so the bytes after the removed lines stay.
      const last = removed[removed.length - 1] ?? previous;
      for (let k = 0; k < count; k++) breaks.push(k === count - 1 ? last : (removed[k] ?? last));
    } else {
      for (let k = 0; k < count; k++, at++) {
        previous = doc.breakAfter(at) || previous;
        breaks.push(previous);
      }
    }
    removed = [];
  }
  breaks.length = e.lines.length - 1;
  return breaks;
}

/** Lines a splice adds (negative: removes); the file's breaks counted in place, no slice per splice (replaceAll makes up to a million). */
export const spliceDelta = (doc: Document, s: Splice): number => countBreaks(s.text) - countBreaks(doc.text, s.start, s.end);

/**
 * Renders line edits and settles the final newline: `want`, or the file's
 * own when undefined (models rarely write `\ No newline`, and deleting the
 * last line must not change it). Whether the result ends with a line break
 * cannot be read off its last character ("a\n" is one line with its break,
 * or "a" and an empty last line without one), so it is counted: a result of
 * L lines has L breaks with a final newline and L - 1 without. Only the
 * changes to both counts are summed: the file's own line count would cost
 * the whole line table (~4 ms on 200k lines) and cancels out.
 */
export function renderLineEdits(doc: Document, edits: readonly LineEdit[], want: boolean | undefined): string {
  return renderLineEditsWithChange(doc, edits, want).text;
}

/** `renderLineEdits`, and what it changed as one range of the raw text, unless it settled the final newline. */
export function renderLineEditsWithChange(doc: Document, edits: readonly LineEdit[], want: boolean | undefined): { text: string; change?: TextChange } {
  const splices = edits.filter((e) => e.from !== e.to || e.lines.length > 0).map((e) => spliceOfLineEdit(doc, e));
  const { text: out, change } = renderSplicesWithChange(doc, splices);
  let added = 0;
  let removed = 0;
  for (const e of edits) {
    added += e.lines.length;
    removed += e.to - e.from;
  }
  // No line left: the edits removed as many lines as the file has.
  if (added === 0 && !doc.hasLine(removed)) return { text: doc.bom ? "\uFEFF" : "" };
  const wanted = want ?? doc.finalNewline;
  // Breaks minus lines: 0 for a file with a final newline (or none), -1 without; then what each splice changes.
  let breaksOverLines = doc.finalNewline || doc.text.length === 0 ? 0 : -1;
  for (const sp of splices) breaksOverLines += spliceDelta(doc, sp);
  const has = breaksOverLines === added - removed;
  if (wanted && !has) return { text: out + doc.eolAt(doc.text.length) };
  if (!wanted && has) {
    // The final break may be "\r\r\n" (see Document): all of it goes; in a
    // file of CR-terminated lines it is the last CR alone. No more CRs than
    // the file's breaks have: one more is the last line's text (`b\r` in an
    // LF file). By hand, not with /\r*\n$/: that pattern is tried at every
    // break of the file.
    let end = out.length - 1;
    const crs = doc.crLines ? 0 : doc.breakCrs;
    for (let k = 0; k < crs && end > 0 && out.charCodeAt(end - 1) === 13; k++) end--;
    return { text: out.slice(0, end) };
  }
  return { text: out, change };
}

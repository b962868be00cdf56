/**
 * Applying a located edit.
 *
 * A range match (exact text, a span inside a line) takes the replacement
 * literally. A line match applies *the edit*, not the model's copy of the
 * text: the find text is diffed against the replacement line by line, and
 * only the changed lines are carried into the matched region. Lines the edit
 * does not change keep the file's own bytes (indentation, spacing, quotes,
 * and any change made since the model read the file); lines of the region
 * the model did not show (elided, extra blank lines) stay where they are.
 * Added lines are re-indented from the nearest line they replace or follow,
 * scaled to the file's indentation and written in its own unit.
 *
 * `renderSplices` writes the splices into the raw text: bytes outside the
 * spliced ranges never change, and inserted line breaks take the ending of
 * the line where they land (CRLF stays CRLF, even in a mixed file).
 */
import { appendAll } from "../arrays.ts";
import { diffArrays } from "diff";
import { EditError } from "../errors.ts";
import type { Candidate } from "../match/types.ts";
import { type Document, detectIndentUnit } from "../text/document.ts";
import { everyLineHasLineNumbers, stripLineNumbers } from "../text/line-numbers.ts";
import {
  collapseWhitespace,
  isBlank,
  leadingWhitespace,
  normalizePunctuation,
  unescapeModelText,
} from "../text/normalize.ts";

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
}

const TAB_WIDTH = 4;

/** The replacement as the find text was read: un-escaped, without line numbers, ... */
function rewriteReplacement(text: string, cand: Candidate): string {
  switch (cand.rewrite) {
    case "unescape":
      return unescapeModelText(text);
    case "strip-line-numbers":
    case "strip-line-numbers-aggressive": {
      const aggressive = cand.rewrite === "strip-line-numbers-aggressive";
      if (everyLineHasLineNumbers(text, aggressive)) return stripLineNumbers(text, aggressive);
      // Only some lines numbered (a diff's context lines copied from a numbered
      // view, its added lines not): strip the ones that are copies of the old text.
      const known = new Set(cand.query.lines);
      return text
        .split("\n")
        .map((line) => {
          const stripped = stripLineNumbers(line, aggressive);
          return stripped !== line && known.has(stripped) ? stripped : line;
        })
        .join("\n");
    }
    case "trim-boundary":
      return text.trim();
    default:
      return text;
  }
}

export function planSplice(doc: Document, cand: Candidate, newString: string): Splice {
  const replacement = rewriteReplacement(newString.replaceAll("\r\n", "\n"), cand);
  if (!cand.lineBased) {
    const widened = widenToLines(doc, cand, replacement);
    if (!widened) return literalSplice(doc, cand.start, cand.end, replacement);
    cand = widened;
  }
  const q = cand.query;
  let body = replacement;
  if (q.endsWithNewline && body.endsWith("\n")) body = body.slice(0, -1);
  const repl = replacement === "" ? [] : body.split("\n");
  const merged = mergeLines(doc, cand, repl);
  if (merged.length === 0) return deleteLines(doc, cand.start, cand.end);
  const splice: Splice = { start: cand.start, end: cand.end, text: merged.map((m) => m.text).join("\n") };
  if (doc.mixedLineEndings) splice.breaks = breaksOf(doc, merged, doc.eolAt(cand.start));
  return splice;
}

/** A line of merged output, and the document line it was copied from (-1: new). */
interface MergedLine {
  text: string;
  from: number;
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
  const lineEnd = doc.lineEnd(cand.endLine - 1);
  const cutsLastLine = cand.end !== lineEnd;
  if (cutsLastLine) {
    if (q.lines.length < 2 && !inIndent) return undefined;
    if (editScript(q.lines, replacement.split("\n")).removed[q.lines.length - 1]) return undefined;
  } else if (!inIndent) {
    return undefined;
  }
  return { ...cand, lineBased: true, start: lineStart, end: lineEnd };
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

interface Insertion {
  /** Query line the lines follow (-1: before the first). */
  after: number;
  lines: string[];
  /** Per line, the query line whose indentation it is measured against. */
  anchors: number[];
}

/** The edit as the model wrote it: which query lines stay, which go, what comes in where. */
function editScript(find: readonly string[], repl: readonly string[]) {
  const removed = new Array<boolean>(find.length).fill(false);
  const inserts: Insertion[] = [];
  let j = 0;
  let lastRemoved: number[] = [];
  for (const part of diffArrays([...find], [...repl])) {
    const count = part.count ?? part.value.length;
    if (part.removed) {
      lastRemoved = Array.from({ length: count }, (_, k) => j + k);
      for (const r of lastRemoved) removed[r] = true;
      j += count;
    } else if (part.added) {
      const after = j - 1;
      // Measure each added line against the line it replaces, else the line it follows, else the next.
      const fallback = after >= 0 ? after : Math.min(j, find.length - 1);
      const anchors = part.value.map((_, k) => lastRemoved[Math.min(k, lastRemoved.length - 1)] ?? fallback);
      inserts.push({ after, lines: part.value, anchors });
      lastRemoved = [];
    } else {
      j += count;
      lastRemoved = [];
    }
  }
  return { removed, inserts };
}

function columns(indent: string): number {
  let cols = 0;
  for (const ch of indent) cols += ch === "\t" ? TAB_WIDTH : 1;
  return cols;
}

/** Maps model indentation to file indentation, learnt from the aligned lines. */
function indentMapper(doc: Document, cand: Candidate, find: readonly string[], repl: readonly string[], align: number[]) {
  const pairs: { j: number; model: string; file: string }[] = [];
  align.forEach((f, j) => {
    const m = find[j] ?? "";
    if (f < 0 || isBlank(m)) return;
    const line = doc.line(f);
    if (!isBlank(line)) pairs.push({ j, model: leadingWhitespace(m), file: leadingWhitespace(line) });
  });
  const identical = pairs.every((p) => p.model === p.file);
  // Scale: how many file columns one model column is worth, from pairs at different depths.
  const ratios: number[] = [];
  for (let a = 0; a < pairs.length; a++) {
    for (let b = a + 1; b < pairs.length && ratios.length < 64; b++) {
      const pa = pairs[a];
      const pb = pairs[b];
      if (!pa || !pb) continue;
      const dm = columns(pb.model) - columns(pa.model);
      if (dm !== 0) ratios.push((columns(pb.file) - columns(pa.file)) / dm);
    }
  }
  ratios.sort((x, y) => x - y);
  let scale = ratios[ratios.length >> 1];
  if (scale === undefined || scale <= 0) {
    const fileUnit = columns(doc.indentUnit());
    const modelUnit = columns(detectIndentUnit([...find, ...repl]));
    scale = fileUnit / modelUnit;
  }
  const regionLines = doc.lines(cand.startLine, cand.endLine);
  const fileUsesTabs =
    regionLines.some((l) => l.startsWith("\t")) || (!regionLines.some((l) => l.startsWith(" ")) && doc.indentUnit() === "\t");

  /** The aligned, non-blank query line nearest to `j`, preferring earlier lines. */
  const nearestPair = (j: number) => {
    let best: (typeof pairs)[number] | undefined;
    for (const p of pairs) {
      if (p.j <= j) best = p;
      else {
        best ??= p;
        break;
      }
    }
    return best;
  };

  return (line: string, anchor: number): string => {
    if (identical) return line;
    if (isBlank(line)) return "";
    const ref = nearestPair(anchor);
    if (!ref) return line;
    const body = line.slice(leadingWhitespace(line).length);
    const cols = Math.max(0, Math.round(columns(ref.file) + scale * (columns(leadingWhitespace(line)) - columns(ref.model))));
    if (cols === columns(ref.file)) return ref.file + body;
    const indent = fileUsesTabs ? "\t".repeat(Math.floor(cols / TAB_WIDTH)) + " ".repeat(cols % TAB_WIDTH) : " ".repeat(cols);
    return indent + body;
  };
}

function mergeLines(doc: Document, cand: Candidate, repl: string[]): MergedLine[] {
  const find = cand.query.lines;
  const align = alignmentOf(doc, cand);
  const { removed, inserts } = editScript(find, repl);
  const reindent = indentMapper(doc, cand, find, repl, align);
  const punctuation = cand.rewrite === "punctuation";
  const fresh = (ins: Insertion): MergedLine[] =>
    ins.lines.map((l, k) => {
      const line = reindent(l, ins.anchors[k] ?? ins.after);
      return { text: punctuation ? normalizePunctuation(line) : line, from: -1 };
    });
  const kept = (f: number): MergedLine => ({ text: doc.line(f), from: f });
  const insertsAfter = new Map<number, Insertion[]>();
  for (const ins of inserts) insertsAfter.set(ins.after, [...(insertsAfter.get(ins.after) ?? []), ins]);

  const out: MergedLine[] = [];
  let cursor = cand.startLine;
  let pending: MergedLine[] = [];
  // True while every query line since the last aligned one was removed: the file lines between go too.
  let removing = false;
  for (const ins of insertsAfter.get(-1) ?? []) appendAll(out, fresh(ins));
  for (let j = 0; j < find.length; j++) {
    const f = align[j] ?? -1;
    if (f >= 0) {
      const dropGap = removing && removed[j] === true;
      for (; cursor < f; cursor++) if (!dropGap) out.push(kept(cursor));
      appendAll(out, pending);
      pending = [];
      if (!removed[j]) out.push(kept(f));
      cursor = Math.max(cursor, f + 1);
      removing = removed[j] === true;
    } else {
      removing = removing && removed[j] === true;
    }
    for (const ins of insertsAfter.get(j) ?? []) {
      if (f >= 0) appendAll(out, fresh(ins));
      else appendAll(pending, fresh(ins));
    }
  }
  for (; cursor < cand.endLine; cursor++) out.push(kept(cursor));
  appendAll(out, pending);
  return out;
}

function withBreaks(s: Splice, eol: string): string {
  if (!s.breaks) return eol === "\n" ? s.text : s.text.replaceAll("\n", eol);
  const lines = s.text.split("\n");
  let out = lines[0] ?? "";
  for (let k = 1; k < lines.length; k++) out += (s.breaks[k - 1] ?? eol) + lines[k];
  return out;
}

/** Writes splices into the raw text. Overlapping splices are a CONFLICT. */
export function renderSplices(doc: Document, splices: readonly Splice[]): string {
  const sorted = [...splices].sort((a, b) => a.start - b.start || a.end - b.end);
  let out = "";
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
    out += doc.raw.slice(rawAt, rawStart);
    out += withBreaks(s, doc.eolAt(s.start));
    rawAt = doc.toRaw(s.end);
    prev = s;
  }
  return out + doc.raw.slice(rawAt);
}

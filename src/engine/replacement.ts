/**
 * How a replacement is read before it is spliced: the readings a careful
 * human gives the text a model sent, beside the one its find text matched
 * with (un-escaped, without line numbers, trimmed). A str_replace or
 * SEARCH/REPLACE replacement is one string the model may have got wrong on
 * its own: over-escaped onto one line, copied from a numbered view, typed in
 * the other whitespace, repeating the file line next to the find text, or
 * without the find text's final line break. A diff's new side is written on
 * purpose, line by line (createPatch's patches apply back exactly), and
 * keeps only the readings of its find text. An exact match reads none of
 * this: its replacement is literal (exact-literal.ts).
 */
import type { Candidate } from "../match/types.ts";
import type { Document } from "../text/document.ts";
import { escapedReplacement } from "../text/escaped-breaks.ts";
import { consecutiveNumbersFrom, everyLineHasLineNumbers, stripLineNumbers } from "../text/line-numbers.ts";
import { leadingWhitespace, unescapeModelText } from "../text/normalize.ts";
import { similarity, similarityBound } from "../text/similarity.ts";
import { withoutRepeatedNeighbours } from "./repeated-neighbours.ts";
import { ruleOn } from "./rules.ts";
import { inFindWhitespace, type Kind } from "./whitespace-kind.ts";

/** The replacement as the splice writes it; `explicitLines`: a diff's new side. */
export function readReplacement(doc: Document, cand: Candidate, newString: string, explicitLines: boolean): string {
  // Guarded: replaceAll plans a splice per place (a million), and a search per call cost ~60 ms of them.
  // A diff's lines are split already: a CR left at the end of one is its text (unified-apply.ts).
  const lf = !explicitLines && newString.includes("\r") ? newString.replaceAll("\r\n", "\n") : newString;
  // A diff has real line breaks, so a literal `\n` in one of its lines is the code's own (issue 22, item 10).
  const escaped = explicitLines || !ruleOn("escaped-replacement") ? undefined : escapedReplacement(lf, cand.query.lines);
  const numbered = ruleOn("numbers-stripped") ? numbersStripped(doc, lf, cand) : undefined;
  const read = cand.rewrite ? rewriteReplacement(lf, cand) : (escaped ?? numbered ?? lf);
  const spaced = explicitLines || !ruleOn("whitespace-kind") ? read : inFileWhitespace(doc, cand, read);
  const typed = explicitLines || !ruleOn("repeated-neighbours") ? spaced : withoutRepeatedNeighbours(doc, cand, spaced);
  return cand.lineBased || !ruleOn("final-break") ? typed : withFindsFinalBreak(doc, cand, typed);
}

/** The replacement as the find text was read: un-escaped, without line numbers, ... */
function rewriteReplacement(text: string, cand: Candidate): string {
  switch (cand.rewrite) {
    case "unescape-joined":
      // The find text came as one line, its breaks escaped; a replacement
      // with real line breaks was written plainly, and its backslashes are
      // the code's own (`split("\n")`). So are a one-line replacement's when it is, as written,
      // a line of the find text as read (a deletion keeping that line: accuracy case 23, `\\${`).
      return text.includes("\n") || cand.query.lines.includes(text) ? text : unescapeModelText(text);
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

/**
 * A range match whose find text ends with a line break and whose
 * replacement does not, followed by a line with text: the break is a habit
 * of typing (or a blank line left before a block's divider), not a wish to
 * join the edited line with the next one (`"x = 1\n"` -> `"x = 2"` wrote
 * `x = 2    return x`). The replacement takes the break. Left as written: a
 * deletion (empty replacement), a find text of blank space and breaks only
 * (breaks replaced on purpose), and a blank line after the match (the find
 * text's break may stand for that line, which the edit removes). At the end
 * of the file the break is the final newline, kept. A break at the end of
 * the replacement only is a blank line added, as written.
 */
function withFindsFinalBreak(doc: Document, cand: Candidate, text: string): string {
  const q = cand.query;
  if (!q.endsWithNewline || text === "" || text.endsWith("\n") || q.text.trim() === "") return text;
  // At the end of the file the break is its final newline: kept.
  if (cand.end === doc.text.length) return `${text}\n`;
  const next = doc.text.indexOf("\n", cand.end);
  const nextLine = doc.text.slice(cand.end, next === -1 ? doc.text.length : next);
  return nextLine.trim() === "" ? text : `${text}\n`;
}

/** The last answer of inFileWhitespace: replaceAll plans a splice per place (a million) with one query and one replacement. */
let lastWhitespace: { q: Candidate["query"]; text: string; out: string } | undefined;

/**
 * The replacement in the find text's (and file's) whitespace when it was
 * typed in the other (whitespace-kind.ts). Only for a match that starts a
 * line (or inside its indentation): a find text starting mid-line has no
 * indentation on its first line. (replaceAll's places share the answer:
 * one query, one replacement, regions alike.)
 */
function inFileWhitespace(doc: Document, cand: Candidate, text: string): string {
  const q = cand.query;
  if (lastWhitespace?.q === q && lastWhitespace.text === text) return lastWhitespace.out;
  lastWhitespace = { q, text, out: whitespaceRead(doc, cand, text) };
  return lastWhitespace.out;
}

function whitespaceRead(doc: Document, cand: Candidate, text: string): string {
  // A replacement with no indented line has nothing to rewrite (the cheap test first: the region is read only past it).
  if (!/\n[ \t]|^[ \t]/.test(text)) return text;
  const startsLine = cand.lineBased || doc.text.slice(doc.lineStart(cand.startLine), cand.start).trim() === "";
  if (!startsLine) return text;
  const region = doc.lines(cand.startLine, cand.endLine);
  return inFindWhitespace(cand.query.lines, text.split("\n"), region, () => doc.indentUnit(), (k) => indentsWith(doc, cand, k))?.join("\n") ?? text;
}

/** Lines around a match whose indentation tells the file's whitespace there (bundled files mix parts of each). */
const WHITESPACE_NEIGHBOURHOOD = 100;

/**
 * Whether a line near the match is indented with tabs, or with spaces (two
 * or more before code: the single space of a doc comment's ` * ` in a
 * tab-indented file is alignment, not indentation).
 */
function indentsWith(doc: Document, cand: Candidate, kind: Kind): boolean {
  const from = doc.lineStart(Math.max(0, cand.startLine - WHITESPACE_NEIGHBOURHOOD));
  const to = doc.lineStart(cand.endLine + WHITESPACE_NEIGHBOURHOOD);
  const near = doc.text.slice(from, to);
  return kind === "tabs" ? /^\t/m.test(near) : /^ {2,}[^\s*]/m.test(near);
}

/** Whether some line rewrites the quoted line at its place: alike by half at least (the merge's changed-line measure). */
function rewritesQuoted(text: string, quoted: readonly string[]): boolean {
  return text.split("\n").some((l, i) => {
    const q = (quoted[i] ?? "").trim();
    const t = l.trim();
    return q !== "" && t !== "" && similarityBound(t.length, q.length) >= 0.5 && similarity(t, q) >= 0.5;
  });
}

/** How far the first number of a numbered replacement may be from the match's line (blocks above it in the same call move it). */
const NUMBERS_NEAR = 50;

/**
 * A replacement copied from a numbered view while the find text was typed
 * clean: every line numbered, counting up from about the line where the
 * match starts. The numbers are stripped; the find text's own numbers (it
 * matched with them) mean they are content, and so do numbers that are all
 * the edit changes.
 */
function numbersStripped(doc: Document, text: string, cand: Candidate): string | undefined {
  const q = cand.query;
  if (!/^[ \t]*\d/.test(text) || everyLineHasLineNumbers(q.text)) return undefined;
  const first = consecutiveNumbersFrom(text);
  if (first === undefined || Math.abs(first - (cand.startLine + 1)) > NUMBERS_NEAR) return undefined;
  const stripped = stripLineNumbers(text);
  // Numbers that are all the edit changes (ids added to rows) are content.
  if (stripped === q.text) return undefined;
  // `12\t` may be a data row's first column: then the copy must hold a line the
  // model quoted, or stripped start at the find text's indentation (a tab after
  // the number, then the line's own), or number the match's own lines where no
  // matched line starts with a number column and rewrite them (a line at least
  // like the quoted one it follows). `12 | `, `12→` and `cat -n`'s
  // space-padded `    12\t` are a view's.
  const dataRow = /^\t*\d+\t/;
  if (text.split("\n").every((l) => l.trim() === "" || dataRow.test(l))) {
    const quoted = new Set(q.trimmed.filter((t) => t !== ""));
    const indent = leadingWhitespace(q.lines.find((l) => l.trim() !== "") ?? "");
    const firstLine = stripped.split("\n").find((l) => l.trim() !== "") ?? "";
    const sameIndent = indent !== "" && leadingWhitespace(firstLine) === indent;
    const ownLines = first === cand.startLine + 1 && !doc.lines(cand.startLine, cand.endLine).some((l) => dataRow.test(l)) && rewritesQuoted(stripped, q.lines);
    if (!sameIndent && !ownLines && !stripped.split("\n").some((l) => quoted.has(l.trim()))) return undefined;
  }
  return stripped;
}

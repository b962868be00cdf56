/**
 * A replacement that also repeats a line or two of the file next to the
 * match — the line after it, or the one before — which the find text does
 * not quote: the model wrote its new text up to the code it meant to keep
 * (`x = 2\nreturn x` for the quoted `x = 1`, with `return x` the next line).
 * Spliced literally that line comes out twice; the copy is dropped.
 *
 * Only whole lines with text, copied exactly (indentation too), and either
 * right past the find text's own edge line kept (`…, last quoted line,
 * next line`) or none of them a line the find text quotes (that may be a
 * quoted line kept: a replacement ending with a quoted `}` keeps that `}`,
 * whatever follows; see quotedTest).
 *
 * Blank lines may lie among the repeated ones (never repeated alone) only
 * when the find text was not found exactly: a model that recalls the file
 * wrong also re-sends a line it wrote before, blank line and all (real
 * edits: sympy-20442); after an exact find text, such a copy was meant as
 * written (sympy-19007 imports again what stands above; sympy-18057 ends
 * with the blank line and `return` that follow).
 */
import type { Candidate } from "../match/types.ts";
import type { Document } from "../text/document.ts";
import { leadingWhitespace } from "../text/normalize.ts";

/** Lines of the file checked on each side. */
const MAX_REPEATED = 2;

export function withoutRepeatedNeighbours(doc: Document, cand: Candidate, text: string): string {
  // One line repeats nothing (and replaceAll asks once per place, up to a million times).
  if (!text.includes("\n")) return text;
  const trailingBreak = text.endsWith("\n");
  const lines = (trailingBreak ? text.slice(0, -1) : text).split("\n");
  if (lines.length < 2) return text;
  const q = cand.query;
  const quoted = quotedTest(doc, cand, lines);
  const blanks = cand.strategy !== "exact";
  const t = doc.text;
  // Where the line after the match starts, when the match ends a line. A line-based match ends before its
  // last break even when the find text has one: its own last line is not the next one.
  const next = q.endsWithNewline && !cand.lineBased ? cand.end : t.charCodeAt(cand.end) === 10 ? cand.end + 1 : -1;
  let end = lines.length;
  if (next !== -1 && next < t.length) {
    const nextLine = doc.lineAt(next);
    const following = doc.lines(nextLine, nextLine + MAX_REPEATED);
    end -= repeatedCount(lines, following, quoted, q.lines[q.lines.length - 1] ?? "", blanks);
  }
  let start = 0;
  if (cand.start === doc.lineStart(cand.startLine) && cand.startLine > 0) {
    const preceding = doc.lines(Math.max(0, cand.startLine - MAX_REPEATED), cand.startLine).reverse();
    start = repeatedCount([...lines].reverse(), preceding, quoted, q.lines[0] ?? "", blanks);
  }
  if (start === 0 && end === lines.length) return text;
  if (end - start < 1) return text;
  return lines.slice(start, end).join("\n") + (trailingBreak ? "\n" : "");
}

/**
 * Whether a line is one the find text quotes: with its indentation when the
 * find text stands in the file at its own indentation (a `}` one level off
 * every quoted `}` is the file's next `}`, not a quoted one kept), else by
 * its text (the model re-indented what it quoted). At the file's depth, a
 * line the replacement holds more often than the find text quotes it is not
 * only quoted ones kept (a closing line quoted once and written twice: one is
 * the line above repeated). Decided on first use: most replacements never ask.
 */
function quotedTest(doc: Document, cand: Candidate, repl: readonly string[]): (line: string) => boolean {
  let test: ((line: string) => boolean) | undefined;
  return (line) => {
    if (!test) {
      const q = cand.query;
      const asInFile = q.lines.every((l, i) => {
        const at = cand.alignment ? (cand.alignment[i] ?? -1) : cand.startLine + i;
        return l.trim() === "" || at < 0 || leadingWhitespace(l) === leadingWhitespace(doc.line(at));
      });
      if (asInFile) {
        const quotedTimes = counts(q.lines);
        const written = counts(repl);
        test = (l) => (quotedTimes.get(l) ?? 0) >= Math.max(1, written.get(l) ?? 0);
      } else {
        // Re-indented, a `}` counted by its text stands for several levels: any quoted one may be kept.
        const trimmed = new Set(q.trimmed);
        test = (l) => trimmed.has(l.trim());
      }
    }
    return test(line);
  };
}

function counts(lines: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const l of lines) out.set(l, (out.get(l) ?? 0) + 1);
  return out;
}

/** Lines with text copied exactly; a blank line between them is any blank line (editors strip trailing spaces). */
function sameLine(model: string, file: string): boolean {
  return model.trim() === "" ? file.trim() === "" : model === file;
}

/**
 * How many of the last lines of `lines` repeat the file's `neighbours`
 * (the nearest first): the largest k whose lines all have text (`blanks`:
 * one at least), follow the find text's edge line (`edge`, exactly as
 * quoted) or are none of its `quoted` lines.
 */
function repeatedCount(lines: readonly string[], neighbours: readonly string[], quoted: (line: string) => boolean, edge: string, blanks: boolean): number {
  for (let k = Math.min(MAX_REPEATED, neighbours.length, lines.length - 1); k >= 1; k--) {
    const tail = lines.slice(lines.length - k);
    if (!tail.some((l) => l.trim() !== "") || !tail.every((l, i) => (blanks || l.trim() !== "") && sameLine(l, neighbours[i] ?? ""))) continue;
    const text = tail.filter((l) => l.trim() !== "");
    // Right past the quoted edge line as quoted, and not a copy of it (a re-indented `}` kept may read as the next `}`).
    const pastEdge = edge.trim() !== "" && lines[lines.length - k - 1] === edge && text.every((l) => l !== edge);
    if (pastEdge || text.every((l) => !quoted(l))) return k;
  }
  return 0;
}

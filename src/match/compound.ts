/**
 * Compound slips (fuzzpatch, issue 32): two or three of the model's known
 * slips at once — line numbers pasted from a numbered view, typeset quotes
 * and dashes, and on top of them a misremembered token, spacing or blank
 * lines. Each strategy undoes one slip, so none finds such a find text
 * (accuracy bench `compound`: 6 of 25 refused). This one undoes the two that
 * rewrite every line — the numbers, then the typesetting — leaves the blank
 * lines out, and hands the result to the strategies that tolerate the rest,
 * in cascade order. A
 * candidate keeps the score of the strategy that found it; its query is
 * the find text without its numbers (the merge's base; see asRead), and
 * stripped numbers are stripped from the replacement too (`rewrite`).
 *
 * Nothing to undo (no numbers on every line, no typeset character, no blank
 * line): no candidate; the cascade's own strategies have seen that find
 * text already.
 */
import { everyLineHasLineNumbers, stripLineNumbers } from "../text/line-numbers.ts";
import { hasUnicodePunctuation, normalizePunctuation } from "../text/normalize.ts";
import { blankLines } from "./blank-lines.ts";
import { blockAnchor } from "./block-anchor.ts";
import { fuzzyBlock } from "./fuzzy-block.ts";
import { lineTrimmed } from "./line-trimmed.ts";
import { queryFromLines } from "./query.ts";
import type { Candidate, Query, Rewrite, Strategy } from "./types.ts";
import { whitespaceInsensitive } from "./whitespace-insensitive.ts";
import { whitespaceNormalized } from "./whitespace-normalized.ts";

/** The strategies tried on the find text as read, in the cascade's order. */
const INNER: readonly Strategy[] = [lineTrimmed, whitespaceNormalized, whitespaceInsensitive, blankLines, blockAnchor, fuzzyBlock];

interface AsRead {
  /** What the inner strategies look for: no numbers, no typesetting, no blank lines. */
  search: Query;
  /** The merge's base: no numbers, typesetting and blank lines as the model wrote them. */
  base: Query;
  /** The base line of each search line. */
  lineOf: number[];
  rewrite?: Rewrite;
}

/**
 * The find text as read, or undefined when there is nothing to undo (no
 * numbers on every line, no typeset character, no blank line). The base
 * keeps the typesetting: the replacement's copies of quoted lines are
 * typeset alike, and the merge reads them as kept (a base in ASCII made
 * every copied curly quote a change of the model's, written over the
 * file's line). Blank lines are left out of the search: one the model
 * added or forgot is layout, and the merge keeps the file's.
 */
function asRead(q: Query): AsRead | undefined {
  const numbered = everyLineHasLineNumbers(q.text);
  const typeset = hasUnicodePunctuation(q.text);
  const lines = numbered ? stripLineNumbers(q.lines.join("\n")).split("\n") : [...q.lines];
  const lineOf = lines.flatMap((l, j) => (l.trim() === "" ? [] : [j]));
  if (lineOf.length === 0 || (!numbered && !typeset && lineOf.length === lines.length)) return undefined;
  const base = numbered ? queryFromLines(lines, q.endsWithNewline) : q;
  const solid = lineOf.map((j) => lines[j] as string);
  const search = queryFromLines(typeset ? solid.map(normalizePunctuation) : solid, q.endsWithNewline && lineOf.length === lines.length);
  return { search, base, lineOf, ...(numbered && { rewrite: "strip-line-numbers" as const }) };
}

/** An inner candidate as a candidate for the base: its alignment carried over line by line (blank base lines: none). */
function onBase(c: Candidate, read: AsRead): Candidate {
  const out: Candidate = { ...c, strategy: "compound", query: read.base, ...(read.rewrite && { rewrite: read.rewrite }) };
  const size = c.endLine - c.startLine;
  const searchAlign = c.alignment ?? (size === read.search.lines.length ? read.search.lines.map((_, i) => c.startLine + i) : undefined);
  // Sizes differ (a similarity window): the splice aligns the base with the region itself.
  if (!searchAlign) {
    delete out.alignment;
    return out;
  }
  const alignment = new Array<number>(read.base.lines.length).fill(-1);
  read.lineOf.forEach((j, i) => {
    alignment[j] = searchAlign[i] ?? -1;
  });
  out.alignment = alignment;
  return out;
}

export const compound: Strategy = {
  name: "compound",
  exact: false,
  find(ctx, q) {
    const read = asRead(q);
    if (!read) return [];
    for (const inner of INNER) {
      const found = inner.find(ctx, read.search);
      if (found.length > 0) return found.map((c) => onBase(c, read));
    }
    return [];
  },
};

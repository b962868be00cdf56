/**
 * LineNumbers (fuzzpatch): the model pasted line-number prefixes from a
 * numbered view (`12 | code`, `  12→code`, `12:\tcode`). When every line
 * carries one they are stripped and the stripped text is matched exactly,
 * then trimmed, then with whitespace collapsed; a second, more aggressive
 * stripping (`12: code`, `12 code`) is tried only if the first finds nothing.
 */
import { everyLineHasLineNumbers, stripLineNumbers } from "../text/line-numbers.ts";
import { exact } from "./exact.ts";
import { lineTrimmed } from "./line-trimmed.ts";
import { queryFromLines } from "./query.ts";
import type { Candidate, MatchContext, Query, Rewrite, Strategy } from "./types.ts";
import { whitespaceNormalized } from "./whitespace-normalized.ts";

const INNER = [exact, lineTrimmed, whitespaceNormalized];

function matchStripped(ctx: MatchContext, q: Query, aggressive: boolean): Candidate[] {
  if (!everyLineHasLineNumbers(q.text, aggressive)) return [];
  // Line by line, so a numbered blank last line stays a line of the query.
  const stripped = queryFromLines(stripLineNumbers(q.lines.join("\n"), aggressive).split("\n"), q.endsWithNewline);
  if (stripped.text.trim() === "") return [];
  const rewrite: Rewrite = aggressive ? "strip-line-numbers-aggressive" : "strip-line-numbers";
  for (const inner of INNER) {
    const found = inner.find(ctx, stripped);
    if (found.length > 0) return found.map((c) => ({ ...c, strategy: "line-numbers", rewrite }));
  }
  return [];
}

export const lineNumbers: Strategy = {
  name: "line-numbers",
  exact: true,
  find(ctx, q) {
    const standard = matchStripped(ctx, q, false);
    return standard.length > 0 ? standard : matchStripped(ctx, q, true);
  },
};

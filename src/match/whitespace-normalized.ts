/**
 * 4. WhitespaceNormalized: runs of whitespace collapsed to one space. The
 * model collapsed `a  =  b` to `a = b`, or turned tabs into spaces. A single
 * line may also match a span inside a longer line, word by word.
 */
import { collapseWhitespace } from "../text/normalize.ts";
import { lineCandidate, linesContaining, rangeCandidate, windowsByWord } from "./anchors.ts";
import type { Candidate, MatchContext, Query, Strategy } from "./types.ts";

/**
 * Finds `words` in `line` separated by any whitespace, without a regular
 * expression built from model text (no backtracking risk). Returns spans.
 */
function findWordSequence(line: string, words: readonly string[]): [number, number][] {
  const spans: [number, number][] = [];
  const first = words[0];
  if (first === undefined || first === "") return spans;
  let from = line.indexOf(first);
  while (from !== -1) {
    let p = from + first.length;
    let ok = true;
    for (let w = 1; w < words.length && ok; w++) {
      const ws = p;
      while (p < line.length && /\s/.test(line[p] ?? "")) p++;
      const word = words[w] ?? "";
      ok = p > ws && line.startsWith(word, p);
      p += word.length;
    }
    if (ok) spans.push([from, p]);
    from = line.indexOf(first, from + 1);
  }
  return spans;
}

function singleLineSpans(ctx: MatchContext, q: Query): Candidate[] {
  const key = collapseWhitespace(q.text);
  if (key === "") return [];
  const words = key.split(" ");
  const longest = words.reduce((a, b) => (b.length > a.length ? b : a), "");
  const out: Candidate[] = [];
  for (const i of linesContaining(ctx, longest)) {
    const line = ctx.doc.line(i);
    if (collapseWhitespace(line) === key) {
      out.push(lineCandidate(ctx, q, i, 1, "whitespace-normalized", 1));
      continue;
    }
    const base = ctx.doc.lineStart(i);
    for (const [s, e] of findWordSequence(line, words)) {
      out.push(rangeCandidate(ctx, q, base + s, base + e, "whitespace-normalized", 1));
    }
  }
  return out;
}

export const whitespaceNormalized: Strategy = {
  name: "whitespace-normalized",
  exact: true,
  find(ctx, q) {
    if (q.lines.length === 1 && !q.endsWithNewline) return singleLineSpans(ctx, q);
    const keys = q.lines.map(collapseWhitespace);
    return windowsByWord(ctx, q, { of: collapseWhitespace, keys }).map((s) =>
      lineCandidate(ctx, q, s, q.lines.length, "whitespace-normalized", 1),
    );
  },
};

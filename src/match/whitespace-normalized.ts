/**
 * 4. WhitespaceNormalized: runs of whitespace collapsed to one space. The
 * model collapsed `a  =  b` to `a = b`, or turned tabs into spaces. A single
 * line may also match a span inside a longer line, word by word.
 */
import { collapseWhitespace } from "../text/normalize.ts";
import { lineCandidate, linesContaining, noLineWiseWindow, rangeCandidate, windowsByWord } from "./anchors.ts";
import type { Candidate, MatchContext, Query, Strategy } from "./types.ts";

/**
 * Finds `words` in `line` separated by any whitespace, without a regular
 * expression built from model text (no backtracking risk). Returns spans:
 * the first word ends a token of the line, the middle words are whole
 * tokens, the last starts one. With two or more words the line is read
 * once as tokens and the middle words found with KMP: restarting at every
 * occurrence of the first word was O(line × words) (a 64 kB line of one
 * repeated phrase: 3.8 s).
 */
export function findWordSequence(line: string, words: readonly string[]): [number, number][] {
  const spans: [number, number][] = [];
  const first = words[0];
  if (first === undefined || first === "") return spans;
  if (words.length === 1) {
    for (let at = line.indexOf(first); at !== -1; at = line.indexOf(first, at + 1)) spans.push([at, at + first.length]);
    return spans;
  }
  const last = words[words.length - 1] as string;
  // Tokens as two flat arrays (an object per token was most of the time, in the collector, on a 1 MB line).
  const texts: string[] = [];
  const starts: number[] = [];
  const space = /\s/;
  for (let p = 0; p < line.length; ) {
    while (p < line.length && space.test(line.charAt(p))) p++;
    const s = p;
    while (p < line.length && !space.test(line.charAt(p))) p++;
    if (p > s) {
      texts.push(line.slice(s, p));
      starts.push(s);
    }
  }
  // A match spans one token per word: a line with fewer holds none. Without this, a find text of
  // 15,000 words written on one line (its breaks escaped) built its middle and KMP table again for
  // each of a file's 4,889 short lines: 1.6 s of CPU before escape-normalized found it.
  if (texts.length < words.length) return spans;
  const middle = words.slice(1, -1);
  for (const t of matchesOf(texts, middle)) {
    const before = texts[t - 1];
    const after = texts[t + middle.length];
    if (before === undefined || after === undefined || !before.endsWith(first) || !after.startsWith(last)) continue;
    spans.push([(starts[t - 1] as number) + before.length - first.length, (starts[t + middle.length] as number) + last.length]);
  }
  return spans;
}

/** Every index where `pattern` occurs in `seq` (KMP; an empty pattern occurs at every index). */
function matchesOf(seq: readonly string[], pattern: readonly string[]): number[] {
  const out: number[] = [];
  const m = pattern.length;
  if (m === 0) return seq.map((_, i) => i).concat(seq.length);
  const fail = new Array<number>(m).fill(0);
  for (let i = 1, k = 0; i < m; i++) {
    while (k > 0 && pattern[i] !== pattern[k]) k = fail[k - 1] as number;
    if (pattern[i] === pattern[k]) k++;
    fail[i] = k;
  }
  for (let i = 0, k = 0; i < seq.length; i++) {
    while (k > 0 && seq[i] !== pattern[k]) k = fail[k - 1] as number;
    if (seq[i] === pattern[k]) k++;
    if (k === m) {
      out.push(i - m + 1);
      k = fail[k - 1] as number;
    }
  }
  return out;
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
    if (noLineWiseWindow(ctx, q)) return [];
    const keys = q.lines.map(collapseWhitespace);
    return windowsByWord(ctx, q, { of: collapseWhitespace, keys }).map((s) =>
      lineCandidate(ctx, q, s, q.lines.length, "whitespace-normalized", 1),
    );
  },
};

/**
 * A find text made only of blank lines gives the other strategies nothing
 * to anchor on (each starts from a non-blank line), yet createPatch writes
 * such hunks for files of blank lines. Its candidates are runs of blank
 * lines of the same length. Used only for such queries.
 */
import { isBlank } from "../text/normalize.ts";
import type { Candidate, Strategy } from "./types.ts";

export const blankRuns: Strategy = {
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

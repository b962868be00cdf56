/**
 * 6. EscapeNormalized: the model over-escaped, writing `\n`, `\t` or `\"`
 * literally where the file has a line break, a tab or a plain quote. The
 * un-escaped find text is searched line by line trimmed (exactly first when
 * it is one line); and,
 * as the specification has it, blocks whose own un-escaped form equals it.
 * A match found by un-escaping marks the replacement to be un-escaped too
 * (unless the find text was one line and the replacement has real breaks).
 */
import { unescapeModelText } from "../text/normalize.ts";
import { lineCandidate, rangeCandidate, windowsByWord } from "./anchors.ts";
import { trimmedWindows } from "./line-trimmed.ts";
import { createQuery } from "./query.ts";
import type { Candidate, Strategy } from "./types.ts";

export const escapeNormalized: Strategy = {
  name: "escape-normalized",
  exact: true,
  find(ctx, q) {
    if (!q.text.includes("\\")) return [];
    const u = createQuery(unescapeModelText(q.text));
    if (u.text === q.text || u.text.trim() === "") return [];
    // Written as one line, the find text had its breaks escaped too: a replacement with real breaks was not over-escaped (splice.ts).
    const rewrite = q.text.includes("\n") ? "unescape" : "unescape-joined";
    // Several lines: whole-line windows first, so the splice can merge line by
    // line and a query that starts with a blank line still starts a line.
    const trimmed = () =>
      trimmedWindows(ctx, u).map((s) => lineCandidate(ctx, u, s, u.lines.length, "escape-normalized", 1, { rewrite }));
    if (u.lines.length > 1) {
      const windows = trimmed();
      if (windows.length > 0) return windows;
    }
    const direct: Candidate[] = ctx
      .occurrences(u.text)
      .map((at) => rangeCandidate(ctx, u, at, at + u.text.length, "escape-normalized", 1, { rewrite }));
    if (direct.length > 0) return direct;
    if (u.lines.length === 1) {
      const windows = trimmed();
      if (windows.length > 0) return windows;
    }
    // The file itself holds escapes: compare both sides un-escaped.
    const n = u.lines.length;
    return windowsByWord(ctx, u, "any")
      .filter((s) => unescapeModelText(ctx.doc.lines(s, s + n).join("\n")) === u.text.replace(/\n$/, ""))
      .map((s) => lineCandidate(ctx, q, s, n, "escape-normalized", 1));
  },
};
